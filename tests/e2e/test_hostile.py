"""The hostile-input catalogue (tests/e2e/hostile.py) through the fake Discord: every input
answered within Discord's 3 s, every refusal delivered, short and changing nothing, what is
plain accepted, and not one ERROR line or traceback."""

from __future__ import annotations

from collections.abc import Callable

from bot.app import MexicanTrainBot
from tests.e2e.hostile import catalogue, run_catalogue
from tests.fakediscord import FakeDiscord, running_bot


async def test_every_hostile_input_is_answered_clearly_and_changes_nothing(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    entries = catalogue()
    categories = {e.category for e in entries}
    assert len(entries) >= 142 and len(categories) == 10
    async with running_bot(fake_discord, make_bot()) as bot:
        assert isinstance(bot, MexicanTrainBot)
        report = await run_catalogue(fake_discord, bot, entries)
    counts = report.counts()
    assert report.problems() == [], "\n".join(report.problems())
    assert counts["unanswered"] == counts["tracebacks"] == counts["undelivered"] == 0
    assert counts["wrong"] == 0
    assert counts["refused_clearly"] + counts["accepted"] == counts["total"] == len(entries)
