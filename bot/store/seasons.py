"""Rows for seasons and the league (issue 48; tables of migration 16).

* ``seasons``: a server's seasons, their dates and the rules of their rated games, the
  league's deadline and vacation allowance, ``status`` (open, ended), ``league`` (signup,
  formed, opened) and ``post_owed``: the season's end post, owed from the transaction that
  ended it until the Discord layer has posted it (the outbox pattern).
* ``game_rated``: a game's rated or casual choice at ``/mt new`` (no row: rated, as before).
* ``league_players``, ``league_tables``: the sign-ups and the tables they were given; a
  table's ``game_id`` is written in the commit that opens its lobby (:func:`link_table`).
* ``league_divisions``: each player's division now (after the last season's moves);
  ``league_moves``: the moves up and down a season's end made.

Same SQL for both databases, like :mod:`bot.store.ratings`; rows, not rules.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from bot.store.store import Store, Tx, from_db_time, to_db_time, upsert_sql

Reader = Store | Tx


@dataclasses.dataclass(frozen=True, slots=True)
class SeasonRow:
    id: int
    guild_id: int
    name: str
    starts_at: datetime
    ends_at: datetime
    preset: str
    #: The house rules of rated games on top of the preset (JSON, as ``/mt new`` takes them).
    rules: str
    channel_id: int
    deadline_s: int | None
    #: Missed turns in a row a league player may leave to the computer before it keeps the seat.
    vacation: int
    status: str
    league: str
    post_owed: bool
    created_at: datetime


@dataclasses.dataclass(frozen=True, slots=True)
class LeaguePlayerRow:
    season_id: int
    user_id: int
    name: str
    joined_at: datetime
    table_no: int | None


@dataclasses.dataclass(frozen=True, slots=True)
class LeagueTableRow:
    season_id: int
    table_no: int
    division: int
    game_id: int | None


@dataclasses.dataclass(frozen=True, slots=True)
class TableLink:
    """The league table a new lobby is opened for, linked to it in the lobby's own commit:
    ``replaces`` is the table's game ended before its deal that the lobby takes the place of
    (None: the table has none yet)."""

    season_id: int
    table_no: int
    replaces: int | None = None


_SEASON_COLS = (
    "id, guild_id, name, starts_at, ends_at, preset, rules, channel_id, deadline_s, vacation, "
    "status, league, post_owed, created_at"
)


def _season(r: Sequence[Any]) -> SeasonRow:
    return SeasonRow(
        int(r[0]), int(r[1]), str(r[2]), from_db_time(str(r[3])), from_db_time(str(r[4])),
        str(r[5]), str(r[6]), int(r[7]), None if r[8] is None else int(r[8]), int(r[9]),
        str(r[10]), str(r[11]), bool(r[12]), from_db_time(str(r[13])),
    )  # fmt: skip


async def _fetch(db: Reader, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]:
    if isinstance(db, Store):
        return await db.fetch_all(sql, params)
    return await db.connection.fetch(sql, params)


async def lock_seasons(tx: Tx) -> None:
    """Hold the seasons table's writes until this transaction ends (PostgreSQL: an advisory
    lock of its own key space; SQLite's ``BEGIN IMMEDIATE`` holds the file's one write lock),
    so two admins never open two seasons at once, nor take the same id."""
    if tx.kind == "postgresql":
        await tx.connection.fetch("SELECT pg_advisory_xact_lock(49, 0)")


async def insert_season(tx: Tx, row: SeasonRow) -> int:
    """A new season with the next free id (two at once: the second one's key is refused)."""
    rows = await tx.connection.fetch("SELECT COALESCE(MAX(id), 0) + 1 FROM seasons")
    sid = int(rows[0][0])
    await tx.connection.execute(
        f"INSERT INTO seasons ({_SEASON_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (sid, row.guild_id, row.name, to_db_time(row.starts_at), to_db_time(row.ends_at),
         row.preset, row.rules, row.channel_id, row.deadline_s, row.vacation, row.status,
         row.league, int(row.post_owed), to_db_time(row.created_at)),
    )  # fmt: skip
    return sid


async def season(db: Reader, season_id: int) -> SeasonRow | None:
    rows = await _fetch(db, f"SELECT {_SEASON_COLS} FROM seasons WHERE id = ?", (season_id,))
    return _season(rows[0]) if rows else None


async def open_season(db: Reader, guild_id: int) -> SeasonRow | None:
    """The server's season not yet ended (at most one), started or not."""
    rows = await _fetch(
        db,
        f"SELECT {_SEASON_COLS} FROM seasons WHERE guild_id = ? AND status = 'open' ORDER BY id",
        (guild_id,),
    )
    return _season(rows[0]) if rows else None


async def last_season(db: Reader, guild_id: int) -> SeasonRow | None:
    rows = await _fetch(
        db, f"SELECT {_SEASON_COLS} FROM seasons WHERE guild_id = ? ORDER BY id DESC", (guild_id,)
    )
    return _season(rows[0]) if rows else None


async def next_due(store: Store) -> datetime | None:
    """The earliest season work: a league to open at its start (a season opened before its
    start: one that starts at once leaves its league to the admin), a season to end, a post
    owed."""
    rows = await store.fetch_all(
        "SELECT MIN(CASE WHEN post_owed = 1 THEN created_at WHEN league <> 'opened' AND "
        "starts_at > created_at THEN starts_at ELSE ends_at END) FROM seasons "
        "WHERE status = 'open' OR post_owed = 1"
    )
    return None if not rows or rows[0][0] is None else from_db_time(str(rows[0][0]))


async def busy_seasons(store: Store) -> list[SeasonRow]:
    """Seasons with work left (not ended, or their end post owed)."""
    rows = await store.fetch_all(
        f"SELECT {_SEASON_COLS} FROM seasons WHERE status = 'open' OR post_owed = 1 ORDER BY id"
    )
    return [_season(r) for r in rows]


async def set_status(tx: Tx, season_id: int, *, status: str | None = None,
                     league: str | None = None, post_owed: bool | None = None,
                     ends_at: datetime | None = None) -> None:  # fmt: skip
    sets: list[str] = []
    params: list[Any] = []
    for col, value in (("status", status), ("league", league)):
        if value is not None:
            sets.append(f"{col} = ?")
            params.append(value)
    if post_owed is not None:
        sets.append("post_owed = ?")
        params.append(int(post_owed))
    if ends_at is not None:
        sets.append("ends_at = ?")
        params.append(to_db_time(ends_at))
    await tx.connection.execute(f"UPDATE seasons SET {', '.join(sets)} WHERE id = ?",
                                (*params, season_id))  # fmt: skip


async def lock_season(tx: Tx, season_id: int) -> SeasonRow | None:
    """The season read under a write lock (PostgreSQL: ``FOR UPDATE``; SQLite's ``BEGIN
    IMMEDIATE`` holds the file's write lock already), so two processes never end it twice."""
    lock = " FOR UPDATE" if tx.kind == "postgresql" else ""
    rows = await tx.connection.fetch(
        f"SELECT {_SEASON_COLS} FROM seasons WHERE id = ?{lock}", (season_id,)
    )
    return _season(rows[0]) if rows else None


# ---------------------------------------------------------------------- rated or casual

_PUT_RATED = upsert_sql("game_rated", ("game_id", "season_id", "rated"), ("game_id",))


async def put_rated(tx: Tx, game_id: int, season_id: int | None, rated: bool) -> None:
    """Keep a game's rated or casual choice (read by :func:`bot.store.ratings.is_casual`)."""
    await tx.connection.execute(_PUT_RATED, (game_id, season_id, int(rated)))


# ---------------------------------------------------------------------- the league

_PUT_PLAYER = upsert_sql(
    "league_players", ("season_id", "user_id", "name", "joined_at", "table_no"),
    ("season_id", "user_id"),
)  # fmt: skip
_PUT_TABLE = upsert_sql(
    "league_tables", ("season_id", "table_no", "division", "game_id"), ("season_id", "table_no")
)
_PUT_DIVISION = upsert_sql(
    "league_divisions", ("guild_id", "user_id", "division"), ("guild_id", "user_id")
)
_PUT_MOVE = upsert_sql(
    "league_moves", ("season_id", "user_id", "div_before", "div_after"), ("season_id", "user_id")
)


async def put_player(tx: Tx, row: LeaguePlayerRow) -> None:
    await tx.connection.execute(
        _PUT_PLAYER,
        (row.season_id, row.user_id, row.name, to_db_time(row.joined_at), row.table_no),
    )


async def delete_player(tx: Tx, season_id: int, user_id: int) -> int:
    return await tx.connection.execute(
        "DELETE FROM league_players WHERE season_id = ? AND user_id = ?", (season_id, user_id)
    )


async def players(db: Reader, season_id: int) -> list[LeaguePlayerRow]:
    rows = await _fetch(
        db,
        "SELECT season_id, user_id, name, joined_at, table_no FROM league_players "
        "WHERE season_id = ? ORDER BY joined_at, user_id",
        (season_id,),
    )
    return [
        LeaguePlayerRow(int(r[0]), int(r[1]), str(r[2]), from_db_time(str(r[3])),
                        None if r[4] is None else int(r[4]))
        for r in rows
    ]  # fmt: skip


async def put_table(tx: Tx, row: LeagueTableRow) -> None:
    await tx.connection.execute(_PUT_TABLE, (row.season_id, row.table_no, row.division,
                                             row.game_id))  # fmt: skip


async def link_table(tx: Tx, game_id: int, link: TableLink) -> bool:
    """Keep ``game_id`` as the table's game, in the transaction that opens it; False (nothing
    written) when the table is gone or already has another game than ``link.replaces``."""
    now = "game_id IS NULL" if link.replaces is None else "game_id = ?"
    was = () if link.replaces is None else (link.replaces,)
    changed = await tx.connection.execute(
        f"UPDATE league_tables SET game_id = ? WHERE season_id = ? AND table_no = ? AND {now}",
        (game_id, link.season_id, link.table_no, *was),
    )
    return changed == 1


async def tables(db: Reader, season_id: int) -> list[LeagueTableRow]:
    rows = await _fetch(
        db,
        "SELECT season_id, table_no, division, game_id FROM league_tables WHERE season_id = ? "
        "ORDER BY table_no",
        (season_id,),
    )
    return [LeagueTableRow(int(r[0]), int(r[1]), int(r[2]),
                           None if r[3] is None else int(r[3])) for r in rows]  # fmt: skip


async def delete_tables(tx: Tx, season_id: int) -> None:
    await tx.connection.execute("DELETE FROM league_tables WHERE season_id = ?", (season_id,))


async def divisions(db: Reader, guild_id: int) -> dict[int, int]:
    rows = await _fetch(
        db, "SELECT user_id, division FROM league_divisions WHERE guild_id = ?", (guild_id,)
    )
    return {int(r[0]): int(r[1]) for r in rows}


async def put_divisions(tx: Tx, guild_id: int, moves: dict[int, int]) -> None:
    await tx.connection.executemany(
        _PUT_DIVISION, [(guild_id, uid, div) for uid, div in sorted(moves.items())]
    )


async def put_moves(tx: Tx, season_id: int, moves: Sequence[tuple[int, int, int]]) -> None:
    """(user, division before, division after) for every league player of the season."""
    await tx.connection.executemany(_PUT_MOVE, [(season_id, *m) for m in moves])


async def moves(db: Reader, season_id: int) -> list[tuple[int, int, int]]:
    rows = await _fetch(
        db,
        "SELECT user_id, div_before, div_after FROM league_moves WHERE season_id = ? "
        "ORDER BY div_before, user_id",
        (season_id,),
    )
    return [(int(r[0]), int(r[1]), int(r[2])) for r in rows]


async def table_places(db: Reader, game_id: int | None) -> dict[int, int] | None:
    """A finished table game's places by user (None: not finished, or never opened); a
    player who left has no place (their seat finished as a computer's)."""
    if game_id is None:
        return None
    status = await _fetch(db, "SELECT status FROM games WHERE id = ?", (game_id,))
    if not status or str(status[0][0]) != "finished":
        return None
    found = await _fetch(
        db,
        "SELECT user_id, place FROM player_stats WHERE game_id = ? AND user_id IS NOT NULL",
        (game_id,),
    )
    return {int(r[0]): int(r[1]) for r in found}


Change = tuple[int, float, float, float, float]


async def season_changes(db: Reader, season: SeasonRow) -> list[Change]:
    """(user, mu before, sigma before, mu after, sigma after) of every rated match of a human
    that finished within the season's dates, in the fold's order."""
    found = await _fetch(
        db,
        "SELECT user_id, mu_before, sigma_before, mu_after, sigma_after FROM rating_changes "
        "WHERE guild_id = ? AND user_id IS NOT NULL AND finished_at >= ? AND finished_at < ? "
        "ORDER BY finished_at, game_id",
        (season.guild_id, to_db_time(season.starts_at), to_db_time(season.ends_at)),
    )
    return [(int(r[0]), float(r[1]), float(r[2]), float(r[3]), float(r[4])) for r in found]
