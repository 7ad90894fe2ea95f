"""A button's ``custom_id`` is outside text: a modified client can send one with other
scripts' digits (``²``, an Arabic-Indic or a fullwidth digit), huge numbers, or a newline and
a forged log line in it. Each is answered like any button the bot does not know ("this button
no longer works; here is the game now"), changes nothing, and leaves one line per record in
the text log, no traceback (issue 50: ``mt:²:1:dm:draw`` went unanswered with a traceback
from ``int("²")``, and a newline in an id started a forged ``CRITICAL`` line in the log)."""

from __future__ import annotations

import io
import logging
from collections.abc import Callable, Iterator

import pytest

from bot.app import MexicanTrainBot
from bot.ops.logs import TextFormatter
from tests.e2e.helpers import last_public, open_game, said
from tests.fakediscord import FakeDiscord, running_bot

FORGED_LINE = "1999-12-31T23:59:59.000Z CRITICAL bot.run: the database was deleted"


def forged_ids(game: int, version: int) -> list[str]:
    return [
        "mt:²:1:dm:draw",
        "mt:²:1:draw",
        f"mt:{game}:²:draw",
        "mt:\u0663:1:dm:draw",  # an Arabic-Indic 3: \d and int() read it as 3
        f"mt:\uff11{game}:lobby:join",  # a fullwidth 1
        f"mt:{game}:\u0661:draw",
        f"mt:{game}:{version}:dm:\u0661",
        f"mt:{game}:hist:\u00b9:older",
        "mt:" + "9" * 25 + ":1:draw",
        f"mt:{game}:{'9' * 25}:pick",
        f"mt:{game}:{version}:draw\n{FORGED_LINE}",
        f"mt:{game}:{version}:draw\r{FORGED_LINE}",
        f"mt:{game}\t:{version}:draw",
        f"mt:{game}:{version}:draw\u2028{FORGED_LINE}",
        f"mt:{game}:{version}:draw\x1b[2J\x00",
    ]


@pytest.fixture
def text_log() -> Iterator[io.StringIO]:
    """The bot's log as ``MT_LOG_FORMAT=text`` writes it."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(TextFormatter())
    logger = logging.getLogger("bot")
    logger.addHandler(handler)
    old = logger.level
    logger.setLevel(logging.INFO)
    try:
        yield out
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old)


async def test_forged_ids_are_answered_as_unknown_buttons_in_one_log_line_each(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot], text_log: io.StringIO
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    async with running_bot(fake, make_bot()) as bot:
        assert isinstance(bot, MexicanTrainBot)
        game = await open_game(fake, bot, games, alice, [bob])
        table = last_public(games)
        before = await bot.service.game(game.id)
        posts = len(games.messages())
        for custom_id in forged_ids(game.id, before.version):
            start = text_log.tell()
            answer = await said(await bob.forge_click(table, custom_id=custom_id))
            assert answer.ephemeral, custom_id
            assert answer.text.startswith("This button no longer works"), (
                custom_id,
                answer.text,
            )
            assert f"Game #{game.id}" in answer.text, answer.text  # the game now
            text_log.seek(start)
            lines = text_log.read().splitlines()
            text_log.seek(0, io.SEEK_END)
            mine = [line for line in lines if " bot.interactions: " in line]
            assert len(mine) == 1 and len(lines) == 1, (custom_id, lines)  # one line in all
            assert "outcome=refused:stale-button" in mine[0], mine
            assert all(line[:4].isdigit() and "Z " in line[:30] for line in lines), lines
            assert not any(line.startswith("1999-") for line in lines), lines
            assert not any("Traceback" in line for line in lines), lines
        after = await bot.service.game(game.id)
        assert (after.version, after.status, after.turn) == (
            before.version,
            before.status,
            before.turn,
        )
        assert len(games.messages()) == posts
