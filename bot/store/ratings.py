"""Rows for ratings (issue 48; tables of migration 15): derived from the event log by the
fold of :mod:`bot.service.ratings`, so they can be deleted and rebuilt at any time.

* ``rating_changes``: one row per rated seat of a rated match: the fold's input (who, the
  rank) and its result (the rating before and after). A computer seat's before and after are
  its level's anchor.
* ``ratings``: each player's rating now in a server (the newest change), and how many rated
  matches it counts.
* ``rating_games``: every finished match the fold has looked at, rated or not, so the backfill
  at start-up only reads the games it has never seen.

Same SQL for both databases, through the store and a transaction like
:mod:`bot.store.stats`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from bot.store.store import Store, Tx, from_db_time, to_db_time, upsert_sql

__all__ = ["RatingChangeRow", "RatingRow", "from_db_time"]


@dataclasses.dataclass(frozen=True, slots=True)
class RatingChangeRow:
    game_id: int
    seat: int
    guild_id: int
    #: The human rated in this seat (also one who left it); None for a computer level.
    user_id: int | None
    computer: str | None
    finished_at: datetime
    rank: int
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float


@dataclasses.dataclass(frozen=True, slots=True)
class RatingRow:
    guild_id: int
    user_id: int
    mu: float
    sigma: float
    games: int


_CHANGE_COLS = (
    "game_id", "seat", "guild_id", "user_id", "computer", "finished_at", "rank",
    "mu_before", "sigma_before", "mu_after", "sigma_after",
)  # fmt: skip
_CHANGES = ", ".join(_CHANGE_COLS)
_PUT_CHANGE = upsert_sql("rating_changes", _CHANGE_COLS, ("game_id", "seat"))
_PUT_RATING = upsert_sql(
    "ratings", ("guild_id", "user_id", "mu", "sigma", "games"), ("guild_id", "user_id")
)
_PUT_GAME = upsert_sql("rating_games", ("game_id", "guild_id"), ("game_id",))
#: The fold's order; text order of stored times is time order.
_ORDER = "ORDER BY finished_at, game_id, seat"


def _change(r: Sequence[Any]) -> RatingChangeRow:
    return RatingChangeRow(
        int(r[0]), int(r[1]), int(r[2]), None if r[3] is None else int(r[3]),
        None if r[4] is None else str(r[4]), from_db_time(str(r[5])), int(r[6]),
        float(r[7]), float(r[8]), float(r[9]), float(r[10]),
    )  # fmt: skip


async def lock_guild(tx: Tx, guild_id: int) -> None:
    """Hold the server's ratings until this transaction ends (PostgreSQL: an advisory lock
    in a key space of its own, two 32-bit keys, apart from the games' one-bigint locks;
    SQLite: ``BEGIN IMMEDIATE`` already holds the file's one write lock)."""
    if tx.kind == "postgresql":
        await tx.connection.fetch(
            "SELECT pg_advisory_xact_lock(48, CAST(MOD(CAST(? AS BIGINT), 2147483647) AS INTEGER))",
            (guild_id,),
        )


async def any_after(tx: Tx, guild_id: int, finished_at: datetime, game_id: int) -> bool:
    """Whether a match that sorts after ``(finished_at, game_id)`` is already folded."""
    at = to_db_time(finished_at)
    rows = await tx.connection.fetch(
        "SELECT 1 FROM rating_changes WHERE guild_id = ? AND "
        "(finished_at > ? OR (finished_at = ? AND game_id > ?)) LIMIT 1",
        (guild_id, at, at, game_id),
    )
    return bool(rows)


async def current(
    tx: Tx, guild_id: int, user_ids: Iterable[int]
) -> dict[int, tuple[float, float, int]]:
    """Each player's (mu, sigma, games) now, read inside the transaction."""
    out: dict[int, tuple[float, float, int]] = {}
    for uid in user_ids:
        rows = await tx.connection.fetch(
            "SELECT mu, sigma, games FROM ratings WHERE guild_id = ? AND user_id = ?",
            (guild_id, uid),
        )
        if rows:
            out[uid] = (float(rows[0][0]), float(rows[0][1]), int(rows[0][2]))
    return out


async def write_changes(tx: Tx, rows: Sequence[RatingChangeRow]) -> None:
    await tx.connection.executemany(
        _PUT_CHANGE,
        [(r.game_id, r.seat, r.guild_id, r.user_id, r.computer, to_db_time(r.finished_at),
          r.rank, r.mu_before, r.sigma_before, r.mu_after, r.sigma_after) for r in rows],
    )  # fmt: skip
    await mark_checked(tx, {r.game_id: r.guild_id for r in rows})


async def put_ratings(tx: Tx, rows: Sequence[RatingRow]) -> None:
    await tx.connection.executemany(
        _PUT_RATING, [(r.guild_id, r.user_id, r.mu, r.sigma, r.games) for r in rows]
    )


async def mark_checked(tx: Tx, games: Mapping[int, int]) -> None:
    """The fold has seen these finished games (game → server), rated or not."""
    await tx.connection.executemany(_PUT_GAME, sorted(games.items()))


async def delete_game(tx: Tx, game_id: int) -> None:
    await tx.connection.execute("DELETE FROM rating_changes WHERE game_id = ?", (game_id,))


async def delete_guild(tx: Tx, guild_id: int) -> None:
    """Forget a server's derived rows before its refold (what it has seen stays seen)."""
    await tx.connection.execute("DELETE FROM rating_changes WHERE guild_id = ?", (guild_id,))
    await tx.connection.execute("DELETE FROM ratings WHERE guild_id = ?", (guild_id,))


async def guild_changes_tx(tx: Tx, guild_id: int) -> list[RatingChangeRow]:
    rows = await tx.connection.fetch(
        f"SELECT {_CHANGES} FROM rating_changes WHERE guild_id = ? {_ORDER}", (guild_id,)
    )
    return [_change(r) for r in rows]


async def game_changes_tx(tx: Tx, game_id: int) -> list[RatingChangeRow]:
    rows = await tx.connection.fetch(
        f"SELECT {_CHANGES} FROM rating_changes WHERE game_id = ? ORDER BY seat", (game_id,)
    )
    return [_change(r) for r in rows]


async def game_changes(store: Store, game_id: int) -> list[RatingChangeRow]:
    """One match's changes, by seat (empty: not rated)."""
    rows = await store.fetch_all(
        f"SELECT {_CHANGES} FROM rating_changes WHERE game_id = ? ORDER BY seat", (game_id,)
    )
    return [_change(r) for r in rows]


async def player_changes(store: Store, guild_id: int, user_id: int) -> list[RatingChangeRow]:
    """A player's changes in a server, oldest first (their rating's course)."""
    rows = await store.fetch_all(
        f"SELECT {_CHANGES} FROM rating_changes WHERE guild_id = ? AND user_id = ? {_ORDER}",
        (guild_id, user_id),
    )
    return [_change(r) for r in rows]


async def guild_ratings(store: Store, guild_id: int) -> list[RatingRow]:
    rows = await store.fetch_all(
        "SELECT guild_id, user_id, mu, sigma, games FROM ratings WHERE guild_id = ?",
        (guild_id,),
    )
    return [RatingRow(int(r[0]), int(r[1]), float(r[2]), float(r[3]), int(r[4])) for r in rows]


async def all_ratings(store: Store) -> list[RatingRow]:
    rows = await store.fetch_all(
        "SELECT guild_id, user_id, mu, sigma, games FROM ratings ORDER BY guild_id, user_id"
    )
    return [RatingRow(int(r[0]), int(r[1]), float(r[2]), float(r[3]), int(r[4])) for r in rows]


async def finished_games(store: Store, *, unseen_only: bool = False) -> list[tuple[int, int]]:
    """Finished games in servers as (guild, game), oldest first; ``unseen_only``: only those
    the fold has never looked at (finished before migration 15)."""
    sql = "SELECT guild_id, id FROM games WHERE status = 'finished' AND guild_id <> 0"
    if unseen_only:
        sql += " AND NOT EXISTS (SELECT 1 FROM rating_games r WHERE r.game_id = games.id)"
    rows = await store.fetch_all(sql + " ORDER BY id")
    return [(int(r[0]), int(r[1])) for r in rows]


async def is_casual(db: Store | Tx, game_id: int) -> bool:
    """The host chose casual at ``/mt new`` (``game_rated``, migration 16; a game without a
    row is rated, as every game was before seasons)."""
    sql, params = "SELECT rated FROM game_rated WHERE game_id = ?", (game_id,)
    found = await (db.fetch_all(sql, params) if isinstance(db, Store)
                   else db.connection.fetch(sql, params))  # fmt: skip
    return bool(found) and not bool(found[0][0])
