"""``autoplay: only`` became the default (issue 46, migration 16 on both stores): a player who
never chose gets the new default, one who chose ``off`` or ``only`` keeps it; the stored
``forced`` (the old column default, written with any other setting) becomes the default, and
what a player chooses from now on is stored as chosen, so the next change of the default
reaches only those who never chose."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

import tests.pg as pg
from bot.service import GameService
from bot.store import open_store
from bot.store.rows import DEFAULT_AUTOPLAY
from bot.store.schema import MIGRATION_NOTES
from tests.store.test_upgrade_lines import _postgres_at, _sqlite_at

#: The schema before the default moved (the migration's number less one, wherever a merge
#: puts it).
BEFORE = MIGRATION_NOTES.index("autoplay's default (only-move) for players who never chose")
NOW = datetime(2026, 11, 28, 18, 0, tzinfo=UTC)
# user id -> the autoplay column as version 15 stored it (None: a row written without it,
# which took the column's default, ``forced``).
ROWS = {1: "off", 2: "forced", 3: "only", 4: None}


def _insert_sql(user_id: int, autoplay: str | None, *, pg_style: bool) -> tuple[str, list[object]]:
    marks = ("$1", "$2", "$3") if pg_style else ("?", "?", "?")
    if autoplay is None:
        return (
            f"INSERT INTO user_settings (user_id, updated_at) VALUES ({marks[0]}, {marks[1]})",
            [user_id, "2026-01-01T00:00:00.000000+00:00"],
        )
    return (
        "INSERT INTO user_settings (user_id, updated_at, autoplay) "
        f"VALUES ({marks[0]}, {marks[1]}, {marks[2]})",
        [user_id, "2026-01-01T00:00:00.000000+00:00", autoplay],
    )


async def _check(target: str) -> None:
    store = await open_store(target)
    try:
        svc = GameService(store)
        got = {uid: await svc.user_settings(uid) for uid in (*ROWS, 5)}
        assert {uid: s.autoplay for uid, s in got.items()} == {
            1: "off",
            2: None,
            3: "only",
            4: None,
            5: None,  # no row at all
        }
        assert {uid: s.autoplay_mode for uid, s in got.items()} == {
            1: "off",
            2: DEFAULT_AUTOPLAY,
            3: "only",
            4: DEFAULT_AUTOPLAY,
            5: DEFAULT_AUTOPLAY,
        }
        assert DEFAULT_AUTOPLAY == "only"
        # Another setting keeps "never chose"; choosing forced is kept as chosen.
        await svc.update_user_settings(4, NOW, language="fr")
        assert (await svc.user_settings(4)).autoplay is None
        await svc.update_user_settings(2, NOW, autoplay="forced")
        assert (await svc.user_settings(2)).autoplay == "forced"
        # A DM channel remembered for a new player writes no autoplay either.
        await svc.remember_dm_channel(6, 606, NOW)
        assert (await svc.user_settings(6)).autoplay is None
    finally:
        await store.close()


async def test_sqlite_upgrade_gives_the_new_default_to_who_never_chose(tmp_path: Path) -> None:
    path = _sqlite_at(tmp_path / "old.sqlite3", BEFORE)
    conn = sqlite3.connect(path)
    for uid, mode in ROWS.items():
        conn.execute(*_insert_sql(uid, mode, pg_style=False))
    conn.commit()
    conn.close()
    await _check(path)
    conn = sqlite3.connect(path)  # the column still refuses a value that is no mode
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute("UPDATE user_settings SET autoplay = 'always' WHERE user_id = 1")
    conn.close()


async def test_postgresql_upgrade_gives_the_new_default_to_who_never_chose(
    pg_server: pg.PgServer,
) -> None:
    import asyncpg

    url = await _postgres_at(pg_server, BEFORE)
    try:
        conn = await asyncpg.connect(url)
        try:
            for uid, mode in ROWS.items():
                sql, params = _insert_sql(uid, mode, pg_style=True)
                await conn.execute(sql, *params)
        finally:
            await conn.close()
        await _check(url)
        conn = await asyncpg.connect(url)
        try:
            with pytest.raises(asyncpg.CheckViolationError):
                await conn.execute("UPDATE user_settings SET autoplay = 'always' WHERE user_id = 1")
        finally:
            await conn.close()
    finally:
        await pg.drop_database(pg_server, url)
