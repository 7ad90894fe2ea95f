"""The tiles' emojis (issue 47.3): one per tile of the double-18 set, named as Discord takes
an emoji's name, drawn as Discord asks for one, and shown only once the whole set is known."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from bot.engine import Tile
from bot.engine.tiles import MAX_PIP, double_set
from bot.ui.limits import RequestBudget
from bot.ui.tileemoji import SET, TileEmojis, emoji_name
from renderers.emoji import MAX_BYTES, SIZE, tile_png


def test_one_emoji_per_tile_of_the_largest_set_named_as_discord_takes_it() -> None:
    assert len(SET) == len(double_set(MAX_PIP)) == 190  # double-18 holds the smaller sets
    for name in SET:
        assert re.fullmatch(r"[A-Za-z0-9_]{2,32}", name)
    assert emoji_name(Tile(5, 12)) == emoji_name(Tile(12, 5)) == "mt_12_5"


@pytest.mark.parametrize("tile", [Tile(0, 0), Tile(12, 5), Tile(18, 18), Tile(11, 1)])
def test_each_is_a_128_px_square_png_under_256_kib(tile: Tile) -> None:
    data = tile_png(tile.high, tile.low)
    assert len(data) < MAX_BYTES
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG" and image.size == (SIZE, SIZE) == (128, 128)
    assert image.mode == "RGBA" and image.getpixel((0, 0))[3] == 0  # transparent around


def test_the_controls_show_the_emojis_only_once_the_set_is_whole() -> None:
    known = TileEmojis()
    names = list(SET)
    for n, name in enumerate(names[:-1]):
        known.note(name, 1000 + n)
    known.note("someone_elses", 5)  # the application's other emojis are not the set's
    assert not known.whole and known.shown == {} and known.missing == names[-1:]
    known.note(names[-1], 9999)
    assert known.whole and len(known.shown) == 190
    emoji = known.shown[Tile(12, 5)]
    assert emoji.name == "mt_12_5" and emoji.id == 1000 + names.index("mt_12_5")


async def test_the_budget_is_idle_only_with_nothing_queued_or_due() -> None:
    now = [0.0]
    budget = RequestBudget(2, clock=lambda: now[0])
    assert budget.idle()
    await budget.take()
    assert not budget.idle()  # the next request is due in 0.5 s
    now[0] = 0.5
    assert budget.idle()


def test_mt_tile_emojis_is_on_unless_set_to_0() -> None:
    from bot.config import Config, ConfigError

    assert Config.from_env({}).tile_emojis and Config.from_env({"MT_TILE_EMOJIS": "1"}).tile_emojis
    assert not Config.from_env({"MT_TILE_EMOJIS": "0"}).tile_emojis
    with pytest.raises(ConfigError, match="MT_TILE_EMOJIS"):
        Config.from_env({"MT_TILE_EMOJIS": "maybe"})
