"""The SQLite store on real files: pragmas, the read-only reader, migrations by
``user_version``, and choosing the file from the configuration. (What both stores must do is
in test_store.py.)"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.config import DEFAULT_DATABASE, Config
from bot.configvalues import ConfigError
from bot.engine import PRESETS, Match
from bot.service import GameService
from bot.store import MIGRATIONS, SCHEMA_VERSION, SchemaTooNew, Store
from bot.store.sqlite import SQLiteStore

NOW = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


async def _pragma(store: Store, name: str) -> object:
    assert isinstance(store, SQLiteStore)
    rows = list(await store._writer.execute_fetchall(f"PRAGMA {name}"))
    return rows[0][0]


async def test_open_creates_directory_and_sets_pragmas(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "db.sqlite3"
    async with await Store.open(path, synchronous="FULL") as store:
        assert path.exists()
        assert await _pragma(store, "journal_mode") == "wal"
        assert await _pragma(store, "foreign_keys") == 1
        assert await _pragma(store, "synchronous") == 2  # FULL
        assert await _pragma(store, "busy_timeout") == 5000
        assert await _pragma(store, "user_version") == SCHEMA_VERSION
        assert await store.integrity_check() == "ok"


async def test_reader_cannot_write(db_path: Path) -> None:
    async with await SQLiteStore.open_file(db_path) as store:
        with pytest.raises(sqlite3.OperationalError):
            await store._reader.execute("DELETE FROM games")


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
        version = await _pragma(store, "user_version")
        assert version == SCHEMA_VERSION
        tables = {
            r[0]
            for r in await store._writer.execute_fetchall(
                "SELECT name FROM sqlite_master WHERE type = 'table'"
            )
        }
        assert {
            "user_settings",
            "guild_settings",
            "messages",
            "reminders",
            "results",
            "round_snapshots",
        } <= tables
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
        assert await _pragma(store, "user_version") == SCHEMA_VERSION


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
    path = tmp_path / "both.sqlite3"
    a, b = await asyncio.gather(Store.open(path), Store.open(path))
    try:
        assert await a.integrity_check() == "ok"
        assert await _pragma(b, "user_version") == SCHEMA_VERSION
    finally:
        await a.close()
        await b.close()


async def test_two_stores_opening_new_files_at_once_never_find_them_locked(
    tmp_path: Path,
) -> None:
    # SQLite answers a switch to WAL that meets another connection's own switch with "database
    # is locked" at once, without waiting its busy timeout: about one pair in fifty failed
    # (CI, test above). Many fresh pairs, so the race is met.
    for i in range(120):
        path = tmp_path / f"pair{i}.sqlite3"
        a, b = await asyncio.gather(Store.open(path), Store.open(path))
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


async def test_store_from_config(tmp_path: Path) -> None:
    cfg = Config.from_env(
        {
            "MT_DATABASE": str(tmp_path / "cfg" / "x.db"),
            "MT_SQLITE_SYNCHRONOUS": "NORMAL",
            "MT_SQLITE_BUSY_MS": "1234",
        }
    )
    async with await Store.from_config(cfg) as store:
        assert store.path == tmp_path / "cfg" / "x.db"
        assert await _pragma(store, "synchronous") == 1
        assert await _pragma(store, "busy_timeout") == 1234


async def test_a_transaction_cancelled_while_it_begins_leaves_the_writer_usable(
    db_path: Path,
) -> None:
    """A stop can cancel a write while its BEGIN is on its way (the timing cog's delayed
    flush, cancelled at close): the BEGIN still runs on the writer's thread, so the store
    must roll it back, or every later write fails "within a transaction"."""
    async with await SQLiteStore.open_file(db_path) as store:
        entered = False

        async def write() -> None:
            nonlocal entered
            async with store.transaction():
                entered = True

        task = asyncio.create_task(write())
        await asyncio.sleep(0)  # the task runs up to its first wait: the BEGIN, on the thread
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert not entered
        async with store.transaction() as tx:  # refused before the fix
            await tx.connection.execute("CREATE TABLE after_cancel (x INTEGER)")
        assert await store._all("SELECT name FROM sqlite_master WHERE name = 'after_cancel'")


async def test_writes_queued_behind_a_locked_file_share_one_busy_timeout(db_path: Path) -> None:
    """Another connection holds the file's write lock: three writes queued at once all fail
    within the busy timeout (0.5 s here), not one after the other (0.5, 1.0, 1.5 s); once
    the lock is free, a write works and waits the full busy timeout again if it must."""
    store = await SQLiteStore.open_file(db_path, busy_timeout_ms=500)
    other = sqlite3.connect(db_path, isolation_level=None)
    try:
        other.execute("BEGIN EXCLUSIVE")

        async def write() -> float:
            t = asyncio.get_running_loop().time()
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                async with store.transaction() as tx:
                    await tx.put_meta("k", "v")
            return asyncio.get_running_loop().time() - t

        waits = await asyncio.gather(write(), write(), write())
        assert min(waits) >= 0.4 and max(waits) < 0.5 + 0.3, waits
        other.execute("ROLLBACK")
        async with store.transaction() as tx:
            await tx.put_meta("k", "v")
        assert await store.meta("k") == "v"
        assert (await store._writer.execute_fetchall("PRAGMA busy_timeout")) == [(500,)]
    finally:
        other.close()
        await store.close()
