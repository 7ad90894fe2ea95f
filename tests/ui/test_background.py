"""The bot's background work (``GameBot.spawn``): a failure is logged when it happens."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.app import create_bot
from bot.config import Config
from tests.errorlog import ErrorLog


@pytest.mark.expect_errors(logger="bot.ui.host", match=r"background task .*broken_job failed")
async def test_a_background_task_that_raises_is_logged_at_once_by_name(
    tmp_path: Path, error_log: ErrorLog
) -> None:
    bot = create_bot(Config(database=tmp_path / "db.sqlite3", render_workers=0))

    async def broken_job() -> None:
        raise LookupError("game 7 vanished")

    async def fine_job() -> None:
        await asyncio.sleep(0)

    bot.spawn(broken_job())
    bot.spawn(fine_job())
    for _ in range(5):  # the tasks run and their done callbacks follow, a few loop turns
        await asyncio.sleep(0)
    (failed,) = error_log.records
    assert isinstance(failed.exc_info and failed.exc_info[1], LookupError)
    await bot.close()
