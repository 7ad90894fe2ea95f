"""What both stores must do, run against each (``store`` is parametrized over an SQLite file
and a fresh PostgreSQL database): the event log's guarantees, settings, scheduled work, and
two stores over one database behaving as two processes would. Each store's own matters
(pragmas, migrations, leases) are in test_sqlite.py and test_postgres.py."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.store import (
    ChannelBusy,
    Conflict,
    GameRecord,
    GuildSettings,
    IntegrityRefused,
    NewEvent,
    Store,
    UserSettings,
)
from bot.store.schedule import ScheduleStore
from bot.store.store import COPY_TABLES

NOW = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


async def _game(store: Store, channel: int = 5) -> int:
    async with store.transaction() as tx:
        return await tx.insert_game(
            guild_id=1,
            channel_id=channel,
            host_id=9,
            preset="standard",
            rules_json="{}",
            engine_version=1,
            turn_deadline_s=None,
            hints=True,
            now=NOW,
        )


async def test_one_unfinished_game_per_channel_is_enforced_by_the_database(store: Store) -> None:
    first = await _game(store, channel=5)
    with pytest.raises(ChannelBusy):
        await _game(store, channel=5)
    await _game(store, channel=6)  # another channel is fine
    async with store.transaction() as tx:
        await tx.touch(first, 1, NOW, status="finished")
    await _game(store, channel=5)  # a finished game frees the channel


async def test_event_seq_is_an_optimistic_lock(store: Store) -> None:
    gid = await _game(store)
    async with store.transaction() as tx:
        await tx.append_events(gid, 1, [NewEvent("x", "{}"), NewEvent("x", "{}")], NOW)
    with pytest.raises(Conflict):
        async with store.transaction() as tx:
            await tx.append_events(gid, 3, [NewEvent("x", "{}")], NOW)  # lands...
            await tx.append_events(gid, 2, [NewEvent("x", "{}")], NOW)  # ...but this is taken
    # Nothing of the failed transaction was written.
    assert await store.last_seq(gid) == 2


async def test_stale_version_conflicts_and_rolls_back(store: Store) -> None:
    gid = await _game(store)
    async with store.transaction() as tx:
        assert await tx.touch(gid, 1, NOW, turn_seat=1) == 2
    with pytest.raises(Conflict):
        async with store.transaction() as tx:
            await tx.append_events(gid, 1, [NewEvent("x", "{}")], NOW)
            await tx.touch(gid, 1, NOW)
    assert await store.last_seq(gid) == 0
    assert await store.version(gid) == 2


async def test_exception_inside_a_transaction_rolls_back(store: Store) -> None:
    with pytest.raises(RuntimeError):
        async with store.transaction() as tx:
            await tx.insert_game(
                guild_id=1,
                channel_id=1,
                host_id=1,
                preset="standard",
                rules_json="{}",
                engine_version=1,
                turn_deadline_s=None,
                hints=True,
                now=NOW,
            )
            raise RuntimeError("boom")
    assert await store.game(1) is None


async def test_naive_times_are_refused(store: Store) -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        async with store.transaction() as tx:
            await tx.set_message(1, "table", 1, 1, datetime(2025, 1, 1))


async def test_settings_and_messages_round_trip(store: Store) -> None:
    assert await store.user_settings(7) == UserSettings(7)
    assert await store.guild_settings(8) == GuildSettings(8)
    async with store.transaction() as tx:
        await tx.put_user_settings(UserSettings(7, dms_open=False, language="fr"), NOW)
        await tx.put_guild_settings(GuildSettings(8, "fundex", {"knock": False}, (1, 2), 99), NOW)
    assert await store.user_settings(7) == UserSettings(7, dms_open=False, language="fr")
    assert await store.guild_settings(8) == GuildSettings(8, "fundex", {"knock": False}, (1, 2), 99)
    gid = await _game(store)
    async with store.transaction() as tx:
        await tx.set_message(gid, "table", 5, 100, NOW)
        await tx.set_message(gid, "table", 5, 101, NOW)
    [msg] = await store.messages(gid)
    assert (msg.kind, msg.channel_id, msg.message_id) == ("table", 5, 101)


async def test_the_event_log_is_append_only(store: Store) -> None:
    gid = await _game(store)
    async with store.transaction() as tx:
        await tx.append_events(gid, 1, [NewEvent("x", "{}")], NOW)
    for sql in ("UPDATE events SET payload = '[]'", "DELETE FROM events"):
        with pytest.raises(IntegrityRefused, match="append-only") as refused:
            async with store.transaction() as tx:
                await tx._c.execute(sql)
        assert refused.value.constraint == "events_append_only"
    assert await store.last_seq(gid) == 1
    assert [e.payload for e in (await _load(store, gid)).events] == ["{}"]


async def _load(store: Store, gid: int) -> GameRecord:
    record = await store.load(gid)
    assert record is not None
    return record


async def test_a_cancelled_transaction_leaves_nothing(store: Store) -> None:
    gid = await _game(store)
    inside = asyncio.Event()

    async def slow() -> None:
        async with store.transaction() as tx:
            await tx.append_events(gid, 1, [NewEvent("x", "{}")], NOW)
            inside.set()
            await asyncio.sleep(30)

    task = asyncio.create_task(slow())
    await inside.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await store.last_seq(gid) == 0
    async with store.transaction() as tx:  # and the store goes on working
        await tx.append_events(gid, 1, [NewEvent("y", "{}")], NOW)
    assert await store.last_seq(gid) == 1


async def test_a_load_is_one_snapshot_with_seats_events_and_the_latest_round_snapshot(
    store: Store,
) -> None:
    gid = await _game(store)
    async with store.transaction() as tx:
        await tx.insert_seat(gid, 0, user_id=11, display_name="Alice", computer=None, now=NOW)
        await tx.insert_seat(gid, 1, user_id=None, display_name="Bot", computer="easy", now=NOW)
        await tx.append_events(gid, 1, [NewEvent("a", '{"n": 1}', 11), NewEvent("b", "{}")], NOW)
        await tx.put_snapshots(gid, [(1, "[]"), (2, '[{"x": 1}]')])
        await tx.put_snapshots(gid, [(2, '[{"x": 2}]')])  # replaced, not added
        await tx.touch(gid, 1, NOW, status="active", turn_seat=0, round_no=0, hints=False)
    record = await _load(store, gid)
    assert record.game.status == "active" and record.game.version == 2
    assert record.game.hints is False and record.game.turn_seat == 0
    assert [(s.seat, s.user_id, s.computer) for s in record.seats] == [
        (0, 11, None),
        (1, None, "easy"),
    ]
    assert [(e.seq, e.kind, e.payload, e.actor) for e in record.events] == [
        (1, "a", '{"n": 1}', 11),
        (2, "b", "{}", None),
    ]
    assert record.snapshot == (2, '[{"x": 2}]')
    assert await store.load(gid + 1000) is None
    assert await store.computer_turns() == []
    assert [g.id for g in await store.unfinished_for_user(11)] == [gid]
    assert await store.count_games() == {"active": 1}


async def test_a_new_game_gets_its_stall_date_in_the_stored_format(store: Store) -> None:
    """The triggers that plan stall work compute dates inside the database: both databases
    must write the same text (milliseconds kept, as SQLite's strftime does)."""
    at = datetime(2025, 3, 1, 12, 0, 0, 123456, tzinfo=UTC)
    async with store.transaction() as tx:
        gid = await tx.insert_game(
            guild_id=1, channel_id=5, host_id=9, preset="standard", rules_json="{}",
            engine_version=1, turn_deadline_s=None, hints=True, now=at,
        )  # fmt: skip
    [work] = await ScheduleStore(store).work_for(gid)
    assert (work.kind, work.turn_key) == ("stall", "warn")
    assert work.due_at == datetime(2025, 3, 15, 12, 0, 0, 123000, tzinfo=UTC)
    later = at + timedelta(days=1, microseconds=999)
    async with store.transaction() as tx:
        await tx.touch(gid, 1, later)
    [work] = await ScheduleStore(store).work_for(gid)
    assert work.due_at == datetime(2025, 3, 16, 12, 0, 0, 124000, tzinfo=UTC)
    async with store.transaction() as tx:
        await tx.touch(gid, 2, later, status="finished")
    assert await ScheduleStore(store).work_for(gid) == []


async def test_whole_tables_read_back_for_copying(store: Store) -> None:
    assert await store.is_empty()
    gid = await _game(store)
    assert not await store.is_empty()
    assert await store.game_ids() == [gid]
    cols = await store.columns("games")
    assert cols[:3] == ["id", "guild_id", "channel_id"]
    [row] = await store.table_rows("games", cols)
    assert row[0] == gid and row[cols.index("status")] == "lobby"
    assert await store.columns("no_such_table") == []
    assert "events" in COPY_TABLES
    with pytest.raises(ValueError, match="not a table"):
        await store.table_rows("sqlite_master", ["name"])


# ---------------------------------------------------------------------------- two stores


@pytest.fixture
async def two(db_target: str | Path) -> AsyncIterator[tuple[Store, Store]]:
    """Two stores over one database: what two bot processes would hold."""
    a = await Store.open(db_target, synchronous="NORMAL")
    b = await Store.open(db_target, synchronous="NORMAL")
    try:
        yield a, b
    finally:
        await a.close()
        await b.close()


async def test_two_stores_appending_the_same_seq_one_lands_one_conflicts(
    two: tuple[Store, Store],
) -> None:
    a, b = two
    gid = await _game(a)
    holding = asyncio.Event()
    release = asyncio.Event()

    async def first() -> None:
        async with a.transaction() as tx:
            await tx.append_events(gid, 1, [NewEvent("a", "{}")], NOW)
            holding.set()
            await release.wait()

    async def second() -> None:
        await holding.wait()
        async with b.transaction() as tx:
            await tx.append_events(gid, 1, [NewEvent("b", "{}")], NOW)

    one = asyncio.create_task(first())
    two_ = asyncio.create_task(second())
    await holding.wait()
    await asyncio.sleep(0.2)  # the second writer is now waiting on the first
    assert not two_.done()
    release.set()
    await one
    with pytest.raises(Conflict):
        await two_
    assert [e.kind for e in (await _load(b, gid)).events] == ["a"]


async def test_racing_pairs_exactly_one_lands_each_time(two: tuple[Store, Store]) -> None:
    """Both stores read the same seq, then both append it: one lands, one is told."""
    a, b = two
    gid = await _game(a)
    outcomes = []
    for _ in range(40):
        seq = await a.last_seq(gid) + 1
        assert await b.last_seq(gid) + 1 == seq

        async def append(store: Store, kind: str, seq: int = seq) -> str:
            async with store.transaction() as tx:
                await tx.append_events(gid, seq, [NewEvent(kind, "{}")], NOW)
            return kind

        outcomes.append(
            await asyncio.gather(append(a, "a"), append(b, "b"), return_exceptions=True)
        )
    for pair in outcomes:
        assert sorted(type(r).__name__ for r in pair) == ["Conflict", "str"], pair
    assert await a.last_seq(gid) == 40
    assert (await a.integrity_check()) == "ok"


async def test_lock_game_makes_the_second_process_wait_for_the_first(
    two: tuple[Store, Store],
) -> None:
    a, b = two
    gid = await _game(a)
    order: list[str] = []
    locked = asyncio.Event()

    async def first() -> None:
        async with a.transaction() as tx:
            await tx.lock_game(gid)
            locked.set()
            await asyncio.sleep(0.3)
            await tx.append_events(gid, 1, [NewEvent("a", "{}")], NOW)
            await tx.touch(gid, 1, NOW)
            order.append("first commits")

    async def second() -> None:
        await locked.wait()
        async with b.transaction() as tx:
            await tx.lock_game(gid)
            order.append("second holds the game")
            # Under the lock, the second reads the first's result and appends after it.
            version = await tx.game_version(gid)
            assert version == 2
            await tx.append_events(gid, 2, [NewEvent("b", "{}")], NOW)
            await tx.touch(gid, version, NOW)

    await asyncio.gather(first(), second())
    assert order == ["first commits", "second holds the game"]
    assert [e.kind for e in (await _load(a, gid)).events] == ["a", "b"]


async def test_meta_keeps_one_value_per_key(store: Store) -> None:
    assert await store.meta("commands") is None
    async with store.transaction() as tx:
        await tx.put_meta("commands", "abc")
        await tx.put_meta("commands", "def")
    assert await store.meta("commands") == "def"


async def test_a_dm_channel_kept_by_one_process_is_known_to_the_other(
    two: tuple[Store, Store],
) -> None:
    """The DM channel one process opened is read by the other (so a cluster opens each
    player's DM channel once); keeping it touches no other setting, and forgetting it
    (Discord said the channel is gone) is seen by both."""
    a, b = two
    async with a.transaction() as tx:
        await tx.put_user_settings(UserSettings(7, language="fr", ping="mention"), NOW)
    async with b.transaction() as tx:
        await tx.put_dm_channel(7, 555, NOW)
        await tx.put_dm_channel(8, 556, NOW)  # a player with no settings yet
    seen = await a.user_settings(7)
    assert (seen.dm_channel_id, seen.language, seen.ping) == (555, "fr", "mention")
    assert (await a.user_settings(8)).dm_channel_id == 556
    async with a.transaction() as tx:
        await tx.put_dm_channel(7, None, NOW)
    assert (await b.user_settings(7)).dm_channel_id is None
    assert (await b.user_settings(7)).language == "fr"
