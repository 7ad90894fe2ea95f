"""Who the fake says a message notified: new DMs and let-through mentions, never edits,
ephemeral answers or silent messages (the demo bot's ``/remind`` and ``/announce``)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.fakediscord import FakeDiscord, running_bot
from tests.fakediscord.demo_bot import DemoBot


@pytest.fixture
async def demo(fake_discord: FakeDiscord) -> AsyncIterator[DemoBot]:
    async with running_bot(fake_discord, DemoBot(guild_id=fake_discord.guild_id)) as bot:
        assert isinstance(bot, DemoBot)
        yield bot


async def test_dms_and_mentions_ping_silent_ones_and_edits_do_not(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    fake = fake_discord
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    games = fake.channel("games")

    await (await alice.slash("remind", channel=games, player=bob)).message()
    await (await alice.slash("remind", channel=games, player=carol, silent=True)).message()
    assert [(p.how, p.channel_id) for p in fake.pings_for(bob)] == [("dm", bob.dms()[0].channel_id)]
    assert carol.dms() and fake.pings_for(carol) == []  # delivered, silently
    assert fake.pings_for(alice) == []  # her ephemeral answers notify nobody

    text = f"{bob.mention} and {carol.mention}, your move"
    await (await alice.slash("announce", channel=games, text=text)).followup(0)
    pinged = [p.user_id for p in fake.pings if p.how == "mention"]
    assert pinged == [bob.id, carol.id]
    post = games.last_message()
    assert post is not None and {p.message_id for p in fake.pings[-2:]} == {post.id}
    # The same mention with user mentions turned off: no ping.
    quiet = f"{bob.mention} (no ping)"
    await (await alice.slash("announce", channel=games, text=quiet, ping=False)).followup(0)
    assert len(fake.pings) == 3

    # No allowed_mentions at all: Discord parses every mention. An edit never pings.
    opened = await (await alice.slash("thread open", channel=games, name="t")).followup(0)
    thread_id = opened.content.split()[1]
    posted = await alice.slash("thread post", channel=games, thread_id=thread_id, text=bob.mention)
    message_id = (await posted.followup(0)).content.split()[1]
    assert [p.message_id for p in fake.pings_for(bob)][-1] == int(message_id)
    edit = await alice.slash(
        "thread edit", channel=games, thread_id=thread_id, message_id=message_id,
        text=f"{carol.mention} {alice.mention}",
    )  # fmt: skip
    assert (await edit.followup(0)).content == "Edited"
    assert fake.channels[int(thread_id)].messages()[-1].content.startswith(carol.mention)
    assert len(fake.pings) == 4
