"""Several bot processes over one PostgreSQL database, at the service level: two stores over
one database are two processes as far as the database can tell.

* The commit path holds the game's database lock (``Ledger.hold``): a move of one process waits
  for another process's open change to the same game, then is told the table changed.
* Scheduled work is claimed: two schedulers ticking at once fire every row once; rows leased
  to a process that died are taken over after the lease; a clean stop gives them back at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator
from datetime import timedelta

import pytest

from bot.service import GameOptions, GameService, Outcome, errors
from bot.service.schedule import ScheduleService
from bot.service.scheduler import Scheduler
from bot.service.timing import Notice, TurnPlayed
from bot.store import Store, Tx
from tests.clock import FakeClock
from tests.service.conftest import ALICE, BOB, GUILD, NAMES
from tests.service.helpers import new_game, pick

LEASE = timedelta(seconds=30)


class Process:
    """One bot process's service side: its own store (pool), services and scheduler."""

    def __init__(self, store: Store, clock: FakeClock, name: str) -> None:
        self.store = store
        self.games = GameService(store, cache_size=8, rng=random.Random(7))
        self.schedule = ScheduleService(self.games)
        self.told: list[Notice] = []
        self.scheduler = Scheduler(
            self.schedule, clock, self._deliver, send_interval=0, owner=name, lease=LEASE,
            batch=3,
        )  # fmt: skip

    async def _deliver(self, notice: Notice) -> None:
        await asyncio.sleep(0)  # let the other process run between rows
        self.told.append(notice)


@pytest.fixture
async def two(pg_url: str, clock: FakeClock) -> AsyncIterator[tuple[Process, Process]]:
    s1, s2 = await Store.open(pg_url), await Store.open(pg_url)
    try:
        yield Process(s1, clock, "one"), Process(s2, clock, "two")
    finally:
        await s1.close()
        await s2.close()


async def _games_past_deadline(p: Process, clock: FakeClock, n: int) -> list[int]:
    """``n`` games whose player to move has missed a one-minute deadline."""
    ids = []
    for i in range(n):
        out = await p.games.create_lobby(
            guild_id=GUILD,
            channel_id=5000 + i,
            user_id=ALICE,
            display_name=NAMES[ALICE],
            now=clock.tick(),
            preset_name="quick",
            options=GameOptions(turn_deadline=timedelta(minutes=1)),
        )
        await p.games.join(out.game.id, BOB, NAMES[BOB], clock.tick())
        await p.games.start(out.game.id, ALICE, clock.tick())
        ids.append(out.game.id)
    clock.tick(120)
    return ids


async def _timeouts(store: Store, gid: int) -> int:
    return sum(1 for e in (await store.load(gid) or _none()).events if e.kind == "timeout")


def _none() -> object:
    raise AssertionError("no such game")


async def test_a_move_waits_for_another_process_holding_the_game(
    pg_url: str, clock: FakeClock
) -> None:
    async with await Store.open(pg_url) as s1, await Store.open(pg_url) as s2:
        one, two = GameService(s1, rng=random.Random(1)), GameService(s2, rng=random.Random(1))
        gid = (await new_game(one, clock)).game.id
        view = await one.seat_view(gid, ALICE)
        await two.seat_view(gid, ALICE)
        version = await s1.version(gid)
        assert version is not None
        async with s2.transaction() as tx:  # process two is in the middle of a change
            await tx.lock_game(gid)
            move = asyncio.create_task(one.move(gid, ALICE, pick(view.legal), clock.tick()))
            await asyncio.sleep(0.3)
            assert not move.done(), "the move did not wait for the other process's lock"
            await tx.touch(gid, version, clock.tick())
        with pytest.raises(errors.TableChanged):
            await move
        assert await s1.version(gid) == version + 1  # only process two's change landed
        # Re-read, the move goes through.
        view = await one.seat_view(gid, ALICE)
        await one.move(gid, ALICE, pick(view.legal), clock.tick())
        await one.verify_game(gid)


async def test_two_schedulers_fire_every_timeout_once(
    two: tuple[Process, Process], clock: FakeClock
) -> None:
    one, other = two
    ids = await _games_past_deadline(one, clock, 12)
    rows = len(await one.store.claim_due(clock(), 100, "peek", timedelta(0)))
    assert rows > 12  # a timeout per game, and some reminders
    done = await asyncio.gather(one.scheduler.tick(), other.scheduler.tick())
    assert sum(done) == rows  # every row handled once, by one of the two
    told = [(n.due.game_id, n.due.kind) for p in two for n in p.told]
    assert len(told) == len(set(told))
    played = [n for p in two for n in p.told if isinstance(n, TurnPlayed)]
    assert sorted(n.outcome.game.id for n in played) == ids
    assert one.told and other.told, "one scheduler took everything: no race was run"
    for gid in ids:
        assert await _timeouts(one.store, gid) == 1
        await one.games.verify_game(gid)


async def test_work_of_a_dead_process_is_taken_over_after_its_lease(
    two: tuple[Process, Process], clock: FakeClock
) -> None:
    one, other = two
    ids = await _games_past_deadline(one, clock, 3)
    # "one" claims the rows, then dies before doing them (a claim is all that is left of it).
    claimed = await one.store.claim_due(clock(), 50, "one", LEASE)
    assert {r.game_id for r in claimed} == set(ids)
    assert await other.scheduler.tick() == 0  # leased: not another process's work yet
    nxt = await other.scheduler.schedule.next_due()
    assert nxt is not None and nxt >= clock() + LEASE - timedelta(seconds=1)
    assert 0 < await other.scheduler.sleep_time() <= LEASE.total_seconds()
    clock.tick(LEASE.total_seconds() + 1)
    assert await other.scheduler.tick() == len(claimed)
    assert sorted(n.outcome.game.id for n in other.told if isinstance(n, TurnPlayed)) == ids
    for gid in ids:
        assert await _timeouts(one.store, gid) == 1


async def test_a_clean_stop_gives_claimed_work_back_at_once(
    two: tuple[Process, Process], clock: FakeClock
) -> None:
    one, other = two
    ids = await _games_past_deadline(one, clock, 2)
    claimed = await one.store.claim_due(clock(), 50, one.scheduler.owner, LEASE)
    assert len(claimed) >= 2
    assert await other.scheduler.tick() == 0
    assert await one.scheduler.release() == len(claimed)
    assert await other.scheduler.tick() == len(claimed)
    for gid in ids:
        assert await _timeouts(one.store, gid) == 1


def gate(store: Store, barrier: asyncio.Barrier) -> None:
    """Make ``store`` wait at ``barrier`` before each transaction: both processes have
    validated their move before either writes."""
    original = store.transaction

    @contextlib.asynccontextmanager
    async def gated() -> AsyncIterator[Tx]:
        await barrier.wait()
        async with original() as tx:
            yield tx

    store.transaction = gated  # type: ignore[method-assign]


async def test_racing_moves_across_processes_apply_once_each_time(
    pg_url: str, clock: FakeClock
) -> None:
    """40 pairs of the same move from two processes, both validated first: one lands."""
    async with await Store.open(pg_url) as s1, await Store.open(pg_url) as s2:
        one, two = GameService(s1, rng=random.Random(1)), GameService(s2, rng=random.Random(1))
        gid = (await new_game(one, clock)).game.id
        pairs = 0
        for _ in range(40):
            game = await one.game(gid)
            if game.turn is None:
                break
            uid = game.turn.user_id
            assert uid is not None
            view = await one.seat_view(gid, uid)
            await two.seat_view(gid, uid)
            before = await s1.version(gid)
            move = pick(view.legal)
            barrier = asyncio.Barrier(2)
            gate(s1, barrier)
            gate(s2, barrier)
            results = await asyncio.gather(
                one.move(gid, uid, move, clock.tick()),
                two.move(gid, uid, move, clock.tick()),
                return_exceptions=True,
            )
            del s1.transaction, s2.transaction
            won = [r for r in results if isinstance(r, Outcome)]
            lost = [r for r in results if isinstance(r, errors.TableChanged)]
            assert len(won) == 1 and len(lost) == 1, results
            assert await s1.version(gid) == (before or 0) + 1
            pairs += 1
        assert pairs >= 10
        events = (await s1.load(gid) or _none()).events
        assert [e.seq for e in events] == list(range(1, len(events) + 1))
        await one.verify_game(gid)
