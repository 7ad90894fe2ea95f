"""Rows for statistics, leaderboards and the server's language (tables of migration 6).

Kept apart from :mod:`bot.store.store` so the feature's SQL is in one place; it reads through
the store and writes through a transaction like the store itself does (same package, same SQL
for both databases). The
``player_stats`` rows are derived from the event log (see :mod:`bot.service.stats`): they can
be deleted and rebuilt at any time.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from bot.store.store import Store, Tx, from_db_time, to_db_time, upsert_sql


@dataclasses.dataclass(frozen=True, slots=True)
class PlayerStatsRow:
    game_id: int
    seat: int
    guild_id: int
    user_id: int | None
    computer: str | None
    name: str
    finished_at: datetime
    rounds: int
    rounds_won: int
    total: int
    place: int
    won: bool
    double_blank: int
    longest_train: int
    vs_computer: bool
    round_scores: tuple[int, ...]


_COLS = (
    "game_id, seat, guild_id, user_id, computer, name, finished_at, rounds, rounds_won, total, "
    "place, won, double_blank, longest_train, vs_computer, round_scores"
)


_PUT_STATS = upsert_sql("player_stats", [c.strip() for c in _COLS.split(",")], ("game_id", "seat"))


def _row(r: Sequence[Any]) -> PlayerStatsRow:
    return PlayerStatsRow(
        game_id=int(r[0]),
        seat=int(r[1]),
        guild_id=int(r[2]),
        user_id=None if r[3] is None else int(r[3]),
        computer=None if r[4] is None else str(r[4]),
        name=str(r[5]),
        finished_at=from_db_time(str(r[6])),
        rounds=int(r[7]),
        rounds_won=int(r[8]),
        total=int(r[9]),
        place=int(r[10]),
        won=bool(r[11]),
        double_blank=int(r[12]),
        longest_train=int(r[13]),
        vs_computer=bool(r[14]),
        round_scores=tuple(int(x) for x in json.loads(str(r[15]))),
    )


async def write_player_stats(tx: Tx, rows: Sequence[PlayerStatsRow]) -> None:
    """Insert (or replace) one game's rows, inside the caller's transaction."""
    await tx.connection.executemany(
        _PUT_STATS,
        [
            (
                r.game_id,
                r.seat,
                r.guild_id,
                r.user_id,
                r.computer,
                r.name,
                to_db_time(r.finished_at),
                r.rounds,
                r.rounds_won,
                r.total,
                r.place,
                int(r.won),
                r.double_blank,
                r.longest_train,
                int(r.vs_computer),
                json.dumps(list(r.round_scores)),
            )
            for r in rows
        ],
    )


async def delete_player_stats(tx: Tx, game_id: int | None = None) -> None:
    """Forget derived rows (one game, or all of them) before a rebuild."""
    if game_id is None:
        await tx.connection.execute("DELETE FROM player_stats")
    else:
        await tx.connection.execute("DELETE FROM player_stats WHERE game_id = ?", (game_id,))


async def player_games(
    store: Store, guild_id: int, user_id: int, limit: int | None = None
) -> list[PlayerStatsRow]:
    """One human's finished games in a server, newest first."""
    sql = (
        f"SELECT {_COLS} FROM player_stats WHERE guild_id = ? AND user_id = ? "
        "AND computer IS NULL ORDER BY finished_at DESC, game_id DESC"
    )
    params: list[object] = [guild_id, user_id]
    if limit is not None:
        sql += " LIMIT ?"
        params.append(limit)
    return [_row(r) for r in await store.fetch_all(sql, params)]


async def guild_player_rows(store: Store, guild_id: int) -> list[PlayerStatsRow]:
    """Every human seat of every finished game in a server (for the leaderboard)."""
    rows = await store.fetch_all(
        f"SELECT {_COLS} FROM player_stats WHERE guild_id = ? AND user_id IS NOT NULL "
        "AND computer IS NULL ORDER BY finished_at",
        (guild_id,),
    )
    return [_row(r) for r in rows]


async def finished_without_stats(store: Store) -> list[int]:
    """Finished games whose statistics are missing (e.g. finished before migration 6)."""
    rows = await store.fetch_all(
        "SELECT id FROM games WHERE status = 'finished' AND NOT EXISTS "
        "(SELECT 1 FROM player_stats p WHERE p.game_id = games.id) ORDER BY id"
    )
    return [int(r[0]) for r in rows]


async def finished_games(store: Store) -> list[int]:
    rows = await store.fetch_all("SELECT id FROM games WHERE status = 'finished' ORDER BY id")
    return [int(r[0]) for r in rows]


async def guild_language(store: Store, guild_id: int) -> str | None:
    row = await store.fetch_one(
        "SELECT language FROM guild_language WHERE guild_id = ?", (guild_id,)
    )
    return None if row is None else str(row[0])


async def all_guild_languages(store: Store) -> dict[int, str]:
    rows = await store.fetch_all("SELECT guild_id, language FROM guild_language")
    return {int(r[0]): str(r[1]) for r in rows}


async def set_guild_language(tx: Tx, guild_id: int, language: str | None, now: datetime) -> None:
    if language is None:
        await tx.connection.execute("DELETE FROM guild_language WHERE guild_id = ?", (guild_id,))
        return
    await tx.connection.execute(
        "INSERT INTO guild_language (guild_id, language, updated_at) VALUES (?, ?, ?) "
        "ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language, "
        "updated_at = excluded.updated_at",
        (guild_id, language, to_db_time(now)),
    )


async def latest_in_channel(store: Store, channel_id: int) -> int | None:
    """The channel's newest game that was dealt or finished (any status), if any."""
    row = await store.fetch_one(
        "SELECT id FROM games WHERE channel_id = ? AND status != 'lobby' "
        "ORDER BY (status IN ('active')) DESC, id DESC LIMIT 1",
        (channel_id,),
    )
    return None if row is None else int(row[0])


async def has_user_settings(store: Store, user_id: int) -> bool:
    row = await store.fetch_one("SELECT 1 FROM user_settings WHERE user_id = ?", (user_id,))
    return row is not None


async def newest_from_channel(store: Store, guild_id: int, channel_id: int) -> int | None:
    """The newest game opened from this channel: played in it, or in a thread opened from
    its lobby card here (the card's row stays with the game). Walks the server's games
    newest first through ``games_by_guild``; the card is a primary-key look-up."""
    row = await store.fetch_one(
        "SELECT g.id FROM games g WHERE g.guild_id = ? AND (g.channel_id = ? OR EXISTS ("
        "SELECT 1 FROM messages m WHERE m.game_id = g.id AND m.kind = 'lobby' "
        "AND m.channel_id = ?)) ORDER BY g.id DESC LIMIT 1",
        (guild_id, channel_id, channel_id),
    )
    return None if row is None else int(row[0])


@dataclasses.dataclass(frozen=True, slots=True)
class FinishedRow:
    """A match a player finished: where, and how they did."""

    game_id: int
    guild_id: int
    channel_id: int
    place: int
    total: int
    won: bool
    finished_at: datetime


async def finished_for_user(
    store: Store, user_id: int, since: datetime, limit: int
) -> list[FinishedRow]:
    """The user's matches finished since ``since``, newest first (``results_by_user``)."""
    rows = await store.fetch_all(
        "SELECT r.game_id, g.guild_id, g.channel_id, r.place, r.total, r.won, r.finished_at "
        "FROM results r JOIN games g ON g.id = r.game_id "
        "WHERE r.user_id = ? AND r.finished_at >= ? ORDER BY r.finished_at DESC LIMIT ?",
        (user_id, to_db_time(since), limit),
    )
    return [
        FinishedRow(
            int(r[0]), int(r[1]), int(r[2]), int(r[3]), int(r[4]), bool(r[5]), from_db_time(r[6])
        )
        for r in rows
    ]
