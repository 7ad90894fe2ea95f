"""The bot's share of Discord's global request budget, kept on our side of the wire.

Discord allows a bot token 50 requests per second in all, whatever the number of processes;
only interaction endpoints (the answer to an interaction and the followups made with its
token) are exempt. discord.py follows the per-route buckets Discord announces in its headers,
but it learns of the global limit only from a 429, after the fact. So every request that
counts against the global limit passes :class:`RequestBudget` first: one every ``1 / rate``
seconds, evenly spaced, first come first served. Spaced, not in bursts: Discord counts what
it receives, and a burst sent at the end of one second reaches it, jostled by the network
and a busy event loop, partly in the next; evenly spaced requests keep the margin (45 of 50)
wherever Discord's second starts. A cluster's processes each take their share
(``MT_DISCORD_RATE``, default from the shards each runs), so together they stay under the
limit without talking to each other.

:func:`install` wraps the bot's ``HTTPClient.request`` — the path of every request made with
the bot token (interaction answers and followups take discord.py's webhook adapter instead, so
they never wait here) — and also keeps a request Discord still refused with 429 after
discord.py's own five tries (a 429 storm) from being lost: it waits and sends it again.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Callable
from typing import Any

import discord
from discord.http import Route

log = logging.getLogger(__name__)

#: How long a request refused with 429 after discord.py's own retries waits before it is
#: sent again when Discord's answer gave no ``retry_after`` (a storm: keep trying, slowly).
STORM_PAUSE = 1.0
#: How long one request may keep meeting 429s before it is given up (and logged): posts and
#: DMs are delayed by a storm, never dropped, unless Discord refuses them for this long.
STORM_LIMIT = 15 * 60.0


class RequestBudget:
    """At most ``rate`` requests per ``per`` seconds (one second, as Discord counts), one
    every ``per / rate`` seconds: so no window of ``per`` seconds holds more than ``rate`` + 1,
    wherever it starts."""

    def __init__(
        self, rate: float, *, per: float = 1.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        if not rate > 0 or not per > 0:
            raise ValueError("a request budget needs a positive rate")
        self.rate = rate
        self.interval = per / rate
        self._clock = clock
        self._next = -math.inf  # when the next request may go
        self._turn = asyncio.Lock()
        #: Requests let through, and the seconds they waited in all (for /metrics).
        self.taken = 0
        self.waited = 0.0

    def delay(self) -> float:
        """Seconds until one more request may go (0: now)."""
        return max(0.0, self._next - self._clock())

    async def take(self) -> float:
        """Wait for this request's turn; returns the seconds waited."""
        start = self._clock()
        async with self._turn:  # FIFO: asyncio.Lock wakes its waiters in order
            while (pause := self.delay()) > 0:
                await asyncio.sleep(pause)
            self._next = self._clock() + self.interval
        self.taken += 1
        waited = self._clock() - start
        self.waited += waited
        return waited


def install(
    client: discord.Client,
    budget: RequestBudget,
    on_wait: Callable[[str, float], None] | None = None,
) -> None:
    """Send every bot-token request of ``client`` through ``budget``, telling ``on_wait``
    (scope, seconds) how long each waited: ``global`` for its turn in the budget, ``429`` for
    a refusal discord.py gave up on. Installing again only swaps the budget (a test gives a
    bot the scaled budget of a scaled fake Discord)."""
    http = client.http
    installed = getattr(http, "mt_budget", None) is not None
    http.mt_budget = budget  # type: ignore[attr-defined]
    if installed:
        return
    original = http.request

    def waited(scope: str, seconds: float) -> None:
        if on_wait is not None:
            on_wait(scope, seconds)

    async def request(route: Route, **kwargs: Any) -> Any:
        started = time.monotonic()
        while True:
            waited("global", await http.mt_budget.take())  # type: ignore[attr-defined]
            try:
                return await original(route, **kwargs)
            except discord.HTTPException as exc:
                if exc.status != 429 or time.monotonic() - started > STORM_LIMIT:
                    raise
                if exc.response is None or not exc.response.headers.get("Via"):
                    raise  # not Discord's limiter but Cloudflare's ban: retrying makes it worse
                pause = _retry_after(exc)
                log.warning(
                    "%s %s still refused with 429 after discord.py's retries; again in %.1f s",
                    route.method,
                    route.path,
                    pause,
                )
                await asyncio.sleep(pause)
                waited("429", pause)
                for file in kwargs.get("files") or ():
                    file.reset(seek=True)  # discord.py rewinds only on its own retries

    http.request = request  # type: ignore[method-assign]


def _retry_after(exc: discord.HTTPException) -> float:
    """The wait a 429 asked for (discord.py keeps the JSON body on the exception's response
    only as text), else :data:`STORM_PAUSE`."""
    header = exc.response.headers.get("Retry-After") if exc.response is not None else None
    try:
        return max(0.05, float(header)) if header else STORM_PAUSE
    except ValueError:
        return STORM_PAUSE
