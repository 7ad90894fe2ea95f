"""The fake's threads, against the real discord.py client (the demo bot's ``/thread``).

What a person sees (the thread under its parent, its first messages, who may do what) and
what discord.py knows (``bot.get_channel(thread_id)`` after THREAD_CREATE, THREAD_UPDATE and
a restart's GUILD_CREATE), with Discord's refusals and their codes.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import discord
import pytest

from tests.fakediscord import FakeChannel, FakeDiscord, running_bot
from tests.fakediscord.demo_bot import DemoBot
from tests.fakediscord.threads import FakeThread


@pytest.fixture
async def demo(fake_discord: FakeDiscord) -> AsyncIterator[DemoBot]:
    async with running_bot(fake_discord, DemoBot(guild_id=fake_discord.guild_id)) as bot:
        assert isinstance(bot, DemoBot)
        yield bot


async def said(fake: FakeDiscord, channel: FakeChannel, command: str, **options: object) -> str:
    """What the demo bot answered to ``/thread <command>`` typed by alice in ``channel``."""
    invocation = await fake.user("alice").slash(f"thread {command}", channel=channel, **options)
    return (await invocation.followup(0)).content


async def opened(
    fake: FakeDiscord, channel: FakeChannel, name: str, **options: object
) -> FakeThread:
    answer = await said(fake, channel, "open", name=name, **options)
    assert answer.startswith("Opened "), answer
    thread = fake.channels[int(answer.split()[1])]
    assert isinstance(thread, FakeThread)
    return thread


async def known(fake: FakeDiscord, bot: DemoBot, thread_id: int) -> discord.Thread:
    found = await fake.wait_for(
        lambda: bot.get_channel(thread_id), timeout=2, what="the bot to know the thread"
    )
    assert isinstance(found, discord.Thread)
    return found


async def test_a_thread_from_a_message_shares_its_id_and_reaches_the_bot(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    thread = await opened(fake, games, "Game 1")
    card = games.messages()[-1]
    assert card.content == "Game Game 1" and thread.id == card.id
    assert card.to_payload()["thread"]["id"] == str(thread.id)
    assert card.to_payload()["flags"] & 32  # HAS_THREAD
    assert games.threads() == [thread] and thread.parent is games
    assert (thread.name, thread.kind, thread.owner_id) == ("Game 1", 11, fake.bot_user.id)
    # The thread opens with Discord's starter message pointing at the card, then the post.
    starter, welcome = thread.messages()
    assert starter.type == 21 and starter.message_reference is not None
    assert starter.message_reference["message_id"] == str(card.id)
    assert welcome.content == "Welcome to Game 1"
    assert thread.to_payload()["message_count"] == 1  # the starter does not count
    # discord.py knows it from THREAD_CREATE: a Thread under its parent.
    seen = await known(fake, demo, thread.id)
    assert seen.parent_id == games.id and seen.owner_id == fake.bot_user.id
    assert seen.me is not None  # the creator is a member
    assert games.id not in {t.id for t in seen.guild.threads} and seen in seen.guild.threads
    # Not what fake.channel(name) finds: that is a text channel of the server.
    assert fake.channel("Game 1") is not thread and not fake.channel("Game 1").is_thread


async def test_a_thread_without_a_message_leaves_a_notice_in_the_parent(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    thread = await opened(fake, games, "Game 2", from_message=False)
    notice = games.messages()[-1]
    assert (notice.type, notice.content, notice.author) == (18, "Game 2", fake.bot_user)
    assert notice.message_reference == {
        "channel_id": str(thread.id), "guild_id": str(fake.guild_id),
    }  # fmt: skip
    assert [m.content for m in thread.messages()] == ["Welcome to Game 2"]
    assert thread.starter is None and thread.id != notice.id
    assert (await known(fake, demo, thread.id)).type is discord.ChannelType.public_thread


async def test_an_interaction_inside_a_thread_comes_from_the_thread(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    thread = await opened(fake, games, "Game 3")
    await known(fake, demo, thread.id)
    where = await fake.user("alice").slash("thread where", channel=thread)
    assert where.payload["channel_id"] == str(thread.id)
    channel = where.payload["channel"]
    assert (channel["type"], channel["parent_id"]) == (11, str(games.id))
    assert int(channel["permissions"]) > 0 and "thread_metadata" in channel
    answer = await where.message()
    assert answer.content == f"Thread {thread.id} parent={games.id}"
    assert answer.channel_id == thread.id and answer in thread.messages()
    # A button on a message in the thread: the click comes from the thread too.
    card = await (await fake.user("alice").slash("mt new", channel=thread)).message()
    click = await fake.user("bob").click(card, label="Join")
    assert click.payload["channel_id"] == str(thread.id)
    assert click.payload["message"]["channel_id"] == str(thread.id)
    assert (await click.message()).content == "bob joined game 1"
    assert thread.messages()[-1].content == "bob joined game 1"


async def test_permissions_to_create_and_to_talk_in_threads(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    games.set_permissions(fake.bot_user, deny=discord.Permissions(create_public_threads=True))
    assert await said(fake, games, "open", name="x") == "Refused (code 50013)"
    assert await said(fake, games, "open", name="x", from_message=False) == "Refused (code 50013)"
    assert games.threads() == []

    games.set_permissions(fake.bot_user, deny=discord.Permissions(send_messages_in_threads=True))
    # The thread is made, but the bot may not talk in it (Send Messages does not count there).
    assert await said(fake, games, "open", name="quiet") == "Refused (code 50013)"
    (thread,) = games.threads()
    assert [m.type for m in thread.messages()] == [21]
    assert await said(fake, games, "post", thread_id=str(thread.id), text="hi") == (
        "Refused (code 50013)"
    )
    assert games.messages()[-1].content == "Game quiet"  # the parent still takes posts
    bot_perms = fake.permissions_for(fake.bot_user, thread)
    assert not bot_perms & discord.Permissions(embed_links=True).value

    games.set_permissions(fake.bot_user, allow=discord.Permissions(send_messages_in_threads=True))
    assert (await said(fake, games, "post", thread_id=str(thread.id), text="hi")).startswith(
        "Posted"
    )
    assert thread.messages()[-1].content == "hi"


async def test_archive_lock_and_a_message_that_unarchives(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    fake = fake_discord
    games, alice = fake.channel("games"), fake.user("alice")
    thread = await opened(fake, games, "Game 4")
    tid = str(thread.id)
    await known(fake, demo, thread.id)

    # The creator may archive its thread without Manage Threads; discord.py forgets it.
    assert await said(fake, games, "close", thread_id=tid) == "Closed"
    assert thread.archived and not thread.locked
    await fake.wait_for(lambda: demo.get_channel(thread.id) is None, timeout=2, what="forgot")
    assert games.threads(archived=True) == [thread] and games.threads(archived=False) == []
    with pytest.raises(PermissionError, match="archived"):
        await alice.slash("thread where", channel=thread)
    # No edits in an archived thread; a new message unarchives it (THREAD_UPDATE).
    welcome = thread.messages()[-1]
    edited = await said(fake, games, "edit", thread_id=tid, message_id=str(welcome.id), text="x")
    assert edited == "Refused (code 50083)" and welcome.content == "Welcome to Game 4"
    assert (await said(fake, games, "post", thread_id=tid, text="back")).startswith("Posted")
    assert not thread.archived
    assert not (await known(fake, demo, thread.id)).archived

    # Locking takes Manage Threads.
    assert await said(fake, games, "close", thread_id=tid, lock=True) == "Refused (code 50013)"
    assert not thread.archived and not thread.locked
    games.set_permissions(fake.bot_user, allow=discord.Permissions(manage_threads=True))
    assert await said(fake, games, "close", thread_id=tid, lock=True) == "Closed"
    assert thread.archived and thread.locked
    # Archived and locked: a message does not reopen it.
    assert await said(fake, games, "post", thread_id=tid, text="again") == "Refused (code 50083)"
    assert thread.archived and thread.messages()[-1].content == "back"


async def test_a_persons_thread_needs_manage_threads_to_archive_and_is_known_to_the_bot(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    fake = fake_discord
    games, alice = fake.channel("games"), fake.user("alice")
    lobby = await (await alice.slash("mt new", channel=games)).message()
    chat = games.start_thread("chat", by=alice, message=lobby)
    seen = await known(fake, demo, chat.id)
    assert seen.owner_id == alice.id and seen.me is None  # the bot is not a member
    assert await said(fake, games, "close", thread_id=str(chat.id)) == "Refused (code 50013)"
    games.set_permissions(fake.bot_user, allow=discord.Permissions(manage_threads=True))
    assert await said(fake, games, "close", thread_id=str(chat.id)) == "Closed"
    # One thread per message, as on Discord.
    answer = await said(fake, games, "open", name="again", message_id=str(lobby.id))
    assert answer == "Refused (code 160004)"
    assert await said(fake, games, "open", name="x" * 101) == "Refused (code 50035)"
    with pytest.raises(TypeError, match="parent"):
        chat.set_permissions(alice, deny=discord.Permissions(send_messages=True))


async def test_a_restarted_bot_finds_the_active_threads(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    games = fake.channel("games")
    async with running_bot(fake, DemoBot(guild_id=fake.guild_id)):
        active = await opened(fake, games, "live")
        closed = await opened(fake, games, "done")
        assert await said(fake, games, "close", thread_id=str(closed.id)) == "Closed"
    async with running_bot(fake, DemoBot(guild_id=fake.guild_id), sync=False) as bot:
        found = bot.get_channel(active.id)  # from GUILD_CREATE's threads, no request
        assert isinstance(found, discord.Thread) and found.parent_id == games.id
        assert bot.get_channel(closed.id) is None  # archived: not synced, as on Discord
        fetched = await bot.fetch_channel(closed.id)
        assert isinstance(fetched, discord.Thread) and fetched.archived
        guild = bot.get_guild(fake.guild_id)
        assert guild is not None
        assert [t.id for t in await guild.active_threads()] == [active.id]
        text = guild.get_channel(games.id)
        assert isinstance(text, discord.TextChannel)
        assert [t.id async for t in text.archived_threads()] == [closed.id]
        assert [c.id for c in await guild.fetch_channels()] == [
            c.id for c in fake.channels.values() if c.guild_id == guild.id and not c.is_thread
        ]
