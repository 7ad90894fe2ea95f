"""The serving bot's garbage collector (issue 50: a burst's acknowledgements waited behind
full passes of 0.3-0.4 s at a thousand games; bot/ops/collector.py, docs/benchmarks.md)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

from bot.ops.collector import THRESHOLDS, collect_when_idle, young_passes

PROBE = """
import gc, json
from bot.ops import collector
before = (gc.get_threshold(), gc.get_freeze_count())
collector.settle()
print(json.dumps({"before": before, "after": (gc.get_threshold(), gc.get_freeze_count())}))
"""


def test_the_served_bot_freezes_its_start_up_and_leaves_no_full_pass_to_cpython() -> None:
    # In a process of its own: a frozen heap stays frozen, and the suite's bots must not be.
    out = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=60
    )
    seen = json.loads(out.stdout)
    (thresholds, frozen_before), (settled, frozen) = seen["before"], seen["after"]
    assert frozen_before == 0 and tuple(thresholds) != THRESHOLDS  # importing changes nothing
    assert tuple(settled) == THRESHOLDS
    assert settled[2] >= 10**9  # CPython never starts a full pass by itself
    assert frozen > 10_000  # the modules, the commands, the texts: out of the passes' sight


class Load:
    """Interactions in flight, as :class:`bot.ops.metrics.Metrics` counts them."""

    def __init__(self) -> None:
        self.in_flight = 1
        self._idle = asyncio.Event()

    def end(self) -> None:
        self.in_flight = 0
        self._idle.set()

    async def wait_idle(self, timeout: float) -> bool:
        if self.in_flight <= 0:
            return True
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            return self.in_flight <= 0
        return True


async def test_the_full_pass_waits_for_no_interaction_in_flight() -> None:
    load, passes = Load(), []
    task = asyncio.create_task(
        collect_when_idle(load, every=0.01, idle_wait=30, collect=lambda: passes.append(1))
    )
    try:
        await asyncio.sleep(0.2)
        assert passes == []  # an interaction is being handled: no pass yet
        load.end()
        for _ in range(100):
            await asyncio.sleep(0.01)
            if passes:
                break
        assert passes  # the quiet moment came: the pass is made
    finally:
        task.cancel()


async def test_a_bot_never_quiet_still_gets_its_full_pass() -> None:
    load, passes = Load(), []  # always one interaction in flight
    task = asyncio.create_task(
        collect_when_idle(load, every=0.01, idle_wait=0.05, collect=lambda: passes.append(1))
    )
    try:
        for _ in range(500):  # (a loaded machine stretches the waits: up to 5 s)
            await asyncio.sleep(0.01)
            if len(passes) >= 2:
                break
        assert len(passes) >= 2  # memory stays bounded under a load that never stops
    finally:
        task.cancel()


async def test_no_young_pass_while_an_acknowledgement_is_owed() -> None:
    """``young_passes``: owed, the collector is off; none owed, on again; and a stream that
    always owes one still gets its passes after ``at_most`` seconds."""
    state: list[str] = []
    owing = young_passes(
        at_most=0.05, disable=lambda: state.append("off"), enable=lambda: state.append("on")
    )
    owing(True)
    assert state == ["off"]
    owing(False)
    assert state == ["off", "on"]
    await asyncio.sleep(0.1)
    assert state == ["off", "on"]  # the stretch's timer went with it
    owing(True)
    for _ in range(200):
        if state[-1] == "on":
            break
        await asyncio.sleep(0.01)
    assert state == ["off", "on", "off", "on"]  # on again by itself, still owed
