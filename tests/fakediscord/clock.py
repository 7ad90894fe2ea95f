"""Discord's time as the fake keeps it: the clock that interaction tokens, message ages and
thread idleness are measured on.

Real games are played hours apart, and what Discord does to an asynchronous game depends on
that: an interaction's token takes followups and edits for 15 minutes only, an edit of a
message older than an hour counts against a separate limit (30046), an idle thread archives
itself. A test cannot wait hours, so the fake's clock runs ``scale`` times faster than the
wall clock (``FakeDiscord(time_scale=...)``, the same scale as the rate limits) and
:meth:`DiscordClock.advance` skips the gap between two moves at once. The bot under test is
handed the same clock (``create_bot(config, clock=fake.clock)``), so both sides agree on
which token is alive and which message is old, as the bot and Discord do in production
(both on UTC).

A test may hand the fake any callable returning an aware ``datetime`` (``tests/clock.py``'s
``FakeClock``): then the fake's time moves only when the test moves it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import discord

Clock = Callable[[], datetime]


class DiscordClock:
    """Wall time since the fake started, ``scale`` times faster, plus every gap skipped."""

    def __init__(
        self, scale: float = 1.0, *, start: datetime | None = None, origin: float | None = None
    ) -> None:
        self.scale = scale
        #: The Discord time at ``origin`` (``time.monotonic()``, the same in every process of
        #: the machine: another process can keep this clock too, see benchmarks/bot_load.py).
        self.start = start or datetime.now(UTC)
        self.origin = time.monotonic() if origin is None else origin
        #: Seconds skipped by :meth:`advance` (the players' gaps between moves).
        self.skipped = 0.0

    def __call__(self) -> datetime:
        elapsed = (time.monotonic() - self.origin) * self.scale + self.skipped
        return self.start + timedelta(seconds=elapsed)

    def advance(self, seconds: float) -> datetime:
        """Skip ``seconds`` of Discord time at once (nobody did anything meanwhile)."""
        if seconds < 0:
            raise ValueError("Discord's clock does not run backwards")
        self.skipped += seconds
        return self()


def snowflake_time(snowflake: int) -> datetime:
    """When a snowflake was made (the time Discord writes into every id)."""
    return discord.utils.snowflake_time(snowflake)


def age(clock: Clock, snowflake: int) -> float:
    """Seconds from a snowflake's making to the clock's now."""
    return (clock() - snowflake_time(snowflake)).total_seconds()
