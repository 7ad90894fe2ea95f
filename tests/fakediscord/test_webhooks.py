"""The fake's channel webhooks (webhooks.py) against the real discord.py client, and the
limits they run under, with Discord's refusals and their codes."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import discord
import pytest

from bot.app import INTENTS
from tests.fakediscord import FakeDiscord, fake_discord, running_bot
from tests.fakediscord.demo_bot import DemoBot
from tests.fakediscord.gateway import GatewaySession
from tests.fakediscord.server import API_PREFIX
from tests.fakediscord.threads import FakeThread
from tests.fakediscord.webhooks import MANAGE_WEBHOOKS

EXECUTE = "POST /webhooks/{webhook_id}/{webhook_token}"
CREATE = "POST /channels/{channel_id}/webhooks"
LIST = "GET /channels/{channel_id}/webhooks"


@pytest.fixture
async def demo(fake_discord: FakeDiscord) -> AsyncIterator[DemoBot]:
    async with running_bot(fake_discord, DemoBot(guild_id=fake_discord.guild_id)) as bot:
        assert isinstance(bot, DemoBot)
        yield bot


async def text_channel(fake: FakeDiscord, bot: DemoBot, name: str) -> discord.TextChannel:
    channel = fake.channel(name)
    found = await fake.wait_for(lambda: bot.get_channel(channel.id), timeout=30, what="channel")
    assert isinstance(found, discord.TextChannel)
    return found


class Clicks(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.by: list[int] = []

    @discord.ui.button(label="Play", custom_id="hook:play")
    async def play(self, interaction: discord.Interaction, _: discord.ui.Button[Clicks]) -> None:
        self.by.append(interaction.user.id)
        await interaction.response.send_message("played", ephemeral=True)


async def test_without_manage_webhooks_creating_and_listing_are_refused(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    channel = await text_channel(fake_discord, demo, "games")
    with pytest.raises(discord.Forbidden) as made:
        await channel.create_webhook(name="TrainBot")
    assert made.value.code == 50013
    with pytest.raises(discord.Forbidden) as listed:
        await channel.webhooks()
    assert listed.value.code == 50013
    report = fake_discord.budget_report()["routes"]
    assert report[CREATE]["global_limited"] == 1 and report[LIST]["global_limited"] == 1


async def test_a_webhook_the_bot_made_posts_buttons_that_reach_the_bot(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    games.set_permissions(fake.bot_user, allow=MANAGE_WEBHOOKS)
    channel = await text_channel(fake, demo, "games")
    hook = await channel.create_webhook(name="TrainBot")
    assert hook.token and hook.channel_id == games.id
    view = Clicks()
    sent = await hook.send("Bob to play", view=view, wait=True)
    posted = games.last_message()
    assert posted is not None and posted.id == sent.id
    payload = posted.to_payload()
    assert payload["webhook_id"] == str(hook.id)
    assert payload["application_id"] == str(fake.application_id)
    assert payload["author"]["id"] == str(hook.id) and payload["author"]["username"] == "TrainBot"
    assert posted.button_labels == ["Play"]
    alice = fake.user("alice")
    answer = await (await alice.click(posted, label="Play")).answer()
    assert answer.message is not None and answer.message.content == "played"
    assert view.by == [alice.id]
    # Only the webhook's token edits it: the bot token is another author's.
    with pytest.raises(discord.Forbidden) as bot_edit:
        await channel.get_partial_message(sent.id).edit(content="x")
    assert bot_edit.value.code == 50005
    # discord.py sends ``with_components`` only for a truthy view: ``view=None`` is not
    # "respected" (Edit Webhook Message's query string) and leaves the buttons; an empty
    # view takes them off.
    await hook.edit_message(sent.id, content="Bob played", view=None)
    assert posted.content == "Bob played" and posted.buttons != [] and posted.edits == 1
    await hook.edit_message(sent.id, view=discord.ui.View())
    assert posted.buttons == [] and posted.edits == 2
    await hook.delete_message(sent.id)
    assert posted.deleted


async def test_the_list_shows_the_token_of_the_applications_webhooks_only(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    games.set_permissions(fake.bot_user, allow=MANAGE_WEBHOOKS)
    person = fake.webhooks.make(games, "Alerts", by=fake.user("admin"))
    channel = await text_channel(fake, demo, "games")
    mine = await channel.create_webhook(name="TrainBot")
    listed = {h.id: h for h in await channel.webhooks()}
    assert set(listed) == {person.id, mine.id}
    assert listed[mine.id].token == mine.token and listed[person.id].token is None
    with pytest.raises(discord.HTTPException) as bad:
        await channel.create_webhook(name="Discord helper")
    assert bad.value.code == 50035


async def test_a_persons_webhook_cannot_carry_buttons(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    person = fake.webhooks.make(games, "Alerts", by=fake.user("admin"))
    url = f"{fake.base_url}{API_PREFIX}/webhooks/{person.id}/{person.token}"
    button = {"type": 1, "components": [{"type": 2, "label": "Go", "custom_id": "x", "style": 1}]}
    body = {"content": "hi", "components": [button]}
    async with aiohttp.ClientSession() as http:
        async with http.post(url, params={"wait": "true"}, json=body) as answer:
            assert answer.status == 200
        async with http.post(
            url, params={"wait": "true", "with_components": "true"}, json=body
        ) as refused:
            assert refused.status == 400
    posted = games.last_message()
    assert posted is not None and posted.content == "hi" and posted.components == []
    assert posted.to_payload().get("application_id") is None


async def test_a_deleted_webhook_or_channel_answers_unknown_webhook(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    fake = fake_discord
    fake.channel("games").set_permissions(fake.bot_user, allow=MANAGE_WEBHOOKS)
    fake.channel("other").set_permissions(fake.bot_user, allow=MANAGE_WEBHOOKS)
    games = await text_channel(fake, demo, "games")
    other = await text_channel(fake, demo, "other")
    hook = await games.create_webhook(name="TrainBot")
    fake.webhooks.delete(fake.webhooks.hooks[hook.id])
    with pytest.raises(discord.NotFound) as gone:
        await hook.send("hi", wait=True)
    assert gone.value.code == 10015
    second = await other.create_webhook(name="TrainBot")
    fake.delete_channel(fake.channel("other"))
    with pytest.raises(discord.NotFound) as with_channel:
        await second.send("hi", wait=True)
    assert with_channel.value.code == 10015
    wrong = discord.Webhook.partial(second.id, "wrong", client=demo)
    with pytest.raises(discord.HTTPException):
        await wrong.send("hi", wait=True)


async def test_a_webhook_posts_in_a_thread_of_its_channel_and_unarchives_it(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    games.set_permissions(fake.bot_user, allow=MANAGE_WEBHOOKS)
    thread = games.start_thread("Game 1", by=fake.user("alice"))
    assert isinstance(thread, FakeThread)
    thread.archived = True
    channel = await text_channel(fake, demo, "games")
    hook = await channel.create_webhook(name="TrainBot")
    sent = await hook.send("in the thread", thread=discord.Object(thread.id), wait=True)
    assert sent.channel.id == thread.id and not thread.archived
    last = thread.last_message()
    assert last is not None and last.id == sent.id
    await hook.edit_message(sent.id, content="edited", thread=discord.Object(thread.id))
    assert last.content == "edited"
    thread.archived = thread.locked = True
    with pytest.raises(discord.HTTPException) as locked:
        await hook.send("again", thread=discord.Object(thread.id), wait=True)
    assert locked.value.code == 50083


async def test_executions_are_off_the_bots_global_budget_in_a_bucket_per_webhook() -> None:
    # One global request a second for the bot: twenty webhook posts in a row still go out at
    # the webhook bucket's pace (discord.py waits when its headers say it is empty), counted
    # as their own kind, none against the bot's budget.
    limited = fake_discord(rate_limits=True, global_per_second=1, time_scale=10.0)
    async with limited as fake, running_bot(fake, DemoBot(guild_id=fake.guild_id)) as bot:
        assert isinstance(bot, DemoBot)
        fake.channel("games").set_permissions(fake.bot_user, allow=MANAGE_WEBHOOKS)
        channel = await text_channel(fake, bot, "games")
        hook = await channel.create_webhook(name="TrainBot")
        for n in range(20):
            await hook.send(f"post {n}", wait=True)
        report = fake.budget_report()
        assert report["webhook"] == 20 and report["routes"][EXECUTE]["webhook"] == 20
        assert report["routes"][EXECUTE]["global_limited"] == 0
        made = report["routes"][CREATE]  # (the bot's budget of 1 a second: maybe a retry)
        assert made["global_limited"] == 1 + made["rate_limited"]
        assert report["violations"] == 0 and report["routes"][EXECUTE]["rate_limited"] == 0
        assert len([m for m in fake.channel("games").messages() if m.webhook_id]) == 20


def test_webhook_updates_reach_only_a_bot_that_asked_for_guild_webhooks() -> None:
    # Discord sends WEBHOOKS_UPDATE with the Guild Webhooks intent only. The game bot does
    # not ask for it (bot.app.INTENTS: guilds alone): it learns that its webhook is gone from
    # the 10015 of its next use (bot/ui/hooks.py), so the fake must not tell it sooner.
    def session(intents: discord.Intents) -> GatewaySession:
        return GatewaySession("s", {"intents": intents.value}, None)

    assert not INTENTS.webhooks
    assert not session(INTENTS).wants("WEBHOOKS_UPDATE", 1)
    assert session(INTENTS).wants("CHANNEL_DELETE", 1)
    assert session(discord.Intents(guilds=True, webhooks=True)).wants("WEBHOOKS_UPDATE", 1)
