"""The fake Discord's own tests: each Discord behaviour, against the real discord.py client.

Every test drives ``DemoBot`` (demo_bot.py) through ``running_bot`` and checks what a
person would see (contents, buttons, images) and what the bot saw (exceptions and their
codes). Deadlines are shortened instead of sleeping, so the module runs in a few seconds.
"""

from __future__ import annotations

import asyncio
import io
import time
from collections.abc import AsyncIterator

import discord
import pytest
from discord.gateway import DiscordWebSocket
from discord.http import Route
from PIL import Image

from tests.fakediscord import WAIT, FakeDiscord, fake_discord, running_bot
from tests.fakediscord.demo_bot import DemoBot


@pytest.fixture
async def demo(fake_discord: FakeDiscord) -> AsyncIterator[DemoBot]:
    async with running_bot(fake_discord, DemoBot(guild_id=fake_discord.guild_id)) as bot:
        assert isinstance(bot, DemoBot)
        yield bot


async def wait_errors(fake: FakeDiscord, bot: DemoBot, count: int = 1) -> list[Exception]:
    return await fake.wait_for(
        lambda: bot.errors if len(bot.errors) >= count else None,
        timeout=WAIT,
        what=f"{count} error(s) in the bot",
    )


async def test_startup_identify_ready_and_guild(fake_discord: FakeDiscord, demo: DemoBot) -> None:
    fake = fake_discord
    assert demo.is_ready()
    assert demo.user is not None and demo.user.id == fake.bot_user.id
    assert demo.application_id == fake.application_id
    called = {f"{r.method} {r.route}" for r in fake.requests}
    assert {"GET /users/@me", "GET /oauth2/applications/@me"} <= called
    session = fake.active_session
    assert session is not None
    assert session.identify["token"] == "fake-token"
    assert session.identify["intents"] == discord.Intents.default().value
    guild = demo.get_guild(fake.guild_id)
    assert guild is not None and guild.name == "Mexican Train Club"
    assert [c.name for c in guild.text_channels] == ["general"]
    assert guild.me.guild_permissions.send_messages
    assert not guild.me.guild_permissions.administrator

    # A channel made while the bot is connected reaches it as CHANNEL_CREATE.
    games = fake.channel("games")
    seen = await fake.wait_for(lambda: demo.get_channel(games.id), timeout=WAIT, what="games")
    assert isinstance(seen, discord.TextChannel) and seen.name == "games"


async def test_sync_echoes_ids_for_global_and_guild_commands(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    fake = fake_discord
    global_names = {"mt", "play", "hand", "table", "revise", "remind", "announce", "late", "twice"}
    global_names |= {"burst", "thread", "oldstyle"}
    assert set(fake.commands()) == global_names
    assert set(fake.commands(guild=True)) == {"ping"}
    assert fake.commands(guild=True)["ping"]["guild_id"] == str(fake.guild_id)

    fetched = {c.name: c.id for c in await demo.tree.fetch_commands()}
    assert fetched == {name: int(cmd["id"]) for name, cmd in fake.commands().items()}
    synced_again = {c.name: c.id for c in await demo.tree.sync()}
    assert synced_again == fetched  # a re-sync keeps ids, as on Discord

    alice = fake.user("alice")
    pong = await alice.slash("ping", channel=fake.channel("general"))
    assert pong.payload["data"]["guild_id"] == str(fake.guild_id)
    assert (await pong.message()).content == "pong"


async def test_slash_with_subcommands_sends_typed_nested_options(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    fake = fake_discord
    alice, games = fake.user("alice"), fake.channel("games")

    new = await alice.slash("mt new", channel=games, preset="party", seats=6)
    assert new.payload["data"]["options"] == [
        {
            "name": "new",
            "type": 1,
            "options": [
                {"name": "preset", "type": 3, "value": "party"},
                {"name": "seats", "type": 4, "value": 6},
            ],
        }
    ]
    reply = await new.message()
    assert reply.content == "Game 1: party rules, 6 seats"
    assert not reply.ephemeral and reply.type == 20
    assert reply.button_labels == ["Join"]
    assert reply.button("Join")["custom_id"] == "mt:1:join"

    rule = await alice.slash("mt house set", channel=games, rule="open-hands", enabled=True)
    group = rule.payload["data"]["options"][0]
    assert (group["name"], group["type"]) == ("house", 2)
    assert group["options"][0]["options"][1] == {"name": "enabled", "type": 5, "value": True}
    assert (await rule.message()).content == "open-hands is now on"

    # The fake types options by the synced schema and refuses what Discord's client would.
    with pytest.raises(TypeError, match="integer"):
        await alice.slash("mt new", channel=games, seats="6")
    with pytest.raises(ValueError, match="outside"):
        await alice.slash("mt new", channel=games, seats=9)
    with pytest.raises(ValueError, match="not one of"):
        await alice.slash("mt new", channel=games, preset="chaos")
    with pytest.raises(LookupError, match="no subcommand"):
        await alice.slash("mt old", channel=games)
    with pytest.raises(LookupError, match="not a synced"):
        await alice.slash("resign", channel=games)
    with pytest.raises(TypeError, match="needs option"):
        await alice.slash("play", channel=games, tile="12-5")


async def test_autocomplete_returns_the_bots_choices(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    fake = fake_discord
    alice, games = fake.user("alice"), fake.channel("games")
    choices = await alice.autocomplete("play", focused="tile", tile="12", channel=games)
    assert choices == [{"name": t, "value": t} for t in ("12-12", "12-5", "12-3")]
    assert await alice.autocomplete("play", focused="tile", tile="7", channel=games) == []
    request = fake.interactions[max(fake.interactions)].payload
    assert request["type"] == 4
    assert request["data"]["options"] == [
        {"name": "tile", "type": 3, "value": "7", "focused": True}
    ]

    # Discord does not check the value against the choices; the bot must.
    bogus = await alice.slash("play", channel=games, tile="7-7", train="mexican")
    reply = await bogus.message()
    assert reply.content == "7-7 is not in your hand" and reply.ephemeral
    good = await alice.slash("play", channel=games, tile="12-5", train="mexican")
    assert (await good.message()).content == "alice plays 12-5 on mexican"


async def test_button_click_reaches_the_dynamic_item(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    fake = fake_discord
    alice, bob, games = fake.user("alice"), fake.user("bob"), fake.channel("games")
    table = await (await alice.slash("mt new", channel=games)).message()
    click = await bob.click(table, label="Join")
    data = click.payload["data"]
    assert (data["custom_id"], data["component_type"]) == ("mt:1:join", 2)
    assert click.payload["message"]["id"] == str(table.id)
    answer = await click.answer()
    assert answer.type == 4
    assert (await click.message()).content == "bob joined game 1"
    assert [m.content for m in games.messages()][-1] == "bob joined game 1"


async def test_select_edits_the_ephemeral_message_only_its_owner_sees(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    fake = fake_discord
    alice, bob, games = fake.user("alice"), fake.user("bob"), fake.channel("games")
    hand = await (await alice.slash("hand", channel=games)).message()
    assert hand.ephemeral and hand.content.startswith("Your hand: 12-12")
    assert hand in games.messages(visible_to=alice)
    assert hand not in games.messages(visible_to=bob)
    assert hand not in games.messages()
    history = demo.get_channel(games.id)
    assert isinstance(history, discord.TextChannel)
    assert [m async for m in history.history()] == []  # ephemeral is not in the channel

    with pytest.raises(PermissionError):
        await bob.select(hand, values=["5-5"])
    with pytest.raises(ValueError):
        await alice.select(hand, values=["6-6"])
    pick = await alice.select(hand, values=["5-5"])
    answer = await pick.answer()
    assert answer.type == 7 and answer.message is hand
    assert hand.content == "You picked 5-5" and hand.edits == 1


async def test_a_followup_answering_a_deferral_is_refused_and_fails_the_check(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    """Discord keeps "the first followup replaces the thinking message" for old apps only;
    the fake refuses it, so a bot cannot come to rely on it unnoticed."""
    fake = fake_discord
    oldstyle = await fake.user("alice").slash("oldstyle", channel=fake.channel("games"))
    assert (await oldstyle.answer()).type == 5
    (error,) = await wait_errors(fake, demo)
    assert isinstance(error, discord.HTTPException) and error.status == 400
    assert oldstyle.record.original is not None and oldstyle.record.original.loading
    assert fake.refused_as_deprecated == ["followup answering the deferral of /oldstyle"]
    with pytest.raises(AssertionError, match="followup answering the deferral"):
        fake.check()
    fake.refused_as_deprecated.clear()  # the teardown's check is about the rest


async def test_defer_then_an_edit_of_the_original_replaces_the_thinking_message_with_a_png(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    fake = fake_discord
    alice, games = fake.user("alice"), fake.channel("games")
    table = await alice.slash("table", channel=games)
    first = await table.answer()
    assert first.type == 5 and first.deferred
    followup = await table.followup(0)
    assert followup is first.message and not followup.loading
    assert games.messages() == [followup]  # edited in place, not a second message

    png = games.last_image()
    assert png is not None and png.startswith(b"\x89PNG\r\n\x1a\n")
    assert Image.open(io.BytesIO(png)).size == (64, 32)
    assert followup.embeds[0]["image"]["url"] == followup.attachments[0].url
    route = "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"
    upload = fake.requests_to(route)[-1]
    assert upload.path.endswith("/messages/@original")
    assert [(f.filename, f.data) for f in upload.files] == [("table.png", png)]

    # The bot can read the message back and download the attachment from the fake.
    channel = demo.get_channel(games.id)
    assert isinstance(channel, discord.TextChannel)
    fetched = await channel.fetch_message(followup.id)
    assert await fetched.attachments[0].read() == png


async def test_file_on_the_first_answer_is_a_multipart_callback(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    fake = fake_discord
    table = await fake.user("alice").slash("table", channel=fake.channel("games"), defer=False)
    answer = await table.answer()
    assert answer.type == 4 and answer.message is not None
    assert answer.message.content == "Table"
    (callback,) = fake.requests_to(
        "POST /interactions/{interaction_id}/{interaction_token}/callback"
    )
    assert callback.query["with_response"] == "1"
    assert callback.body["data"]["attachments"] == [{"id": 0, "filename": "table.png"}]
    assert callback.files[0].data == answer.files[0].data == answer.message.files[0].data
    assert Image.open(io.BytesIO(answer.files[0].data)).format == "PNG"


async def test_edits_and_deletes_of_answers_followups_and_channel_messages(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    fake = fake_discord
    alice, games = fake.user("alice"), fake.channel("games")
    revise = await alice.slash("revise", channel=games)
    done = await revise.followup(1)
    assert done.content == "done" and done.ephemeral
    original = await revise.message()
    assert (original.content, original.edits) == ("final", 1)
    assert revise.followups[0].content == "temporary" and revise.followups[0].deleted
    assert [m.content for m in games.messages()] == ["final", "note v2"]
    assert [m.content for m in games.messages(visible_to=alice)][-1] == "done"
    statuses = {f"{r.method} {r.route}": r.status for r in fake.requests}
    for route, status in {
        "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}": 200,
        "DELETE /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}": 204,
        "POST /channels/{channel_id}/typing": 204,
        "PATCH /channels/{channel_id}/messages/{message_id}": 200,
        "PUT /channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me": 204,
        "DELETE /channels/{channel_id}/messages/{message_id}": 204,
    }.items():
        assert statuses.get(route) == status, route


async def test_channel_post_with_multipart_upload_keeps_bytes(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    fake = fake_discord
    alice, games = fake.user("alice"), fake.channel("games")
    posted = await alice.slash("announce", channel=games, text="Round 2", picture=True)
    assert (await posted.followup(0)).content == "Posted (send_messages=True)"
    notice = games.last_message()
    assert notice is not None and notice.content == "Round 2"
    assert notice.embeds[0]["description"] == "Round 2"
    (upload,) = fake.requests_to("POST /channels/{channel_id}/messages")
    assert upload.body["content"] == "Round 2"  # payload_json parsed
    assert upload.files[0].data == notice.files[0].data == games.last_image()
    assert Image.open(io.BytesIO(notice.files[0].data)).format == "PNG"


async def test_dm_reaches_user_and_closed_dms_raise_forbidden_50007(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    fake = fake_discord
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    games = fake.channel("games")
    fake.close_dms(carol)

    sent = await alice.slash("remind", channel=games, player=bob)
    assert sent.payload["data"]["resolved"]["users"][str(bob.id)]["username"] == "bob"
    assert (await sent.message()).content == "Reminded bob"
    assert [m.content for m in bob.dms()] == ["Your turn in Mexican Train!"]

    refused = await alice.slash("remind", channel=games, player=carol)
    assert (await refused.message()).content == "Cannot DM carol (code 50007)"
    (error,) = demo.errors
    assert isinstance(error, discord.Forbidden)
    assert (error.status, error.code) == (403, 50007)
    assert carol.dms() == []


async def test_late_first_answer_gets_10062(fake_discord: FakeDiscord, demo: DemoBot) -> None:
    fake = fake_discord
    fake.interaction_deadline = 0.05
    demo.late_delay = 0.15
    late = await fake.user("alice").slash("late", channel=fake.channel("games"))
    rejection = await late.rejection()
    assert (rejection.status, rejection.code) == (404, 10062)
    (error,) = await wait_errors(fake, demo)
    assert isinstance(error, discord.NotFound) and error.code == 10062
    assert fake.channel("games").messages() == []


async def test_second_answer_gets_40060(fake_discord: FakeDiscord, demo: DemoBot) -> None:
    fake = fake_discord
    twice = await fake.user("alice").slash("twice", channel=fake.channel("games"))
    assert (await twice.message()).content == "First answer"
    rejection = await twice.rejection()
    assert (rejection.status, rejection.code) == (400, 40060)
    local, remote = await wait_errors(fake, demo, 2)
    assert isinstance(local, discord.InteractionResponded)  # discord.py's own guard
    assert isinstance(remote, discord.HTTPException) and remote.code == 40060
    assert [m.content for m in fake.channel("games").messages()] == ["First answer"]


async def test_429_with_retry_after_is_honoured(fake_discord: FakeDiscord, demo: DemoBot) -> None:
    fake = fake_discord
    rule = fake.rate_limit("POST /channels/{channel_id}/messages", retry_after=0.1)
    games = fake.channel("games")
    posted = await fake.user("alice").slash("announce", channel=games, text="hello")
    assert (await posted.followup(0)).content == "Posted (send_messages=True)"
    attempts = fake.requests_to("POST /channels/{channel_id}/messages")
    assert [a.status for a in attempts] == [429, 200]
    assert attempts[1].at - attempts[0].at >= 0.1
    assert rule.hits == 1
    assert [m.content for m in games.messages()] == ["hello"]
    assert fake.budget_report()["rate_limited"]["user"] == 1  # counted with the others


async def test_restart_keeps_old_buttons_clickable(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    alice, bob, games = fake.user("alice"), fake.user("bob"), fake.channel("games")
    async with running_bot(fake, DemoBot(guild_id=fake.guild_id)):
        table = await (await alice.slash("mt new", channel=games)).message()
        first_session = fake.active_session

    with pytest.raises(RuntimeError, match="no bot is connected"):
        await bob.click(table, label="Join")

    async with running_bot(fake, DemoBot(guild_id=fake.guild_id), sync=False):
        assert fake.active_session is not first_session
        click = await bob.click(table, label="Join")
        assert (await click.message()).content == "bob joined game 1"


async def test_missing_permissions_refuse_or_strip(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    fake = fake_discord
    alice, games = fake.user("alice"), fake.channel("games")
    guild = demo.get_guild(fake.guild_id)
    assert guild is not None

    def bot_perms() -> discord.Permissions:
        channel = guild.get_channel(games.id)
        if not isinstance(channel, discord.TextChannel):
            return discord.Permissions.all()  # CHANNEL_CREATE not processed yet
        return channel.permissions_for(guild.me)

    # No Embed Links: the message goes out without its embed (Discord does the same).
    games.set_permissions(fake.bot_user, deny=discord.Permissions(embed_links=True))
    await fake.wait_for(lambda: not bot_perms().embed_links, timeout=WAIT, what="CHANNEL_UPDATE")
    await (await alice.slash("announce", channel=games, text="plain")).followup(0)
    notice = games.last_message()
    assert notice is not None and (notice.content, notice.embeds) == ("plain", [])

    # No Attach Files: refused with 50013.
    games.set_permissions(fake.bot_user, deny=discord.Permissions(attach_files=True))
    await fake.wait_for(lambda: not bot_perms().attach_files, timeout=WAIT, what="CHANNEL_UPDATE")
    refused = await alice.slash("announce", channel=games, text="pic", picture=True)
    assert (await refused.followup(0)).content == "Missing permission (code 50013)"

    # No Send Messages: refused with 50013, and app_permissions tells the bot beforehand.
    games.set_permissions(fake.bot_user, deny=discord.Permissions(send_messages=True))
    await fake.wait_for(lambda: not bot_perms().send_messages, timeout=WAIT, what="CHANNEL_UPDATE")
    muted = await alice.slash("announce", channel=games, text="hello")
    app_permissions = discord.Permissions(int(muted.payload["app_permissions"]))
    assert not app_permissions.send_messages and app_permissions.view_channel
    assert (await muted.followup(0)).content == "Missing permission (code 50013)"
    errors = await wait_errors(fake, demo, 2)
    assert [(type(e), getattr(e, "code", None)) for e in errors] == [(discord.Forbidden, 50013)] * 2
    assert [m.content for m in games.messages()] == ["plain"]


async def test_interaction_payloads_carry_what_discordpy_needs(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    fake = fake_discord
    alice = fake.user("alice", locale="fr")
    in_guild = await alice.slash("mt new", channel=fake.channel("games"))
    payload = in_guild.payload
    for key in (
        "attachment_size_limit",
        "app_permissions",
        "entitlements",
        "authorizing_integration_owners",
        "context",
        "locale",
        "guild_locale",
    ):
        assert key in payload, key
    assert payload["locale"] == "fr" and payload["entitlements"] == []
    assert int(payload["member"]["permissions"]) > 0 and "user" not in payload
    created = discord.utils.snowflake_time(in_guild.id).timestamp()
    assert abs(created - time.time()) < 5

    in_dm = await alice.slash("hand")  # no channel: the DM with the bot
    assert "user" in in_dm.payload and "member" not in in_dm.payload
    assert in_dm.payload["context"] == 1
    assert (await in_dm.message()).content.startswith("Your hand")
    with pytest.raises(LookupError):
        await alice.slash("ping")  # guild commands do not exist in DMs


async def test_reconnect_resumes_the_session(fake_discord: FakeDiscord, demo: DemoBot) -> None:
    fake = fake_discord
    session = fake.active_session
    assert session is not None
    resumed = asyncio.ensure_future(demo.wait_for("resumed", timeout=WAIT))
    await fake.force_reconnect()
    await resumed
    assert session.resumes == 1 and fake.active_session is session
    reply = await (await fake.user("alice").slash("ping", channel=fake.channel("games"))).message()
    assert reply.content == "pong"


async def test_unknown_route_fails_loudly(fake_discord: FakeDiscord, demo: DemoBot) -> None:
    fake = fake_discord
    with pytest.raises(discord.NotFound):
        await demo.http.request(Route("GET", "/guilds/{guild_id}/bans", guild_id=fake.guild_id))
    assert fake.unknown_routes == [f"GET /api/v10/guilds/{fake.guild_id}/bans"]
    with pytest.raises(AssertionError, match="unknown route"):
        fake.check()
    fake.unknown_routes.clear()  # handled here; otherwise the fixture fails the test


async def test_fake_points_discordpy_at_loopback_and_restores_it() -> None:
    before = (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)
    async with fake_discord() as fake:
        assert f"http://127.0.0.1:{fake.port}/api/v10" == Route.BASE
        assert str(DiscordWebSocket.DEFAULT_GATEWAY) == f"ws://127.0.0.1:{fake.port}/gateway"
    assert before == (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)


async def test_a_wait_on_one_channel_is_not_woken_by_another(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    """``wait_for(on=channel)`` wakes on that channel's changes only, and never polls: with
    hundreds of games each waiting on its own table, waking every waiter on every change
    made the harness eat a third of the CPU."""
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    lobby, games = fake.channel("lobby"), fake.channel("games")
    checks = {"lobby": 0, "games": 0}

    def said_in(channel: str, word: str) -> bool:
        checks[channel] += 1
        found = fake.channel(channel).last_message()
        return found is not None and word in found.content

    on_lobby = asyncio.ensure_future(
        fake.wait_for(lambda: said_in("lobby", "go"), timeout=WAIT, what="go", on=lobby)
    )
    on_games = asyncio.ensure_future(
        fake.wait_for(lambda: said_in("games", "never"), timeout=WAIT, what="never", on=games)
    )
    await asyncio.sleep(0)
    assert checks == {"lobby": 1, "games": 1}
    # Three posts and two interactions' answers in the games channel; nothing in the lobby.
    for word in ("one", "two", "three"):
        await (await alice.slash("announce", channel=games, text=word)).followup(0)
    assert checks["games"] > 1 and not on_games.done()
    assert checks["lobby"] == 1, "the lobby's waiter was woken by the games channel"
    # The DM of a third person does not wake either.
    await (await bob.slash("remind", channel=games, player=fake.user("carol"))).answer()
    lobby_checks = checks["lobby"]
    assert lobby_checks == 1
    await (await alice.slash("announce", channel=lobby, text="go")).followup(0)
    await asyncio.wait_for(on_lobby, WAIT)
    assert checks["lobby"] >= 2
    on_games.cancel()


async def test_waits_on_an_interaction_and_on_dms(fake_discord: FakeDiscord, demo: DemoBot) -> None:
    fake = fake_discord
    alice, carol = fake.user("alice"), fake.user("carol")
    games = fake.channel("games")
    woken_before = fake.wakeups
    reminded = await alice.slash("remind", channel=games, player=carol)
    dm = await fake.wait_for(lambda: carol.dms()[-1] if carol.dms() else None, timeout=WAIT,
                             what="carol's DM", on=carol)  # fmt: skip
    assert dm.content == "Your turn in Mexican Train!"
    assert (await reminded.answer()).ephemeral
    assert fake.wakeups > woken_before
    with pytest.raises(TypeError, match="cannot wait on"):
        await fake.wait_for(lambda: True, timeout=1, what="nothing", on="games")


class ShardBot(discord.ext.commands.AutoShardedBot):
    """One process of a cluster: runs ``shard`` of 2 and says where each interaction landed."""

    def __init__(self, shard: int) -> None:
        super().__init__(
            command_prefix="!",
            intents=discord.Intents.default(),
            shard_count=2,
            shard_ids=[shard],
        )
        self.seen: list[tuple[int | None, int | None]] = []

        @self.tree.command(name="where", description="Which shard got this")
        async def where(interaction: discord.Interaction[ShardBot]) -> None:
            self.seen.append((interaction.guild_id, shard))
            await interaction.response.send_message(f"shard {shard}")
            await interaction.channel.send(f"posted by shard {shard}")  # type: ignore[union-attr]


async def test_two_processes_each_get_only_their_shards_servers() -> None:
    async with fake_discord(shards=2) as fake:
        first = fake.guilds[fake.guild_id]
        other = fake.guild("Second Club", shard=1 - first.shard(2))
        assert other.shard(2) != first.shard(2)
        here, there = fake.channel("games"), fake.channel("games", guild=other)
        assert here is not there and there.guild_id == other.id
        alice = fake.user("alice")
        zero, one = ShardBot(0), ShardBot(1)
        async with running_bot(fake, zero), running_bot(fake, one):
            bots = {0: zero, 1: one}
            for guild in (first, other):
                owner = bots[guild.shard(2)]
                assert [g.id for g in owner.guilds] == [guild.id]
                assert bots[1 - guild.shard(2)].get_guild(guild.id) is None
            for channel, guild in ((here, first), (there, other)):
                answer = await (await alice.slash("where", channel=channel)).message()
                assert answer.content == f"shard {guild.shard(2)}"
                posted = await fake.wait_for(
                    lambda c=channel: (m := c.last_message()) and "posted" in m.content and m,
                    timeout=WAIT,
                    what="the bot's post",
                )
                assert posted.content == f"posted by shard {guild.shard(2)}"
                assert posted.guild_id == guild.id
            dm = await (await alice.slash("where")).message()  # a DM: shard 0, like Discord
            assert dm.content == "shard 0"
            assert sorted(zero.seen + one.seen, key=str) == sorted(
                [(first.id, first.shard(2)), (other.id, other.shard(2)), (None, 0)], key=str
            )
            # Channel events reach only the owning shard's process.
            for channel, guild in ((here, first), (there, other)):
                assert bots[guild.shard(2)].get_channel(channel.id) is not None
                assert bots[1 - guild.shard(2)].get_channel(channel.id) is None
