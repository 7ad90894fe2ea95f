"""What the Discord layer repeats of a player's input (short, one line, inert), and which
failures are a database outage (told once, in one line) rather than a bug."""

from __future__ import annotations

import logging
import sqlite3
import time
from pathlib import Path

import aiohttp
import aiosqlite
import asyncpg
import pytest

from bot.service.errors import Outage
from bot.store import StoreError
from bot.store.outage import QuietOutages, unreachable
from bot.ui.refusals import quote_input


def test_quote_input_keeps_a_short_single_line_that_pings_nobody() -> None:
    assert quote_input("12-5") == "12-5"
    long = quote_input("x" * 2000)
    assert len(long) == 32 and long.endswith("…")
    assert quote_input("a\nb\r\n\tc") == "a b c"
    assert quote_input("@everyone hi") == "@\u200beveryone hi"
    assert quote_input("<@123456789012345678>") == "<@\u200b123456789012345678>"
    assert quote_input("**bold**") == "\\*\\*bold\\*\\*"
    # Invisible characters: zero-width space, right-to-left override, BOM; control characters.
    assert quote_input("ab\u200bc\u202ed\ufeff\x00\x07") == "abcd"
    assert quote_input("حجر-دومينو") == "حجر-دومينو"  # another script is kept as typed
    assert quote_input("\u200b" * 500).endswith("…")  # nothing visible, and much of it
    assert quote_input("", 10) == ""


async def test_a_full_sqlite_database_and_a_closed_connection_are_outages(tmp_path: Path) -> None:
    path = tmp_path / "full.sqlite3"
    async with aiosqlite.connect(path) as db:
        await db.execute("CREATE TABLE t (x TEXT)")
        await db.execute("PRAGMA max_page_count = 3")  # the disk is "full" at 3 pages
        with pytest.raises(sqlite3.OperationalError) as full:
            for _ in range(100):
                await db.execute("INSERT INTO t VALUES (?)", ("x" * 4000,))
    reason = unreachable(full.value)
    assert reason is not None and "the disk or the database is full" in reason
    wrapped = StoreError("could not write")
    wrapped.__cause__ = full.value
    assert unreachable(wrapped) == reason  # through the store's own wrapper
    closed = aiosqlite.connect(path)
    await closed
    await closed.close()
    with pytest.raises(ValueError) as gone:
        await closed.execute("SELECT 1")
    assert unreachable(gone.value) == "SQLite: the database connection is closed"


def test_postgresql_and_network_failures_are_outages_and_bugs_are_not() -> None:
    for error in (
        asyncpg.ConnectionDoesNotExistError("connection was closed in the middle of operation"),
        asyncpg.AdminShutdownError("terminating connection due to administrator command"),
        asyncpg.CannotConnectNowError("the database system is starting up"),
        asyncpg.DiskFullError("could not extend file"),
        asyncpg.InterfaceError("connection is closed"),
        ConnectionRefusedError(111, "Connect call failed"),
    ):
        assert unreachable(error) is not None, error
    # Our sentence first; the driver's words only as a quoted field after it.
    assert unreachable(asyncpg.AdminShutdownError("terminating")) == (
        "PostgreSQL: the server is shutting down or starting up; "
        'the driver said "AdminShutdownError: terminating"'
    )
    for error in (
        sqlite3.IntegrityError("UNIQUE constraint failed"),
        ValueError("'godlike' is not a valid Level"),
        KeyError("x"),
        asyncpg.UniqueViolationError("duplicate key"),
        OSError(36, "File name too long"),
    ):
        assert unreachable(error) is None, error
    # Discord unreachable is not the database unreachable, whatever its cause.
    refused = aiohttp.ClientOSError(111, "Connect call failed")
    refused.__cause__ = ConnectionRefusedError(111, "refused")
    assert unreachable(refused) is None
    http = RuntimeError("posting failed")
    http.__cause__ = ConnectionRefusedError(111, "refused")
    assert unreachable(http) is None  # only the store's own wrappers are looked through


@pytest.mark.expect_errors(logger="bot.ui.host", match=r"unreachable: SQLite: the disk")
@pytest.mark.expect_errors(logger="bot.ui.host", match=r"unreachable: PostgreSQL: Connection")
def test_an_outage_is_logged_once_and_its_end_once(caplog: pytest.LogCaptureFixture) -> None:
    outage = Outage(logging.getLogger("bot.ui.host"))
    with caplog.at_level(logging.DEBUG, logger="bot.ui.host"):
        outage.recovered("play")  # nothing to close
        for n in range(50):
            outage.failed("SQLite: the disk or the database is full", ("play", "draw")[n % 2])
        assert outage.down
        outage.recovered("mt status")  # a read got through: writes may still fail
        assert outage.down
        outage.recovered("draw")  # a kind of request that had failed got through
        outage.recovered("play")
        assert not outage.down
        outage.failed("PostgreSQL: ConnectionDoesNotExistError", "play")
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 2 and all(r.exc_info is None for r in errors)
    assert "the game database is unreachable: SQLite: the disk" in errors[0].getMessage()
    ends = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(ends) == 1 and "50 interaction(s) were refused" in ends[0]
    assert outage.count == 2 and outage.down


def test_a_library_retrying_through_an_outage_says_so_once_without_tracebacks() -> None:
    quiet = QuietOutages(every=600)
    logger = logging.getLogger("test.pool")

    def record(error: BaseException) -> logging.LogRecord:
        return logger.makeRecord(
            "test.pool", logging.WARNING, __file__, 1, "retrying", None,
            (type(error), error, None),
        )  # fmt: skip

    first = record(ConnectionRefusedError(111, "Connect call failed"))
    assert quiet.filter(first) and first.exc_info is None
    assert "ConnectionRefusedError" in first.getMessage()
    assert not any(quiet.filter(record(ConnectionRefusedError(111, "x"))) for _ in range(20))
    bug = record(KeyError("not an outage"))
    assert quiet.filter(bug) and bug.exc_info is not None  # anything else passes unchanged


@pytest.mark.expect_errors(logger="bot.ui.host", match=r"unreachable: PostgreSQL: the connection")
def test_only_a_request_begun_after_the_outage_ends_it_and_the_time_is_real(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A request that began before the outage was seen and finished after it proves nothing
    (its round trips may all have come first): it used to end a 30 s outage 0.16 s in,
    "answers again after 0 s". The time said runs from the first failed request's start."""
    outage = Outage(logging.getLogger("bot.ui.host"))
    now = time.monotonic()
    with caplog.at_level(logging.DEBUG, logger="bot.ui.host"):
        outage.failed("PostgreSQL: the connection to the server was lost", "play", now - 30)
        outage.recovered("play", now - 0.16)  # begun before: its answer may be old news
        assert outage.down
        outage.recovered("play")  # begun now, after the outage was seen: a real round trip
        assert not outage.down
    ends = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(ends) == 1 and "answers again after 30 s" in ends[0], ends


@pytest.mark.expect_errors(logger="bot.ui.host", match=r"unreachable: SQLite: the disk")
def test_the_scheduler_and_the_outbox_share_the_one_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The interactions, the scheduler and the outbox meet one outage: one ERROR, and the
    players' count is only of interactions."""
    outage = Outage(logging.getLogger("bot.ui.host"))
    with caplog.at_level(logging.DEBUG):
        outage.failed("SQLite: the disk or the database is full", "scheduler")
        outage.failed("SQLite: the disk or the database is full", "outbox")
        outage.failed("SQLite: the disk or the database is full", "play")
        outage.recovered("scheduler")
    assert [r.levelno for r in caplog.records if r.levelno >= logging.WARNING] == [
        logging.ERROR,
        logging.WARNING,
    ]
    assert "1 interaction(s) were refused" in caplog.records[-1].getMessage()
