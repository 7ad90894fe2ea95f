"""The serving bot's garbage collector: no full pass while a player waits (issue 50).

CPython's collector stops the event loop while it runs. Its young passes are short; a full
pass walks every live object of the process: with a thousand games in play it took 0.3-0.4 s,
and while the heap grew (a burst of games loading) CPython made one each time the heap had
grown by a quarter, just when acknowledgements queue up (Discord allows 3 s; our bar is a p99
under 100 ms: docs/benchmarks.md, "Under a burst"). So the serving bot

- freezes what start-up made (modules, commands, texts, fonts: never garbage) out of the
  passes' sight (``gc.freeze``);
- keeps the young passes short (:data:`THRESHOLDS`: the youngest every 2,000 new objects,
  the middle one every 10 of those, each walking some thousands of objects) and never lets
  CPython start a full pass by itself (its threshold out of reach);
- makes no young pass either while an acknowledgement is owed (:func:`young_passes`): every
  interaction of a burst makes new objects before the last is acknowledged, and the passes
  they set off fell between acknowledgements (``benchmarks/bot_load.py``'s bot at 300 games:
  91 young passes of up to 11 ms and 8 middle ones of up to 26 ms in one timed run); they run
  once the acknowledgements are out, and never wait longer than :data:`YOUNG_HELD_AT_MOST`;
- makes the full pass itself when no interaction is being handled, every
  :data:`FULL_EVERY` seconds (waiting at most :data:`IDLE_WAIT` more for a quiet moment,
  then anyway), so cycles of garbage (an evicted game's, a finished request's) are still
  freed and the memory stays bounded.

:func:`keep` (both) is called by :func:`bot.run.serve` once the bot is first ready (and by
``benchmarks/bot_load`` for the bot it serves); never by tests, whose many bots must stay
collectable by CPython's defaults.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Protocol

log = logging.getLogger("bot.ops")

#: Young passes every 2,000 new objects (CPython: 700), the middle one every 10 of them (as
#: CPython), the full one never by CPython (:func:`collect_when_idle` makes it).
THRESHOLDS = (2_000, 10, 1_000_000_000)

#: Seconds between two full passes made by :func:`collect_when_idle`.
FULL_EVERY = 600.0

#: Seconds a full pass waits for a moment with no interaction in flight before going anyway.
IDLE_WAIT = 60.0


#: Seconds the young passes wait for the acknowledgements, at most, at a stretch: a stream
#: that always owes one still gets its passes (then, at the next quiet moment, a new wait).
YOUNG_HELD_AT_MOST = 0.25


class Busy(Protocol):
    """What :func:`collect_when_idle` asks of the bot (:class:`bot.ops.metrics.Metrics`)."""

    in_flight: int

    async def wait_idle(self, timeout: float) -> bool: ...


class Owing(Protocol):
    """What :func:`keep` asks of the bot's arrivals (:class:`bot.ui.host.Arrivals`)."""

    owing: Callable[[bool], None] | None


class Bot(Protocol):
    """What :func:`keep` asks of the bot (:class:`bot.ui.host.GameBot`)."""

    @property
    def metrics(self) -> Busy: ...

    @property
    def arrivals(self) -> Owing: ...

    def spawn(self, coro: Coroutine[object, object, None]) -> None: ...


def keep(bot: Bot) -> None:
    """The serving bot's collector, once it is first ready: :func:`settle`, then
    :func:`collect_when_idle` in the background."""
    settle()
    bot.arrivals.owing = young_passes()
    bot.spawn(collect_when_idle(bot.metrics))


def young_passes(
    at_most: float = YOUNG_HELD_AT_MOST,
    disable: Callable[[], None] = gc.disable,
    enable: Callable[[], None] = gc.enable,
) -> Callable[[bool], None]:
    """The arrivals' ``owing``: while an acknowledgement is owed the collector makes no pass
    (the objects it would walk wait for the next one, after the acknowledgements are out);
    at most ``at_most`` seconds at a stretch, then the passes run again until none is owed
    and a new stretch begins."""
    lapse: list[asyncio.TimerHandle] = []

    def owing(owed: bool) -> None:
        while lapse:
            lapse.pop().cancel()
        if owed:
            disable()
            lapse.append(asyncio.get_running_loop().call_later(at_most, enable))
        else:
            enable()

    return owing


def settle() -> None:
    """Once, when the bot is up: collect what start-up left, freeze the rest out of the
    passes' sight, and set :data:`THRESHOLDS`."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)


async def collect_when_idle(
    busy: Busy,
    *,
    every: float = FULL_EVERY,
    idle_wait: float = IDLE_WAIT,
    collect: Callable[[], object] = gc.collect,
) -> None:
    """Forever: every ``every`` seconds, a full pass as soon as no interaction is in flight
    (``busy``), or after ``idle_wait`` seconds of waiting for that, whichever comes first."""
    while True:
        await asyncio.sleep(every)
        quiet = await busy.wait_idle(idle_wait)
        started = time.perf_counter()
        collect()
        took = time.perf_counter() - started
        if not quiet:
            log.info("collected during a busy moment (%.0f ms): none came for %.0f s",
                     took * 1000, idle_wait)  # fmt: skip
