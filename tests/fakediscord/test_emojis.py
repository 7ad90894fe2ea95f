"""The fake's application emojis (emojis.py) against the real discord.py client: one test per
rule of Discord's Emoji resource page (https://discord.com/developers/docs/resources/emoji,
"Application-Owned Emoji", "List Application Emojis", "Create Application Emoji")."""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest

from tests.fakediscord import FakeDiscord, running_bot
from tests.fakediscord.demo_bot import DemoBot
from tests.fakediscord.emojis import CAP, MAX_BYTES

PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 64


@pytest.fixture
async def demo(fake_discord: FakeDiscord) -> AsyncIterator[DemoBot]:
    async with running_bot(fake_discord, DemoBot(guild_id=fake_discord.guild_id)) as bot:
        assert isinstance(bot, DemoBot)
        yield bot


async def test_made_emojis_are_listed_under_items_with_the_bot_as_their_user(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    """List Application Emojis: "an object containing a list of emoji objects [...] under
    the items key", with "a user object [...] for the bot user if uploaded using the API"."""
    made = await demo.create_application_emoji(name="mt_12_5", image=PNG)
    assert made.name == "mt_12_5" and made.id
    listed = await demo.fetch_application_emojis()
    assert [(e.id, e.name) for e in listed] == [(made.id, "mt_12_5")]
    assert listed[0].user is not None and listed[0].user.id == fake_discord.bot_user.id
    raw = await demo.http.get_application_emojis(fake_discord.application_id)
    assert list(raw) == ["items"]


@pytest.mark.parametrize("name", ["x", "a" * 33, "mt-12-5", "mt 12", "été_12"])
async def test_a_name_is_2_to_32_letters_digits_or_underscores(
    fake_discord: FakeDiscord, demo: DemoBot, name: str
) -> None:
    """Not on Discord's page: discord.py's create_application_emoji ("Must be between 2 and
    32 characters long") and Discord's answer (400/50035 on ``name``)."""
    with pytest.raises(discord.HTTPException) as refused:
        await demo.create_application_emoji(name=name, image=PNG)
    assert refused.value.status == 400 and refused.value.code == 50035
    assert "name" in str(refused.value)
    assert not fake_discord.emojis.items
    await demo.create_application_emoji(name="a" * 32, image=PNG)
    await demo.create_application_emoji(name="A_9", image=PNG)


async def test_an_image_over_256_kib_is_refused_without_a_json_code(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    """Create Application Emoji: "a maximum file size of 256 KiB [...] will fail and return
    400 Bad Request and an error message, but not a JSON status code"."""
    with pytest.raises(discord.HTTPException) as refused:
        await demo.create_application_emoji(name="big", image=PNG + b"\0" * MAX_BYTES)
    assert refused.value.status == 400 and refused.value.code == 0
    await demo.create_application_emoji(name="fits", image=PNG + b"\0" * (MAX_BYTES - len(PNG)))
    # The image is image data (a data URI of an image format): anything else is refused.
    body = {"name": "raw", "image": base64.b64encode(PNG).decode()}
    route = discord.http.Route(
        "POST", "/applications/{application_id}/emojis", application_id=demo.application_id
    )
    with pytest.raises(discord.HTTPException) as not_data:
        await demo.http.request(route, json=body)
    assert not_data.value.code == 50035 and "image" in str(not_data.value)


async def test_an_application_owns_at_most_2000_emojis(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    """Application-Owned Emoji: "An application can own up to 2000 emojis"; one more is
    30008 "Maximum number of emojis reached" (JSON Error Codes)."""
    for n in range(CAP):
        fake_discord.emojis.seed(f"e{n}")
    with pytest.raises(discord.HTTPException) as refused:
        await demo.create_application_emoji(name="one_more", image=PNG)
    assert refused.value.status == 400 and refused.value.code == 30008
    assert len(fake_discord.emojis.items) == CAP


async def test_a_name_the_application_already_uses_is_refused(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    """Not on Discord's page (ours: the code Discord is seen to answer): two emojis of one
    application may not share a name."""
    await demo.create_application_emoji(name="mt_0_0", image=PNG)
    with pytest.raises(discord.HTTPException) as refused:
        await demo.create_application_emoji(name="mt_0_0", image=PNG)
    assert refused.value.code == 50035 and "already taken" in refused.value.text
    assert len(fake_discord.emojis.items) == 1


async def test_a_component_shows_only_the_applications_own_emojis(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    """Component Reference (Button, String Select option): an ``emoji`` is a partial emoji;
    an id the application does not own is "Invalid emoji" (400/50035)."""
    channel = fake_discord.channel("games")
    found = await fake_discord.wait_for(
        lambda: demo.get_channel(channel.id), timeout=30, what="channel"
    )
    assert isinstance(found, discord.TextChannel)
    made = await demo.create_application_emoji(name="mt_6_6", image=PNG)
    ok = discord.ui.View().add_item(
        discord.ui.Select(
            custom_id="pick",
            options=[discord.SelectOption(label="6-6 → @1", value="6-6", emoji=made)],
        )
    )
    await found.send("moves", view=ok)
    stranger = discord.PartialEmoji(name="mt_6_6", id=made.id + 1)
    bad = discord.ui.View().add_item(discord.ui.Button(label="6-6", custom_id="b", emoji=stranger))
    with pytest.raises(discord.HTTPException) as refused:
        await found.send("moves", view=bad)
    # Discord's shape (ours: what it is seen to answer, discord-api-docs#8071 and a deleted
    # emoji's report, HuyaneMatsu/Koishi#25): the error on the component's ``emoji.id``, code
    # BUTTON_COMPONENT_INVALID_EMOJI whatever the component.
    assert refused.value.code == 50035 and refused.value.status == 400
    assert refused.value.text.splitlines()[1:] == [
        "In components.0.components.0.emoji.id: Invalid emoji"
    ]
    (seen,) = [r for r in fake_discord.requests if r.error_code == 50035]
    assert seen.status == 400
    assert _errors(refused.value)["components"]["0"]["components"]["0"]["emoji"] == {
        "id": {"_errors": [{"code": "BUTTON_COMPONENT_INVALID_EMOJI", "message": "Invalid emoji"}]}
    }
    await found.send("unicode", view=discord.ui.View().add_item(
        discord.ui.Button(label="go", custom_id="u", emoji="🔁")))  # fmt: skip


async def test_a_deleted_emoji_is_gone_from_the_list_and_from_the_controls(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    """Delete Application Emoji: "Delete the given emoji. Returns ``204 No Content`` on
    success"; an id the application does not own is 404/10014 "Unknown Emoji" (JSON Error
    Codes). A component still showing the deleted id is refused as any stranger's: 400/50035
    on its ``emoji.id`` (a select option's too)."""
    channel = fake_discord.channel("games")
    found = await fake_discord.wait_for(
        lambda: demo.get_channel(channel.id), timeout=30, what="channel"
    )
    assert isinstance(found, discord.TextChannel)
    kept = await demo.create_application_emoji(name="mt_6_6", image=PNG)
    gone = await demo.create_application_emoji(name="mt_6_5", image=PNG)
    await demo.http.delete_application_emoji(demo.application_id, gone.id)
    (delete,) = fake_discord.requests_to("DELETE /applications/{app_id}/emojis/{emoji_id}")
    assert delete.status == 204
    assert [e.name for e in await demo.fetch_application_emojis()] == ["mt_6_6"]
    with pytest.raises(discord.NotFound) as unknown:
        await demo.http.delete_application_emoji(demo.application_id, gone.id)
    assert unknown.value.code == 10014 and unknown.value.text == "Unknown Emoji"
    options = [discord.SelectOption(label=f"6-{n} → @1", value=f"6-{n}", emoji=e)
               for n, e in ((6, kept), (5, gone))]  # fmt: skip
    view = discord.ui.View().add_item(discord.ui.Select(custom_id="pick", options=options))
    with pytest.raises(discord.HTTPException) as refused:
        await found.send("moves", view=view)
    assert refused.value.code == 50035
    assert refused.value.text.splitlines()[1:] == [
        "In components.0.components.0.options.1.emoji.id: Invalid emoji"
    ]


def _errors(exc: discord.HTTPException) -> dict[str, Any]:
    """The refusal's ``errors`` tree as Discord sent it (discord.py keeps it flattened in
    ``text``, and whole only in a private field)."""
    errors = getattr(exc, "_errors", None)
    assert isinstance(errors, dict)
    return errors
