"""One line per outage (issue 37) for the parts that poll the database on their own: the
health endpoint's poll and the start-up's failures (computer players resumed, the table
messages flushed) log a database outage as one line with its reason, never a traceback;
any other failure keeps its traceback. A real SQLite store, closed under them, is the outage."""

from __future__ import annotations

import logging
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.ops import health
from bot.store import open_store
from bot.store.outage import log_failure, unreachable


async def closed_store_error(db_path: Path) -> Exception:
    store = await open_store(db_path)
    await store.close()
    try:
        await store.count_games()
    except Exception as exc:
        return exc
    raise AssertionError("a closed store answered")


async def test_an_outage_is_one_line_and_a_bug_keeps_its_traceback(
    db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    outage = await closed_store_error(db_path)
    assert unreachable(outage) is not None
    log = logging.getLogger("tests.outage")
    with caplog.at_level(logging.INFO):
        log_failure(log, logging.ERROR, "game %s: computers not resumed", outage, 7)
        log_failure(log, logging.ERROR, "game %s: computers not resumed", KeyError("x"), 8)
    first, second = caplog.records
    assert first.exc_info is None
    assert "game 7: computers not resumed: the game database is unreachable" in first.getMessage()
    assert second.exc_info is not None and second.exc_info[0] is KeyError


async def test_the_health_poll_says_an_outage_once_and_its_end_once(
    db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = await open_store(db_path)
    bot: Any = SimpleNamespace(service=SimpleNamespace(store=store))
    with caplog.at_level(logging.INFO, logger="bot.ops.health"):
        assert await health.game_counts(bot) is not None
        await store.close()
        for _ in range(5):  # /healthz polled again and again during the outage
            assert await health.game_counts(bot) is None
        bot.service.store = store = await open_store(db_path)
        assert await health.game_counts(bot) is not None
        assert await health.game_counts(bot) is not None
    await store.close()
    said = [r for r in caplog.records if r.name == "bot.ops.health"]
    assert [r.exc_info for r in said] == [None, None]
    assert "the database is unreachable" in said[0].getMessage()
    assert "answers again" in said[1].getMessage()
