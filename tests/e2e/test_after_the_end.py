"""A finished game stays reachable (issue 34, item 4), through the fake Discord: right after
the match, in its channel and from the channel a thread game was opened from, every command
that reads a game answers about the match just finished (status, catchup, scores, table,
history, replay, export, hand) until a new lobby opens there; ``/mt mygames`` lists it with
the player's place."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from bot.app import MexicanTrainBot
from bot.store import GameStatus
from tests.e2e.helpers import (
    game_here,
    last_public,
    open_game,
    pick,
    said,
    slash_move,
    to_move,
)
from tests.e2e.test_dm_moves import _press_any
from tests.fakediscord import FakeChannel, FakeDiscord, FakeUser, running_bot

NO_GAME = "There is no game in this channel"


async def _play_to_the_end(
    bot: MexicanTrainBot, where: FakeChannel, users: dict[int, FakeUser], game_id: int
) -> None:
    for _ in range(400):
        if (await bot.service.game(game_id)).status is not GameStatus.ACTIVE:
            return
        uid, view = await to_move(bot, game_id)
        answer = await slash_move(users[uid], where, str(pick(view.legal)))
        assert answer.startswith("✅"), answer
    raise AssertionError("the match did not end")


async def _every_command_finds_it(
    fake: FakeDiscord, channel: FakeChannel, player: FakeUser, game_id: int
) -> None:
    """Each command, typed in ``channel``, answers about finished game ``game_id``."""
    status = await said(await player.slash("mt status", channel=channel))
    assert f"#{game_id}" in status.text and "over" in status.text, status.text
    # The result, not only that it is over (issue 47): the standings, the winner, the link.
    assert "1. " in status.text and "won the match" in status.text, status.text
    assert "The result: https://discord.com/channels/" in status.text, status.text
    catchup = await said(await player.slash("mt catchup", channel=channel))
    assert catchup.embeds and f"Game #{game_id} is over" in catchup.embeds[0]["description"]
    assert catchup.embeds[0]["fields"][0]["name"] == "Final standings" and catchup.images()
    scores = await said(await player.slash("mt scores", channel=channel))
    assert scores.text.startswith(f"Game #{game_id} is over. Final standings:")
    table = await said(await player.slash("table", channel=channel))
    assert table.embeds[0]["description"].startswith(f"Game #{game_id} is over: the final table.")
    history = await said(await player.slash("mt history", channel=channel))
    assert f"Game #{game_id} moves" in history.text
    replay = await said(await player.slash("mt replay", channel=channel))
    assert replay.files and replay.files[0].data.startswith(b"GIF8")
    export = await said(await player.slash("mt history", channel=channel, file=True))
    assert export.files and export.files[0].filename.endswith(".json")
    rules = await said(await player.slash("mt status", channel=channel, rules=True))
    assert rules.content.startswith("**Rules:**") and "players" in rules.content, rules.content
    hand = await said(await player.slash("hand", channel=channel))
    assert hand.text.startswith(f"Game #{game_id} is over, so there is no hand to show.")
    mine = await said(await player.slash("mt mygames", channel=channel))
    assert f"🏁 Game #{game_id} in <#" in mine.text and "Finished lately" in mine.text
    for answer in (status, catchup, scores, table, history, replay, export, rules, hand, mine):
        assert NO_GAME not in answer.text and answer.ephemeral


async def test_a_finished_game_answers_in_its_channel_until_a_new_lobby(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    users = {alice.id: alice, bob.id: bob}
    bot = make_bot()
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="quick")
        await _play_to_the_end(bot, games, users, game.id)
        await _every_command_finds_it(fake, games, bob, game.id)
        # In a DM, /mt mygames lists it too, from every server.
        dm = await said(await bob.slash("mt mygames"))
        assert f"🏁 Game #{game.id}" in dm.text
        # A new lobby takes its place: the finished match is no longer this channel's game.
        await said(await alice.click(last_public(games), label="Rematch"))
        status = await said(await bob.slash("mt status", channel=games))
        assert "waiting for players" in status.text and f"#{game.id} " not in status.text


async def test_a_thread_games_end_answers_in_the_channel_it_was_opened_from(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    users = {alice.id: alice, bob.id: bob}
    bot = make_bot()
    async with running_bot(fake, bot):
        await said(await alice.slash("mt new", channel=games, preset="quick", thread=True))
        card = last_public(games)
        (thread,) = games.threads()
        game = await game_here(bot, thread)
        await said(await bob.click(card, label="Join"))
        await said(await alice.click(card, label="Start"))
        await _play_to_the_end(bot, thread, users, game.id)
        assert thread.archived
        await _every_command_finds_it(fake, games, alice, game.id)
        # Every link after the end opens the result beside the thread, not the archived thread
        # (issue 47): /mt status's, and an old turn DM's refusal and its link button.
        result = (await bot.service.messages(game.id))["result"]
        link = f"https://discord.com/channels/{game.guild_id}/{games.id}/{result.message_id}"
        assert result.channel_id == games.id
        status = await said(await bob.slash("mt status", channel=games))
        assert f"The result: {link}" in status.text, status.text
        old = next(
            m for u in (alice, bob) for m in u.dms() if m.selects or "Draw" in m.button_labels
        )
        user = alice if old in alice.dms() else bob
        refused = await _press_any(user, old)
        assert "is over" in refused.text and link in refused.text, refused.text
        for _ in range(100):  # the DM's controls follow, by an edit after the answer
            if old.edits:
                break
            await asyncio.sleep(0.02)
        assert [b.get("url") for b in old.buttons if b.get("url")] == [link]
        # Another channel has nothing to show.
        elsewhere = await said(await alice.slash("mt status", channel=fake.channel("other")))
        assert NO_GAME in elsewhere.text
