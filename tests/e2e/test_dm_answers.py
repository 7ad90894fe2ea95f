"""Clear answers where things go wrong (issue 37): one ERROR for an interaction whose deferral
Discord refused (not a second "generator didn't yield"); ``/mt`` commands in a DM say where
they work instead of a traceback or a suggestion that cannot work there; names are shown as
written, never as mentions or markdown, and a name needs something visible; a Join that lost
a race with Cancel says the lobby was cancelled."""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest

from bot.app import MexicanTrainBot
from tests.e2e.helpers import said
from tests.fakediscord import FakeDiscord, running_bot


@pytest.mark.expect_errors(logger="bot.ui.interactions", match=r"could not be acknowledged")
async def test_a_refused_deferral_is_one_error_line(
    fake_discord: FakeDiscord,
    make_bot: Callable[[], MexicanTrainBot],
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake = fake_discord
    room, alice = fake.channel("games"), fake.user("alice")
    bot = make_bot()
    async with running_bot(fake, bot):
        fake.interaction_deadline = 0.0  # every first answer is late: Discord says 10062
        with caplog.at_level(logging.INFO):
            invocation = await alice.slash("mt status", channel=room)
            await fake.wait_for(
                lambda: any(getattr(r, "mt_fields", None) for r in caplog.records) or None,
                timeout=10,
                what="the interaction's log line",
            )
        fake.interaction_deadline = 3.0
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1, [r.getMessage() for r in errors]
    assert "generator didn't yield" not in caplog.text
    assert invocation is not None


IN_A_DM = "In a DM you can use /hand, /mt catchup, /mt me and /mt mygames."


async def test_server_commands_in_a_dm_say_where_to_use_them(
    fake_discord: FakeDiscord,
    make_bot: Callable[[], MexicanTrainBot],
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake = fake_discord
    alice = fake.user("alice")
    bot = make_bot()
    async with running_bot(fake, bot):
        with caplog.at_level(logging.INFO):
            # (/mt-admin is a server's: not offered in DMs at all.)
            with pytest.raises(PermissionError, match="cannot be used in DMs"):
                await alice.slash("mt-admin settings", language="fr")
            for command, options in (("mt stats", {}), ("mt leaderboard", {})):
                answer = await said(await alice.slash(command, **options))  # no channel: a DM
                assert "use it in one of the server's channels" in answer.text, answer.text
                assert IN_A_DM in answer.text
            # (/play, /draw… are not offered in DMs at all: Discord refuses them itself.)
            for command in ("mt status", "mt scores", "mt start", "mt hint", "mt kick"):
                options = {"player": alice} if command == "mt kick" else {}
                answer = await said(await alice.slash(command, **options))
                assert "/mt new" not in answer.text, (command, answer.text)
                assert IN_A_DM in answer.text, (command, answer.text)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_names_are_shown_as_written_and_must_show_something(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    room = fake.channel("games")
    alice = fake.user("alice")
    role = fake.user("<@&123456789012345678> *loud*")
    ghost = fake.user("\u200b\u200b\u3164")
    bot = make_bot()
    async with running_bot(fake, bot):
        await said(await alice.slash("mt new", channel=room, preset="quick"))
        lobby = room.last_message()
        assert lobby is not None
        refused = await said(await ghost.click(lobby, label="Join"))
        assert "Your name shows nothing visible" in refused.text, refused.text
        assert "joined" in (await said(await role.click(lobby, label="Join"))).text
        await said(await alice.click(lobby, label="Start"))
        status = await said(await alice.slash("mt status", channel=room))
        # The name reads as written: no role mention (rendered or pinging), no markdown.
        assert "<@&123456789012345678>" not in status.text, status.text
        assert "<@\u200b&123456789012345678>" in status.text, status.text
        assert "\\*" in status.text and " *L" not in status.text, status.text
    assert not [p for p in fake.pings if p.user_id == 123456789012345678]


async def test_a_join_that_lost_a_race_with_cancel_says_it_was_cancelled(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    room = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    bot = make_bot()
    async with running_bot(fake, bot):
        await said(await alice.slash("mt new", channel=room, preset="quick"))
        lobby = room.last_message()
        assert lobby is not None
        await said(await alice.click(lobby, label="Cancel"))
        # Bob's client still shows the Join button of the card he read before the cancel.
        late = await said(await bob.forge_click(lobby, custom_id=f"mt:{1}:lobby:join"))
        assert "cancelled" in late.text and "already started" not in late.text, late.text
