"""The fake Discord refuses what Discord refuses: every documented limit a message, an
interaction answer or an autocomplete touches, with Discord's own 400/50035 body naming the
field — checked on the rules table directly, then end to end through discord.py."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fakediscord import FakeDiscord, running_bot
from tests.fakediscord.limits import CALLBACK_ROUTE, FormError, check
from tests.fakediscord.models import FakeFile

POST = "POST /channels/{channel_id}/messages"


def _refused(route: str, body: Any, files: list[FakeFile] | None = None) -> list[str]:
    with pytest.raises(FormError) as caught:
        check(route, body, files or [])
    return caught.value.fields()


def _button(custom_id: str = "b", label: str = "ok") -> dict[str, Any]:
    return {"type": 2, "style": 1, "custom_id": custom_id, "label": label}


def _select(options: int = 3, **extra: Any) -> dict[str, Any]:
    opts = [{"label": f"o{i}", "value": f"v{i}"} for i in range(options)]
    return {"type": 3, "custom_id": "s", "options": opts, **extra}


def _row(*items: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(items)}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"content": "x" * 2001}, "content: Must be 2000 or fewer in length."),
        ({"embeds": [{"title": "t"}] * 11}, "embeds: Must be 10 or fewer in length."),
        ({"embeds": [{"title": "t" * 257}]}, "embeds.0.title: Must be 256 or fewer"),
        ({"embeds": [{"description": "d" * 4097}]}, "embeds.0.description: Must be 4096"),
        (
            {"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]},
            "embeds.0.fields: Must be 25 or fewer",
        ),
        (
            {"embeds": [{"fields": [{"name": "n" * 257, "value": "v"}]}]},
            "embeds.0.fields.0.name: Must be between 1 and 256",
        ),
        (
            {"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]},
            "embeds.0.fields.0.value: Must be between 1 and 1024",
        ),
        (
            {"embeds": [{"fields": [{"name": "n", "value": ""}]}]},
            "embeds.0.fields.0.value: Must be between 1 and 1024",
        ),
        ({"embeds": [{"footer": {"text": "f" * 2049}}]}, "embeds.0.footer.text: Must be 2048"),
        ({"embeds": [{"author": {"name": "a" * 257}}]}, "embeds.0.author.name: Must be 256"),
        (
            {"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]},
            "embeds: Embed size exceeds maximum size of 6000",
        ),
        ({"components": [_row(_button())] * 6}, "components: Must be 5 or fewer"),
        (
            {"components": [_row(*[_button(f"b{i}") for i in range(6)])]},
            "components.0.components: Must be between 1 and 5",
        ),
        ({"components": [_row()]}, "components.0.components: Must be between 1 and 5"),
        (
            {"components": [_row(_button(label="l" * 81))]},
            "components.0.components.0.label: Must be 80 or fewer",
        ),
        (
            {"components": [_row(_button(custom_id="c" * 101))]},
            "components.0.components.0.custom_id: Must be between 1 and 100",
        ),
        (
            {"components": [_row(_select(26))]},
            "components.0.components.0.options: Must be between 1 and 25",
        ),
        (
            {"components": [_row(_select(1, placeholder="p" * 151))]},
            "components.0.components.0.placeholder: Must be 150 or fewer",
        ),
        (
            {"components": [_row(_button(), _select())]},
            "components.0.components: The specified component exceeds the maximum width",
        ),
        (
            {
                "components": [
                    _row(
                        {
                            "type": 3,
                            "custom_id": "s",
                            "options": [{"label": "l", "value": "v" * 101}],
                        }
                    )
                ]
            },
            "components.0.components.0.options.0.value: Must be between 1 and 100",
        ),
        (
            {
                "components": [
                    _row(
                        {
                            "type": 3,
                            "custom_id": "s",
                            "options": [{"label": "l", "value": "v", "description": "d" * 101}],
                        }
                    )
                ]
            },
            "components.0.components.0.options.0.description: Must be 100 or fewer",
        ),
        (
            {"attachments": [{"id": i} for i in range(11)]},
            "attachments: Must be 10 or fewer",
        ),
        (
            {"attachments": [{"id": 0, "description": "d" * 1025}]},
            "attachments.0.description: Must be 1024 or fewer",
        ),
        (
            {"allowed_mentions": {"users": [str(i) for i in range(101)]}},
            "allowed_mentions.users: Must be 100 or fewer",
        ),
        (
            {"allowed_mentions": {"parse": ["users"], "users": ["1"]}},
            'allowed_mentions.parse: parse:["users"] and users: [ids...] are mutually exclusive',
        ),
    ],
)
def test_each_message_limit_is_refused_naming_its_field(body: dict[str, Any], field: str) -> None:
    fields = _refused(POST, body)
    assert any(f.startswith(field) for f in fields), fields
    check(POST, {"content": "x" * 2000, "embeds": [{"title": "t" * 256}]}, [])  # at the limit


def test_an_interaction_answer_is_checked_under_data_and_choices_too() -> None:
    fields = _refused(CALLBACK_ROUTE, {"type": 4, "data": {"content": "x" * 2001}})
    assert fields == ["data.content: Must be 2000 or fewer in length."]
    fields = _refused(CALLBACK_ROUTE, {"type": 7, "data": {"components": [_row(_select(30))]}})
    assert fields == ["data.components.0.components.0.options: Must be between 1 and 25 in length."]
    choices = [{"name": "n", "value": "v"}] * 26
    assert _refused(CALLBACK_ROUTE, {"type": 8, "data": {"choices": choices}}) == [
        "data.choices: Must be 25 or fewer in length."
    ]
    long = [{"name": "n" * 101, "value": "v" * 101}]
    assert _refused(CALLBACK_ROUTE, {"type": 8, "data": {"choices": long}}) == [
        "data.choices.0.name: Must be between 1 and 100 in length.",
        "data.choices.0.value: Must be between 1 and 100 in length.",
    ]
    check(CALLBACK_ROUTE, {"type": 5, "data": {"flags": 64}}, [])  # a deferral has no message


def test_eleven_files_are_refused_and_a_thread_message_is_checked_like_any() -> None:
    files = [FakeFile(f"f{i}.txt", b"x") for i in range(11)]
    assert "files: Must be 10 or fewer in length." in _refused(POST, {"content": "x"}, files)
    route = "POST /channels/{channel_id}/threads"  # a route this module does not name
    fields = _refused(route, {"name": "t", "message": {"content": "x" * 2001}})
    assert fields == ["message.content: Must be 2000 or fewer in length."]


async def test_discord_py_gets_discords_own_body_for_a_refused_send(
    fake_discord: FakeDiscord,
) -> None:
    """The 400 reaches the client as Discord sends it: code 50035 and the field's error,
    which discord.py prints in the exception."""
    fake = fake_discord
    channel = fake.channel("limits")
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())
    async with running_bot(fake, bot, sync=False):
        target = bot.get_partial_messageable(channel.id)
        embed = discord.Embed(title="t").add_field(name="n", value="v" * 1025)
        with pytest.raises(discord.HTTPException) as caught:
            await target.send(embed=embed)
        assert caught.value.status == 400 and caught.value.code == 50035
        assert "embeds.0.fields.0.value" in caught.value.text
        assert "Must be between 1 and 1024 in length." in caught.value.text
        (request,) = fake.requests_to(POST)
        assert request.status == 400 and request.error_code == 50035
        assert channel.messages() == []  # nothing was posted
        await target.send("x" * 2000)  # at the limit: posted
        assert channel.last_message() is not None


# discord.py logs the refused autocomplete answer; the demo bot has no error handler.
@pytest.mark.expect_errors(logger="discord.app_commands.tree", match=r"Must be 25 or fewer")
async def test_a_refused_autocomplete_leaves_the_interaction_unanswered(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())

    @bot.tree.command(name="pick", description="pick")
    async def pick(interaction: discord.Interaction[Any], what: str) -> None:
        await interaction.response.send_message(what)

    @pick.autocomplete("what")
    async def what(interaction: discord.Interaction[Any], current: str) -> list[Any]:
        return [app_commands.Choice(name=f"choice {i}", value=str(i)) for i in range(26)]

    async with running_bot(fake, bot):
        user, channel = fake.user("ana"), fake.channel("ac")
        asking = asyncio.create_task(
            user.autocomplete("pick", focused="what", channel=channel, timeout=30)
        )
        try:
            rejection = await fake.wait_for(
                lambda: next(
                    (r.rejections[0] for r in fake.interactions.values() if r.rejections), None
                ),
                timeout=10,
                what="the 26 choices to be refused",
            )
        finally:
            asking.cancel()
        assert rejection.code == 50035
        assert "data.choices: Must be 25 or fewer" in rejection.message
        record = list(fake.interactions.values())[-1]
        assert record.callback_type is None and record.choices is None


# ---------------------------------------------------------------------- component rules

V2 = 1 << 15


def test_a_custom_id_is_one_components_only_on_a_message() -> None:
    twice = {"components": [_row(_button("a"), _button("a", label="again"))]}
    assert _refused(POST, twice) == [
        "components.0.components.1.custom_id: Component custom id cannot be duplicated"
    ]
    check(POST, {"components": [_row(_button("a"), _button("b"))]}, [])


def test_a_link_button_has_a_url_and_no_custom_id_and_only_it_has_a_url() -> None:
    link = {"type": 2, "style": 5, "label": "Open", "url": "https://discord.com"}
    check(POST, {"components": [_row(link)]}, [])
    assert _refused(POST, {"components": [_row({**link, "url": None})]}) == [
        "components.0.components.0.url: This field is required"
    ]
    assert _refused(POST, {"components": [_row({**link, "custom_id": "x"})]}) == [
        "components.0.components.0.custom_id: A link button has no custom_id."
    ]
    assert _refused(POST, {"components": [_row({**_button(), "url": "https://x"})]}) == [
        "components.0.components.0.url: Only a link button has a url."
    ]


def _card(**extra: Any) -> dict[str, Any]:
    """One Components V2 card: a picture, text and buttons (what the bot could post)."""
    return {
        "flags": V2,
        "components": [
            {
                "type": 17,
                "components": [
                    {"type": 10, "content": "**Game #1** — Alice to play"},
                    {"type": 12, "items": [{"media": {"url": "attachment://table.png"}}]},
                    {
                        "type": 9,
                        "components": [{"type": 10, "content": "Your move"}],
                        "accessory": _button("mt:1:play", label="Play"),
                    },
                    {"type": 14, "spacing": 1},
                    _row(_button("mt:1:draw", label="Draw"), _button("mt:1:pass", label="Pass")),
                ],
            }
        ],
        **extra,
    }


def test_a_components_v2_card_is_taken_by_discords_rules() -> None:
    check(POST, _card(), [FakeFile("table.png", b"png")])
    # Its picture is a file of the message ("attachment://<filename>"), or it is refused.
    assert _refused(POST, _card()) == [
        "components.0.components.1.items.0.media.url: No attachment named 'table.png' on this "
        "message."
    ]
    table = [FakeFile("table.png", b"png")]
    assert _refused(POST, _card(content="hi", embeds=[{"title": "t"}]), table) == [
        "content: content cannot be used with the IS_COMPONENTS_V2 flag",
        "embeds: embeds cannot be used with the IS_COMPONENTS_V2 flag",
    ]
    # Without the flag the same layout is not a message Discord takes (rows only).
    assert _refused(POST, {"components": _card()["components"]}) == [
        "components.0: Component type must be an action row."
    ]
    nested = {"flags": V2, "components": [{"type": 17, "components": [{"type": 17}]}]}
    assert _refused(POST, nested) == [
        "components.0.components.0: Component type 17 is not allowed here."
    ]
    bare = {"flags": V2, "components": [{"type": 9, "components": [{"type": 10, "content": "x"}]}]}
    assert _refused(POST, bare) == ["components.0.accessory: This field is required"]
    many = {"flags": V2, "components": [{"type": 10, "content": "x"}] * 41}
    assert "components: Must be 40 or fewer components in all." in _refused(POST, many)
    file = {"flags": V2, "components": [{"type": 13, "file": {"url": "https://x/y.png"}}]}
    assert _refused(POST, file) == [
        "components.0.file.url: A file component shows an attachment (attachment://name)."
    ]


async def test_discord_py_posts_a_components_v2_card_the_fake_takes(
    fake_discord: FakeDiscord,
) -> None:
    """discord.py's LayoutView sends a V2 message; the fake keeps its layout and buttons."""
    fake = fake_discord
    channel = fake.channel("cards")
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())
    async with running_bot(fake, bot, sync=False):
        view = discord.ui.LayoutView(timeout=None)
        container: discord.ui.Container[Any] = discord.ui.Container(
            discord.ui.TextDisplay("**Game #1** — Alice to play")
        )
        row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
        row.add_item(discord.ui.Button(label="Play", custom_id="mt:1:play"))
        container.add_item(row)
        view.add_item(container)
        await bot.get_partial_messageable(channel.id).send(view=view)
        card = channel.last_message()
        assert card is not None and card.button_labels == ["Play"]
        assert card.flags & V2
