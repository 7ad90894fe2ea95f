"""A game in its own thread, through the fake Discord (issue 29): ``/mt new thread:True`` and the
server's default, the lobby card and the result in the channel, every turn in the thread, the
thread archived at the match's end, the permissions checked first, a restart and a rematch."""

from __future__ import annotations

from collections.abc import Callable

import discord

from bot.app import MexicanTrainBot
from bot.store import GameStatus
from tests.e2e.helpers import game_here, last_public, pick, said, slash_move, to_move
from tests.fakediscord import FakeChannel, FakeDiscord, FakeUser, running_bot
from tests.fakediscord.threads import FakeThread


async def play_to_the_end(
    bot: MexicanTrainBot, thread: FakeChannel, users: dict[int, FakeUser], game_id: int
) -> int:
    """Every move typed in the thread, to the match's end; the number of moves."""
    for moves in range(400):
        if (await bot.service.game(game_id)).status is not GameStatus.ACTIVE:
            return moves
        uid, view = await to_move(bot, game_id)
        answer = await slash_move(users[uid], thread, str(pick(view.legal)))
        assert answer.startswith("✅"), answer
    raise AssertionError("the match did not end")


async def test_a_whole_game_in_its_own_thread(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    users = {alice.id: alice, bob.id: bob}
    bot = make_bot()
    async with running_bot(fake, bot):
        opened = await said(await alice.slash("mt new", channel=games, preset="quick", thread=True))
        card = last_public(games)
        (thread,) = games.threads()
        assert isinstance(thread, FakeThread) and thread.id == card.id  # made from the card
        assert card.webhook_id == fake.application_id  # the command's followup (issue 47)
        assert f"<#{thread.id}>" in opened.text and "own thread" in opened.text
        assert thread.name == "Mexican Train #1"
        game = await game_here(bot, thread)  # the thread is the game's channel
        assert await bot.service.game_in_channel(games.id) is None
        # The card's buttons stay in the channel and act on the game in the thread.
        joined = await said(await bob.click(card, label="Join"))
        assert "joined" in joined.text
        started = await said(await alice.click(card, label="Start"))
        assert "started" in started.text
        # Commands typed in the thread find the game; the turn posts go to the thread.
        status = await said(await bob.slash("mt status", channel=thread))
        assert "in play" in status.text
        assert last_public(thread).button_labels[0] == "Play"
    # A restart: the thread is the game's channel still.
    bot = make_bot()
    async with running_bot(fake, bot):
        moves = await play_to_the_end(bot, thread, users, game.id)
        assert moves > 5
        final = last_public(thread)
        assert final.files and final.files[0].filename == "round.png"
        # The channel holds the card and the result only, with a link to the thread; the
        # thread is archived (an archived thread takes no more moves).
        parent = games.messages()
        assert len(parent) <= 3, [m.text for m in parent]
        result = parent[-1]
        assert "is over" in result.text and f"<#{thread.id}>" in result.text
        assert "Alice" in result.text and "Bob" in result.text
        assert result.pinged == []  # a result pings nobody
        assert result.button_labels == ["Rematch"]  # the thread is archived: Rematch is here
        assert thread.archived
        # Each player is told the end once, by DM, with the link to the result beside the
        # thread, where Rematch is (not to the archived thread's last post).
        link = f"https://discord.com/channels/{fake.guild_id}/{games.id}/{result.id}"
        for u in (alice, bob):
            ends = [m for m in u.dms() if "is over" in m.text]
            assert len(ends) == 1 and link in ends[0].text, (u.name, ends[0].text)
        # A one-round match: "pts" as everywhere, and nothing of rounds won.
        assert " pts" in result.text and "won" not in result.text, result.text
        assert card.embeds[0]["footer"]["text"] == "The game is over."
        # Rematch from the channel: a new lobby card there, and a new thread from it.
        again = await said(await bob.click(result, label="Rematch"))
        assert "own thread" in again.text
        assert len(games.threads()) == 2
        rematch = await game_here(bot, games.threads()[-1])
        assert rematch.id != game.id and rematch.status is GameStatus.LOBBY


async def test_the_server_default_and_the_permissions_a_thread_needs(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games, lounge = fake.channel("games"), fake.channel("lounge")
    alice = fake.user("alice")
    bot = make_bot()
    async with running_bot(fake, bot):
        answer = await said(
            await fake.owner.slash("mt-admin settings", channel=games, threads=True)
        )
        assert "own thread: on" in answer.text
        opened = await said(await alice.slash("mt new", channel=games, preset="quick"))
        assert "own thread" in opened.text and len(games.threads()) == 1
        # thread:False still plays in the channel itself.
        here = await said(await alice.slash("mt new", channel=lounge, thread=False))
        assert "is open" in here.text and not lounge.threads()
        # Without Create Public Threads the bot says so, naming it, and opens nothing.
        other = fake.channel("other")
        other.set_permissions(fake.bot_user, deny=discord.Permissions(create_public_threads=True))
        refused = await said(await alice.slash("mt new", channel=other, thread=True))
        assert "Create Public Threads" in refused.text
        assert await bot.service.game_in_channel(other.id) is None and not other.messages()
