"""The store interface: what the service types against, and the SQL both databases share.

:class:`Store` is what every caller holds. Two classes implement it: :class:`~bot.store.sqlite.
SQLiteStore` (one file, the embedded default) and :class:`~bot.store.postgres.PgStore` (a
server several bot processes share); :func:`open_store` picks one from ``MT_DATABASE`` (a path
or a ``postgresql://`` URL). Both keep the same event-log design: the ``(game_id, seq)`` primary
key is the optimistic lock, every change is one transaction that checks the game's version, the
log is append-only, and a channel has at most one unfinished game (a unique partial index).

The reads here and every write of :class:`Tx` are written once, in SQL both databases speak,
with ``?`` placeholders, over a :class:`Conn` each store provides (the PostgreSQL one numbers
the placeholders). What differs — opening, migrations, snapshot reads, cross-process guards,
integrity checks — lives in each store's module. The store knows rows, not rules: it never
imports the engine. Replaying events is the service's job.
"""

from __future__ import annotations

import abc
import contextlib
import enum
import json
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Literal, Protocol

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
    ResultRow,
    SchemaTooNew,
    SeatRow,
    StoreError,
    UserSettings,
    from_db_time,
    game_row,
    opt_time,
    seat_row,
    to_db_time,
)

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
    "ResultRow",
    "SchemaTooNew",
    "SeatRow",
    "Store",
    "StoreError",
    "Tx",
    "UserSettings",
    "from_db_time",
    "open_store",
    "opt_time",
    "to_db_time",
    "upsert_sql",
]

StoreKind = Literal["sqlite", "postgresql"]

#: Every table a game or a setting lives in, parents before children (the order ``store
#: copy`` writes them in). ``meta`` is the key/value table of schema 7; a store without it
#: (an older SQLite file) simply has nothing to copy there.
COPY_TABLES: tuple[str, ...] = (
    "games",
    "seats",
    "events",
    "round_snapshots",
    "messages",
    "reminders",
    "results",
    "player_stats",
    "game_schedule",
    "due_work",
    "user_settings",
    "user_schedule",
    "guild_settings",
    "guild_schedule",
    "guild_language",
    "meta",
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


_PUT_RESULT = upsert_sql(
    "results",
    [
        "game_id",
        "seat",
        "user_id",
        "computer",
        "total",
        "place",
        "won",
        "rounds_won",
        "finished_at",
    ],
    ("game_id", "seat"),
)
_PUT_USER_SETTINGS = upsert_sql(
    "user_settings",
    [
        "user_id",
        "dms_open",
        "hand_dms",
        "reminders",
        "reminder_after_s",
        "time_zone",
        "language",
        "updated_at",
    ],
    ("user_id",),
)
_PUT_GUILD_SETTINGS = upsert_sql(
    "guild_settings",
    ["guild_id", "preset", "house_rules", "allowed_channels", "host_role_id", "updated_at"],
    ("guild_id",),
)

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
    async def load(self, game_id: int) -> GameRecord | None:
        """The game row, seats, events and latest snapshot, read in one snapshot."""

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
        row = await self._one("SELECT MAX(seq) FROM events WHERE game_id = ?", (game_id,))
        return 0 if row is None or row[0] is None else int(row[0])

    async def unfinished_in_channel(self, channel_id: int) -> GameRow | None:
        row = await self._one(
            f"SELECT {GAME_COLS} FROM games WHERE channel_id = ? AND status IN {UNFINISHED_SQL}",
            (channel_id,),
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
            "language FROM user_settings WHERE user_id = ?",
            (user_id,),
        )
        if row is None:
            return UserSettings(user_id)
        return UserSettings(
            row[0], bool(row[1]), bool(row[2]), bool(row[3]), row[4], row[5], row[6]
        )

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        row = await self._one(
            "SELECT guild_id, preset, house_rules, allowed_channels, host_role_id "
            "FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        )
        if row is None:
            return GuildSettings(guild_id)
        return GuildSettings(
            row[0], row[1], dict(json.loads(row[2])), tuple(json.loads(row[3])), row[4]
        )

    async def results_for_user(self, user_id: int) -> list[tuple[int, ResultRow]]:
        rows = await self._all(
            "SELECT game_id, seat, user_id, computer, total, place, won, rounds_won "
            "FROM results WHERE user_id = ? ORDER BY finished_at",
            (user_id,),
        )
        return [(r[0], ResultRow(r[1], r[2], r[3], r[4], r[5], bool(r[6]), r[7])) for r in rows]

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


class Tx:
    """The statements allowed inside :meth:`Store.transaction`, on that transaction's
    connection; the same SQL for both databases."""

    def __init__(self, conn: Conn, kind: StoreKind) -> None:
        self._c = conn
        self.kind = kind

    async def lock_game(self, game_id: int) -> None:
        """Hold the game until this transaction ends: another process's ``lock_game`` of the
        same game waits here, so read-check-write runs one process at a time per game.

        Without it, two processes that validated a move against the same table both try to
        append the same seq; the key lets one land and the other gets :class:`Conflict`
        (then reloads and retries or tells the player). With it, the second waits and then
        reads the first one's result, at the cost of one more round trip per change; see
        docs/postgresql.md for the measured trade-off. PostgreSQL: a transaction-scoped
        advisory lock keyed by the game id (released by commit or rollback, even when the
        process dies). SQLite: nothing to do, ``BEGIN IMMEDIATE`` already holds the file's
        one write lock for the whole transaction.
        """
        if self.kind == "postgresql":
            await self._c.fetch("SELECT pg_advisory_xact_lock(CAST(? AS BIGINT))", (game_id,))

    async def try_lock_game(self, game_id: int) -> bool:
        """Like :meth:`lock_game`, but never waits: False when another process holds the game
        (so it is already doing this work: e.g. resuming a computer player's turn)."""
        if self.kind != "postgresql":
            return True
        rows = await self._c.fetch(
            "SELECT pg_try_advisory_xact_lock(CAST(? AS BIGINT))", (game_id,)
        )
        return bool(rows[0][0])

    async def game_version(self, game_id: int) -> int | None:
        """The game's version read inside this transaction (None: no such game). After
        :meth:`lock_game` this is the version no other process can change until commit: the
        check that the cached game is still current, made under the lock."""
        rows = await self._c.fetch("SELECT version FROM games WHERE id = ?", (game_id,))
        return int(rows[0][0]) if rows else None

    async def insert_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        preset: str,
        rules_json: str,
        engine_version: int,
        turn_deadline_s: int | None,
        hints: bool,
        now: datetime,
    ) -> int:
        at = to_db_time(now)
        try:
            rows = await self._c.fetch(
                "INSERT INTO games (guild_id, channel_id, host_id, preset, rules, "
                "engine_version, status, version, turn_deadline_s, hints, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, 'lobby', 1, ?, ?, ?, ?) RETURNING id",
                (
                    guild_id,
                    channel_id,
                    host_id,
                    preset,
                    rules_json,
                    engine_version,
                    turn_deadline_s,
                    int(hints),
                    at,
                    at,
                ),
            )
        except IntegrityRefused as exc:
            if exc.constraint == "games_one_open_per_channel":
                raise ChannelBusy(f"channel {channel_id} already has an unfinished game") from exc
            raise
        return int(rows[0][0])

    async def touch(
        self, game_id: int, expected_version: int, now: datetime, **columns: Any
    ) -> int:
        """Bump the game's version (if still ``expected_version``) and set ``columns``.

        Every change to a game goes through here, so a stale writer always gets
        :class:`Conflict` and never overwrites a newer state. Returns the new version.
        """
        sets = ["version = version + 1", "updated_at = ?"]
        params: list[Any] = [to_db_time(now)]
        for name, value in columns.items():
            if name not in _TOUCHABLE:
                raise ValueError(f"games.{name} is not changed through touch()")
            sets.append(f"{name} = ?")
            if isinstance(value, datetime):
                value = to_db_time(value)
            elif isinstance(value, enum.Enum):
                value = value.value
            elif isinstance(value, bool):
                value = int(value)
            params.append(value)
        params += [game_id, expected_version]
        try:
            changed = await self._c.execute(
                f"UPDATE games SET {', '.join(sets)} WHERE id = ? AND version = ?", params
            )
        except IntegrityRefused as exc:
            if exc.constraint == "games_one_open_per_channel":
                raise ChannelBusy("the channel already has an unfinished game") from exc
            raise
        if changed != 1:
            raise Conflict(f"game {game_id} changed (expected version {expected_version})")
        return expected_version + 1

    async def insert_seat(
        self,
        game_id: int,
        seat: int,
        *,
        user_id: int | None,
        display_name: str,
        computer: str | None,
        now: datetime,
    ) -> None:
        try:
            await self._c.execute(
                f"INSERT INTO seats ({SEAT_COLS}) VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, seat, user_id, display_name, computer, to_db_time(now)),
            )
        except IntegrityRefused as exc:
            raise Conflict(f"seat {seat} of game {game_id}: {exc}") from exc

    async def delete_seat(self, game_id: int, seat: int) -> None:
        await self._c.execute("DELETE FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat))

    async def replace_seats(self, game_id: int, seats: Sequence[SeatRow]) -> None:
        """Renumber the seats (the lobby's join order becomes the table's seat order)."""
        await self._c.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
        await self._c.executemany(
            f"INSERT INTO seats ({SEAT_COLS}) VALUES (?, ?, ?, ?, ?, ?)",
            [
                (game_id, s.seat, s.user_id, s.display_name, s.computer, to_db_time(s.joined_at))
                for s in seats
            ],
        )

    async def set_seat_computer(self, game_id: int, seat: int, computer: str | None) -> None:
        await self._c.execute(
            "UPDATE seats SET computer = ? WHERE game_id = ? AND seat = ?",
            (computer, game_id, seat),
        )

    async def append_events(
        self, game_id: int, first_seq: int, events: Sequence[NewEvent], now: datetime
    ) -> None:
        """Append ``events`` as seqs ``first_seq``, ``first_seq + 1``, …

        A seq already taken means another writer appended first: :class:`Conflict`, and the
        caller's transaction rolls back whole.
        """
        at = to_db_time(now)
        try:
            await self._c.executemany(
                "INSERT INTO events (game_id, seq, kind, payload, actor, at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (game_id, first_seq + i, e.kind, e.payload, e.actor, at)
                    for i, e in enumerate(events)
                ],
            )
        except IntegrityRefused as exc:
            raise Conflict(f"game {game_id}: seq {first_seq} is already taken") from exc

    async def put_snapshots(self, game_id: int, snapshots: Sequence[tuple[int, str]]) -> None:
        """Round snapshots as (seq of the deal event, rounds JSON); see the schema."""
        await self._c.executemany(
            upsert_sql("round_snapshots", ("game_id", "seq", "rounds"), ("game_id", "seq")),
            [(game_id, seq, rounds) for seq, rounds in snapshots],
        )

    async def write_results(self, game_id: int, rows: Sequence[ResultRow], now: datetime) -> None:
        at = to_db_time(now)
        await self._c.executemany(
            _PUT_RESULT,
            [
                (
                    game_id,
                    r.seat,
                    r.user_id,
                    r.computer,
                    r.total,
                    r.place,
                    int(r.won),
                    r.rounds_won,
                    at,
                )
                for r in rows
            ],
        )

    async def set_message(
        self, game_id: int, kind: str, channel_id: int, message_id: int, now: datetime
    ) -> None:
        await self._c.execute(
            upsert_sql(
                "messages",
                ("game_id", "kind", "channel_id", "message_id", "updated_at"),
                ("game_id", "kind"),
            ),
            (game_id, kind, channel_id, message_id, to_db_time(now)),
        )

    async def put_user_settings(self, s: UserSettings, now: datetime) -> None:
        await self._c.execute(
            _PUT_USER_SETTINGS,
            (
                s.user_id,
                int(s.dms_open),
                int(s.hand_dms),
                int(s.reminders),
                s.reminder_after_s,
                s.time_zone,
                s.language,
                to_db_time(now),
            ),
        )

    async def put_guild_settings(self, s: GuildSettings, now: datetime) -> None:
        await self._c.execute(
            _PUT_GUILD_SETTINGS,
            (
                s.guild_id,
                s.preset,
                json.dumps(s.house_rules, sort_keys=True),
                json.dumps(list(s.allowed_channels)),
                s.host_role_id,
                to_db_time(now),
            ),
        )

    async def insert_rows(
        self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]
    ) -> None:
        """Rows copied whole from another store (``store copy``), ids included."""
        if table not in COPY_TABLES:
            raise ValueError(f"{table} is not a table the store copies")
        marks = ", ".join("?" * len(columns))
        await self._c.executemany(
            f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows
        )

    async def clear_table(self, table: str) -> None:
        """Delete every row of a table the copy rewrites whole (``due_work``, which the games'
        triggers fill as the games are copied in)."""
        if table != "due_work":
            raise ValueError(f"{table} is not cleared by a copy")
        await self._c.execute(f"DELETE FROM {table}")


_TOUCHABLE = frozenset(
    {
        "status",
        "host_id",
        "turn_seat",
        "round_no",
        "deadline_at",
        "turn_since",
        "hints",
        "turn_deadline_s",
    }
)


async def open_store(
    target: Config | str | Path,
    *,
    synchronous: Literal["NORMAL", "FULL"] | None = None,
    busy_timeout_ms: int | None = None,
    pool_size: int = 10,
) -> Store:
    """The one way to open a store: a :class:`Config`, a ``postgresql://`` URL (PostgreSQL) or
    a path (an SQLite file, created with its directory if needed). Migrates to the current
    schema; raises :class:`SchemaTooNew` for a database a newer release wrote."""
    if isinstance(target, Config):
        synchronous = synchronous or target.synchronous
        busy_timeout_ms = target.busy_timeout_ms if busy_timeout_ms is None else busy_timeout_ms
        target = target.database_url or target.database
    if isinstance(target, str) and is_postgres_url(target):
        from bot.store.postgres import PgStore

        return await PgStore.connect(target, pool_size=pool_size)
    from bot.store.sqlite import SQLiteStore

    return await SQLiteStore.open_file(
        Path(target),
        synchronous=synchronous or "FULL",
        busy_timeout_ms=5000 if busy_timeout_ms is None else busy_timeout_ms,
    )
