"""The lobby card follows Join, Leave and Start through the click's own token (issue 47's
request budget): a click on the card is acknowledged without a message of its own, answered
privately first, and the card is then edited as the click's original message, an interaction
endpoint free of the bot's global limit. A typed ``/mt join`` (no card clicked) still edits
the card with the bot token."""

from __future__ import annotations

from collections.abc import Callable

from bot.app import MexicanTrainBot
from tests.e2e.helpers import last_public, said
from tests.fakediscord import FakeDiscord, running_bot

BOT_EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
TOKEN_EDIT = "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"


async def test_a_click_on_the_lobby_card_edits_it_through_its_own_token(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    bot = make_bot()
    async with running_bot(fake, bot):
        await said(await alice.slash("mt new", channel=games, preset="quick"))
        lobby = last_public(games)
        edits = lobby.edits
        joined = await said(await bob.click(lobby, label="Join"))
        assert joined.ephemeral and "joined" in joined.text, joined.text
        assert lobby.edits == edits + 1 and f"<@{bob.id}>" in str(lobby.embeds)
        card_edits = [r for r in fake.requests_to(BOT_EDIT) if r.path.endswith(f"/{lobby.id}")]
        assert card_edits == []  # not the bot token: the click's own
        assert any(r.path.endswith("/messages/@original") for r in fake.requests_to(TOKEN_EDIT))
        # Typed, nothing was clicked on: the card is edited with the bot token, as before.
        await said(await carol.slash("mt join", channel=games))
        assert f"<@{carol.id}>" in str(lobby.embeds)
        card_edits = [r for r in fake.requests_to(BOT_EDIT) if r.path.endswith(f"/{lobby.id}")]
        assert len(card_edits) == 1
        started = await said(await alice.click(lobby, label="Start"))
        assert "started" in started.text, started.text
        assert lobby.buttons == []  # the lobby closed, its buttons gone, for free
        card_edits = [r for r in fake.requests_to(BOT_EDIT) if r.path.endswith(f"/{lobby.id}")]
        assert len(card_edits) == 1
