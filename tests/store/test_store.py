"""The store on real files: pragmas, migrations, the log's guarantees, settings."""

from __future__ import annotations

import json
import random
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.config import DEFAULT_DATABASE, Config, ConfigError
from bot.engine import PRESETS, Match
from bot.service import GameService
from bot.store import (
    MIGRATIONS,
    SCHEMA_VERSION,
    ChannelBusy,
    Conflict,
    GuildSettings,
    NewEvent,
    SchemaTooNew,
    Store,
    UserSettings,
)

NOW = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


async def _game(store: Store, channel: int = 5) -> int:
    async with store.transaction() as tx:
        return await tx.insert_game(
            guild_id=1,
            channel_id=channel,
            host_id=9,
            preset="standard",
            rules_json=PRESETS["standard"].to_json(),
            engine_version=1,
            turn_deadline_s=None,
            hints=True,
            now=NOW,
        )


async def test_open_creates_directory_and_sets_pragmas(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "db.sqlite3"
    async with await Store.open(path, synchronous="FULL") as store:
        assert path.exists()
        w = store._writer
        assert (await w.execute_fetchall("PRAGMA journal_mode"))[0][0] == "wal"
        assert (await w.execute_fetchall("PRAGMA foreign_keys"))[0][0] == 1
        assert (await w.execute_fetchall("PRAGMA synchronous"))[0][0] == 2  # FULL
        assert (await w.execute_fetchall("PRAGMA busy_timeout"))[0][0] == 5000
        assert (await w.execute_fetchall("PRAGMA user_version"))[0][0] == SCHEMA_VERSION
        assert await store.integrity_check() == "ok"


async def test_reader_cannot_write(store: Store) -> None:
    with pytest.raises(sqlite3.OperationalError):
        await store._reader.execute("DELETE FROM games")


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


async def test_event_log_is_append_only(store: Store) -> None:
    gid = await _game(store)
    async with store.transaction() as tx:
        await tx.append_events(gid, 1, [NewEvent("x", "{}")], NOW)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        async with store.transaction() as tx:
            await store._writer.execute("UPDATE events SET payload = '[]'")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        async with store.transaction() as tx:
            await store._writer.execute("DELETE FROM events")
    assert await store.last_seq(gid) == 1


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


# ---------------------------------------------------------------------------- migrations


def _make_v1_file(path: Path) -> tuple[Match, list[str]]:
    """A database as release 1 left it: schema v1 and a game in the middle of a round."""
    rules = PRESETS["quick"]
    names = ["Alice", "Bob"]
    match = Match(rules, names)
    match.start_round(match.shuffle(random.Random(3)))
    assert match.round is not None
    for _ in range(6):
        match.apply(match.round.legal_moves()[0])
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("BEGIN")
    for sql in MIGRATIONS[0]:
        conn.execute(sql)
    conn.execute("PRAGMA user_version = 1")
    at = NOW.isoformat(timespec="microseconds")
    conn.execute(
        "INSERT INTO games (id, guild_id, channel_id, host_id, preset, rules, engine_version, "
        "status, version, turn_seat, round_no, created_at, updated_at) "
        "VALUES (1, 10, 20, 11, 'quick', ?, 1, 'active', 5, ?, 0, ?, ?)",
        (rules.to_json(), match.current_seat, at, at),
    )
    for seat, (uid, name) in enumerate([(11, "Alice"), (22, "Bob")]):
        conn.execute(
            "INSERT INTO seats (game_id, seat, user_id, display_name, computer, joined_at) "
            "VALUES (1, ?, ?, ?, NULL, ?)",
            (seat, uid, name, at),
        )
    payloads = ['{"seats":[]}'] + [json.dumps(d) for d in match.event_dicts()]
    kinds = ["start"] + [d["kind"] for d in match.event_dicts()]
    for seq, (kind, payload) in enumerate(zip(kinds, payloads, strict=True), start=1):
        conn.execute(
            "INSERT INTO events (game_id, seq, kind, payload, actor, at) "
            "VALUES (1, ?, ?, ?, NULL, ?)",
            (seq, kind, payload, at),
        )
    conn.execute("COMMIT")
    conn.close()
    return match, match.history()


async def test_a_version_1_database_is_upgraded_and_its_games_still_load(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    match, history = _make_v1_file(path)
    async with await Store.open(path) as store:
        version = (await store._writer.execute_fetchall("PRAGMA user_version"))[0][0]
        assert version == SCHEMA_VERSION
        tables = {
            r[0]
            for r in await store._writer.execute_fetchall(
                "SELECT name FROM sqlite_master WHERE type = 'table'"
            )
        }
        assert {"user_settings", "guild_settings", "messages", "reminders", "results"} <= tables
        row = await store.game(1)
        assert row is not None and row.deadline_at is None and row.version == 5
        svc = GameService(store, rng=random.Random(1))
        assert await svc.history(1) == history
        turn = await svc.whose_turn(1)
        assert turn is not None and turn.user_id is not None
        view = await svc.seat_view(1, turn.user_id)
        out = await svc.move(1, turn.user_id, view.legal[0], NOW)
        assert out.steps[0].seq == 1 + len(match.events) + 1
        assert await store.integrity_check() == "ok"
    # Opening again is a no-op: nothing left to migrate.
    async with await Store.open(path) as store:
        assert (await store._writer.execute_fetchall("PRAGMA user_version"))[0][0] == SCHEMA_VERSION


async def test_a_database_from_a_newer_release_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(SchemaTooNew, match=f"version {SCHEMA_VERSION + 1}.*newer release"):
        await Store.open(path)
    conn = sqlite3.connect(path)  # untouched: not switched to WAL, version as it was
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1
    conn.close()


async def test_two_stores_migrating_one_new_file_apply_each_migration_once(
    tmp_path: Path,
) -> None:
    import asyncio

    path = tmp_path / "both.sqlite3"
    a, b = await asyncio.gather(Store.open(path), Store.open(path))
    try:
        assert await a.integrity_check() == "ok"
        assert (await b._writer.execute_fetchall("PRAGMA user_version"))[0][0] == SCHEMA_VERSION
    finally:
        await a.close()
        await b.close()


# ---------------------------------------------------------------------------- configuration


def test_config_defaults_and_environment(tmp_path: Path) -> None:
    cfg = Config.from_env({})
    assert cfg.database == DEFAULT_DATABASE == Path("data/mexican-train.sqlite3")
    assert cfg.synchronous == "FULL"
    cfg = Config.from_env(
        {
            "MT_DATABASE": str(tmp_path / "x.db"),
            "MT_SQLITE_SYNCHRONOUS": "normal",
            "MT_GAME_CACHE": "9",
        }
    )
    assert (cfg.database, cfg.synchronous, cfg.game_cache) == (tmp_path / "x.db", "NORMAL", 9)
    with pytest.raises(ConfigError, match="MT_SQLITE_SYNCHRONOUS"):
        Config.from_env({"MT_SQLITE_SYNCHRONOUS": "OFF"})
    with pytest.raises(ConfigError, match="MT_GAME_CACHE"):
        Config.from_env({"MT_GAME_CACHE": "lots"})
