"""Races: two moves for one game at once, in one process and across two (two stores over one
database: two SQLite connections to one file, or two asyncpg pools on one server)."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.engine.position import to_position
from bot.service import GameService, Outcome, errors
from bot.store import Store, Tx
from tests.clock import FakeClock
from tests.service.conftest import ALICE, BOB, CHANNEL
from tests.service.helpers import new_game, pick, play_turn


def _gate(store: Store, barrier: asyncio.Barrier) -> None:
    """Make ``store`` wait at ``barrier`` before each write: both writers have validated."""
    original = store.transaction

    @contextlib.asynccontextmanager
    async def gated() -> AsyncIterator[Tx]:
        await barrier.wait()
        async with original() as tx:
            yield tx

    store.transaction = gated  # type: ignore[method-assign]


async def test_two_processes_racing_one_lands_the_other_is_told(
    db_target: str | Path, clock: FakeClock
) -> None:
    async with await Store.open(db_target) as s1, await Store.open(db_target) as s2:
        one = GameService(s1, rng=random.Random(1))
        two = GameService(s2, rng=random.Random(2))
        gid = (await new_game(one, clock)).game.id
        view = await one.seat_view(gid, ALICE)
        assert (await two.seat_view(gid, ALICE)) == view  # both have the game cached
        seq = await s1.last_seq(gid)
        barrier = asyncio.Barrier(2)
        _gate(s1, barrier)
        _gate(s2, barrier)
        move = pick(view.legal)
        results = await asyncio.gather(
            one.move(gid, ALICE, move, clock.tick()),
            two.move(gid, ALICE, move, clock.tick()),
            return_exceptions=True,
        )
        won = [r for r in results if isinstance(r, Outcome)]
        lost = [r for r in results if isinstance(r, BaseException)]
        assert len(won) == 1 and len(lost) == 1
        assert isinstance(lost[0], errors.TableChanged) and lost[0].code == "table-changed"
        # Exactly the winner's events are in the log, nothing of the loser's.
        assert await s1.last_seq(gid) == seq + len(won[0].steps)
        assert await s1.integrity_check() == "ok"
        # Both services now agree with a replay from the file, and play goes on from either.
        del s1.transaction, s2.transaction  # the stores' own method again
        assert await one.whose_turn(gid) == await two.whose_turn(gid)
        a, b = one.cached(gid), two.cached(gid)
        assert a is not None and b is not None and to_position(a) == to_position(b)
        await play_turn(two, gid, clock)
        await play_turn(one, gid, clock)


async def test_two_processes_hammering_one_game_stay_consistent(
    db_target: str | Path, clock: FakeClock
) -> None:
    async with await Store.open(db_target) as s1, await Store.open(db_target) as s2:
        services = [GameService(s1, rng=random.Random(1)), GameService(s2, rng=random.Random(2))]
        gid = (await new_game(services[0], clock, computers=1)).game.id
        landed = 0
        for _ in range(30):
            turn = await services[0].whose_turn(gid)
            if turn is None:
                break
            assert turn.user_id is not None
            view = await services[0].seat_view(gid, turn.user_id)
            move = pick(view.legal)
            results = await asyncio.gather(
                *(s.move(gid, turn.user_id, move, clock.tick()) for s in services),
                return_exceptions=True,
            )
            for r in results:
                assert isinstance(r, Outcome | errors.ServiceError), r
            landed += sum(isinstance(r, Outcome) for r in results)
        assert landed >= 30
        fresh = GameService(s1)
        await fresh.whose_turn(gid)
        replayed = fresh.cached(gid)
        for s in services:
            await s.whose_turn(gid)
            mine = s.cached(gid)
            assert mine is not None and replayed is not None
            assert to_position(mine) == to_position(replayed)


async def test_clicks_in_one_process_queue_instead_of_failing(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    gid = (await new_game(service, clock)).game.id
    view = await service.seat_view(gid, ALICE)
    move = pick(view.legal)
    first, second = await asyncio.gather(
        service.move(gid, ALICE, move, clock.tick()),
        service.move(gid, ALICE, move, clock.tick()),
        return_exceptions=True,
    )
    assert isinstance(first, Outcome)
    # The second click ran after the first, against the new table: the rules refuse it.
    assert isinstance(second, errors.MoveRefused) and second.code == "not-your-turn"
    assert await store.last_seq(gid) == 3


async def test_other_games_do_not_wait(service: GameService, clock: FakeClock) -> None:
    a = (await new_game(service, clock)).game.id
    b = (await new_game(service, clock, channel=CHANNEL + 1)).game.id
    async with service.ledger.locked(a):  # game a is busy...
        blocked = asyncio.create_task(play_turn(service, a, clock))
        out = await asyncio.wait_for(play_turn(service, b, clock), 5)  # ...b is not
        assert out.game.id == b and not blocked.done()
    assert (await blocked).game.id == a


async def test_a_cancelled_move_leaves_no_trace(
    service: GameService, store: Store, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid = (await new_game(service, clock)).game.id
    view = await service.seat_view(gid, ALICE)
    original = Tx.touch

    async def slow_touch(self: Tx, *args: object, **kw: object) -> int:
        await asyncio.sleep(10)
        return await original(self, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(Tx, "touch", slow_touch)
    task = asyncio.create_task(service.move(gid, ALICE, pick(view.legal), clock.tick()))
    await asyncio.sleep(0.05)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    monkeypatch.undo()
    assert await store.last_seq(gid) == 2  # the appended event was rolled back
    assert (await service.whose_turn(gid)) is not None
    assert (await service.seat_view(gid, ALICE)) == view  # the cache was dropped and replayed
    await play_turn(service, gid, clock)
    assert (await service.whose_turn(gid)) is not None
    assert (await service.seat_view(gid, BOB)).my_turn
