"""A move's look-up is one read when the cache holds the game at the version it reads, and
the move after it reads nothing more before its transaction.

Under a burst every look-up queues on the store's one reader (issue 50): the channel's game
row, then its seats, then its version again for the cache's check were three round trips.
The row carries the version, and the cached game at that version carries the seats: one
read. The reads are counted, never timed; a game changed behind the cache (another process
on the same file) is still read in full and seen as it now is.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.service import GameService, errors
from bot.service.schedule import ScheduleService
from bot.service.turn import Turns
from bot.store import Store
from tests.clock import FakeClock
from tests.service.conftest import ALICE, BOB, CHANNEL
from tests.service.helpers import new_game, pick, play_turn

READS = ("unfinished_in_channel", "game", "seats", "version", "load")


def count_reads(store: Store) -> list[str]:
    """Wrap the store's reads a look-up may make; the list of those made, in order."""
    made: list[str] = []

    def counted(name: str, read: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def wrapper(*args: Any, **kwargs: Any) -> Any:
            made.append(name)
            return await read(*args, **kwargs)

        return wrapper

    for name in READS:
        setattr(store, name, counted(name, getattr(store, name)))
    return made


async def test_a_look_up_is_one_read_when_the_cache_is_current(
    store: Store, clock: FakeClock
) -> None:
    svc = GameService(store, cache_size=8, rng=random.Random(3))
    gid = (await new_game(svc, clock, humans=(ALICE, BOB))).game.id
    await play_turn(svc, gid, clock)
    expected = await svc.seat_view(gid, ALICE)
    made = count_reads(store)

    look = await svc.look_here(CHANNEL, ALICE)

    assert made == ["unfinished_in_channel"]
    assert look is not None and look.view == expected
    assert [p.user_id for p in look.game.players] == [ALICE, BOB]
    made.clear()
    clicked = await svc.look(gid, BOB)
    assert made == ["game"]
    assert clicked.view == await svc.seat_view(gid, BOB)


async def test_a_game_changed_behind_the_cache_is_read_again(
    store: Store, clock: FakeClock
) -> None:
    svc = GameService(store, cache_size=8, rng=random.Random(3))
    gid = (await new_game(svc, clock, humans=(ALICE, BOB))).game.id
    await svc.look_here(CHANNEL, ALICE)  # cached here
    other = GameService(store, cache_size=8, rng=random.Random(3))  # another process
    await play_turn(other, gid, clock)
    now = await other.seat_view(gid, ALICE)
    made = count_reads(store)

    look = await svc.look_here(CHANNEL, ALICE)

    assert made[0] == "unfinished_in_channel" and "seats" in made and "load" in made
    assert look is not None and look.view == now
    assert look.game.version == (await other.game(gid)).version


async def test_a_move_after_its_look_up_reads_nothing_before_its_transaction(
    store: Store, clock: FakeClock
) -> None:
    """The look-up has just read the game's version with its row: the move's commit takes
    the cached game at that version without reading the version again (the transaction
    checks it under its lock all the same)."""
    svc = GameService(store, cache_size=8, rng=random.Random(3))
    gid = (await new_game(svc, clock, humans=(ALICE, BOB))).game.id
    turn = await svc.whose_turn(gid)
    assert turn is not None and turn.user_id is not None
    look = await svc.look(gid, turn.user_id)
    made = count_reads(store)

    out = await svc.move(
        gid,
        turn.user_id,
        pick(look.seat_view().legal),
        clock.tick(),
        seen_version=look.game.version,
    )

    assert made == []  # before: ['version']
    assert out.game.version == look.game.version + 1


async def test_a_move_on_a_version_seen_before_another_process_moved_is_refused_whole(
    store: Store, clock: FakeClock
) -> None:
    """Another process moved the game between the look-up and the commit: the transaction's
    own check refuses the move ("the table changed"), writes nothing, and the next try reads
    the game as it now is."""
    svc = GameService(store, cache_size=8, rng=random.Random(3))
    gid = (await new_game(svc, clock, humans=(ALICE, BOB))).game.id
    turn = await svc.whose_turn(gid)
    assert turn is not None and turn.user_id is not None
    look = await svc.look(gid, turn.user_id)  # cached here, at this version
    other = GameService(store, cache_size=8, rng=random.Random(3))  # another process
    moved = await play_turn(other, gid, clock)

    with pytest.raises(errors.TableChanged):
        await svc.move(
            gid,
            turn.user_id,
            pick(look.seat_view().legal),
            clock.tick(),
            seen_version=look.game.version,
        )

    assert (await other.game(gid)).version == moved.game.version  # nothing written
    nxt = await svc.whose_turn(gid)
    assert nxt is not None and nxt.user_id is not None
    again = await svc.move(
        gid, nxt.user_id, pick((await svc.seat_view(gid, nxt.user_id)).legal), clock.tick()
    )
    assert again.game.version == moved.game.version + 1


async def test_the_answers_next_game_read_runs_beside_the_commit(
    store: Store, clock: FakeClock
) -> None:
    """The mover's answer names their next game waiting on them (issue 46): that read is
    started before the move's transaction, not after its commit, so the answer waits for one
    round trip fewer; the move changes none of the other games it reads."""
    svc = GameService(store, cache_size=8, rng=random.Random(3))
    turns = Turns(svc, ScheduleService(svc))
    gid = (await new_game(svc, clock, humans=(ALICE, BOB))).game.id
    order: list[str] = []
    assert turns.schedule is not None
    rows = turns.schedule.rows
    waiting_on, transaction = rows.waiting_on, store.transaction

    async def read(*args: Any, **kwargs: Any) -> Any:
        order.append("waiting_on")
        return await waiting_on(*args, **kwargs)

    def began() -> Any:
        order.append("transaction")
        return transaction()

    rows.waiting_on = read  # type: ignore[method-assign]
    store.transaction = began  # type: ignore[method-assign]
    turn = await svc.whose_turn(gid)
    assert turn is not None and turn.user_id is not None
    view = await svc.seat_view(gid, turn.user_id)
    taken = await turns.take(gid, turn.user_id, pick(view.legal), clock.tick())

    assert order[:2] == ["waiting_on", "transaction"]  # before: the transaction first
    assert taken.waiting == ()  # no other game waits on them
