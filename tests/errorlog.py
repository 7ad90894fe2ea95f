"""Fail a test in which the bot logs an ERROR that the test did not ask for.

Players never see a traceback in our log: a callback that raised, a background post that
failed or a picture that could not be drawn may leave the channel looking fine while the
bot is broken. So every test watches the loggers the bot writes to, and an ERROR (or worse)
there fails it, unless the test says it expects that ERROR, and then the expected ERROR
must really have happened (a test that expects a failure it never provokes proves nothing).

What is watched (see :func:`counts`):

- the ``bot`` and ``renderers`` loggers and their children: our own code;
- the ``discord`` loggers: discord.py logs there what escaped our callbacks
  ("Ignoring exception in view ..."), and what went wrong in the client we drive;
- ``asyncio``'s ERRORs that name our code (a task of ours that died with an exception
  nobody retrieved, a callback of ours that raised in the loop).

The handler sits on those loggers themselves, not on the root logger, so it sees records
from any thread of the test process (the fake Discord's, a bot run on a loop in a thread of
its own, the drawing pool's reader threads) and survives code that replaces the root
logger's handlers (``bot.ops.logs.setup_logging``). The drawing pool's worker processes
log in other interpreters: what they report comes back through the pool, which logs it here.

A test declares what it expects with one marker per expected ERROR::

    @pytest.mark.expect_errors(logger="bot.ui.announcer", match=r"could not post")

``logger`` is a logger name or a parent of it (``"bot"`` covers ``"bot.ui.turns"``);
``match`` is a regular expression searched in the message and in the exception's
``Type: text``. Each marker must match at least one record, and every record must match a
marker. A test that only knows at run time what it expects uses the ``error_log`` fixture:
``error_log.expect(logger=..., match=...)``; ``error_log.records`` are the ERRORs so far.
"""

from __future__ import annotations

import logging
import re
import threading
from dataclasses import dataclass
from pathlib import Path

import pytest

#: Loggers whose ERRORs are ours to answer for (with their children).
WATCHED = ("bot", "renderers", "discord", "asyncio")

#: Where our code lives: an ``asyncio`` ERROR counts when it names a file under one of these.
OUR_CODE = tuple(
    str(Path(__file__).resolve().parent.parent / part) + "/" for part in ("bot", "renderers")
)


def _under(name: str, parent: str) -> bool:
    return name == parent or name.startswith(parent + ".")


def _text(record: logging.LogRecord) -> str:
    """The message, then the exception's ``Type: text`` (what a pattern is searched in)."""
    text = record.getMessage()
    if record.exc_info and record.exc_info[1] is not None:
        exc = record.exc_info[1]
        text += f"\n{type(exc).__name__}: {exc}"
    return text


def _names_our_code(record: logging.LogRecord) -> bool:
    if any(path in record.getMessage() for path in OUR_CODE):
        return True
    if record.exc_info and record.exc_info[2] is not None:
        tb = record.exc_info[2]
        while tb is not None:
            if tb.tb_frame.f_code.co_filename.startswith(OUR_CODE):
                return True
            tb = tb.tb_next
    return False


def counts(record: logging.LogRecord) -> bool:
    """Whether this ERROR is the bot's: asyncio's only when it names our code (a task of a
    library or of the test's own harness dying is not the bot's failure)."""
    if _under(record.name, "asyncio"):
        return _names_our_code(record)
    return True


@dataclass(frozen=True)
class Expected:
    """One ERROR a test asks for."""

    logger: str
    match: str

    def fits(self, record: logging.LogRecord) -> bool:
        return _under(record.name, self.logger) and re.search(self.match, _text(record)) is not None

    def __str__(self) -> str:
        return f"{self.logger}: /{self.match}/"


class ErrorLog(logging.Handler):
    """The ERRORs the bot logged during one test (setup, call and teardown)."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.expected: list[Expected] = []
        self.records: list[logging.LogRecord] = []
        self._guard = threading.Lock()  # records arrive from the fake's and the bot's threads

    def emit(self, record: logging.LogRecord) -> None:
        if counts(record):
            with self._guard:
                self.records.append(record)

    def expect(self, *, logger: str, match: str) -> None:
        """Declare an ERROR this test provokes on purpose; it must then happen."""
        re.compile(match)  # a broken pattern is the test's mistake: say so now
        self.expected.append(Expected(logger, match))

    def problems(self) -> list[str]:
        """What is wrong: ERRORs nobody expected, expected ERRORs that never came."""
        with self._guard:
            records = list(self.records)
        found = [
            f"unexpected ERROR from {r.name}: {_text(r)[:500]}"
            for r in records
            if not any(e.fits(r) for e in self.expected)
        ]
        found += [
            f"expected ERROR never logged: {e}"
            for e in self.expected
            if not any(e.fits(r) for r in records)
        ]
        return found


def install(node: pytest.Item) -> ErrorLog:
    """Start watching for one test, with the ERRORs its ``expect_errors`` markers declare."""
    log = ErrorLog()
    for marker in node.iter_markers("expect_errors"):
        if marker.args or set(marker.kwargs) != {"logger", "match"}:
            raise pytest.UsageError(
                f"{node.nodeid}: write @pytest.mark.expect_errors(logger=..., match=...)"
            )
        log.expect(logger=marker.kwargs["logger"], match=marker.kwargs["match"])
    for name in WATCHED:
        logging.getLogger(name).addHandler(log)
    return log


def uninstall(log: ErrorLog) -> None:
    for name in WATCHED:
        logging.getLogger(name).removeHandler(log)
