"""An interaction's wait in the bot, on an injected monotonic clock (bot/ui/host.py's
``Arrivals``)."""

from __future__ import annotations

from typing import Any

from bot.ui.host import EVENT, KEEP_FOR, Arrivals


class Ticks:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_wait_runs_from_the_gateway_event_and_old_stamps_are_dropped() -> None:
    ticks = Ticks()
    arrivals = Arrivals(clock=ticks)
    parsed: list[Any] = []
    parsers: dict[str, Any] = {EVENT: parsed.append, "MESSAGE_CREATE": parsed.append}
    arrivals.install(parsers)
    parsers[EVENT]({"id": "17"})  # what the gateway hands discord.py's parser
    assert parsed == [{"id": "17"}]  # discord.py's own parser still runs, after the stamp
    ticks.now += 1.5
    assert arrivals.waited(17) == 1.5
    assert arrivals.waited(18) is None  # never seen: not known to be late
    parsers["MESSAGE_CREATE"]({"id": "19"})  # other events are not stamped
    assert arrivals.waited(19) is None
    ticks.now += KEEP_FOR
    arrivals.arrived(20)  # a new arrival drops the stamps older than KEEP_FOR
    assert arrivals.waited(17) is None and arrivals.waited(20) == 0.0
    assert len(arrivals._seen) == 1


def test_a_discord_py_without_the_handler_starts_untimed(caplog: Any) -> None:
    """The parsers dict is discord.py's inside: a release that renamed it must not stop the
    bot at start-up; interactions then count as fresh (never answered "busy")."""
    arrivals = Arrivals(clock=Ticks())
    parsers: dict[str, Any] = {"MESSAGE_CREATE": print}
    arrivals.install(parsers)
    assert parsers == {"MESSAGE_CREATE": print}
    assert "not timed" in caplog.text
