"""``bot.ui.limits.fit``: whatever the bot builds, what it sends passes Discord's limits — the
fake Discord's own table (tests/fakediscord/limits.py) is the judge — and a cut names its field
in a WARNING; what cannot be cut (a custom_id) is refused, never sent."""

from __future__ import annotations

import io
import logging
from typing import Any

import discord
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ui import limits
from tests.fakediscord.limits import check

POST = "POST /channels/{channel_id}/messages"
TEXT = st.text(alphabet=st.characters(codec="utf-8"), max_size=40)


def payload(kwargs: dict[str, Any]) -> dict[str, Any]:
    """What discord.py would put in the request body for these send arguments."""
    body: dict[str, Any] = {}
    if kwargs.get("content") is not None:
        body["content"] = kwargs["content"]
    embeds = kwargs.get("embeds") or ([kwargs["embed"]] if kwargs.get("embed") else [])
    if embeds:
        body["embeds"] = [e.to_dict() for e in embeds]
    if isinstance(kwargs.get("view"), discord.ui.View):
        body["components"] = kwargs["view"].to_components()
    files = kwargs.get("files") or []
    if files:
        body["attachments"] = [
            {"id": i, "filename": f.filename, "description": f.description}
            for i, f in enumerate(files)
        ]
    if isinstance(kwargs.get("allowed_mentions"), discord.AllowedMentions):
        body["allowed_mentions"] = kwargs["allowed_mentions"].to_dict()
    return body


def view_with(
    labels: list[str], options: list[tuple[str, str | None]], placeholder: str
) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for n, label in enumerate(labels[:5]):
        view.add_item(discord.ui.Button(label=label or "b", custom_id=f"mt:1:{n}:play"))
    if options:
        view.add_item(
            discord.ui.Select(
                custom_id="mt:1:1:pick",
                placeholder=placeholder,
                options=[
                    discord.SelectOption(label=label or "o", value=f"v{i}", description=desc)
                    for i, (label, desc) in enumerate(options[:25])
                ],
            )
        )
    return view


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    content=st.integers(0, 5000),
    title=st.integers(0, 400),
    description=st.integers(0, 6000),
    fields=st.lists(st.tuples(st.integers(0, 300), st.integers(0, 1500)), max_size=30),
    footer=st.integers(0, 2500),
    embeds=st.integers(1, 12),
    labels=st.lists(st.integers(1, 120), max_size=5),
    options=st.lists(st.tuples(st.integers(1, 150), st.integers(0, 150)), max_size=25),
    placeholder=st.integers(0, 200),
    descriptions=st.lists(st.integers(0, 1500), max_size=12),
    mentions=st.integers(0, 150),
    fill=TEXT,
)
def test_whatever_is_built_what_is_sent_passes_discords_limits(
    content: int,
    title: int,
    description: int,
    fields: list[tuple[int, int]],
    footer: int,
    embeds: int,
    labels: list[int],
    options: list[tuple[int, int]],
    placeholder: int,
    descriptions: list[int],
    mentions: int,
    fill: str,
) -> None:
    char = (fill or "é")[0] if (fill or "é")[0].strip() else "é"
    built = []
    for _ in range(embeds):
        embed = discord.Embed(title=char * title or None, description=char * description or None)
        for name, value in fields:
            embed.add_field(name=char * name, value=char * value)
        if footer:
            embed.set_footer(text=char * footer)
        built.append(embed)
    kwargs = limits.fit(
        "test",
        content=char * content,
        embeds=built,
        view=view_with(
            [char * n for n in labels],
            [(char * a, char * b or None) for a, b in options],
            char * placeholder,
        ),
        files=[
            discord.File(io.BytesIO(b"x"), f"f{i}.png", description=char * n or None)
            for i, n in enumerate(descriptions)
        ],
        allowed_mentions=discord.AllowedMentions(
            users=[discord.Object(i + 1) for i in range(mentions)]
        ),
    )
    check(POST, payload(kwargs), [])


def test_what_fits_is_sent_unchanged_and_what_is_cut_is_named(
    caplog: pytest.LogCaptureFixture,
) -> None:
    embed = discord.Embed(title="Game #1", description="ok").add_field(name="n", value="v")
    same = limits.fit("table post", content="hello", embed=embed)
    assert same["content"] == "hello" and embed.to_dict()["fields"] == [
        {"name": "n", "value": "v", "inline": True}
    ]
    assert caplog.records == []
    with caplog.at_level(logging.WARNING, logger="bot.ui.limits"):
        cut = limits.fit("table post", content="x" * 2500)
    assert cut["content"] == "x" * 1999 + "…"
    (record,) = caplog.records
    assert record.levelname == "WARNING"
    assert (
        record.getMessage()
        == "table post: content is 2500 characters, Discord takes 2000: shortened"
    )


def test_an_empty_field_is_given_an_invisible_character_instead_of_being_refused() -> None:
    embed = discord.Embed().add_field(name="", value="")
    fitted = limits.fit("x", embed=embed)
    check(POST, payload(fitted), [])
    assert embed.fields[0].name == limits.BLANK and embed.fields[0].value == limits.BLANK


def test_a_custom_id_or_option_value_over_100_is_refused_not_cut() -> None:
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="b", custom_id="c" * 101))
    with pytest.raises(limits.PayloadRefused, match="custom_id has 101"):
        limits.fit("lobby card", view=view)
    select = discord.ui.View(timeout=None)
    select.add_item(
        discord.ui.Select(custom_id="s", options=[discord.SelectOption(label="l", value="v" * 101)])
    )
    with pytest.raises(limits.PayloadRefused, match="value has 101"):
        limits.fit("move list", view=select)


def test_autocomplete_choices_are_fitted() -> None:
    from discord import app_commands

    many = [app_commands.Choice(name="n" * 150, value=str(i)) for i in range(40)]
    many.insert(0, app_commands.Choice(name="too long a value", value="v" * 101))
    fitted = limits.fit_choices(many)
    assert len(fitted) == 25 and all(len(c.name) == 100 for c in fitted)
    assert fitted[0].value == "0"  # the choice whose value could not be sent back is left out
    body = {"type": 8, "data": {"choices": [{"name": c.name, "value": c.value} for c in fitted]}}
    check("POST /interactions/{interaction_id}/{interaction_token}/callback", body, [])
