"""An interaction's wait in the bot, on an injected monotonic clock (bot/ui/host.py's
``Arrivals``)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from bot.ui.host import BURST_COUNT, EVENT, KEEP_FOR, Arrivals


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


# ---------------------------------------------------------------------- acknowledgements first


async def test_work_waits_for_the_acknowledgements_that_came_before_it() -> None:
    """Issue 50: once acknowledged, an interaction's work waits until the interactions that
    reached the bot before it are acknowledged too, so a burst's acknowledgements go out
    back to back; an interaction arriving after the wait began is not waited for."""
    arrivals = Arrivals()
    arrivals.acks_first = 30.0  # the bound never decides here
    await asyncio.wait_for(arrivals.acknowledgements_first(), 1)  # nothing pending: at once
    arrivals.arrived(1, acknowledges=True)
    arrivals.arrived(2, acknowledges=True)
    arrivals.acknowledged(1)  # 1 acknowledged, its work now waits for 2
    first = asyncio.create_task(arrivals.acknowledgements_first())
    await asyncio.sleep(0.02)
    arrivals.arrived(3, acknowledges=True)  # later than 1's wait: not waited for by it
    arrivals.arrived(4)  # an autocomplete: it answers itself, nobody waits for it
    await asyncio.sleep(0.02)
    assert not first.done()
    arrivals.acknowledged(2)
    await asyncio.wait_for(first, 1)
    second = asyncio.create_task(arrivals.acknowledgements_first())  # 2's work waits for 3
    await asyncio.sleep(0.02)
    assert not second.done()
    arrivals.acknowledged(3)
    await asyncio.wait_for(second, 1)
    assert not arrivals._unacknowledged and not arrivals._waiting


async def test_an_interaction_never_acknowledged_holds_work_back_only_briefly() -> None:
    """One answered outside the funnel (or lost) is waited for ``acks_first`` seconds after it
    arrived at most, then forgotten: the next wait does not wait for it at all."""
    arrivals = Arrivals()
    arrivals.acks_first = 0.05
    arrivals.arrived(1, acknowledges=True)
    started = time.monotonic()
    await asyncio.wait_for(arrivals.acknowledgements_first(), 1)
    assert 0.03 <= time.monotonic() - started < 1
    assert not arrivals._unacknowledged
    started = time.monotonic()
    await arrivals.acknowledgements_first()
    assert time.monotonic() - started < 0.03


def test_only_interactions_with_a_callback_of_their_own_are_waited_for() -> None:
    """Commands (2), clicks (3) and modal submits (5) are acknowledged by a callback; an
    autocomplete (4) is its own answer, so the gateway stamp does not count it."""
    arrivals = Arrivals(clock=Ticks())
    parsers: dict[str, Any] = {EVENT: lambda data: None}
    arrivals.install(parsers)
    for key, kind in ((10, 2), (11, 3), (12, 4), (13, 5)):
        parsers[EVENT]({"id": str(key), "type": kind})
    assert list(arrivals._unacknowledged) == [10, 11, 13]


async def test_the_work_let_go_goes_on_in_the_order_it_began_to_wait() -> None:
    """Two clicks on one table a moment apart: the first's work waits for the second's
    acknowledgement; once it comes, the first's work still goes on before the second's (first
    come, first served), though the second's task is the one running when it is let go."""
    arrivals = Arrivals()
    arrivals.acks_first = 30.0
    order: list[str] = []
    arrivals.arrived(1, acknowledges=True)
    arrivals.arrived(2, acknowledges=True)

    async def click(key: int, name: str) -> None:
        arrivals.acknowledged(key)
        await arrivals.acknowledgements_first()
        order.append(name)

    first = asyncio.create_task(click(1, "first"))
    await asyncio.sleep(0.01)
    assert order == []
    await asyncio.wait_for(asyncio.gather(first, click(2, "second")), 1)
    assert order == ["first", "second"]


async def test_owing_is_told_when_acknowledgements_start_and_stop_being_owed() -> None:
    """The collector's cue (``Arrivals.owing``): True once when the first acknowledgement
    becomes owed, False once when none is any more; an autocomplete owes none."""
    arrivals, told = Arrivals(), []
    arrivals.acks_first = 30.0
    arrivals.owing = told.append
    arrivals.arrived(9, acknowledges=False)
    assert told == []
    arrivals.arrived(1, acknowledges=True)
    arrivals.arrived(2, acknowledges=True)
    assert told == [True]
    arrivals.acknowledged(2)
    assert told == [True]  # the first is still owed
    arrivals.acknowledged(1)
    assert told == [True, False]
    assert arrivals._lapse_at is None  # no timer left behind


async def test_one_never_acknowledged_stops_being_owed_after_acks_first() -> None:
    """An interaction answered outside the funnel (or lost) is owed ``acks_first`` seconds at
    most, with nothing else happening: a timer expires it, and a younger one still owed keeps
    the state on until its own time is up."""
    arrivals, told = Arrivals(), []
    arrivals.acks_first = 0.05
    arrivals.owing = told.append
    arrivals.arrived(1, acknowledges=True)
    await asyncio.sleep(0.03)
    arrivals.arrived(2, acknowledges=True)
    for _ in range(200):
        if len(told) == 2:
            break
        await asyncio.sleep(0.01)
    assert told == [True, False]
    assert not arrivals._unacknowledged and arrivals._lapse_at is None


async def test_work_acknowledged_during_a_burst_waits_until_it_thins_out() -> None:
    """A burst still arriving (``BURST_COUNT`` interactions within ``burst_window``): the work
    already acknowledged goes on only once fewer than that have come in the window, so the
    gateway events still coming are read and acknowledged before the burst's work fills the
    loop; a short gap inside the burst does not end it."""
    arrivals = Arrivals()
    arrivals.acks_first, arrivals.burst_window = 30.0, 0.15
    for key in range(BURST_COUNT):
        arrivals.arrived(key, acknowledges=True)
        arrivals.acknowledged(key)
    started = time.monotonic()
    work = asyncio.create_task(arrivals.acknowledgements_first())
    await asyncio.sleep(0.05)
    assert not work.done()  # a gap of 0.05 s: still a burst
    for key in range(BURST_COUNT, BURST_COUNT + 3):
        arrivals.arrived(key, acknowledges=True)
        arrivals.acknowledged(key)
    await asyncio.sleep(0.05)
    assert not work.done()  # BURST_COUNT within the window: still coming
    await asyncio.wait_for(work, 2)
    assert time.monotonic() - started >= 0.14


async def test_a_move_on_its_own_or_a_few_wait_for_no_burst() -> None:
    """One interaction, or a few close together, is no burst: the work goes on at once."""
    arrivals = Arrivals()
    arrivals.acks_first, arrivals.burst_window = 30.0, 5.0
    for key in range(1, BURST_COUNT):
        arrivals.arrived(key, acknowledges=True)
        arrivals.acknowledged(key)
        started = time.monotonic()
        await asyncio.wait_for(arrivals.acknowledgements_first(), 1)
        assert time.monotonic() - started < 1
        assert not arrivals.bursting()
    arrivals.arrived(BURST_COUNT, acknowledges=True)
    assert arrivals.bursting()  # the BURST_COUNT-th within the window
