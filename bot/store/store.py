"""The SQLite store: one file, WAL, one writer connection, the append-only event log.

:class:`Store` owns two aiosqlite connections to the same file. The *writer* is the only one
that changes anything, and only inside :meth:`Store.transaction` (``BEGIN IMMEDIATE … COMMIT``,
rolled back on any exception, cancellation included), serialised by an asyncio lock so two
coroutines can never interleave statements in one transaction. The *reader* is
``query_only``: reads never see another coroutine's uncommitted writes, and a long read (a cold
game load) does not hold up commits. Several processes on one file are safe too: SQLite's own
locks serialise the writers, ``busy_timeout`` makes them wait, and the ``(game_id, seq)``
primary key refuses the second of two appends that both read the same seq (:class:`Conflict`).

The store knows rows, not rules: it never imports the engine. Replaying events is the
service's job.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import enum
import json
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

import aiosqlite

from bot.config import Config
from bot.store.schema import MIGRATIONS, SCHEMA_VERSION


class StoreError(Exception):
    """Something the database refused or could not do."""


class SchemaTooNew(StoreError):
    """The file was written by a newer version of the bot; opening it could damage it."""


class Conflict(StoreError):
    """Another writer changed the game first (the optimistic lock lost); nothing was written."""


class ChannelBusy(StoreError):
    """The channel already has an unfinished game (the unique partial index said so)."""


class GameStatus(enum.StrEnum):
    LOBBY = "lobby"
    ACTIVE = "active"
    FINISHED = "finished"
    ABANDONED = "abandoned"

    @property
    def unfinished(self) -> bool:
        return self in (GameStatus.LOBBY, GameStatus.ACTIVE)


_UNFINISHED = "('lobby', 'active')"


def to_db_time(when: datetime) -> str:
    """A time as stored: UTC, microseconds, fixed width (so text order is time order)."""
    if when.tzinfo is None:
        raise ValueError("times given to the store must be timezone-aware")
    return when.astimezone(UTC).isoformat(timespec="microseconds")


def from_db_time(text: str) -> datetime:
    return datetime.fromisoformat(text)


def _opt_time(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


# ---------------------------------------------------------------------------- rows


@dataclasses.dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    guild_id: int
    channel_id: int
    host_id: int
    preset: str
    rules_json: str
    engine_version: int
    status: GameStatus
    version: int
    turn_seat: int | None
    round_no: int | None
    turn_deadline_s: int | None
    hints: bool
    created_at: datetime
    updated_at: datetime
    deadline_at: datetime | None
    turn_since: datetime | None


_GAME_COLS = (
    "id, guild_id, channel_id, host_id, preset, rules, engine_version, status, version, "
    "turn_seat, round_no, turn_deadline_s, hints, created_at, updated_at, deadline_at, turn_since"
)


def _game(r: Sequence[Any]) -> GameRow:
    return GameRow(
        id=r[0],
        guild_id=r[1],
        channel_id=r[2],
        host_id=r[3],
        preset=r[4],
        rules_json=r[5],
        engine_version=r[6],
        status=GameStatus(r[7]),
        version=r[8],
        turn_seat=r[9],
        round_no=r[10],
        turn_deadline_s=r[11],
        hints=bool(r[12]),
        created_at=from_db_time(r[13]),
        updated_at=from_db_time(r[14]),
        deadline_at=_opt_time(r[15]),
        turn_since=_opt_time(r[16]),
    )


@dataclasses.dataclass(frozen=True, slots=True)
class SeatRow:
    game_id: int
    seat: int
    #: The human who sits (or sat, before a computer took over) here; None for a computer.
    user_id: int | None
    display_name: str
    #: The computer level playing this seat ("easy", "normal", "hard"), None for a human.
    computer: str | None
    joined_at: datetime


_SEAT_COLS = "game_id, seat, user_id, display_name, computer, joined_at"


def _seat(r: Sequence[Any]) -> SeatRow:
    return SeatRow(r[0], r[1], r[2], r[3], r[4], from_db_time(r[5]))


@dataclasses.dataclass(frozen=True, slots=True)
class EventRow:
    game_id: int
    seq: int
    kind: str
    payload: str
    actor: int | None
    at: str


@dataclasses.dataclass(frozen=True, slots=True)
class NewEvent:
    """An event to append: ``payload`` is JSON text; ``actor`` the acting user (None: the
    bot itself, e.g. a deal or a computer player's move)."""

    kind: str
    payload: str
    actor: int | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class GameRecord:
    """One game as stored, read in one snapshot: the row, its seats, its events."""

    game: GameRow
    seats: tuple[SeatRow, ...]
    events: tuple[EventRow, ...]
    #: The latest round snapshot, (seq of its deal event, rounds JSON), if any.
    snapshot: tuple[int, str] | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class MessageRow:
    game_id: int
    kind: str
    channel_id: int
    message_id: int
    updated_at: datetime


@dataclasses.dataclass(frozen=True, slots=True)
class UserSettings:
    user_id: int
    dms_open: bool = True
    hand_dms: bool = True
    reminders: bool = True
    reminder_after_s: int = 12 * 3600
    time_zone: str = "UTC"
    language: str = "en"
    #: How the tiles of their own pictures are drawn: ``pips`` or ``numerals``.
    tiles: str = "pips"


@dataclasses.dataclass(frozen=True, slots=True)
class GuildSettings:
    guild_id: int
    preset: str = "standard"
    house_rules: dict[str, Any] = dataclasses.field(default_factory=dict)
    allowed_channels: tuple[int, ...] = ()
    host_role_id: int | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class ResultRow:
    seat: int
    user_id: int | None
    computer: str | None
    total: int
    place: int
    won: bool
    rounds_won: int


# ---------------------------------------------------------------------------- the store


class Store:
    """The database. Build with ``await Store.open(path)``; close with :meth:`close`."""

    def __init__(self, path: Path, writer: aiosqlite.Connection, reader: aiosqlite.Connection):
        self.path = path
        self._writer = writer
        self._reader = reader
        self._write_lock = asyncio.Lock()
        self._read_lock = asyncio.Lock()

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        synchronous: Literal["NORMAL", "FULL"] = "FULL",
        busy_timeout_ms: int = 5000,
    ) -> Store:
        """Open (creating the directory and file if needed) and migrate to the current schema.

        ``synchronous``: with WAL, NORMAL never corrupts and survives a killed process, but a
        power cut or OS crash may lose the last commits; FULL syncs the WAL at every commit so
        an acknowledged move survives those too. It costs well under a millisecond per commit
        on an SSD, so FULL is the default (see ``bot/config.py``).
        """
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        writer = await aiosqlite.connect(path, isolation_level=None)
        reader: aiosqlite.Connection | None = None
        try:
            await writer.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            # Refuse a newer file before touching it in any way (even switching to WAL).
            found = await _user_version(writer)
            if found > SCHEMA_VERSION:
                raise SchemaTooNew(
                    f"{path} has database schema version {found}, but this version of the bot "
                    f"only knows up to version {SCHEMA_VERSION}: it was written by a newer "
                    f"release. Run that release (or newer), or point MT_DATABASE at another file."
                )
            mode = await _scalar(writer, "PRAGMA journal_mode = WAL")
            if str(mode).lower() != "wal":
                raise StoreError(f"{path}: SQLite refused WAL mode (journal_mode is {mode})")
            await writer.execute(f"PRAGMA synchronous = {synchronous}")
            await writer.execute("PRAGMA foreign_keys = ON")
            await _migrate(writer, path)
            reader = await aiosqlite.connect(path, isolation_level=None)
            await reader.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            await reader.execute("PRAGMA query_only = ON")
        except BaseException:
            await writer.close()
            if reader is not None:
                await reader.close()
            raise
        return cls(path, writer, reader)

    @classmethod
    async def from_config(cls, config: Config) -> Store:
        """Open the database the configuration names (``MT_DATABASE`` and friends)."""
        return await cls.open(
            config.database,
            synchronous=config.synchronous,
            busy_timeout_ms=config.busy_timeout_ms,
        )

    async def close(self) -> None:
        async with self._write_lock, self._read_lock:
            await self._reader.close()
            # Fold the WAL into the database so a stopped bot leaves one self-contained file
            # (closing the last connection usually does this; say it, and never fail on it).
            with contextlib.suppress(sqlite3.Error):
                await self._writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            await self._writer.close()

    async def count_games(self) -> dict[str, int]:
        """Games per status (``lobby``, ``active``…): one cheap read, for metrics and health."""
        rows = await self._all("SELECT status, count(*) FROM games GROUP BY status")
        return {str(status): int(n) for status, n in rows}

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ------------------------------------------------------------------ writing

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """``BEGIN IMMEDIATE … COMMIT`` on the writer; any exception rolls everything back."""
        async with self._write_lock:
            await self._writer.execute("BEGIN IMMEDIATE")
            try:
                yield Tx(self._writer)
                await self._writer.execute("COMMIT")
            except BaseException:
                # After a cancelled COMMIT the commit may still have run: nothing to roll back.
                with contextlib.suppress(sqlite3.Error):
                    await self._writer.execute("ROLLBACK")
                raise

    # ------------------------------------------------------------------ reading

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        async with self._read_lock:
            return list(await self._reader.execute_fetchall(sql, params))

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        rows = await self._all(sql, params)
        return rows[0] if rows else None

    # The feature stores beside this one (bot/store/stats.py, schedule.py) read through these.
    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return await self._all(sql, params)

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return await self._one(sql, params)

    async def version(self, game_id: int) -> int | None:
        """The game's change counter (None: no such game); cheap, for cache checks."""
        row = await self._one("SELECT version FROM games WHERE id = ?", (game_id,))
        return None if row is None else int(row[0])

    async def game(self, game_id: int) -> GameRow | None:
        row = await self._one(f"SELECT {_GAME_COLS} FROM games WHERE id = ?", (game_id,))
        return None if row is None else _game(row)

    async def load(self, game_id: int) -> GameRecord | None:
        """The game row, seats and events, read in one snapshot (a read transaction)."""
        async with self._read_lock:
            r = self._reader
            await r.execute("BEGIN")
            try:
                rows = list(
                    await r.execute_fetchall(
                        f"SELECT {_GAME_COLS} FROM games WHERE id = ?", (game_id,)
                    )
                )
                if not rows:
                    return None
                seats = await r.execute_fetchall(
                    f"SELECT {_SEAT_COLS} FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
                )
                events = await r.execute_fetchall(
                    "SELECT game_id, seq, kind, payload, actor, at FROM events "
                    "WHERE game_id = ? ORDER BY seq",
                    (game_id,),
                )
                snapshot = list(
                    await r.execute_fetchall(
                        "SELECT seq, rounds FROM round_snapshots WHERE game_id = ? "
                        "ORDER BY seq DESC LIMIT 1",
                        (game_id,),
                    )
                )
            finally:
                await r.execute("COMMIT")
        return GameRecord(
            _game(rows[0]),
            tuple(_seat(s) for s in seats),
            tuple(EventRow(*e) for e in events),
            (int(snapshot[0][0]), str(snapshot[0][1])) if snapshot else None,
        )

    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self._all(
            f"SELECT {_SEAT_COLS} FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
        )
        return [_seat(r) for r in rows]

    async def seats_of(self, game_ids: Iterable[int]) -> dict[int, list[SeatRow]]:
        ids = sorted(set(game_ids))
        out: dict[int, list[SeatRow]] = {g: [] for g in ids}
        if not ids:
            return out
        marks = ",".join("?" * len(ids))
        rows = await self._all(
            f"SELECT {_SEAT_COLS} FROM seats WHERE game_id IN ({marks}) ORDER BY game_id, seat",
            ids,
        )
        for r in rows:
            out[r[0]].append(_seat(r))
        return out

    async def last_seq(self, game_id: int) -> int:
        row = await self._one("SELECT MAX(seq) FROM events WHERE game_id = ?", (game_id,))
        return 0 if row is None or row[0] is None else int(row[0])

    async def unfinished_in_channel(self, channel_id: int) -> GameRow | None:
        row = await self._one(
            f"SELECT {_GAME_COLS} FROM games WHERE channel_id = ? AND status IN {_UNFINISHED}",
            (channel_id,),
        )
        return None if row is None else _game(row)

    async def unfinished_for_user(self, user_id: int) -> list[GameRow]:
        """Unfinished games where ``user_id`` holds a seat (not one a computer took over)."""
        rows = await self._all(
            f"SELECT {', '.join('g.' + c.strip() for c in _GAME_COLS.split(','))} "
            "FROM games g JOIN seats s ON s.game_id = g.id "
            f"WHERE s.user_id = ? AND s.computer IS NULL AND g.status IN {_UNFINISHED} "
            "ORDER BY g.updated_at DESC",
            (user_id,),
        )
        return [_game(r) for r in rows]

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
            f"SELECT {_GAME_COLS} FROM games WHERE status = 'active' AND deadline_at IS NOT NULL "
            "AND deadline_at <= ? ORDER BY deadline_at",
            (to_db_time(now),),
        )
        return [_game(r) for r in rows]

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
            "language, tiles FROM user_settings WHERE user_id = ?",
            (user_id,),
        )
        if row is None:
            return UserSettings(user_id)
        return UserSettings(
            row[0], bool(row[1]), bool(row[2]), bool(row[3]), row[4], row[5], row[6], row[7]
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

    async def meta(self, key: str) -> str | None:
        """One installation fact from ``meta`` (None when never written)."""
        row = await self._one("SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else str(row[0])

    async def integrity_check(self) -> str:
        row = await self._one("PRAGMA integrity_check")
        return str(row[0])


class Tx:
    """The statements allowed inside :meth:`Store.transaction` (all on the writer)."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._c = conn

    @property
    def connection(self) -> aiosqlite.Connection:
        """The writer, for the feature stores' own statements in this transaction."""
        return self._c

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
            cur = await self._c.execute(
                "INSERT INTO games (guild_id, channel_id, host_id, preset, rules, "
                "engine_version, status, version, turn_deadline_s, hints, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, 'lobby', 1, ?, ?, ?, ?)",
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
        except sqlite3.IntegrityError as exc:
            if "games.channel_id" in str(exc):
                raise ChannelBusy(f"channel {channel_id} already has an unfinished game") from exc
            raise
        assert cur.lastrowid is not None
        return cur.lastrowid

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
            params.append(value)
        params += [game_id, expected_version]
        try:
            cur = await self._c.execute(
                f"UPDATE games SET {', '.join(sets)} WHERE id = ? AND version = ?", params
            )
        except sqlite3.IntegrityError as exc:
            if "games.channel_id" in str(exc):
                raise ChannelBusy("the channel already has an unfinished game") from exc
            raise
        if cur.rowcount != 1:
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
                f"INSERT INTO seats ({_SEAT_COLS}) VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, seat, user_id, display_name, computer, to_db_time(now)),
            )
        except sqlite3.IntegrityError as exc:
            raise Conflict(f"seat {seat} of game {game_id}: {exc}") from exc

    async def delete_seat(self, game_id: int, seat: int) -> None:
        await self._c.execute("DELETE FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat))

    async def replace_seats(self, game_id: int, seats: Sequence[SeatRow]) -> None:
        """Renumber the seats (the lobby's join order becomes the table's seat order)."""
        await self._c.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
        await self._c.executemany(
            f"INSERT INTO seats ({_SEAT_COLS}) VALUES (?, ?, ?, ?, ?, ?)",
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
        except sqlite3.IntegrityError as exc:
            raise Conflict(f"game {game_id}: seq {first_seq} is already taken") from exc

    async def put_snapshots(self, game_id: int, snapshots: Sequence[tuple[int, str]]) -> None:
        """Round snapshots as (seq of the deal event, rounds JSON); see the schema."""
        await self._c.executemany(
            "INSERT OR REPLACE INTO round_snapshots (game_id, seq, rounds) VALUES (?, ?, ?)",
            [(game_id, seq, rounds) for seq, rounds in snapshots],
        )

    async def write_results(self, game_id: int, rows: Sequence[ResultRow], now: datetime) -> None:
        at = to_db_time(now)
        await self._c.executemany(
            "INSERT OR REPLACE INTO results (game_id, seat, user_id, computer, total, place, won,"
            " rounds_won, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
            "INSERT INTO messages (game_id, kind, channel_id, message_id, updated_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, kind) DO UPDATE SET "
            "channel_id = excluded.channel_id, message_id = excluded.message_id, "
            "updated_at = excluded.updated_at",
            (game_id, kind, channel_id, message_id, to_db_time(now)),
        )

    async def put_meta(self, key: str, value: str) -> None:
        await self._c.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    async def put_user_settings(self, s: UserSettings, now: datetime) -> None:
        await self._c.execute(
            "INSERT OR REPLACE INTO user_settings (user_id, dms_open, hand_dms, reminders, "
            "reminder_after_s, time_zone, language, tiles, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                s.user_id,
                int(s.dms_open),
                int(s.hand_dms),
                int(s.reminders),
                s.reminder_after_s,
                s.time_zone,
                s.language,
                s.tiles,
                to_db_time(now),
            ),
        )

    async def put_guild_settings(self, s: GuildSettings, now: datetime) -> None:
        await self._c.execute(
            "INSERT OR REPLACE INTO guild_settings (guild_id, preset, house_rules, "
            "allowed_channels, host_role_id, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
            (
                s.guild_id,
                s.preset,
                json.dumps(s.house_rules, sort_keys=True),
                json.dumps(list(s.allowed_channels)),
                s.host_role_id,
                to_db_time(now),
            ),
        )


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


# ---------------------------------------------------------------------------- migrations


async def _scalar(conn: aiosqlite.Connection, sql: str) -> Any:
    rows = list(await conn.execute_fetchall(sql))
    return rows[0][0] if rows else None


async def _user_version(conn: aiosqlite.Connection) -> int:
    return int(await _scalar(conn, "PRAGMA user_version"))


async def _migrate(conn: aiosqlite.Connection, path: Path, upto: int = SCHEMA_VERSION) -> None:
    """Apply the missing migrations, each in its own ``BEGIN IMMEDIATE`` transaction.

    The version is re-read inside the transaction, so two processes opening one old file at
    once apply each migration exactly once.
    """
    for number, statements in enumerate(MIGRATIONS[:upto], start=1):
        await conn.execute("BEGIN IMMEDIATE")
        try:
            found = await _user_version(conn)
            if found > SCHEMA_VERSION:
                raise SchemaTooNew(f"{path} was upgraded to schema {found} by a newer release")
            if found < number:
                for sql in statements:
                    await conn.execute(sql)
                await conn.execute(f"PRAGMA user_version = {number}")
            await conn.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                await conn.execute("ROLLBACK")
            raise
