"""A removed player sees nothing private (issue 37): after ``/mt kick`` or ``/mt leave`` the
seat a computer now plays keeps its hand to itself. Every private view of a seat — ``/hand``,
the My hand button, ``/mt catchup``, the Catch me up button, and the
service's ``seat_view`` and ``digest`` — answers the one clear line and shows no picture."""

from __future__ import annotations

from collections.abc import Callable

import discord
import pytest

from bot.app import MexicanTrainBot
from bot.service import errors
from bot.ui import components
from tests.e2e.helpers import last_public, open_game, said, settled
from tests.fakediscord import FakeDiscord, FakeMessage, running_bot

REFUSED = "You are no longer playing in this game"


def _refused(answer: FakeMessage) -> None:
    assert answer.ephemeral, answer.text
    assert REFUSED in answer.text, answer.text
    assert not answer.files and not answer.embeds, [f.filename for f in answer.files]


async def test_kicked_and_departed_players_see_no_hand_nor_catch_up(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice, bob, carol, dave = (fake.user(n) for n in ("alice", "bob", "carol", "dave"))
    bot = make_bot()
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob, carol, dave], preset="quick")
        # Before: Bob's hand is his.
        assert "Your hand" in (await said(await bob.slash("hand", channel=games))).text
        kicked = await said(await alice.slash("mt kick", channel=games, player=bob))
        assert "computer plays their seat" in kicked.text
        left = await said(await carol.slash("mt leave", channel=games))
        assert left.ephemeral, left.text
        await settled(bot, game.id)
        channel = bot.get_partial_messageable(games.id)
        view = discord.ui.View(timeout=None)
        view.add_item(components.CatchUpButton(game.id, "en"))
        await channel.send("🎲", view=view)
        catch_me_up = last_public(games)
        for gone in (bob, carol):
            _refused(await said(await gone.slash("hand", channel=games)))
            _refused(await said(await gone.slash("mt catchup", channel=games)))
            _refused(await said(await gone.click(catch_me_up, label="Catch me up")))
            table = next(m for m in reversed(games.messages()) if "My hand" in m.button_labels)
            _refused(await said(await gone.click(table, label="My hand")))
            with pytest.raises(errors.SeatGiven):
                await bot.service.seat_view(game.id, gone.id)
            with pytest.raises(errors.SeatGiven):
                await bot.service.digest(game.id, gone.id)
        # Those still playing, and a spectator's public catch-up, are unchanged.
        assert "Your hand" in (await said(await dave.slash("hand", channel=games))).text
        watched = await said(await fake.user("erin").slash("mt catchup", channel=games))
        assert REFUSED not in watched.text and watched.embeds
