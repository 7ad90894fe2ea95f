"""A round's end riding in the turn's post (issue 47, bot/ui/roundcard.py): when it rides and
when it goes apart (Discord's limits of a message), several rounds' pictures named apart, the
merged post as one card and that card without its controls."""

from __future__ import annotations

import io
from typing import Any

import discord

from bot.ui import components
from bot.ui.components import recontrolled
from bot.ui.roundcard import GROWTH, merged, round_card

#: Component types (Discord's Component Reference).
ROW, TEXT, GALLERY, CONTAINER = 1, 10, 12, 17


def _file(name: str, alt: str) -> discord.File:
    return discord.File(io.BytesIO(b"\x89PNG"), filename=name, description=alt)


def _end(number: int, *, scores: str = "1. **Alice** — 0 pts (went out, +0)") -> Any:
    embed = discord.Embed(title=f"Game #3 — round {number}/13", description="Alice went out.")
    embed.add_field(name=f"Scores after round {number}/13", value=scores, inline=False)
    embed.set_image(url="attachment://round.png")
    return embed, [_file("round.png", f"Round {number} of 13 is over: Alice went out.")], None


def _turn() -> discord.Embed:
    return discord.Embed(title="Game #3 — round 2/13", description="Bob played 11-11.")


def test_one_round_end_rides_with_its_picture_under_its_own_name() -> None:
    end = _end(1)
    rides = merged([end], _turn())
    assert rides is not None
    embeds, files = rides
    assert embeds == (end[0],) and [f.filename for f in files] == ["round.png"]


def test_what_would_pass_a_messages_limits_goes_apart() -> None:
    turn = _turn()
    # The match's end: Rematch stays on a post of its own.
    rematch = (*_end(13)[:2], components.rematch_view(3, None))
    assert merged([rematch], turn) is None
    # 10 embeds, or 10 files, with the turn's own.
    assert merged([_end(n) for n in range(1, 11)], turn) is None
    assert merged([_end(n) for n in range(1, 10)], turn) is not None
    # 6,000 characters of embeds, less the room the turn's embed needs to grow.
    big = _end(1, scores="x" * 1000)
    for _ in range(4):
        big[0].add_field(name="\u200b", value="y" * 1000, inline=False)
    assert merged([big], turn) is None
    small = _end(1, scores="x" * (6000 - GROWTH - 1200))
    assert merged([small], turn) is not None


def test_several_rounds_in_one_post_name_their_pictures_apart() -> None:
    ends = [_end(1), _end(2)]
    rides = merged(ends, _turn())
    assert rides is not None
    embeds, files = rides
    assert [f.filename for f in files] == ["round-1.png", "round-2.png"]
    assert [e.image.url for e in embeds] == ["attachment://round-1.png", "attachment://round-2.png"]
    assert files[1].description == "Round 2 of 13 is over: Alice went out."


def test_the_merged_post_as_one_card_and_without_its_controls() -> None:
    end, pictures, _ = _end(1)
    table = _file("table.png", "The table: Bob's train …")
    controls = components.turn_view(3, 7, None, knock=False)
    layout = round_card(
        [end], pictures, "<@2>, it's your turn", _turn(), [*pictures, table], controls
    )
    assert layout is not None and layout.has_components_v2()
    ended, turn = layout.to_components()
    assert ended["type"] == turn["type"] == CONTAINER
    assert [c["type"] for c in ended["components"]] == [TEXT, TEXT, TEXT, GALLERY]
    texts = [c["content"] for c in ended["components"] if c["type"] == TEXT]
    assert texts[0] == "### Game #3 — round 1/13"
    assert texts[2].startswith("**Scores after round 1/13**\n1. **Alice**")
    (item,) = ended["components"][3]["items"]
    assert item["media"]["url"] == "attachment://round.png"
    assert item["description"] == "Round 1 of 13 is over: Alice went out."
    (picture,) = [c for c in turn["components"] if c["type"] == GALLERY]
    assert picture["items"][0]["media"]["url"] == "attachment://table.png"
    assert [c["type"] for c in turn["components"]][-1] == ROW
    # Quietened: the round's end stays whole, only the turn's rows go.
    quiet = recontrolled(layout, None)
    ended_after, turn_after = quiet.to_components()
    assert ended_after == ended
    assert ROW not in [c["type"] for c in turn_after["components"]]
    assert GALLERY in [c["type"] for c in turn_after["components"]]


def test_a_card_over_its_text_budget_is_not_made_and_the_post_goes_classic() -> None:
    end, pictures, _ = _end(1, scores="z" * 1000)
    for _ in range(3):
        end.add_field(name="\u200b", value="w" * 1000, inline=False)
    table = _file("table.png", "The table")
    layout = round_card([end], pictures, "turn", _turn(), [*pictures, table], None)
    assert layout is None  # over CARD_TEXT (4,000) together: the post goes classic
