"""The turn as one card (issue 47): Components V2 built from a classic post's parts, its rows,
its text budget, and the same card without its controls."""

from __future__ import annotations

import io
from typing import Any

import discord

from bot.ui import components
from bot.ui.components import CARD_TEXT, card, control_rows, recontrolled, table_card

#: Component types (Discord's Component Reference).
ROW, BUTTON, SELECT, TEXT, GALLERY, CONTAINER = 1, 2, 3, 10, 12, 17


def _file(name: str = "table.png", alt: str = "The table: Alice's train …") -> discord.File:
    return discord.File(io.BytesIO(b"\x89PNG"), filename=name, description=alt)


def _walk(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for item in items:
        found.append(item)
        found.extend(_walk(item.get("components") or []))
    return found


def test_a_turn_post_becomes_one_card_with_its_text_picture_alt_text_and_controls() -> None:
    embed = discord.Embed(title="Game #3 — round 1/13", description="Alice played 12-4.")
    controls = components.turn_view(3, 7, None, knock=False)
    layout = table_card("<@1>, it's your turn", embed, [_file()], controls)
    assert layout.has_components_v2()
    (box,) = layout.to_components()
    assert box["type"] == CONTAINER
    kinds = [c["type"] for c in box["components"]]
    assert kinds == [TEXT, TEXT, TEXT, GALLERY, ROW]
    texts = [c["content"] for c in box["components"] if c["type"] == TEXT]
    assert texts == ["### Game #3 — round 1/13", "Alice played 12-4.", "<@1>, it's your turn"]
    (item,) = box["components"][3]["items"]
    assert item["media"]["url"] == "attachment://table.png"
    assert item["description"] == "The table: Alice's train …"  # the alt text, as the file's
    labels = [c["label"] for c in _walk(layout.to_components()) if c["type"] == BUTTON]
    assert labels == ["Play", "Draw", "Pass", "My hand", "Catch me up"]


def test_without_a_picture_the_table_is_text_and_the_text_fits_discords_budget() -> None:
    embed = discord.Embed(title="Game #3", description="x" * 3000)
    embed.add_field(name="\u200b", value="the table as text")
    layout = table_card("y" * 2000, embed, [], None)
    assert layout.content_length() <= CARD_TEXT
    kinds = [c["type"] for c in _walk(layout.to_components())]
    assert GALLERY not in kinds and ROW not in kinds
    assert "the table as text" in str(layout.to_components())


def test_a_select_has_a_row_of_its_own_and_buttons_go_five_to_a_row() -> None:
    view = discord.ui.View(timeout=None)
    options = [discord.SelectOption(label="12-4 on your train", value="12-4@0")]
    view.add_item(components.MoveSelect(3, 7, options, None, dm=True))
    for n in range(7):
        view.add_item(discord.ui.Button(label=f"b{n}", custom_id=f"b{n}"))
    rows = [row.to_component_dict() for row in control_rows(view)]
    widths = [[c["type"] for c in row["components"]] for row in rows]
    assert widths == [[SELECT], [BUTTON] * 5, [BUTTON] * 2]
    # A row another feature asks for (``row=``) starts a row of its own.
    view.add_item(discord.ui.Button(label="orders", custom_id="orders", row=4))
    assert [len(r.to_component_dict()["components"]) for r in control_rows(view)] == [1, 5, 2, 1]


def test_the_same_card_without_its_controls_keeps_its_text_and_picture() -> None:
    layout = card(
        ["hello"], picture=_file("hand.png"), controls=components.turn_view(1, 2, None, knock=False)
    )
    quiet = recontrolled(layout, None)
    kinds = [c["type"] for c in _walk(quiet.to_components())]
    assert kinds == [CONTAINER, TEXT, GALLERY]
    again = recontrolled(quiet, components.turn_view(1, 3, None, knock=False))
    ids = [c["custom_id"] for c in _walk(again.to_components()) if c["type"] == BUTTON]
    assert "mt:1:3:play" in ids  # the new version's controls
