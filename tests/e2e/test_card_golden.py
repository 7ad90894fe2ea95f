"""The goldens show the card (issue 47): the component tree of a turn DM's card and of a turn
post's card sent as the bot's own message (a move made from a DM: no interaction token on
the channel), as the bot sent them to the fake Discord (discord.py's ``to_components()``,
with the message's flags), for a fixed seeded deal, in English and in French. They are kept
as JSON beside the picture goldens (tests/renderers/golden/card_*.json); a change of the
cards' structure or words fails here until it is regenerated deliberately:
``UPDATE_GOLDEN=1 pytest tests/e2e/test_card_golden.py`` (then read the diff)."""

from __future__ import annotations

import copy
import os
import re
from collections.abc import Callable
from typing import Any

import pytest

from bot.app import MexicanTrainBot
from bot.engine import DRAW, PASS
from tests.e2e.helpers import last_public, open_game, pick, said, to_turn_dm
from tests.fakediscord import FakeDiscord, FakeMessage, running_bot
from tests.fakediscord.models import COMPONENTS_V2
from tests.renderers.conftest import Golden

#: Snowflakes (users, channels, messages: made from the fake's clock) read as one mark.
SNOWFLAKE = re.compile(r"\d{15,}")


def _tree(message: FakeMessage) -> dict[str, Any]:
    """What the bot sent: the flags and the component tree, ids masked, the picture's name
    and alt text kept (they are part of the card)."""
    assert message.card and message.flags & COMPONENTS_V2
    tree = {"flags": message.flags, "components": copy.deepcopy(message.components)}
    return _masked(tree)  # type: ignore[no-any-return]


def _masked(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _masked(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_masked(v) for v in value]
    if isinstance(value, str):
        return SNOWFLAKE.sub("<id>", value)
    return value


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_the_turn_dm_card_and_the_turn_post_card_as_sent(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot], lang: str
) -> None:
    fake = fake_discord
    locale = "fr" if lang == "fr" else "en-US"
    games = fake.channel("games")
    alice, bob, carol = (fake.user(n, locale=locale) for n in ("alice", "bob", "carol"))
    users = {u.id: u for u in (alice, bob, carol)}
    bot = make_bot()
    async with running_bot(fake, bot):
        if lang == "fr":
            await said(await fake.owner.slash("mt-admin settings", channel=games, language="fr"))
            # French players: the lobby's words are French (open_game reads English ones).
            await said(await alice.slash("mt new", channel=games, preset="quick"))
            lobby = last_public(games)
            for other in (bob, carol):
                await said(await other.click(lobby, label="Rejoindre"))
            await said(await alice.click(lobby, label="Commencer"))
        else:
            await open_game(fake, bot, games, alice, [bob, carol], preset="quick")
        user, view, dm = await to_turn_dm(bot, games, users)
        dm_tree = _tree(dm)  # before it is pressed (a move made from it quietens it)
        move = pick(view.legal)
        if move in (DRAW, PASS):
            action = f":dm:{move!s}"
            button = next(b for b in dm.buttons if str(b.get("custom_id")).endswith(action))
            await said(await user.click(dm, custom_id=str(button["custom_id"])))
        else:
            await said(await user.select(dm, values=[str(move)]))
        post = last_public(games)
        post_tree = _tree(post)

    golden = Golden(os.environ.get("UPDATE_GOLDEN") == "1")
    golden.check_json(f"card_turn_dm_{lang}", dm_tree)
    golden.check_json(f"card_turn_post_{lang}", post_tree)
