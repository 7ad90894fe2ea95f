"""What a refusal in a DM advises works in a DM (issue 50): it advised ``/table``, which
Discord offers in servers only (``contexts`` without the bot's DM). Every command the advice
names, in English and in French, is run in a DM through the fake, which refuses what
Discord would: each one is answered, none refused for being in a DM."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from bot.app import MexicanTrainBot
from bot.i18n import CATALOG
from tests.e2e.helpers import said
from tests.fakediscord import FakeDiscord, running_bot

#: The French commands' names, as the French advice says them, back to the ones synced.
FRENCH = {"main": "hand", "mt résumé": "mt catchup", "mt moi": "mt me",
          "mt mesparties": "mt mygames", "table": "table"}  # fmt: skip


def _advised(language: str) -> list[str]:
    text = CATALOG["error.server-command"][language]
    advice = text[text.index("DM" if language == "en" else "MP") :]
    names = re.findall(r"/([\w ]+?)(?=,| et | and |\.)", advice)
    return [name if language == "en" else FRENCH[name] for name in names]


def test_the_advice_names_the_same_commands_in_both_languages() -> None:
    assert _advised("en") == _advised("fr") and "hand" in _advised("en")


@pytest.mark.parametrize("language", ["en", "fr"])
async def test_every_command_a_dm_refusal_advises_works_in_a_dm(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot], language: str
) -> None:
    fake = fake_discord
    room, alice = fake.channel("games"), fake.user("alice")
    bot = make_bot()
    async with running_bot(fake, bot):
        await said(await alice.slash("mt new", channel=room, preset="quick"))
        await said(await alice.slash("mt computer", channel=room))
        await said(await alice.slash("mt start", channel=room))
        for command in _advised(language):
            try:
                answer = await said(await alice.slash(command))  # no channel: the bot's DM
            except PermissionError as exc:  # what Discord does with a server-only command
                raise AssertionError(f"/{command} is advised in a DM but {exc}") from None
            assert "server" not in answer.text.lower(), (command, answer.text)
