"""``/mt new``'s lobby card is the command's public followup (issue 47): the host's private
answer replaces "thinking…" first, then the card follows it in the channel, off the bot's
global limit, where it was the bot's own paid message. The card still works as before: joins
edit it through the click's token, the bot token edits it once the command's token has died,
a thread game's thread opens from it; a card Discord refuses ends the game and the host is
told why, never that the lobby is open."""

from __future__ import annotations

from collections.abc import Callable

from bot.app import MexicanTrainBot
from bot.store import GameStatus
from tests.clock import FakeClock
from tests.e2e.helpers import last_public, said
from tests.fakediscord import FakeDiscord, running_bot
from tests.fakediscord import fake_discord as fake_discord_at
from tests.fakediscord.models import EPHEMERAL
from tests.fakediscord.refusals import AUTOMOD_BLOCKED
from tests.fakediscord.server import RecordedRequest

POST = "POST /channels/{channel_id}/messages"
FOLLOWUP = "POST /webhooks/{webhook_id}/{webhook_token}"
BOT_EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"


async def test_the_lobby_card_is_the_commands_public_followup(
    clock: FakeClock, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    async with fake_discord_at(clock=clock) as fake:
        games = fake.channel("games")
        alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
        bot = make_bot()
        async with running_bot(fake, bot):
            answer = await said(await alice.slash("mt new", channel=games, preset="quick"))
            assert answer.ephemeral and "is open" in answer.text, answer.text
            card = last_public(games)
            assert card.webhook_id == fake.application_id and not card.ephemeral
            assert "Join" in card.button_labels
            # Not the bot's paid message: no Create Message in the channel at all.
            paid = [r for r in fake.requests_to(POST) if r.path == f"/channels/{games.id}/messages"]
            assert paid == []
            joined = await said(await bob.click(card, label="Join"))
            assert "joined" in joined.text and f"<@{bob.id}>" in str(card.embeds)
            # Twenty minutes on, the command's token is dead: a typed join edits the card
            # with the bot token, as the bot edits any message of its own.
            clock.tick(20 * 60)
            fake.after_advance()
            await said(await carol.slash("mt join", channel=games))
            assert f"<@{carol.id}>" in str(card.embeds)
            edits = [r for r in fake.requests_to(BOT_EDIT) if r.path.endswith(f"/{card.id}")]
            assert len(edits) == 1 and edits[0].status < 400
            started = await said(await alice.click(card, label="Start"))
            assert "started" in started.text, started.text
            assert card.buttons == []
            game = await bot.service.game_in_channel(games.id)
            assert game is not None and game.status is GameStatus.ACTIVE
            assert (await bot.service.messages(game.id))["lobby"].message_id == card.id


def _public(request: RecordedRequest) -> bool:
    body = request.body if isinstance(request.body, dict) else {}
    return not int(body.get("flags") or 0) & EPHEMERAL


async def test_a_refused_card_ends_the_game_and_the_host_is_told_why(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice = fake.user("alice")
    blocked = AUTOMOD_BLOCKED
    bot = make_bot()
    async with running_bot(fake, bot):
        fake.refuse("POST", FOLLOWUP.split(" ")[1], blocked, times=None, when=_public)
        fake.refuse("POST", POST.split(" ")[1], blocked, times=None)
        answer = await said(await alice.slash("mt new", channel=games, preset="quick"))
        assert answer.ephemeral
        assert "Discord refused my message in this channel" in answer.text, answer.text
        assert "is open" not in answer.text
        assert [m for m in games.messages() if not m.ephemeral] == []
        game = await bot.service.game_in_channel(games.id)
        assert game is None or game.status is not GameStatus.LOBBY
