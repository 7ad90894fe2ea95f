"""The garbage collector as the serving bot settles it (issue 50: a burst's acknowledgements
waited behind full passes of 0.3-0.4 s at a thousand games; docs/benchmarks.md)."""

from __future__ import annotations

import json
import subprocess
import sys

from bot.run import COLLECTOR_THRESHOLDS

PROBE = """
import gc, json
import bot.run
before = (gc.get_threshold(), gc.get_freeze_count())
bot.run.settle_collector()
print(json.dumps({"before": before, "after": (gc.get_threshold(), gc.get_freeze_count())}))
"""


def test_the_served_bot_freezes_its_start_up_and_collects_less_often() -> None:
    # In a process of its own: a frozen heap stays frozen, and the suite's bots must not be.
    out = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=60
    )
    seen = json.loads(out.stdout)
    (thresholds, frozen_before), (settled, frozen) = seen["before"], seen["after"]
    assert frozen_before == 0 and tuple(thresholds) != COLLECTOR_THRESHOLDS  # import: untouched
    assert tuple(settled) == COLLECTOR_THRESHOLDS
    assert settled[0] > thresholds[0]  # young passes rarer than CPython's default
    assert frozen > 10_000  # the modules, the commands, the texts: out of the passes' sight
