"""What the bot counts about itself, for ``/metrics`` and ``/healthz``.

One :class:`Metrics` per bot, fed once per interaction by :func:`bot.ops.logs.track`:
totals by outcome, refusals by code, errors, the interactions still running (graceful
shutdown waits for them) and a sliding window of the latest latencies for percentiles. Plain
in-memory counters: they restart at zero with the process, as Prometheus counters may.
"""

from __future__ import annotations

import asyncio
import collections
import math
import time
from collections.abc import Callable

#: Latency percentiles are over the latest this many interactions.
LATENCY_WINDOW = 1000


def percentile(ordered: list[float], q: float) -> float:
    """The nearest-rank ``q`` quantile (0 < q <= 1) of an already sorted list (0 if empty)."""
    if not ordered:
        return 0.0
    rank = max(1, min(len(ordered), math.ceil(round(q * len(ordered), 9))))
    return ordered[rank - 1]


class Metrics:
    """Counters and a latency window; everything runs on the event loop, so no locks."""

    def __init__(
        self, *, window: int = LATENCY_WINDOW, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._clock = clock
        self.started = clock()
        self.interactions = 0
        self.outcomes: collections.Counter[str] = collections.Counter()
        self.refusals: collections.Counter[str] = collections.Counter()
        self.errors = 0
        self.latency_sum = 0.0
        self.window: collections.deque[float] = collections.deque(maxlen=window)
        self.in_flight = 0
        self._idle: asyncio.Event | None = None

    @property
    def uptime(self) -> float:
        return self._clock() - self.started

    def begin(self) -> None:
        self.in_flight += 1

    def end(self, outcome: str, seconds: float) -> None:
        """One interaction finished: ``ok``, ``refused:<code>`` or ``error``."""
        self.in_flight -= 1
        self.interactions += 1
        kind, _, code = outcome.partition(":")
        self.outcomes[kind] += 1
        if kind == "refused":
            self.refusals[code or "unknown"] += 1
        elif kind == "error":
            self.errors += 1
        self.latency_sum += seconds
        self.window.append(seconds)
        if self.in_flight == 0 and self._idle is not None:
            self._idle.set()

    def latency_percentiles(self) -> dict[str, float]:
        """p50/p90/p99 in seconds over the window."""
        ordered = sorted(self.window)
        quantiles = (("p50", 0.5), ("p90", 0.9), ("p99", 0.99))
        return {name: percentile(ordered, q) for name, q in quantiles}

    async def wait_idle(self, timeout: float) -> bool:
        """Wait until no interaction is running (True) or ``timeout`` passes (False)."""
        if self.in_flight <= 0:
            return True
        self._idle = asyncio.Event()
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            return self.in_flight <= 0
        return True
