"""A server's AutoMod blocks the bot's post (Discord's 400, code 200000 "Message was blocked by
automatic moderation": Opcodes and Status Codes, JSON Error Codes,
https://docs.discord.com/developers/topics/opcodes-and-status-codes#json-json-error-codes).
The move counts, the mover is told in one line why nothing shows, the log says it once, nothing
retries the blocked post in a loop, and the game goes on."""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest

from bot.app import MexicanTrainBot
from tests.clock import FakeClock
from tests.e2e.helpers import open_game, pick, said, to_move, type_move
from tests.fakediscord import FakeDiscord, running_bot
from tests.fakediscord.models import EPHEMERAL
from tests.fakediscord.refusals import AUTOMOD_BLOCKED
from tests.fakediscord.server import RecordedRequest

PUBLIC_POSTS = ("/channels/{channel_id}/messages", "/webhooks/{webhook_id}/{webhook_token}")


def in_server(fake: FakeDiscord) -> Callable[[RecordedRequest], bool]:
    """AutoMod is a server's: it looks at what a server's channel shows, not at a DM nor at a
    message only its user sees."""

    def blocked(request: RecordedRequest) -> bool:
        body = request.body if isinstance(request.body, dict) else {}
        if int(body.get("flags") or 0) & EPHEMERAL:
            return False
        parts = request.path.split("/")
        if parts[1] == "channels":
            channel = fake.channels.get(int(parts[2]))
            return channel is not None and not channel.is_dm
        return True  # a followup or a webhook post: the game's channel

    return blocked


async def test_a_post_blocked_by_automod_is_said_once_and_the_game_goes_on(
    fake_discord: FakeDiscord,
    make_bot: Callable[[], MexicanTrainBot],
    clock: FakeClock,
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake = fake_discord
    bot = make_bot()
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="quick")
        posted = len(games.messages())
        blocks = [
            fake.refuse("POST", route, AUTOMOD_BLOCKED, times=None, when=in_server(fake))
            for route in PUBLIC_POSTS
        ]
        uid, view = await to_move(bot, game.id)
        mover = alice if uid == alice.id else bob
        caplog.clear()
        with caplog.at_level(logging.INFO):
            answer = await said(await type_move(mover, games, str(pick(view.legal))))
        assert answer.ephemeral and answer.text.startswith("✅"), answer.text
        assert "Discord refused my message" in answer.text
        assert "blocked by automatic moderation" in answer.text
        said_in_log = [r for r in caplog.records if "automatic moderation" in r.getMessage()]
        assert len(said_in_log) == 1, [r.getMessage() for r in said_in_log]
        assert said_in_log[0].levelno == logging.WARNING and said_in_log[0].exc_info is None
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert len(games.messages()) == posted
        refused = sum(b.served for b in blocks)
        assert refused >= 1
        # Nothing is left owed for a retry loop to send again: the refusal is final.
        assert await bot.service.outbox.next_due() is None
        assert (await bot.service.game(game.id)).version > game.version

        for block in blocks:
            block.lift()
        clock.tick(60)  # the next turn starts later than the blocked one did
        uid, view = await to_move(bot, game.id)
        nxt = alice if uid == alice.id else bob
        answer = await said(await type_move(nxt, games, str(pick(view.legal))))
        assert answer.text.startswith("✅") and "refused" not in answer.text
        assert len(games.messages()) > posted  # the game shows again
        assert sum(b.served for b in blocks) == refused  # no blocked post was tried again
