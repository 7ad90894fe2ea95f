"""The SQLite store: one file, WAL, one writer connection, the append-only event log.

:class:`SQLiteStore` owns two aiosqlite connections to the same file. The *writer* is the only
one that changes anything, and only inside :meth:`SQLiteStore.transaction` (``BEGIN IMMEDIATE …
COMMIT``, rolled back on any exception, cancellation included), serialised by an asyncio lock
so two coroutines can never interleave statements in one transaction. The *reader* is
``query_only``: reads never see another coroutine's uncommitted writes, and a long read (a cold
game load) does not hold up commits. Several processes on one file are safe too: SQLite's own
locks serialise the writers, ``busy_timeout`` makes them wait, and the ``(game_id, seq)``
primary key refuses the second of two appends that both read the same seq (:class:`Conflict`).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Iterable, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Literal

import aiosqlite

from bot.store.rows import (
    GAME_COLS,
    SEAT_COLS,
    DueRow,
    EventRow,
    GameRecord,
    IntegrityRefused,
    SchemaTooNew,
    StoreError,
    due_row,
    game_row,
    seat_row,
    tail_from,
    to_db_time,
    unpack_events,
)
from bot.store.schema import MIGRATIONS, SCHEMA_VERSION
from bot.store.sql import StoreKind
from bot.store.store import OPENERS, OpenOptions, Store, Tx

#: SQLite names a failed unique key by its columns; the shared SQL asks by PostgreSQL's
#: constraint names, which the PostgreSQL schema gives the same keys.
_UNIQUE_NAMES = {
    "games.channel_id": "games_one_open_per_channel",
    "events.game_id, events.seq": "events_pkey",
    "seats.game_id, seats.seat": "seats_pkey",
    "seats.game_id, seats.user_id": "seats_one_per_user",
}
_UNIQUE_RE = re.compile(r"UNIQUE constraint failed: (.+)$")


def _refused(exc: sqlite3.IntegrityError) -> IntegrityRefused:
    text = str(exc)
    m = _UNIQUE_RE.search(text)
    name = None
    if m:
        name = _UNIQUE_NAMES.get(m.group(1))
    elif "append-only" in text:
        name = "events_append_only"
    return IntegrityRefused(text, name)


class SQLiteConn:
    """:class:`~bot.store.store.Conn` over one aiosqlite connection."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.raw = conn

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]:
        try:
            return list(await self.raw.execute_fetchall(sql, params))
        except sqlite3.IntegrityError as exc:
            raise _refused(exc) from exc

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        try:
            cur = await self.raw.execute(sql, params)
        except sqlite3.IntegrityError as exc:
            raise _refused(exc) from exc
        return cur.rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        try:
            await self.raw.executemany(sql, rows)
        except sqlite3.IntegrityError as exc:
            raise _refused(exc) from exc


class SQLiteStore(Store):
    """One SQLite file. Build with ``await SQLiteStore.open_file(path)`` (or ``open_store``)."""

    kind: StoreKind = "sqlite"

    def __init__(
        self,
        path: Path,
        writer: aiosqlite.Connection,
        reader: aiosqlite.Connection,
        busy_timeout_ms: int = 5000,
    ):
        self.path = path
        self._writer = writer
        self._reader = reader
        self._write_lock = asyncio.Lock()
        self._read_lock = asyncio.Lock()
        #: The longest a write waits for the file's lock, this process's own queue included.
        self.busy_timeout = busy_timeout_ms / 1000
        self._busy_set = int(busy_timeout_ms)  # the writer's busy_timeout now, in ms
        #: When the file's write lock was last refused (SQLITE_BUSY), ``time.monotonic``.
        self._refused_at = float("-inf")

    @classmethod
    async def open_file(
        cls,
        path: str | Path,
        *,
        synchronous: Literal["NORMAL", "FULL"] = "FULL",
        busy_timeout_ms: int = 5000,
        check: bool = False,
    ) -> SQLiteStore:
        """Open (creating the directory and file if needed) and migrate to the current schema.

        ``synchronous``: with WAL, NORMAL never corrupts and survives a killed process, but a
        power cut or OS crash may lose the last commits; FULL syncs the WAL at every commit so
        an acknowledged move survives those too. It costs well under a millisecond per commit
        on an SSD, so FULL is the default (see ``bot/config.py``).

        ``check``: run ``PRAGMA quick_check`` first on every table but the finished matches'
        archive (start-up asks for it; :meth:`integrity_check` reads everything).
        A file that is not a database (garbage, a zeroed header, a text file) or fails the
        check is one :class:`StoreError` naming the file and the way out — before anything
        is written to it, so a damaged file is never switched to WAL or migrated.
        """
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            return await cls._open(path, synchronous, busy_timeout_ms, check)
        except sqlite3.DatabaseError as exc:
            raise _unusable(path, exc) from None

    @classmethod
    async def _open(
        cls, path: Path, synchronous: Literal["NORMAL", "FULL"], busy_timeout_ms: int, check: bool
    ) -> SQLiteStore:
        # sqlite3's own ``timeout`` is its busy timeout until the PRAGMA below: the same value.
        wait = max(0, busy_timeout_ms) / 1000
        writer = await aiosqlite.connect(path, isolation_level=None, timeout=wait)
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
            if check:
                verdict = await _check_live(writer)
                if verdict != "ok":
                    raise StoreError(_damaged(path, verdict))
            mode = await _to_wal(writer, wait)
            if str(mode).lower() != "wal":
                raise StoreError(f"{path}: SQLite refused WAL mode (journal_mode is {mode})")
            await writer.execute(f"PRAGMA synchronous = {synchronous}")
            await writer.execute("PRAGMA foreign_keys = ON")
            migrated = await _migrate(writer, path)
            reader = await aiosqlite.connect(path, isolation_level=None, timeout=wait)
            await reader.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            await reader.execute("PRAGMA query_only = ON")
        except BaseException:
            await writer.close()
            if reader is not None:
                await reader.close()
            raise
        store = cls(path, writer, reader, busy_timeout_ms)
        store.migrated = migrated
        return store

    def __str__(self) -> str:
        return str(self.path)

    async def close(self) -> None:
        async with self._write_lock, self._read_lock:
            await self._reader.close()
            # Fold the WAL into the database so a stopped bot leaves one self-contained file
            # (closing the last connection usually does this; say it, and never fail on it).
            with contextlib.suppress(sqlite3.Error):
                await self._writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            await self._writer.close()

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """``BEGIN IMMEDIATE … COMMIT`` on the writer; any exception rolls everything back.

        The busy timeout bounds a write's whole wait for the file's lock, this process's own
        queue included: while another process holds the file, each write queued here would
        otherwise wait its own busy timeout in turn once it got the writer (a move behind
        three others waited 20 s). So a write that finds the file's lock refused to a write
        queued after it waits only what is left of its own busy timeout."""
        started = time.monotonic()
        async with self._write_lock:
            if self._refused_at > started:
                left = self.busy_timeout - (time.monotonic() - started)
                await self._busy(max(0, int(left * 1000)))
            else:
                await self._busy(int(self.busy_timeout * 1000))
            try:
                # Inside the try: a BEGIN whose wait is cancelled still runs on the writer's
                # thread, and must be rolled back, or every later write is refused.
                try:
                    await self._writer.execute("BEGIN IMMEDIATE")
                except sqlite3.OperationalError as exc:
                    if getattr(exc, "sqlite_errorcode", 0) & 0xFF == sqlite3.SQLITE_BUSY:
                        self._refused_at = time.monotonic()
                    raise
                yield Tx(SQLiteConn(self._writer), self.kind)
                await self._writer.execute("COMMIT")
            except BaseException:
                # After a cancelled COMMIT the commit may still have run, and a BEGIN that
                # failed began nothing: then there is nothing to roll back.
                with contextlib.suppress(sqlite3.Error):
                    await self._writer.execute("ROLLBACK")
                raise

    async def _busy(self, ms: int) -> None:
        """The writer's busy timeout, set only when it changes (never, unless the file's
        lock was refused)."""
        if ms != self._busy_set:
            await self._writer.execute(f"PRAGMA busy_timeout = {ms}")
            self._busy_set = ms

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        async with self._read_lock:
            return list(await self._reader.execute_fetchall(sql, params))

    async def load(self, game_id: int, *, rounds: int | None = None) -> GameRecord | None:
        """The game row, seats and events, read in one snapshot (a read transaction); see
        :meth:`Store.load` for ``rounds``."""
        async with self._read_lock:
            r = self._reader
            await r.execute("BEGIN")
            try:
                rows = list(
                    await r.execute_fetchall(
                        f"SELECT {GAME_COLS} FROM games WHERE id = ?", (game_id,)
                    )
                )
                if not rows:
                    return None
                seats = await r.execute_fetchall(
                    f"SELECT {SEAT_COLS} FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
                )
                snapshot = list(
                    await r.execute_fetchall(
                        "SELECT seq, rounds FROM round_snapshots WHERE game_id = ? "
                        "ORDER BY seq DESC LIMIT ?",
                        (game_id, rounds or 1),
                    )
                )
                first = tail_from(snapshot, rounds)
                events = await r.execute_fetchall(
                    "SELECT game_id, seq, kind, payload, actor, at FROM events "
                    "WHERE game_id = ? AND seq >= ? ORDER BY seq",
                    (game_id, first),
                )
                # A finished match's log is compacted into one row (see the schema).
                archived = (
                    []
                    if events
                    else list(
                        await r.execute_fetchall(
                            "SELECT events FROM event_archive WHERE game_id = ?", (game_id,)
                        )
                    )
                )
            finally:
                await r.execute("COMMIT")
        return GameRecord(
            game_row(rows[0]),
            tuple(seat_row(s) for s in seats),
            tuple(EventRow(*e) for e in events)
            if not archived
            else tuple(e for e in unpack_events(game_id, archived[0][0]) if e.seq >= first),
            (int(snapshot[0][0]), str(snapshot[0][1])) if snapshot else None,
            first > 1,
        )

    async def integrity_check(self) -> str:
        try:
            row = await self._one("PRAGMA integrity_check")
        except sqlite3.DatabaseError as exc:  # a page too damaged to read is an answer too
            return str(exc)
        return str(row[0])

    async def claim_due(
        self, now: datetime, limit: int, owner: str, lease: timedelta
    ) -> list[DueRow]:
        """Due rows, oldest first. An SQLite file serves one bot process (a cluster needs the
        PostgreSQL store), so there is no other claimer to keep out: the scheduler's own
        ``finish_due`` check is enough, and no lease is written."""
        rows = await self._all(
            "SELECT game_id, kind, turn_key, user_id, due_at FROM due_work "
            "WHERE due_at <= ? ORDER BY due_at LIMIT ?",
            (to_db_time(now), limit),
        )
        return [due_row(r) for r in rows]

    async def release_claims(self, owner: str) -> int:
        return 0

    async def finish_import(self) -> None:
        """Nothing to do: AUTOINCREMENT already numbers after the highest id inserted."""

    async def columns(self, table: str) -> list[str]:
        rows = await self._all("SELECT name FROM pragma_table_info(?) ORDER BY cid", (table,))
        return [str(r[0]) for r in rows]


#: Tables start-up does not read through: finished matches' compacted logs, which nothing
#: writes again. They grow with the history; ``python -m bot init --full`` checks them.
HISTORY_TABLES = ("event_archive",)


async def _check_live(conn: aiosqlite.Connection) -> str:
    """Start-up's check: ``quick_check`` of every table (and its indexes) but the finished
    matches' archive, so its time follows the live data, not the years of history (5.5 ms
    per MiB read). ``ok``, or the first problem found."""
    names = await conn.execute_fetchall(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    )
    for (name,) in names:
        if name in HISTORY_TABLES:
            continue
        quoted = '"' + str(name).replace('"', '""') + '"'
        verdict = [
            str(row[0]) for row in await conn.execute_fetchall(f"PRAGMA quick_check({quoted})")
        ]
        if verdict != ["ok"]:
            return verdict[0] if verdict else "no answer"
    return "ok"


#: What to do about a damaged file, the same words in every message.
_WAY_OUT = (
    "restore a backup over it (docs/admin.md: Backups and restoring) or set MT_DATABASE to "
    "another file"
)


def _damaged(path: Path, detail: str) -> str:
    # The check lists a problem per line under a heading: one line, the first few problems.
    problems = [" ".join(line.split()) for line in detail.splitlines()]
    problems = [p for p in problems if p and not p.startswith("***")] or [detail.strip()]
    more = f"; {len(problems) - 2} more" if len(problems) > 2 else ""
    return f"{path} is damaged (SQLite's quick check: {'; '.join(problems[:2])}{more}): {_WAY_OUT}"


def _unusable(path: Path, exc: sqlite3.DatabaseError) -> StoreError:
    """One line for what SQLite said when opening ``path``: not a database, damaged, or
    another reason (a lock held too long, a directory in its place)."""
    code = int(getattr(exc, "sqlite_errorcode", 0) or 0) & 0xFF  # the primary result code
    if code == sqlite3.SQLITE_NOTADB:
        return StoreError(f"{path} is not an SQLite database ({exc}): {_WAY_OUT}")
    if code == sqlite3.SQLITE_CORRUPT:
        return StoreError(_damaged(path, str(exc)))
    return StoreError(f"SQLite cannot open {path}: {exc}")


async def _open(target: str | Path, options: OpenOptions) -> Store:
    return await SQLiteStore.open_file(
        Path(target),
        synchronous=options.synchronous,
        busy_timeout_ms=options.busy_timeout_ms,
        check=options.check,
    )


OPENERS["sqlite"] = _open


# ---------------------------------------------------------------------------- migrations


async def _scalar(conn: aiosqlite.Connection, sql: str) -> Any:
    rows = list(await conn.execute_fetchall(sql))
    return rows[0][0] if rows else None


async def _to_wal(conn: aiosqlite.Connection, wait: float) -> Any:
    """Switch the file to WAL; the journal mode it is in after. SQLite answers a switch that
    meets another connection's own (two processes opening one new file at once) with
    "database is locked" at once, without waiting its busy timeout, so it is tried again here
    for up to that timeout: a lock held longer is still refused, then, as any other write."""
    deadline = time.monotonic() + wait
    while True:
        try:
            return await _scalar(conn, "PRAGMA journal_mode = WAL")
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() >= deadline:
                raise
            await asyncio.sleep(0.01)


async def _user_version(conn: aiosqlite.Connection) -> int:
    return int(await _scalar(conn, "PRAGMA user_version"))


async def _migrate(
    conn: aiosqlite.Connection, path: Path, upto: int = SCHEMA_VERSION
) -> tuple[int, ...]:
    """Apply the missing migrations, each in its own ``BEGIN IMMEDIATE`` transaction; the
    numbers of those this call applied.

    The version is re-read inside the transaction, so two processes opening one old file at
    once apply each migration exactly once.
    """
    applied: list[int] = []
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
                applied.append(number)
            await conn.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                await conn.execute("ROLLBACK")
            raise
    return tuple(applied)
