"""The SQL both stores share: the connection shape it runs on, and the tables it knows.

The reads of :class:`~bot.store.store.Store` and the writes of :class:`~bot.store.tx.Tx` are
written once, with ``?`` placeholders, in the SQL SQLite and PostgreSQL both speak; each store
hands them a :class:`Conn` (the PostgreSQL one numbers the placeholders).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Literal, Protocol

StoreKind = Literal["sqlite", "postgresql"]

#: Every table a game or a setting lives in, parents before children (the order ``store
#: copy`` writes them in). ``meta`` is the key/value table of schema 7; a store without it
#: (an older SQLite file) simply has nothing to copy there.
COPY_TABLES: tuple[str, ...] = (
    "games",
    "seats",
    "events",
    "event_archive",
    "round_snapshots",
    "messages",
    "reminders",
    "results",
    "player_stats",
    "rating_changes",
    "ratings",
    "rating_games",
    "game_schedule",
    "due_work",
    "user_settings",
    "user_schedule",
    "guild_settings",
    "guild_schedule",
    "guild_language",
    "meta",
    "outbox",
    "orders",
)


class Conn(Protocol):
    """One connection as the shared SQL sees it: ``?`` placeholders, rows as sequences, and
    every key, check or append-only refusal raised as :class:`IntegrityRefused`."""

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]: ...

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; the number of rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...


def upsert_sql(table: str, columns: Sequence[str], key: Sequence[str]) -> str:
    """``INSERT … ON CONFLICT (key) DO UPDATE`` setting every other column: the whole-row
    replace both databases understand (SQLite's ``INSERT OR REPLACE`` is SQLite's own)."""
    cols = ", ".join(columns)
    marks = ", ".join("?" * len(columns))
    rest = [c for c in columns if c not in key]
    action = (
        "DO UPDATE SET " + ", ".join(f"{c} = excluded.{c}" for c in rest) if rest else "DO NOTHING"
    )
    return f"INSERT INTO {table} ({cols}) VALUES ({marks}) ON CONFLICT ({', '.join(key)}) {action}"
