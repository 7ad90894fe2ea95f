"""Which failures mean "the database cannot be reached or written right now", in one line.

Both stores raise their driver's exceptions for an outage (SQLite: a full disk, an I/O error,
a file gone or locked for longer than ``busy_timeout``; PostgreSQL: a connection lost or
refused, a server shutting down or out of disk), sometimes wrapped in a :class:`StoreError`
whose cause is the driver's exception. The layers above must not tell these apart by driver,
so :func:`unreachable` reads the exception (and its causes) here, beside the stores that raise
them, and answers with one short sentence for the log, or ``None`` for anything else — a bug,
a conflict, a refused write — which the caller handles as it always did.
"""

from __future__ import annotations

import errno
import logging
import socket
import sqlite3
import time

import asyncpg

from bot.store.rows import CommitUnknown, StoreError, StoreUnreachable

#: SQLite's primary result codes that mean the storage, not the request, failed.
_SQLITE_OUTAGE = {
    5: "the database file is locked by another process",  # SQLITE_BUSY
    6: "the database file is locked",  # SQLITE_LOCKED
    7: "SQLite ran out of memory",  # SQLITE_NOMEM
    8: "the database file is read-only",  # SQLITE_READONLY
    10: "a disk I/O error",  # SQLITE_IOERR
    11: "the database file is damaged",  # SQLITE_CORRUPT
    13: "the disk or the database is full",  # SQLITE_FULL
    14: "the database file cannot be opened",  # SQLITE_CANTOPEN
    15: "the database lock protocol failed",  # SQLITE_PROTOCOL
    26: "the file is not a database",  # SQLITE_NOTADB
}

#: asyncpg's exceptions for a server that is gone, going, refusing or out of resources,
#: each in our words (the driver's own go in a quoted field after them).
_PG_OUTAGE: dict[type[BaseException], str] = {
    asyncpg.PostgresConnectionError: "the connection to the server was lost or refused",  # 08
    asyncpg.OperatorInterventionError: "the server is shutting down or starting up",  # 57
    asyncpg.InsufficientResourcesError: "the server is out of disk, memory or connections",
    asyncpg.InterfaceError: "the connection to the server is broken",  # the client's side
}

_NETWORK_ERRNOS = {errno.ENETUNREACH, errno.EHOSTUNREACH, errno.ETIMEDOUT, errno.ENETDOWN}

#: How many :class:`StoreError` wrappers to look through for the driver's exception.
_DEPTH = 4


def unreachable(error: BaseException) -> str | None:
    """A one-line reason when ``error`` is a database outage, else ``None``.

    Only the error itself and the causes of the store's own wrappers are read: an HTTP
    error whose cause is a refused connection is Discord's outage, not the database's."""
    seen: BaseException | None = error
    for _ in range(_DEPTH):
        if seen is None:
            return None
        reason = _reason(seen)
        if reason is not None or not isinstance(seen, StoreError):
            return reason
        seen = seen.__cause__ or seen.__context__
    return None


def unsure(error: BaseException) -> bool:
    """Whether ``error`` (or a cause the store wrapped) is a commit whose answer never came:
    the change may have been saved, so the player must not be told "nothing changed"."""
    seen: BaseException | None = error
    for _ in range(_DEPTH):
        if seen is None:
            return False
        if isinstance(seen, CommitUnknown):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def _reason(error: BaseException) -> str | None:
    if isinstance(error, StoreUnreachable):
        # The store's own word: a server that did not answer in time (a hung PostgreSQL) is
        # only an outage when the store says so; a bare TimeoutError may be Discord's.
        return f"the database: {_first_line(error)}"
    if isinstance(error, sqlite3.Error):
        code = getattr(error, "sqlite_errorcode", None)
        if isinstance(code, int) and (code & 0xFF) in _SQLITE_OUTAGE:
            return f"SQLite: {_SQLITE_OUTAGE[code & 0xFF]}{_said(error)}"
        if isinstance(error, sqlite3.ProgrammingError) and "closed" in str(error):
            return "SQLite: the database connection is closed"
        return None
    for kind, words in _PG_OUTAGE.items():
        if isinstance(error, kind):
            return f"PostgreSQL: {words}{_said(error)}"
    if _network(error) and not type(error).__module__.startswith("aiohttp"):
        # The server's socket: refused, reset, unreachable (aiohttp's are Discord's).
        return f"the database server cannot be reached{_said(error)}"
    if isinstance(error, ValueError) and str(error) in (
        "no active connection",
        "Connection closed",
    ):
        return "SQLite: the database connection is closed"  # aiosqlite's words for it
    return None


def _network(error: BaseException) -> bool:
    """A socket that could not reach, or lost, its server (not any other OSError: a file
    name too long is a bad request, not an outage)."""
    if isinstance(error, ConnectionError | socket.gaierror):
        return True
    return isinstance(error, OSError) and error.errno in _NETWORK_ERRNOS


def _said(error: BaseException) -> str:
    """The driver's own words, as a quoted field after ours (never as our sentence)."""
    text = f"{type(error).__name__}: {_first_line(error)}".replace('"', "'")
    return f'; the driver said "{text}"'


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return (text[0] if text else type(error).__name__)[:160]


def log_failure(
    logger: logging.Logger, level: int, message: str, error: BaseException, *args: object
) -> None:
    """Log a failure: a database outage as one line with its reason (the outage is not a
    bug: no traceback), anything else with its traceback."""
    reason = unreachable(error)
    if reason is None:
        logger.log(level, message, *args, exc_info=error)
    else:
        logger.log(level, message + ": the game database is unreachable (%s)", *args, reason)


class QuietOutages(logging.Filter):
    """For a library logger that logs a traceback at every retry while the server is away
    (asyncpg's pool: "Failed to restore the pool connection floor; retrying", every 1 to
    60 s for as long as the outage lasts): an outage becomes one line without a traceback,
    repeated at most every ``every`` seconds; anything else passes unchanged."""

    def __init__(self, every: float = 600.0, *, timeouts: bool = False) -> None:
        """``timeouts``: the logger is the database driver's own, so a timeout it logs is
        the server not answering (a hang), an outage too."""
        super().__init__()
        self.every = every
        self.timeouts = timeouts
        self._last = -every

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        reason = unreachable(error) if error is not None else None
        if reason is None and self.timeouts and isinstance(error, TimeoutError):
            reason = "the database server did not answer in time"
        if reason is None:
            return True
        now = time.monotonic()
        if now - self._last < self.every:
            return False
        self._last = now
        record.msg = (
            f"{record.getMessage()} ({reason}; said again at most every {self.every:.0f} s)"
        )
        record.args = None
        record.exc_info = record.exc_text = None
        return True


class Outage:
    """Whether the game database is down, since when, and how many were turned away: one
    memory for the whole bot (its interactions, the scheduler, the outbox), so an outage is
    one ERROR however many parts of the bot meet it.

    ``failed`` and ``recovered`` take ``what`` met the database (a command or button by
    name, ``scheduler``, ``outbox``) and ``started``: when that attempt began
    (``time.monotonic``). An outage can be partial (a file system remounted read-only: reads
    work, writes fail), so it ends when a kind of request that met it gets through again,
    not when anything at all does; and only a request *begun after the outage was seen*
    counts: one begun earlier may have done its round trips before the database stopped
    answering, and finishing late proves nothing (it used to close a 30 s outage 0.16 s
    in: "answers again after 0 s"). The time said is from the start of the first request
    that failed to the start of the first that got through again."""

    def __init__(self, logger: logging.Logger | None = None) -> None:
        self.log = logger or logging.getLogger(__name__)
        #: When the first failed request began (``time.monotonic``), while down.
        self.since: float | None = None
        self.refused = 0
        #: Outages seen since start-up (each logged once).
        self.count = 0
        self._failed: set[str] = set()
        self._seen_at = 0.0  # when the outage was first seen (the first failure's end)

    @property
    def down(self) -> bool:
        return self.since is not None

    def failed(self, reason: str, what: str = "", started: float | None = None) -> None:
        """A request (``what``) begun at ``started`` met the outage: the first one is
        logged at ERROR, in our words (the driver's only as a quoted field of ``reason``)."""
        now = time.monotonic()
        if what not in ("scheduler", "outbox"):
            self.refused += 1  # an interaction: a player was told
        self._failed.add(what)
        if self.since is not None:
            self.log.debug("database still unreachable (%s): %s", what or "a request", reason)
            return
        self.since = now if started is None else min(started, now)
        self._seen_at = now
        self.count += 1
        self.log.error(
            "the game database is unreachable: %s; players are told to try again shortly "
            "until it answers again (logged once per outage)",
            reason,
        )

    def recovered(self, what: str = "", started: float | None = None) -> None:
        """A request (``what``) begun at ``started`` got through: if that kind of request had
        met the outage and began after it was seen, the outage is over, told in one line."""
        if self.since is None or what not in self._failed:
            return
        begun = time.monotonic() if started is None else started
        if begun < self._seen_at:
            return  # its round trips may all have come before the outage
        lasted, refused = begun - self.since, self.refused
        self.since, self.refused = None, 0
        self._failed.clear()
        self.log.warning(
            "the game database answers again after %.0f s; %d interaction(s) were refused "
            "meanwhile, nothing was changed by them",
            lasted,
            refused,
        )
