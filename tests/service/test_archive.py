"""A finished match's log is compacted (issue 39: a bounded database) and reads back the same.

When a match ends, its events move from the ``events`` table into one compressed
``event_archive`` row in the last move's transaction, and only its last round snapshot is
kept. The same match played twice from the same seed, once with the compaction and once
without, must give the same record on load, the same history, export, replay frames and
statistics — on both stores.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.service import GameService
from bot.service.history import export, history, replay_views
from bot.store import GameStatus, IntegrityRefused, Store
from tests.clock import FakeClock
from tests.service.conftest import ALICE, BOB, CAROL, GUILD
from tests.service.helpers import new_game, play_turn


async def _finished(store: Store, *, compact: bool) -> int:
    svc = GameService(store, cache_size=8, rng=random.Random(21))
    if not compact:
        svc.ledger.compact_finished = False  # the log as it was before
    clock = FakeClock()
    gid = (
        await new_game(
            svc,
            clock,
            humans=(ALICE, BOB, CAROL),
            computers=1,
            preset="standard",
            house_rules={"rounds": 2},
        )
    ).game.id
    while (await svc.game(gid)).status is GameStatus.ACTIVE:
        await play_turn(svc, gid, clock)
    return gid


async def _count(store: Store, sql: str, gid: int) -> int:
    row = await store.fetch_one(sql, (gid,))
    return int(row[0])


async def test_a_finished_match_reads_back_the_same(store: Store, db_path: Path) -> None:
    plain = await Store.open(db_path.with_name("plain.sqlite3"), synchronous="NORMAL")
    try:
        gid = await _finished(store, compact=True)
        other = await _finished(plain, compact=False)
        # The compacted store keeps one row and the last snapshot; the other, every event.
        assert await _count(store, "SELECT COUNT(*) FROM events WHERE game_id = ?", gid) == 0
        assert await _count(store, "SELECT COUNT(*) FROM event_archive WHERE game_id = ?", gid)
        assert await _count(store, "SELECT COUNT(*) FROM round_snapshots WHERE game_id = ?", gid)
        assert (
            await _count(plain, "SELECT COUNT(*) FROM event_archive WHERE game_id = ?", other) == 0
        )
        packed = await store.fetch_one(
            "SELECT events, count FROM event_archive WHERE game_id = ?", (gid,)
        )
        a, b = await store.load(gid), await plain.load(other)
        assert a is not None and b is not None
        assert a.events == b.events and a.game == b.game and a.seats == b.seats
        assert a.snapshot == b.snapshot and packed[1] == len(a.events) > 100
        # Three times smaller at the very least (the figure: docs/benchmarks.md).
        assert 3 * len(packed[0]) < sum(len(e.payload) + len(e.at) + 12 for e in b.events)
        assert await store.last_seq(gid) == await plain.last_seq(other) == len(a.events)
        # What players and admins read off a finished match.
        when = datetime(2025, 6, 1, tzinfo=UTC)
        assert history(a) == history(b)
        assert export(a, exported_at=when) == export(b, exported_at=when)
        assert replay_views(a) == replay_views(b)
        fresh, fresh_plain = GameService(store), GameService(plain)
        assert await fresh.history(gid) == await fresh_plain.history(other)
        assert await fresh.round_report(gid, 0) == await fresh_plain.round_report(other, 0)
        await fresh.verify_game(gid)
        for user in (ALICE, BOB, CAROL):
            assert await fresh.player_stats(GUILD, user) == await fresh_plain.player_stats(
                GUILD, user
            )
        assert await fresh.rebuild_stats(only_missing=False) == 1
        assert await fresh.player_stats(GUILD, ALICE) == await fresh_plain.player_stats(
            GUILD, ALICE
        )
    finally:
        await plain.close()


async def test_the_log_stays_append_only(store: Store) -> None:
    """Only a finished match's archived events may leave the table; nothing else can."""
    gid = await _finished(store, compact=True)
    live = await _finished(store, compact=False)  # finished, but never archived
    with pytest.raises(IntegrityRefused, match="append-only"):
        async with store.transaction() as tx:
            await tx._c.execute("DELETE FROM events WHERE game_id = ?", (live,))
    assert await store.last_seq(live) > 100 and await store.last_seq(gid) > 100


async def test_matches_finished_before_the_compaction_are_compacted_later(store: Store) -> None:
    """A match that finished before its last move compacted it (an older version's) keeps
    every event until ``compact_finished`` (start-up's background batches) moves them into
    the archive; it then reads back the same, and a second pass finds nothing to do."""
    gid = await _finished(store, compact=False)
    before = await store.load(gid)
    assert before is not None and len(before.events) > 100
    assert await store.compact_finished(10) == 1
    assert await _count(store, "SELECT COUNT(*) FROM events WHERE game_id = ?", gid) == 0
    assert await _count(store, "SELECT COUNT(*) FROM event_archive WHERE game_id = ?", gid) == 1
    after = await store.load(gid)
    assert after is not None
    assert after.events == before.events and after.game == before.game
    assert after.seats == before.seats and after.snapshot == before.snapshot
    assert history(after) == history(before)
    assert await store.compact_finished(10) == 0
