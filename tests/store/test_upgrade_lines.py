"""An upgrade says what it migrated (issue 50): ``init`` printed only the new schema version
after going 9 -> 14. Now each migration applied is one line (its number, what it does), on
both stores, from ``init`` and in the bot's start-up log; a new or current database says
nothing more than before."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

import tests.pg as pg
from bot.__main__ import main
from bot.store import MIGRATIONS, SCHEMA_VERSION, open_store
from bot.store.pgschema import PG_MIGRATIONS, PG_SCHEMA_VERSION
from bot.store.schema import MIGRATION_NOTES, upgrade_lines

OLD = 9


def _sqlite_at(path: Path, version: int) -> str:
    conn = sqlite3.connect(path, isolation_level=None)
    for number, statements in enumerate(MIGRATIONS[:version], start=1):
        conn.execute("BEGIN")
        for sql in statements:
            conn.execute(sql)
        conn.execute(f"PRAGMA user_version = {number}")
        conn.execute("COMMIT")
    conn.close()
    return str(path)


async def _postgres_at(server: pg.PgServer, version: int) -> str:
    import asyncpg

    url = await pg.new_database(server)
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(
            "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)"
        )
        for number, statements in enumerate(PG_MIGRATIONS[:version], start=1):
            async with conn.transaction():
                for sql in statements:
                    await conn.execute(sql)
                await conn.execute(
                    "INSERT INTO schema_migrations VALUES ($1, '2026-01-01T00:00:00.000000')",
                    number,
                )
    finally:
        await conn.close()
    return url


def test_every_migration_has_its_line_on_both_stores() -> None:
    assert len(MIGRATION_NOTES) == SCHEMA_VERSION == PG_SCHEMA_VERSION
    assert all(note and "\n" not in note for note in MIGRATION_NOTES)


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_init_prints_each_migration_an_upgrade_applies(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest, capsys: pytest.CaptureFixture[str]
) -> None:
    if kind == "sqlite":
        target = _sqlite_at(tmp_path / "old.sqlite3", OLD)
    else:
        server: pg.PgServer = request.getfixturevalue("pg_server")
        target = asyncio.run(_postgres_at(server, OLD))
    try:
        assert main(["init", "--database", target]) == 0
        lines = capsys.readouterr().out.strip().splitlines()
        expected = [
            f"migration {n}: {MIGRATION_NOTES[n - 1]}" for n in range(OLD + 1, SCHEMA_VERSION + 1)
        ]
        assert lines[:-1] == expected
        assert lines[-1].startswith("database upgraded: ")
        assert f"schema version {OLD} -> {SCHEMA_VERSION}" in lines[-1]
        # Run again: current, so one line and no migration.
        assert main(["init", "--database", target]) == 0
        again = capsys.readouterr().out.strip().splitlines()
        assert len(again) == 1 and again[0].startswith("database checked: ")
    finally:
        if kind == "postgresql":
            asyncio.run(pg.drop_database(server, target))


def test_a_new_database_says_created_without_fourteen_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["init", "--database", str(tmp_path / "n.sqlite3")]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("database created: ")


async def test_the_store_knows_what_it_migrated(
    tmp_path: Path,
) -> None:
    path = _sqlite_at(tmp_path / "old.sqlite3", OLD)
    store = await open_store(path)
    try:
        assert store.migrated == tuple(range(OLD + 1, SCHEMA_VERSION + 1))
    finally:
        await store.close()
    store = await open_store(path)
    await store.close()
    assert store.migrated == ()
    assert upgrade_lines(tuple(range(1, SCHEMA_VERSION + 1))) == []


def test_the_bot_logs_each_migration_at_start(tmp_path: Path) -> None:
    """The bot's own start-up, as a process: the upgrade's lines are in its log before it
    goes on (here to a Discord that cannot be reached: exit 1)."""
    import subprocess
    import sys

    from tests.ops.helpers import ROOT, bot_env, free_port

    path = _sqlite_at(tmp_path / "old.sqlite3", OLD)
    env = bot_env(None, Path(path), MT_DISCORD_API_BASE=f"http://127.0.0.1:{free_port()}/api/v10")
    result = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=120, check=False,
    )  # fmt: skip
    for n in range(OLD + 1, SCHEMA_VERSION + 1):
        assert f"migration {n}: {MIGRATION_NOTES[n - 1]}" in result.stderr, result.stderr
