"""The store interface: what the service types against, and the reads both databases share.

:class:`Store` is what every caller holds. Two classes implement it: :class:`~bot.store.sqlite.
SQLiteStore` (one file, the embedded default) and :class:`~bot.store.postgres.PgStore` (a
server several bot processes share); :func:`open_store` picks one from ``MT_DATABASE`` (a path
or a ``postgresql://`` URL). Both keep the same event-log design: the ``(game_id, seq)`` primary
key is the optimistic lock, every change is one transaction that checks the game's version, the
log is append-only, and a channel has at most one unfinished game (a unique partial index).

The reads here and every write of :class:`~bot.store.tx.Tx` are written once, in SQL both
databases speak, with ``?`` placeholders, over a :class:`~bot.store.sql.Conn` each store
provides (the PostgreSQL one numbers the placeholders). What differs — opening, migrations,
snapshot reads, cross-process guards, integrity checks — lives in each store's module. The
store knows rows, not rules: it never imports the engine. Replaying events is the service's job.
"""

from __future__ import annotations

import abc
import contextlib
import dataclasses
import json
from collections.abc import Awaitable, Callable, Iterable, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Literal

from bot.config import Config, is_postgres_url
from bot.store.rows import (
    GAME_COLS,
    SEAT_COLS,
    UNFINISHED_SQL,
    ChannelBusy,
    Conflict,
    DueRow,
    EventRow,
    GameRecord,
    GameRow,
    GameStatus,
    GuildSettings,
    IntegrityRefused,
    MessageRow,
    NewEvent,
    OrderRow,
    ResultRow,
    SchemaTooNew,
    SeatRow,
    StoreError,
    StoreUnreachable,
    UserSettings,
    from_db_time,
    game_row,
    opt_time,
    seat_row,
    to_db_time,
)
from bot.store.sql import COPY_TABLES, Conn, StoreKind, upsert_sql
from bot.store.tx import Tx

__all__ = [
    "COPY_TABLES",
    "ChannelBusy",
    "Conflict",
    "Conn",
    "DueRow",
    "EventRow",
    "GameRecord",
    "GameRow",
    "GameStatus",
    "GuildSettings",
    "IntegrityRefused",
    "MessageRow",
    "NewEvent",
    "OrderRow",
    "ResultRow",
    "SchemaTooNew",
    "SeatRow",
    "Store",
    "StoreError",
    "StoreUnreachable",
    "Tx",
    "UserSettings",
    "from_db_time",
    "open_store",
    "opt_time",
    "to_db_time",
    "upsert_sql",
]

# ---------------------------------------------------------------------------- the store


class Store(abc.ABC):
    """The database holding games, seats, the event log and settings.

    Build one with :func:`open_store` (or ``await Store.open(path_or_url)``); close it with
    :meth:`close`. Reads are methods; writes happen inside ``async with store.transaction()
    as tx`` through :class:`Tx`, all or nothing.
    """

    #: Which database this is ("sqlite" or "postgresql"), for messages and metrics only: the
    #: service must not branch on it.
    kind: StoreKind
    #: The migrations opening it applied, by number (empty when it was already current):
    #: ``init`` and start-up say each one (:func:`migration_lines`).
    migrated: tuple[int, ...] = ()
    #: Seconds one operation may wait for a database server before it counts as unreachable
    #: (PostgreSQL: :data:`bot.store.postgres.DEFAULT_COMMAND_TIMEOUT`); ``None``: no limit,
    #: for administrative work over whole tables (``store copy``). SQLite's bound is its busy
    #: timeout.
    deadline: float | None = None

    @classmethod
    async def open(
        cls,
        target: str | Path,
        *,
        synchronous: Literal["NORMAL", "FULL"] = "FULL",
        busy_timeout_ms: int = 5000,
    ) -> Store:
        """The store ``target`` names: a ``postgresql://`` URL or an SQLite file's path."""
        return await open_store(target, synchronous=synchronous, busy_timeout_ms=busy_timeout_ms)

    @classmethod
    async def from_config(cls, config: Config) -> Store:
        """Open the database the configuration names (``MT_DATABASE`` and friends)."""
        return await open_store(config)

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ------------------------------------------------------------------ per database

    @abc.abstractmethod
    async def close(self) -> None: ...

    @abc.abstractmethod
    def transaction(self) -> contextlib.AbstractAsyncContextManager[Tx]:
        """One transaction: everything written through the :class:`Tx` lands, or nothing
        does (any exception, cancellation included, rolls it back). A statement the database
        refuses ends the transaction (PostgreSQL accepts nothing more in it): let the error
        leave the ``async with`` and handle it outside."""

    @abc.abstractmethod
    async def load(self, game_id: int, *, rounds: int | None = None) -> GameRecord | None:
        """The game row, seats, events and latest snapshot, read in one snapshot.

        ``rounds``: only the events from the deal of the ``rounds``-th latest round snapshot
        on (the current round's for 1), so a read late in a long match costs what the last
        rounds cost, not the whole log; the record is then a tail (see
        :attr:`GameRecord.is_tail`). A game with fewer snapshots reads its whole log."""

    @abc.abstractmethod
    async def integrity_check(self) -> str:
        """``"ok"``, or what the database found wrong."""

    @abc.abstractmethod
    async def claim_due(
        self, now: datetime, limit: int, owner: str, lease: timedelta
    ) -> list[DueRow]:
        """Due scheduled work, each row handed to exactly one caller for ``lease``.

        The scheduler of a cluster calls this instead of reading due rows: a row claimed by
        one process is not handed to another until the claim expires, so a reminder or a
        timeout fires once even with several processes, and work held by a process that died
        is taken over after ``lease``. Finishing or re-planning the row (``finish_due``,
        ``move_due``, a new turn) ends the claim. ``owner`` names the claimer (a process id).
        """

    @abc.abstractmethod
    async def release_claims(self, owner: str) -> int:
        """Give back every row ``owner`` claimed and has not finished (a graceful stop), so
        another process takes them at once instead of after the lease; how many."""

    @abc.abstractmethod
    async def columns(self, table: str) -> list[str]:
        """The table's columns in order ([] when the table does not exist), for copying."""

    @abc.abstractmethod
    async def finish_import(self) -> None:
        """After rows were copied in with their ids: let new games number after them."""

    @abc.abstractmethod
    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """Rows of one read (for the store's own modules)."""

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        rows = await self._all(sql, params)
        return rows[0] if rows else None

    # The feature stores beside this one (bot/store/stats.py, schedule.py) read through these.
    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return await self._all(sql, params)

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return await self._one(sql, params)

    async def compact_finished(self, batch: int) -> int:
        """Compact the logs of up to ``batch`` finished matches that still keep every event
        (finished before their last move compacted them: before the ``event_archive``
        migration), each in its own transaction (:meth:`Tx.archive_events`). Returns how
        many; start-up calls it until 0 (``MexicanTrainBot._compact_old_matches``). Another
        process compacting the same match first is not an error: that match is done."""
        rows = await self._all(
            "SELECT g.id FROM games g WHERE g.status = 'finished' "
            "AND EXISTS (SELECT 1 FROM events e WHERE e.game_id = g.id) ORDER BY g.id LIMIT ?",
            (batch,),
        )
        for (game_id,) in rows:
            with contextlib.suppress(IntegrityRefused, Conflict):
                async with self.transaction() as tx:
                    await tx.archive_events(int(game_id))
        return len(rows)

    # ------------------------------------------------------------------ shared reads

    async def count_games(self) -> dict[str, int]:
        """Games per status (``lobby``, ``active``…): one cheap read, for metrics and health."""
        rows = await self._all("SELECT status, count(*) FROM games GROUP BY status")
        return {str(status): int(n) for status, n in rows}

    async def version(self, game_id: int) -> int | None:
        """The game's change counter (None: no such game); cheap, for cache checks."""
        row = await self._one("SELECT version FROM games WHERE id = ?", (game_id,))
        return None if row is None else int(row[0])

    async def game(self, game_id: int) -> GameRow | None:
        row = await self._one(f"SELECT {GAME_COLS} FROM games WHERE id = ?", (game_id,))
        return None if row is None else game_row(row)

    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self._all(
            f"SELECT {SEAT_COLS} FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
        )
        return [seat_row(r) for r in rows]

    async def seats_of(self, game_ids: Iterable[int]) -> dict[int, list[SeatRow]]:
        ids = sorted(set(game_ids))
        out: dict[int, list[SeatRow]] = {g: [] for g in ids}
        if not ids:
            return out
        marks = ",".join("?" * len(ids))
        rows = await self._all(
            f"SELECT {SEAT_COLS} FROM seats WHERE game_id IN ({marks}) ORDER BY game_id, seat",
            ids,
        )
        for r in rows:
            out[r[0]].append(seat_row(r))
        return out

    async def last_seq(self, game_id: int) -> int:
        row = await self._one(
            "SELECT COALESCE((SELECT MAX(seq) FROM events WHERE game_id = ?), "
            "(SELECT count FROM event_archive WHERE game_id = ?), 0)",
            (game_id, game_id),
        )
        return 0 if row is None or row[0] is None else int(row[0])

    async def unfinished_in_channel(self, channel_id: int) -> GameRow | None:
        row = await self._one(
            f"SELECT {GAME_COLS} FROM games WHERE channel_id = ? AND status IN {UNFINISHED_SQL}",
            (channel_id,),
        )
        return None if row is None else game_row(row)

    async def newest_in_channel(self, guild_id: int, channel_id: int) -> GameRow | None:
        """The channel's most recently opened game, whatever its status (through the
        ``games_by_guild`` index: the server narrows the search)."""
        row = await self._one(
            f"SELECT {GAME_COLS} FROM games WHERE guild_id = ? AND channel_id = ? "
            "ORDER BY id DESC LIMIT 1",
            (guild_id, channel_id),
        )
        return None if row is None else game_row(row)

    async def unfinished_for_user(self, user_id: int) -> list[GameRow]:
        """Unfinished games where ``user_id`` holds a seat (not one a computer took over)."""
        rows = await self._all(
            f"SELECT {', '.join('g.' + c.strip() for c in GAME_COLS.split(','))} "
            "FROM games g JOIN seats s ON s.game_id = g.id "
            f"WHERE s.user_id = ? AND s.computer IS NULL AND g.status IN {UNFINISHED_SQL} "
            "ORDER BY g.updated_at DESC",
            (user_id,),
        )
        return [game_row(r) for r in rows]

    async def unfinished_places(self) -> list[tuple[int, int, int]]:
        """``(game, server, channel)`` of every unfinished game (checked against Discord when
        the bot connects: a thread archived or a channel deleted while it was away)."""
        rows = await self._all(
            f"SELECT id, guild_id, channel_id FROM games WHERE status IN {UNFINISHED_SQL} "
            "ORDER BY id"
        )
        return [(int(r[0]), int(r[1]), int(r[2])) for r in rows]

    async def computer_turns(self) -> list[int]:
        """Active games waiting on a computer player (after a restart, or paced play)."""
        rows = await self._all(
            "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id AND s.seat = g.turn_seat "
            "WHERE g.status = 'active' AND s.computer IS NOT NULL ORDER BY g.id"
        )
        return [int(r[0]) for r in rows]

    async def due_deadlines(self, now: datetime) -> list[GameRow]:
        """Active games whose current turn's deadline has passed, oldest first."""
        rows = await self._all(
            f"SELECT {GAME_COLS} FROM games WHERE status = 'active' AND deadline_at IS NOT NULL "
            "AND deadline_at <= ? ORDER BY deadline_at",
            (to_db_time(now),),
        )
        return [game_row(r) for r in rows]

    async def messages(self, game_id: int) -> list[MessageRow]:
        rows = await self._all(
            "SELECT game_id, kind, channel_id, message_id, updated_at FROM messages "
            "WHERE game_id = ? ORDER BY kind",
            (game_id,),
        )
        return [MessageRow(r[0], r[1], r[2], r[3], from_db_time(r[4])) for r in rows]

    async def user_settings(self, user_id: int) -> UserSettings:
        row = await self._one(
            "SELECT user_id, dms_open, hand_dms, reminders, reminder_after_s, time_zone, "
            "language, tiles, dm_channel_id, ping, autoplay FROM user_settings WHERE user_id = ?",
            (user_id,),
        )
        if row is None:
            return UserSettings(user_id)
        return UserSettings(
            row[0],
            bool(row[1]),
            bool(row[2]),
            bool(row[3]),
            row[4],
            row[5],
            row[6],
            row[7],
            row[8],
            row[9],
            row[10],
        )

    async def order(self, game_id: int, user_id: int) -> OrderRow | None:
        """``user_id``'s standing order in ``game_id`` (issue 46), if they have one."""
        row = await self._one(
            "SELECT game_id, user_id, round_no, tiles, stops, log_from, waits, note FROM orders "
            "WHERE game_id = ? AND user_id = ?",
            (game_id, user_id),
        )
        if row is None:
            return None
        return OrderRow(row[0], row[1], row[2], row[3], row[4], row[5], bool(row[6]), row[7])

    async def last_move_by(self, game_id: int, user_id: int) -> int:
        """The seq of ``user_id``'s last move of their own in ``game_id`` (0: none)."""
        row = await self._one(
            "SELECT MAX(seq) FROM events WHERE game_id = ? AND actor = ? AND kind = 'move'",
            (game_id, user_id),
        )
        return 0 if row is None or row[0] is None else int(row[0])

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        row = await self._one(
            "SELECT guild_id, preset, house_rules, allowed_channels, host_role_id, threads "
            "FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        )
        if row is None:
            return GuildSettings(guild_id)
        return GuildSettings(
            row[0],
            row[1],
            dict(json.loads(row[2])),
            tuple(json.loads(row[3])),
            row[4],
            bool(row[5]),
        )

    async def results_for_user(self, user_id: int) -> list[tuple[int, ResultRow]]:
        rows = await self._all(
            "SELECT game_id, seat, user_id, computer, total, place, won, rounds_won "
            "FROM results WHERE user_id = ? ORDER BY finished_at",
            (user_id,),
        )
        return [(r[0], ResultRow(r[1], r[2], r[3], r[4], r[5], bool(r[6]), r[7])) for r in rows]

    async def meta(self, key: str) -> str | None:
        """One installation fact from ``meta`` (None when never written)."""
        row = await self._one("SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else str(row[0])

    # ------------------------------------------------------------------ whole tables

    async def game_ids(self) -> list[int]:
        """Every game's id, in order (for copies and audits)."""
        return [int(r[0]) for r in await self._all("SELECT id FROM games ORDER BY id")]

    async def table_rows(self, table: str, columns: Sequence[str]) -> list[Sequence[Any]]:
        """Every row of one of :data:`COPY_TABLES`, in key order (for ``store copy``)."""
        if table not in COPY_TABLES:
            raise ValueError(f"{table} is not a table the store copies")
        cols = ", ".join(columns)
        return await self._all(f"SELECT {cols} FROM {table} ORDER BY {cols}")

    async def is_empty(self) -> bool:
        """No row in any table a copy would write (the destination check of ``store copy``)."""
        for table in COPY_TABLES:
            if await self.columns(table) and await self._one(f"SELECT 1 FROM {table} LIMIT 1"):
                return False
        return True


@dataclasses.dataclass(frozen=True, slots=True)
class OpenOptions:
    """What opening a store may be told; each store takes what applies to it."""

    synchronous: Literal["NORMAL", "FULL"] = "FULL"
    busy_timeout_ms: int = 5000
    pool_size: int = 10
    #: Check the database before using it (SQLite: ``PRAGMA quick_check``, which reads every
    #: page): what start-up and ``python -m bot init`` ask for, so a damaged file is one line
    #: at start instead of an error at some later move.
    check: bool = False


#: How a store of each kind is opened from its target (a path or a URL). Filled in by
#: bot.store.sqlite and bot.store.postgres when the package is imported: they build on this
#: module, so it names them through this table instead of importing them.
OPENERS: dict[StoreKind, Callable[[str | Path, OpenOptions], Awaitable[Store]]] = {}


async def open_store(
    target: Config | str | Path,
    *,
    synchronous: Literal["NORMAL", "FULL"] | None = None,
    busy_timeout_ms: int | None = None,
    pool_size: int = 10,
    check: bool = False,
) -> Store:
    """The one way to open a store: a :class:`Config`, a ``postgresql://`` URL (PostgreSQL) or
    a path (an SQLite file, created with its directory if needed). Migrates to the current
    schema; raises :class:`SchemaTooNew` for a database a newer release wrote, and
    :class:`StoreError` (one line) for one that cannot be used: a file that is not a database
    or fails the ``check``, a server that refuses the login (:class:`StoreUnreachable` when it
    cannot be reached at all)."""
    if isinstance(target, Config):
        synchronous = synchronous or target.synchronous
        busy_timeout_ms = target.busy_timeout_ms if busy_timeout_ms is None else busy_timeout_ms
        target = target.database_url or target.database
    kind: StoreKind = (
        "postgresql" if isinstance(target, str) and is_postgres_url(target) else "sqlite"
    )
    options = OpenOptions(
        synchronous=synchronous or "FULL",
        busy_timeout_ms=5000 if busy_timeout_ms is None else busy_timeout_ms,
        pool_size=pool_size,
        check=check,
    )
    return await OPENERS[kind](target, options)
