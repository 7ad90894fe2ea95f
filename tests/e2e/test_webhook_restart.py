"""The bot's channel webhook over days (issue 34): its posts are edited through it after a
restart too (the editor lived in memory only), a webhook an admin deleted is forgotten at
the first edit it refuses (never the bot token's refused 50005 after it), and a deleted
channel's webhook is forgotten."""

from __future__ import annotations

from collections.abc import Callable

import discord
import pytest

from bot.app import MexicanTrainBot
from bot.ui.route import Route
from bot.ui.turnpost import TurnPost
from tests.e2e.helpers import idle
from tests.e2e.test_places import ended
from tests.e2e.test_webhook_posts import (
    EDIT_CHANNEL_MESSAGE,
    _move_from_a_dm,
    _open,
    hooked_edits,
)
from tests.fakediscord import WAIT, FakeDiscord, running_bot


async def test_after_a_restart_an_edit_of_the_webhooks_post_finds_the_webhook_again(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    async with running_bot(fake, bot):
        games, users = await _open(fake, bot, webhooks=True)
        post, _ = await _move_from_a_dm(fake, bot, games, users)
        game = await bot.service.game_in_channel(games.id)
        assert game is not None and post.webhook_id is not None
        await idle(fake)
    bot = make_bot()  # a restart: the webhook's editor is gone with the process
    async with running_bot(fake, bot):
        assert games.id not in bot.hooks
        await TurnPost(bot, Route(bot, None), game.id).edit(games.id, post.id, content="grown")
        assert post.text == "grown" and post.edits == 1
        assert hooked_edits(fake) == [str(post.webhook_id)]
        # The bot token was refused once (50005: how the bot learns whose post it is), and
        # the webhook found by one list call; the next edit goes straight through it.
        refused = [r for r in fake.requests_to(EDIT_CHANNEL_MESSAGE) if r.status >= 400]
        assert [r.status for r in refused] == [403]
        again = TurnPost(bot, Route(bot, None), game.id)
        await again.edit(games.id, post.id, content="grown again")
        assert post.text == "grown again"
        assert len([r for r in fake.requests_to(EDIT_CHANNEL_MESSAGE) if r.status >= 400]) == 1
        assert len(hooked_edits(fake)) == 2


async def test_an_edit_through_a_deleted_webhook_forgets_it_and_spends_no_refused_edit(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    async with running_bot(fake, bot):
        games, users = await _open(fake, bot, webhooks=True)
        post, _ = await _move_from_a_dm(fake, bot, games, users)
        game = await bot.service.game_in_channel(games.id)
        assert game is not None and games.id in bot.hooks
        (hook,) = fake.webhooks.of(games)
        fake.webhooks.delete(hook)
        # The caller (a turn post growing) is told, and posts anew as for any post it can
        # no longer edit; the bot token is not tried on the webhook's post.
        with pytest.raises(discord.NotFound):
            await TurnPost(bot, Route(bot, None), game.id).edit(games.id, post.id, content="grown")
        assert post.text != "grown"
        assert [r for r in fake.requests_to(EDIT_CHANNEL_MESSAGE) if r.status >= 400] == []
        assert games.id not in bot.hooks
        # The next post from a DM makes the webhook again, at its first try.
        again, paid = await _move_from_a_dm(fake, bot, games, users)
        (fresh,) = fake.webhooks.of(games)
        assert again.webhook_id == fresh.id != hook.id and paid == 0


async def test_a_deleted_channel_forgets_its_webhook(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    async with running_bot(fake, bot):
        games, users = await _open(fake, bot, webhooks=True)
        await _move_from_a_dm(fake, bot, games, users)
        game = await bot.service.game_in_channel(games.id)
        assert game is not None and games.id in bot.hooks
        fake.delete_channel(games)
        await ended(fake, bot, game.id)  # the listener forgets the webhook first
        assert games.id not in bot.hooks
        for user in users.values():  # and tells each player why the game ended
            await fake.wait_for(
                lambda u=user: any("channel was deleted" in (m.text or "") for m in u.dms()),
                timeout=WAIT,
                what=f"{user.name} told",
                on=user,
            )
