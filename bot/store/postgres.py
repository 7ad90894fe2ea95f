"""The PostgreSQL store: an asyncpg pool over one server that several bot processes share.

:class:`PgStore` runs the same SQL as the SQLite store (:mod:`bot.store.store`) on a pool of
connections. A change is one ``READ COMMITTED`` transaction on one pooled connection; the event
log's ``(game_id, seq)`` key and the game's version check are what keep two writers apart, as in
SQLite: of two processes appending the same seq, the second waits for the first's row lock and
then fails on the key (:class:`Conflict`), so nothing half-applied ever lands. A game load reads
in one ``REPEATABLE READ`` snapshot. A deadlock the server breaks is also reported as
:class:`Conflict` (the table changed; try again).

For a cluster of processes there are two more guards: :meth:`Tx.lock_game` (an advisory lock
per game, held until commit) and :meth:`PgStore.claim_due` (scheduled work leased to one
process with ``FOR UPDATE SKIP LOCKED``, taken over when the lease of a dead process ends).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import AsyncIterator, Iterable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import asyncpg

from bot.config import connectable, safe_url, scrub
from bot.store.outage import QuietOutages
from bot.store.pgschema import PG_MIGRATIONS, PG_SCHEMA_VERSION
from bot.store.rows import (
    GAME_COLS,
    SEAT_COLS,
    CommitUnknown,
    Conflict,
    DueRow,
    EventRow,
    GameRecord,
    IntegrityRefused,
    SchemaTooNew,
    StoreError,
    StoreUnreachable,
    due_row,
    game_row,
    seat_row,
    tail_from,
    to_db_time,
    unpack_events,
)
from bot.store.sql import COPY_TABLES, StoreKind
from bot.store.store import OPENERS, OpenOptions, Store, Tx

# asyncpg's pool logs a traceback at every reconnection attempt while the server is away.
logging.getLogger("asyncpg.pool").addFilter(QuietOutages(timeouts=True))

#: The advisory lock key migrations run under (games lock their own positive ids, so this one
#: is negative and can never be a game's).
MIGRATION_LOCK = -0x4D54_0001


@functools.lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """The shared SQL's ``?`` placeholders as PostgreSQL's ``$1, $2, …`` (quotes respected)."""
    out: list[str] = []
    n = 0
    quoted = False
    for ch in sql:
        if ch == "'":
            quoted = not quoted
        if ch == "?" and not quoted:
            n += 1
            out.append(f"${n}")
        else:
            out.append(ch)
    return "".join(out)


def _mapped(exc: asyncpg.PostgresError) -> StoreError:
    if isinstance(exc, asyncpg.DeadlockDetectedError | asyncpg.SerializationError):
        return Conflict(f"another writer got in the way ({exc})")
    if isinstance(exc, asyncpg.IntegrityConstraintViolationError):
        return IntegrityRefused(str(exc), getattr(exc, "constraint_name", None))
    return StoreError(f"PostgreSQL refused: {exc}")


#: Seconds one operation of the bot's (a read, or a whole transaction: waiting for a pooled
#: connection or a new one, every statement, the commit) may wait for the server before it
#: counts as an outage: a server that hangs (stopped, or its network gone silent without a
#: reset) is answered "unreachable" within this, not after TCP gives up. A player's answer
#: is then sent within 5 s. Our statements take milliseconds; administrative work (the
#: migrations at start-up, ``store copy``) is not bounded by it.
DEFAULT_COMMAND_TIMEOUT = 4.0
#: Seconds start-up waits for the server to accept a connection.
DEFAULT_CONNECT_TIMEOUT = 10.0
#: Seconds to give a healthy connection back to the pool before it is closed instead.
RELEASE_TIMEOUT = 5.0

#: What a server that cannot be reached (or is starting, or full) raises while connecting.
_TRANSIENT: tuple[type[BaseException], ...] = (
    OSError,
    TimeoutError,
    asyncpg.CannotConnectNowError,
    asyncpg.TooManyConnectionsError,
)


def _reason(exc: BaseException) -> str:
    """A connection failure in words (a timeout's ``str`` is empty)."""
    if isinstance(exc, TimeoutError):
        return "no answer in time"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__


def _changed(status: str) -> int:
    """Rows changed, from a command status such as ``UPDATE 1`` or ``INSERT 0 3``."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


def _hung(exc: TimeoutError, within: float | None = None) -> StoreUnreachable:
    """A server that took longer than the store's deadline (or the connect timeout) to
    answer: hung, stopped, or cut off without a reset — an outage like a refused connection.
    Said as the store's own error, so a timeout elsewhere (Discord's) is never taken for one."""
    if within is None:
        return StoreUnreachable("the PostgreSQL server did not answer in time")
    return StoreUnreachable(f"the PostgreSQL server did not answer within {within:g} s")


#: What a connection that broke mid-statement raises (the server gone, the socket reset).
_BROKEN: tuple[type[BaseException], ...] = (
    OSError,
    asyncpg.PostgresConnectionError,
    asyncpg.InterfaceError,
)


class _Held:
    """One operation's connection and how far it got (see :meth:`PgStore._acquired`)."""

    __slots__ = ("closed", "committing", "conn")

    def __init__(self) -> None:
        self.conn: asyncpg.Connection | None = None
        #: The COMMIT was sent: a failure from here on leaves its outcome unknown.
        self.committing = False
        self.closed = False

    def close(self) -> None:
        """Close a hung or broken connection at once (it goes back to the pool closed, and
        the server drops its transaction)."""
        if self.conn is not None and not self.closed:
            self.closed = True
            self.conn.terminate()


class PgConn:
    """:class:`~bot.store.store.Conn` over an asyncpg connection (or the pool, for reads)."""

    def __init__(self, conn: asyncpg.Connection | asyncpg.Pool) -> None:
        self.raw = conn

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]:
        try:
            return list(await self.raw.fetch(numbered(sql), *params))
        except asyncpg.PostgresError as exc:
            raise _mapped(exc) from exc
        except TimeoutError as exc:
            raise _hung(exc) from exc

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        try:
            return _changed(await self.raw.execute(numbered(sql), *params))
        except asyncpg.PostgresError as exc:
            raise _mapped(exc) from exc
        except TimeoutError as exc:
            raise _hung(exc) from exc

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        rows = list(rows)
        if not rows:
            return
        try:
            await self.raw.executemany(numbered(sql), rows)
        except asyncpg.PostgresError as exc:
            raise _mapped(exc) from exc
        except TimeoutError as exc:
            raise _hung(exc) from exc


class PgStore(Store):
    """A PostgreSQL database. Build with ``await PgStore.connect(url)`` (or ``open_store``)."""

    kind: StoreKind = "postgresql"

    def __init__(
        self, pool: asyncpg.Pool, url: str, deadline: float | None = DEFAULT_COMMAND_TIMEOUT
    ) -> None:
        self._pool = pool
        self.url = safe_url(url)
        #: Seconds one operation may wait for the server (:data:`DEFAULT_COMMAND_TIMEOUT`;
        #: None: no limit).
        self.deadline = deadline

    @classmethod
    async def connect(
        cls,
        url: str,
        *,
        pool_size: int = 10,
        connect_timeout: float = DEFAULT_CONNECT_TIMEOUT,
        command_timeout: float = DEFAULT_COMMAND_TIMEOUT,
    ) -> PgStore:
        """Connect a pool of up to ``pool_size`` connections and migrate to the current schema.
        An operation (a read, or a transaction from its first wait for a connection to its
        commit) the server has not finished in ``command_timeout`` seconds (a hung server)
        fails as :class:`StoreUnreachable`, like a refused connection; a commit whose answer
        did not come as :class:`CommitUnknown`.

        Any failure to reach or log in to the server is one :class:`StoreError` naming the
        server (never the password): :class:`StoreUnreachable` when the server could not be
        reached or is not accepting connections yet (it may pass), a plain
        :class:`StoreError` when it answered no (a wrong password, no such database) or the
        URL cannot be read.
        """
        where = safe_url(url)
        try:
            pool = await asyncpg.create_pool(
                connectable(url),
                min_size=min(2, pool_size),
                max_size=pool_size,
                timeout=connect_timeout,
            )
        except _TRANSIENT as exc:
            raise StoreUnreachable(
                f"cannot reach the PostgreSQL server {where}: {scrub(_reason(exc), url)}"
            ) from None
        except (ValueError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            raise StoreError(
                f"cannot open the PostgreSQL database {where}: {scrub(str(exc), url)}"
            ) from None
        try:
            migrated = await _migrate(pool, where)
        except BaseException:
            await pool.close()
            raise
        store = cls(pool, url, command_timeout)
        store.migrated = migrated
        return store

    def __str__(self) -> str:
        return self.url

    async def close(self) -> None:
        await self._pool.close()

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """One ``READ COMMITTED`` transaction on one pooled connection, within the store's
        deadline; any exception (cancellation included) rolls it back. A failure after the
        COMMIT was sent (no answer, a broken connection) is :class:`CommitUnknown`."""
        async with self._acquired() as held:
            assert held.conn is not None
            tr = held.conn.transaction()
            try:
                await tr.start()
            except asyncpg.PostgresError as exc:
                raise _mapped(exc) from exc
            try:
                yield Tx(PgConn(held.conn), self.kind)
            except BaseException as exc:
                if isinstance(exc, (asyncio.CancelledError, TimeoutError, *_BROKEN)):
                    # A hung or broken connection cannot roll back: it is closed instead,
                    # and the server drops the transaction with it.
                    held.close()
                else:
                    with contextlib.suppress(Exception):
                        await tr.rollback()
                raise
            held.committing = True
            try:
                await tr.commit()
            except _BROKEN:
                raise  # no answer to the COMMIT: CommitUnknown (see _acquired)
            except asyncpg.PostgresError as exc:
                raise _mapped(exc) from exc  # the server answered: refused, nothing saved

    @contextlib.asynccontextmanager
    async def _acquired(self, *, limit: bool = True) -> AsyncIterator[_Held]:
        """A pooled connection for one operation of at most :attr:`deadline` seconds, from
        the wait for the connection (a new one included) to the last statement's answer.

        A server that does not answer in time is :class:`StoreUnreachable` (a hang, not a
        bug), its connection closed at once (a hung connection can neither roll back nor be
        reset; waiting for either is what kept a player waiting a minute); after the COMMIT
        was sent, it is :class:`CommitUnknown`, as is a connection broken there."""
        held = _Held()
        deadline = asyncio.timeout(self.deadline if limit else None)
        try:
            async with deadline:
                held.conn = await self._pool.acquire()
                yield held
        except BaseException as exc:
            # Past the deadline, what surfaces may be the timeout or what the cancelled
            # statement's clean-up raised (a rollback refused: "another operation is in
            # progress"); either way the server did not answer in time.
            late = deadline.expired() or isinstance(exc, TimeoutError)
            if late or isinstance(exc, (asyncio.CancelledError, *_BROKEN)):
                held.close()
            if late and held.committing:
                raise CommitUnknown(
                    f"the PostgreSQL server did not answer a commit within {self.deadline:g} s"
                ) from exc
            if late:
                raise _hung(TimeoutError(), self.deadline) from exc
            if held.committing and isinstance(exc, _BROKEN):
                raise CommitUnknown(
                    f"the connection to PostgreSQL broke during a commit ({type(exc).__name__})"
                ) from exc
            raise
        finally:
            if held.conn is not None and not held.closed:
                with contextlib.suppress(Exception):
                    await self._pool.release(held.conn, timeout=RELEASE_TIMEOUT)

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        async with self._acquired() as held:
            assert held.conn is not None
            return await PgConn(held.conn).fetch(sql, params)

    async def _run(self, sql: str, params: Sequence[Any] = ()) -> int:
        async with self._acquired() as held:
            assert held.conn is not None
            return await PgConn(held.conn).execute(sql, params)

    async def load(self, game_id: int, *, rounds: int | None = None) -> GameRecord | None:
        """The game row, seats, events and latest snapshot from one ``REPEATABLE READ``
        snapshot, so a move committed halfway through the read is wholly absent (see
        :meth:`Store.load` for ``rounds``)."""
        async with self._acquired() as held:
            assert held.conn is not None
            c = PgConn(held.conn)
            async with held.conn.transaction(isolation="repeatable_read", readonly=True):
                rows = await c.fetch(f"SELECT {GAME_COLS} FROM games WHERE id = ?", (game_id,))
                if not rows:
                    return None
                seats = await c.fetch(
                    f"SELECT {SEAT_COLS} FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
                )
                snapshot = await c.fetch(
                    "SELECT seq, rounds FROM round_snapshots WHERE game_id = ? "
                    "ORDER BY seq DESC LIMIT ?",
                    (game_id, rounds or 1),
                )
                first = tail_from(snapshot, rounds)
                events = await c.fetch(
                    "SELECT game_id, seq, kind, payload, actor, at FROM events "
                    "WHERE game_id = ? AND seq >= ? ORDER BY seq",
                    (game_id, first),
                )
                # A finished match's log is compacted into one row (see the schema).
                archived = (
                    []
                    if events
                    else await c.fetch(
                        "SELECT events FROM event_archive WHERE game_id = ?", (game_id,)
                    )
                )
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
        """The server keeps its own pages consistent; this checks what only the bot knows:
        the schema version, and that every game's log runs 1, 2, … with no seq missing
        (a read of the whole log: not bounded by :attr:`deadline`)."""
        version = await self.schema_version()
        if version != PG_SCHEMA_VERSION:
            return f"schema version {version}, expected {PG_SCHEMA_VERSION}"
        async with self._acquired(limit=False) as held:
            assert held.conn is not None
            gaps = await PgConn(held.conn).fetch(
                "SELECT game_id FROM events GROUP BY game_id HAVING count(*) <> max(seq) "
                "ORDER BY game_id LIMIT 10"
            )
        if gaps:
            return "events missing from games " + ", ".join(str(r[0]) for r in gaps)
        return "ok"

    async def schema_version(self) -> int:
        row = await self._one("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
        return int(row[0])

    async def claim_due(
        self, now: datetime, limit: int, owner: str, lease: timedelta
    ) -> list[DueRow]:
        """Lease due rows to ``owner`` until ``now + lease``; each row goes to one caller.

        ``FOR UPDATE SKIP LOCKED`` lets processes claiming at the same moment pass over each
        other's rows instead of queueing on them, and the lease columns (not a lock held
        while the work runs: sending a reminder must not keep a transaction open) keep a
        claimed row from being handed out again. When the claimer dies, its lease runs out and
        the next claim takes the row over: work is late by at most ``lease``, never lost.
        A row that is re-planned loses its claim (trigger ``due_work_unclaim``).
        """
        at = to_db_time(now)
        rows = await self._all(
            "WITH picked AS (SELECT game_id, kind FROM due_work "
            "WHERE due_at <= ? AND (claimed_until IS NULL OR claimed_until <= ?) "
            "ORDER BY due_at LIMIT ? FOR UPDATE SKIP LOCKED) "
            "UPDATE due_work w SET claimed_by = ?, claimed_until = ? FROM picked p "
            "WHERE w.game_id = p.game_id AND w.kind = p.kind "
            "RETURNING w.game_id, w.kind, w.turn_key, w.user_id, w.due_at",
            (at, at, limit, owner, to_db_time(now + lease)),
        )
        return sorted((due_row(r) for r in rows), key=lambda d: (d.due_at, d.game_id, d.kind))

    async def release_claims(self, owner: str) -> int:
        return await self._run(
            "UPDATE due_work SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by = ?",
            (owner,),
        )

    async def columns(self, table: str) -> list[str]:
        rows = await self._all(
            "SELECT column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position",
            (table,),
        )
        return [str(r[0]) for r in rows]

    async def finish_import(self) -> None:
        await self._all(
            "SELECT setval(pg_get_serial_sequence('games', 'id'), "
            "COALESCE((SELECT MAX(id) FROM games), 1), (SELECT MAX(id) FROM games) IS NOT NULL)"
        )

    async def erase(self) -> None:
        """Delete every game and setting (``store copy --replace`` only).

        The log refuses TRUNCATE; its guard is lifted for this one transaction, so a crash
        halfway leaves the database as it was, guard included.
        """
        async with self._pool.acquire() as conn, conn.transaction():
            present = [t for t in COPY_TABLES if await self.columns(t)]
            await conn.execute("ALTER TABLE events DISABLE TRIGGER events_no_truncate")
            await conn.execute(f"TRUNCATE {', '.join(present)} RESTART IDENTITY CASCADE")
            await conn.execute("ALTER TABLE events ENABLE TRIGGER events_no_truncate")


async def _open(target: str | Path, options: OpenOptions) -> Store:
    return await PgStore.connect(str(target), pool_size=options.pool_size)


OPENERS["postgresql"] = _open


async def _migrate(pool: asyncpg.Pool, where: str) -> tuple[int, ...]:
    """Apply the missing migrations, each in its own transaction under an advisory lock, so
    processes starting together apply each one exactly once; the numbers this call applied."""
    applied: list[int] = []
    async with pool.acquire() as conn:
        for number, statements in enumerate(PG_MIGRATIONS, start=1):
            async with conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                await conn.execute(
                    "CREATE TABLE IF NOT EXISTS schema_migrations "
                    "(version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)"
                )
                found = int(
                    await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
                )
                if found > PG_SCHEMA_VERSION:
                    raise SchemaTooNew(
                        f"{where} has database schema version {found}, but this version of the "
                        f"bot only knows up to version {PG_SCHEMA_VERSION}: it was written by a "
                        "newer release. Run that release (or newer), or use another database."
                    )
                if found >= PG_SCHEMA_VERSION:
                    break
                if found < number:
                    for sql in statements:
                        await conn.execute(sql)
                    await conn.execute(
                        "INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)",
                        number,
                        to_db_time(datetime.now(UTC)),
                    )
                    applied.append(number)
    return tuple(applied)
