"""``store copy``: an SQLite file with every kind of row goes into PostgreSQL and back out to a
new file, and comes back row for row; every game replays equal on the way; a non-empty
destination is refused unless replaced; a difference is reported, not hidden."""

from __future__ import annotations

import random
from datetime import timedelta
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.service import GameOptions, GameService
from bot.service.schedule import ScheduleService
from bot.service.storecopy import CopyError, copy_store, verify_copy
from bot.store import GameStatus, GuildSettings, OrderRow, Store, UserSettings, open_store
from bot.store import reviews as review_rows
from bot.store import seasons as season_rows
from bot.store import stats as stats_rows
from bot.store.schedule import GuildScheduleRow, ScheduleTx, UserScheduleRow
from bot.store.seasons import TableLink
from bot.store.store import COPY_TABLES
from tests.clock import FakeClock
from tests.service.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD
from tests.service.helpers import new_game, play_turn, raw_sql


async def _fill(path: Path, clock: FakeClock) -> list[int]:
    """A bot's database with a row in every table: finished, running and waiting games,
    statistics, schedule rows, settings, messages, reminders."""
    store = await open_store(path)
    try:
        games = GameService(store, rng=random.Random(5))
        schedule = ScheduleService(games)
        done = (await new_game(games, clock, computers=1, preset="quick")).game.id
        for _ in range(3000):
            if (await games.game(done)).status is not GameStatus.ACTIVE:
                break
            await play_turn(games, done, clock)
        running = (
            await games.create_lobby(
                guild_id=GUILD, channel_id=CHANNEL + 1, user_id=ALICE, display_name="Alice",
                now=clock.tick(), preset_name="standard",
                options=GameOptions(turn_deadline=timedelta(hours=24)),
            )
        ).game.id  # fmt: skip
        await schedule.set_game_schedule(running, policy=None, replace_after=2)
        await games.join(running, BOB, "Bob", clock.tick())
        await games.start(running, ALICE, clock.tick())
        for _ in range(5):
            await play_turn(games, running, clock)
        waiting = await new_game(games, clock, humans=(CAROL,), channel=CHANNEL + 2, start=False)
        now = clock.tick()
        async with store.transaction() as tx:
            await tx.put_user_settings(UserSettings(ALICE, hand_dms=False, language="fr"), now)
            await tx.set_message(running, "table", CHANNEL + 1, 987654321098765432, now)
            await tx.put_guild_settings(GuildSettings(GUILD, "fundex", {"knock": False}), now)
            w = ScheduleTx(tx)
            await w.put_user_schedule(UserScheduleRow(BOB, 22, 7, True, False), now)
            await w.put_guild_schedule(GuildScheduleRow(GUILD, 3600, "skip", 9), now)
            await w.log_reminder(running, BOB, "nudge", now, now)
            await stats_rows.set_guild_language(tx, GUILD, "fr", now)
            # A standing order (issue 46): its row is copied like any other.
            order = OrderRow(running, ALICE, 0, '["12-5"]', '{"double":true}', 3, True, None)
            await tx.put_order(order)
        # A season (issue 48) with its league: sign-ups, a table playing the finished game,
        # ended early (the moves and divisions written).
        season = await games.seasons.open(
            guild_id=GUILD, channel_id=CHANNEL, name="Spring", starts_at=now,
            ends_at=now + timedelta(days=30), preset="quick", house_rules={},
            deadline=timedelta(hours=24), vacation=3, now=now,
        )  # fmt: skip
        for uid, name in ((ALICE, "Alice"), (BOB, "Bob"), (CAROL, "Carol")):
            await games.seasons.league.join(GUILD, uid, name, now)
        await games.seasons.league.form_tables(season)
        async with store.transaction() as tx:  # the finished game, rated as table 1's
            await season_rows.put_rated(tx, done, season.id, True)
            assert await season_rows.link_table(tx, done, TableLink(season.id, 1))
        assert await games.seasons.end(season.id, now, early=True) is not None
        await review_rows.put(store, review_rows.ReviewRow(done, 0, '{"worlds": 4}', "{}", now))
        for table in COPY_TABLES:
            if table != "meta":  # SQLite's migration 7 table; may not exist yet
                assert await store._one(f"SELECT 1 FROM {table}"), f"nothing in {table}"
        return [done, running, waiting.game.id]
    finally:
        await store.close()


async def _tables(store: Store) -> dict[str, list[tuple[object, ...]]]:
    out = {}
    for table in COPY_TABLES:
        cols = [c for c in await store.columns(table) if not c.startswith("claimed_")]
        if cols:
            out[table] = [tuple(r) for r in await store.table_rows(table, cols)]
    return out


async def test_sqlite_to_postgresql_and_back_keeps_every_row(
    tmp_path: Path, pg_url: str, clock: FakeClock
) -> None:
    first = tmp_path / "first.sqlite3"
    ids = await _fill(first, clock)
    there = await copy_store(first, pg_url)
    assert there.ok and there.games == there.equal == 3, there.line()
    assert there.line().startswith("copied 3 games (")
    assert "3 of 3 games replay equal" in there.line()
    back = await copy_store(pg_url, tmp_path / "back.sqlite3")
    assert back.ok and back.equal == 3 and back.rows == there.rows, back.line()
    a, b = await open_store(first), await open_store(tmp_path / "back.sqlite3")
    try:
        assert await _tables(a) == await _tables(b)
    finally:
        await a.close()
        await b.close()
    # The copy is a working bot database: play goes on there, and new games number after.
    store = await open_store(pg_url)
    try:
        games = GameService(store, rng=random.Random(1))
        await play_turn(games, ids[1], clock)
        fresh = await new_game(games, clock, channel=CHANNEL + 9)
        assert fresh.game.id == max(ids) + 1
    finally:
        await store.close()


async def test_a_non_empty_destination_is_refused_unless_replaced(
    tmp_path: Path, pg_url: str, clock: FakeClock
) -> None:
    src = tmp_path / "src.sqlite3"
    await _fill(src, clock)
    await copy_store(src, pg_url)
    with pytest.raises(CopyError, match=r"already holds games.*--replace"):
        await copy_store(src, pg_url)
    again = await copy_store(src, pg_url, replace=True)
    assert again.ok and again.equal == 3
    other = tmp_path / "other.sqlite3"
    await copy_store(pg_url, other)
    with pytest.raises(CopyError, match="already holds"):
        await copy_store(pg_url, other)
    assert (await copy_store(pg_url, other, replace=True)).ok
    with pytest.raises(CopyError, match="no database at"):
        await copy_store(tmp_path / "missing.sqlite3", tmp_path / "x.sqlite3")
    assert not (tmp_path / "missing.sqlite3").exists()
    with pytest.raises(CopyError, match="same database"):
        await copy_store(src, tmp_path / "." / "src.sqlite3")


async def test_a_game_that_differs_is_reported(
    tmp_path: Path, pg_url: str, clock: FakeClock
) -> None:
    src = tmp_path / "src.sqlite3"
    ids = await _fill(src, clock)
    assert (await copy_store(src, pg_url)).ok
    a, b = await open_store(src), await open_store(pg_url)
    try:
        await raw_sql(b, "UPDATE games SET host_id = 5 WHERE id = ?", (ids[2],))
        equal, different = await verify_copy(a, b)
        assert equal == 2 and different == [f"game {ids[2]}"]
    finally:
        await a.close()
        await b.close()


def test_the_command_line_copies_and_prints_one_line(
    tmp_path: Path, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    import asyncio

    src = tmp_path / "src.sqlite3"
    asyncio.run(_fill(src, FakeClock()))
    assert main(["store", "copy", str(src), pg_url]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and "3 of 3 games replay equal" in out[0]
    assert main(["store", "copy", str(src), pg_url]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "already holds" in err[0]


def test_backup_points_a_postgresql_user_to_pg_dump(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MT_DATABASE", "postgresql://bot@db/games")
    assert main(["backup", str(tmp_path / "b.sqlite3")]) == 2
    assert "pg_dump" in capsys.readouterr().err
