"""The PostgreSQL store's own matters: migrations tracked in ``schema_migrations``, the same
schema as SQLite's, the leases on scheduled work and the advisory game lock across two stores
(two pools: two processes as far as the server can tell), and clear refusals of bad URLs and
unreachable servers. Needs the session's throwaway server (skipped without one)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import asyncpg
import pytest

from bot.config import Config
from bot.configvalues import ConfigError
from bot.store import SchemaTooNew, Store, StoreError, StoreUnreachable, open_store
from bot.store.pgschema import PG_SCHEMA_VERSION
from bot.store.postgres import PgStore, numbered, safe_url
from bot.store.rows import DueRow
from bot.store.schedule import ScheduleStore, ScheduleTx
from bot.store.schema import SCHEMA_VERSION
from tests import pg

NOW = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
LEASE = timedelta(minutes=2)


@pytest.fixture
async def pair(pg_url: str) -> AsyncIterator[tuple[PgStore, PgStore]]:
    a = await open_store(pg_url)
    b = await open_store(pg_url)
    assert isinstance(a, PgStore) and isinstance(b, PgStore)
    try:
        yield a, b
    finally:
        await a.close()
        await b.close()


async def _games(store: Store, n: int) -> list[int]:
    ids = []
    async with store.transaction() as tx:
        for i in range(n):
            ids.append(
                await tx.insert_game(
                    guild_id=1,
                    channel_id=100 + i,
                    host_id=9,
                    preset="standard",
                    rules_json="{}",
                    engine_version=1,
                    turn_deadline_s=None,
                    hints=True,
                    now=NOW,
                )
            )
    return ids


async def _due(store: Store, ids: list[int], at: datetime = NOW) -> list[DueRow]:
    rows = [DueRow(g, "timeout", f"0@{g}", 11, at) for g in ids]
    async with store.transaction() as tx:
        await ScheduleTx(tx).put_dues(rows)
    return rows


# ---------------------------------------------------------------------------- schema


async def test_migrations_are_numbered_in_a_table(pg_server: pg.PgServer) -> None:
    url = await pg.new_database(pg_server)  # empty: not the migrated template
    try:
        a, b = await asyncio.gather(open_store(url), open_store(url))  # two at once
        try:
            assert isinstance(a, PgStore)
            rows = await a._all("SELECT version FROM schema_migrations ORDER BY version")
            assert [r[0] for r in rows] == list(range(1, PG_SCHEMA_VERSION + 1))
            assert await a.integrity_check() == "ok" and await b.integrity_check() == "ok"
        finally:
            await a.close()
            await b.close()
        again = await open_store(url)  # nothing left to do
        await again.close()
    finally:
        await pg.drop_database(pg_server, url)


async def test_a_database_from_a_newer_release_is_refused(pg_url: str) -> None:
    conn = await asyncpg.connect(pg_url)
    await conn.execute("INSERT INTO schema_migrations VALUES ($1, 'later')", PG_SCHEMA_VERSION + 1)
    await conn.close()
    with pytest.raises(SchemaTooNew, match=rf"version {PG_SCHEMA_VERSION + 1}.*newer release"):
        await open_store(pg_url)


async def test_the_schema_has_the_same_tables_and_columns_as_sqlite(
    pg_url: str, tmp_path: Path
) -> None:
    pg_store = await open_store(pg_url)
    lite = await open_store(tmp_path / "x.sqlite3")
    try:
        lite_tables = {
            r[0]
            for r in await lite._all(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        }
        pg_tables = {
            r[0]
            for r in await pg_store._all(
                "SELECT table_name FROM information_schema.tables "
                "WHERE table_schema = current_schema()"
            )
        }
        # The table SQLite's migration 7 adds (being written beside this store) may be absent.
        assert pg_tables - {"schema_migrations"} - lite_tables <= (
            {"meta"} if SCHEMA_VERSION < 7 else set()
        )
        assert lite_tables <= pg_tables
        for table in sorted(lite_tables):
            extra = {"claimed_by", "claimed_until"} if table == "due_work" else set()
            assert await pg_store.columns(table) == [
                c for c in await lite.columns(table) if c not in extra
            ] + sorted(extra), table
    finally:
        await pg_store.close()
        await lite.close()


async def test_truncate_cannot_empty_the_log(pg_url: str) -> None:
    conn = await asyncpg.connect(pg_url)
    try:
        with pytest.raises(asyncpg.IntegrityConstraintViolationError, match="append-only"):
            await conn.execute("TRUNCATE events")
    finally:
        await conn.close()


def test_placeholders_are_numbered_outside_quotes() -> None:
    assert numbered("SELECT ? , '?', ? WHERE x = 'a''?'") == "SELECT $1 , '?', $2 WHERE x = 'a''?'"


# ---------------------------------------------------------------------------- choosing it


def test_mt_database_chooses_the_store() -> None:
    cfg = Config.from_env({"MT_DATABASE": "postgresql://bot:s3cret@db:5432/games"})
    assert cfg.database_url == "postgresql://bot:s3cret@db:5432/games"
    assert "s3cret" not in repr(cfg)
    assert Config.from_env({"MT_DATABASE": "postgres://db/games"}).database_url is not None
    assert Config.from_env({"MT_DATABASE": "/data/games.sqlite3"}).database_url is None
    with pytest.raises(ConfigError, match=r"mysql:// URL.*SQLite.*PostgreSQL"):
        Config.from_env({"MT_DATABASE": "mysql://db/games"})
    with pytest.raises(ConfigError, match="bad port"):
        Config.from_env({"MT_DATABASE": "postgresql://db:port/games"})


async def test_an_unreachable_server_is_one_clear_error_without_the_password() -> None:
    # Nothing listens there: StoreUnreachable (start-up exits 1: it may pass), not a login
    # refused or a URL to fix (exit 2).
    with pytest.raises(StoreUnreachable, match="cannot reach the PostgreSQL server") as err:
        await open_store("postgresql://bot:s3cret@127.0.0.1:1/games")
    assert "s3cret" not in str(err.value) and "bot:***@127.0.0.1:1" in str(err.value)
    assert isinstance(err.value, StoreError)
    assert safe_url("postgresql://u@h/d") == "postgresql://u@h/d"


async def test_open_store_takes_a_config(pg_url: str) -> None:
    async with await Store.from_config(Config(database_url=pg_url)) as store:
        assert store.kind == "postgresql" and str(store) == pg_url


# ---------------------------------------------------------------------------- leases


async def test_claimed_work_goes_to_one_process_only(pair: tuple[PgStore, PgStore]) -> None:
    a, b = pair
    ids = await _games(a, 30)
    await _due(a, ids)
    got = await asyncio.gather(
        *(s.claim_due(NOW, 7, name, LEASE) for s, name in [(a, "a"), (b, "b")] * 5)
    )
    claimed = [(d.game_id, d.kind) for rows in got for d in rows]
    timeouts = {(g, "timeout") for g in ids}
    stalls = {(g, "stall") for g in ids}
    # 30 due timeouts (the stall rows fall due in 14 days): each handed out exactly once.
    assert sorted(claimed) == sorted(timeouts)
    assert not set(claimed) & stalls
    assert await a.claim_due(NOW, 100, "a", LEASE) == []
    assert await b.claim_due(NOW + LEASE / 2, 100, "b", LEASE) == []


async def test_work_held_by_a_dead_process_is_taken_over_after_the_lease(
    pair: tuple[PgStore, PgStore],
) -> None:
    a, b = pair
    [gid] = await _games(a, 1)
    [row] = await _due(a, [gid])
    assert await a.claim_due(NOW, 10, "dies", LEASE) == [row]
    await a.close()  # the claimer is gone without finishing
    assert await b.claim_due(NOW + LEASE - timedelta(seconds=1), 10, "b", LEASE) == []
    assert await b.claim_due(NOW + LEASE, 10, "b", LEASE) == [row]
    async with b.transaction() as tx:
        assert await ScheduleTx(tx).finish_due(row)
    assert await b.claim_due(NOW + 2 * LEASE, 10, "b", LEASE) == []


async def test_replanned_or_released_work_can_be_claimed_again(
    pair: tuple[PgStore, PgStore],
) -> None:
    a, b = pair
    [g1, g2] = await _games(a, 2)
    r1, r2 = await _due(a, [g1, g2])
    assert len(await a.claim_due(NOW, 10, "a", LEASE)) == 2
    later = NOW + timedelta(seconds=30)
    async with a.transaction() as tx:  # a reminder waiting out quiet hours, say
        assert await ScheduleTx(tx).move_due(r1, r1.turn_key, later)
    moved = DueRow(g1, "timeout", r1.turn_key, 11, later)
    assert await b.claim_due(later, 10, "b", LEASE) == [moved]
    assert await a.release_claims("a") == 1  # a graceful stop gives r2 back at once
    assert await b.claim_due(later, 10, "b", LEASE) == [r2]
    assert [d.game_id for d in await ScheduleStore(b).claim_due(later, 10, "b", LEASE)] == []


# ---------------------------------------------------------------------------- game lock


async def test_try_lock_game_tells_whether_another_process_holds_it(
    pair: tuple[PgStore, PgStore],
) -> None:
    a, b = pair
    [g1, g2] = await _games(a, 2)
    held = asyncio.Event()
    done = asyncio.Event()

    async def holder() -> None:
        async with a.transaction() as tx:
            await tx.lock_game(g1)
            held.set()
            await done.wait()

    task = asyncio.create_task(holder())
    await held.wait()
    async with b.transaction() as tx:
        assert not await tx.try_lock_game(g1)
        assert await tx.try_lock_game(g2)  # other games are free
        await asyncio.wait_for(tx.lock_game(g2), 2)
    done.set()
    await task
    async with b.transaction() as tx:  # released by the commit
        assert await tx.try_lock_game(g1)


def test_without_server_binaries_the_fixture_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pg.shutil, "which", lambda name: None)
    monkeypatch.setattr(pg.glob, "glob", lambda pattern: [])
    with pytest.raises(pg.Unavailable, match="no PostgreSQL server binaries"), pg.start():
        pass
