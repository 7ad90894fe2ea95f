"""The suite's ERROR watch (tests/errorlog.py) sees what it must and judges it right."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

import pytest

import bot.app
import bot.ops.logs
from bot.engine import Tile
from tests.errorlog import ErrorLog, counts


def _record(name: str, message: str, exc: BaseException | None = None) -> logging.LogRecord:
    exc_info = (type(exc), exc, exc.__traceback__) if exc is not None else None
    return logging.getLogger(name).makeRecord(
        name, logging.ERROR, __file__, 1, message, None, exc_info
    )


def test_unexpected_and_missing_errors_are_both_problems() -> None:
    log = ErrorLog()
    log.expect(logger="bot.ui", match=r"could not post")
    log.handle(_record("bot.service.commit", "game 1: something broke"))
    assert log.problems() == [
        "unexpected ERROR from bot.service.commit: game 1: something broke",
        "expected ERROR never logged: bot.ui: /could not post/",
    ]


def test_an_expected_error_matches_its_logger_children_and_the_exception_text() -> None:
    log = ErrorLog()
    log.expect(logger="bot.ui", match=r"KeyError: 'seat'")
    log.handle(_record("bot.ui.announcer", "interaction 1 failed", KeyError("seat")))
    assert log.problems() == []
    log.handle(_record("bot.uix", "interaction 1 failed", KeyError("seat")))  # not a child
    assert log.problems() == ["unexpected ERROR from bot.uix: interaction 1 failed\n"
                              "KeyError: 'seat'"]  # fmt: skip


def test_warnings_are_not_errors(error_log: ErrorLog) -> None:
    logging.getLogger("bot.test_errorlog").warning("slow, but it got there")
    assert error_log.records == []


def test_asyncio_errors_count_only_when_they_name_our_code() -> None:
    def failure(call: Callable[[], object]) -> BaseException:
        try:
            call()
        except Exception as exc:
            return exc
        raise AssertionError("it did not raise")

    theirs = failure(lambda: int("x"))
    ours = failure(lambda: Tile.parse("x"))  # raised in bot/engine/tiles.py
    never = "Task exception was never retrieved"
    assert not counts(_record("asyncio", never, theirs))
    assert counts(_record("asyncio", never, ours))
    # A task whose coroutine lives in bot/ is named by its path in the task's repr.
    pending = f"Task was destroyed but it is pending! coro=<x() defined at {bot.app.__file__}:1>"
    assert counts(_record("asyncio", pending))
    assert counts(_record("bot.anything", "whatever"))  # the bot's own loggers always count


@pytest.mark.expect_errors(logger="bot.test_errorlog", match=r"^from a thread$")
def test_an_error_logged_in_another_thread_is_seen(error_log: ErrorLog) -> None:
    thread = threading.Thread(
        target=lambda: logging.getLogger("bot.test_errorlog").error("from a thread")
    )
    thread.start()
    thread.join()
    assert [r.getMessage() for r in error_log.records] == ["from a thread"]


def test_the_bot_replacing_the_root_handlers_does_not_blind_the_watch(
    error_log: ErrorLog,
) -> None:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        bot.ops.logs.setup_logging("INFO")  # what the bot's main() does at start-up
        error_log.expect(logger="bot.test_errorlog", match="after setup_logging")
        logging.getLogger("bot.test_errorlog").error("after setup_logging")
    finally:
        for handler in list(root.handlers):
            root.removeHandler(handler)
        for handler in handlers:
            root.addHandler(handler)
        root.setLevel(level)
    assert len(error_log.records) == 1
