"""Smoke: the bot connects, opens a lobby, deals, and a move lands."""

from __future__ import annotations

from collections.abc import Callable

from bot.app import MexicanTrainBot
from tests.e2e.helpers import last_public, open_game, said, to_move
from tests.fakediscord import FakeDiscord, running_bot


async def test_open_start_and_play(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    alice, bob, games = fake.user("alice"), fake.user("bob"), fake.channel("games")
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="quick")
        table = last_public(games)
        assert table.button_labels == ["Play", "Draw", "Pass", "My hand", "Catch me up"]
        uid, view = await to_move(bot, game.id)
        user = alice if uid == alice.id else bob
        # Only the player to move is told, once, with their hand: Bob by DM; Alice, who
        # pressed Start, privately in her answer (she is looking).
        if user is bob:
            assert [m.files[0].filename for m in bob.dms()] == ["hand.png"] and not alice.dms()
        else:
            assert not alice.dms() and not bob.dms()
            private = games.messages(visible_to=alice)
            assert any(
                m.ephemeral and m.files and m.files[0].filename == "hand.png" for m in private
            )
        move = view.legal[0]
        ans = await said(await user.click(table, label="Play"))
        assert ans.ephemeral and ans.selects
        done = await said(await user.select(ans, values=[str(move)]))
        assert done.text.startswith("✅")
        assert "played" in last_public(games).embeds[0]["description"]
