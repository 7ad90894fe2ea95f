"""The tiles' emojis (issue 47.3): one per tile of the double-18 set, named as Discord takes
an emoji's name, drawn as Discord asks for one, and shown only once the whole set is known."""

from __future__ import annotations

import io
import json
import logging
import re
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from PIL import Image

from bot.engine import Tile
from bot.engine.tiles import MAX_PIP, double_set
from bot.ui import host
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


# ---------------------------------------------------------------------- a deleted emoji


def _refusal(code: int, *fields: str) -> discord.HTTPException:
    """Discord's refusal as discord.py raises it: ``fields`` each "Invalid emoji"."""
    response = SimpleNamespace(status=400, reason="Bad Request")
    errors: dict[str, Any] = {}
    for field in fields:
        node = errors
        for part in field.split("."):
            node = node.setdefault(part, {})
        node["_errors"] = [{"code": "BUTTON_COMPONENT_INVALID_EMOJI", "message": "Invalid emoji"}]
    return discord.HTTPException(response, {"code": code, "message": "Invalid Form Body",
                                            "errors": errors})  # fmt: skip


def _whole() -> TileEmojis:
    known = TileEmojis()
    for n, name in enumerate(SET):
        known.note(name, 1000 + n)
    return known


def _option(tile: Tile, emoji_id: int) -> dict[str, Any]:
    emoji = {"name": emoji_name(tile), "id": str(emoji_id), "animated": False}
    return {"label": f"{tile} → @1", "value": str(tile), "emoji": emoji}


class _Sender:
    """A sender that refuses its first request with ``refusal`` and records every one."""

    def __init__(self, refusal: discord.HTTPException) -> None:
        self.refusal: discord.HTTPException | None = refusal
        self.sent: list[dict[str, Any]] = []

    async def __call__(self, route: str, **kwargs: Any) -> str:
        self.sent.append(kwargs)
        refusal, self.refusal = self.refusal, None
        if refusal is not None:
            raise refusal
        return "sent"


async def test_an_answer_refused_for_a_tile_emoji_is_sent_again_without_the_emojis(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """An interaction's answer (the webhook adapter's ``payload``): the emoji refused is a
    tile's, so the set is forgotten (one WARNING naming it) and the same answer goes once
    more with no tile emoji, its other emojis and texts kept."""
    known = _whole()
    deleted = known.shown[Tile(12, 1)].id
    kept = known.shown[Tile(6, 6)].id
    select = {"type": 3, "custom_id": "m", "options": [
        _option(Tile(6, 6), kept), _option(Tile(12, 1), deleted),
        {"label": "go", "value": "g", "emoji": {"name": "🔁"}}]}  # fmt: skip
    payload = {"type": 4, "data": {"components": [{"type": 1, "components": [select]}]}}
    send = _Sender(_refusal(50035, "data.components.0.components.0.options.1.emoji.id"))
    healed = host.healed(send, known)
    with caplog.at_level(logging.INFO, logger="bot.ui.tileheal"):
        assert await healed("callback", payload=payload, files=[]) == "sent"
    first, again = send.sent
    assert first["payload"] is payload
    options = again["payload"]["data"]["components"][0]["components"][0]["options"]
    assert [o.get("emoji") for o in options] == [None, None, {"name": "🔁"}]
    assert [o["label"] for o in options] == ["6-6 → @1", "12-1 → @1", "go"]
    assert known.shown == {} and not known.whole and known.lost.is_set()
    assert [(r.levelname, "mt_12_1" in r.getMessage()) for r in caplog.records] == [
        ("WARNING", True)
    ]
    # A message built with that id before, refused after: sent again, nothing forgotten twice.
    send = _Sender(_refusal(50035, "components.0.components.0.options.1.emoji.id"))
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="bot.ui.tileheal"):
        assert await host.healed(send, known)("send", json=payload["data"]) == "sent"
    assert [r.levelname for r in caplog.records] == ["INFO"] and len(send.sent) == 2


async def test_a_multipart_send_is_sent_again_with_its_files_rewound() -> None:
    """A turn DM with its picture (the bot token's ``form``, the JSON in ``payload_json``):
    the same fields and files, the JSON without the emojis, the file read from its start."""
    known = _whole()
    deleted = known.shown[Tile(5, 0)].id
    button = {"type": 2, "style": 2, "custom_id": "o", "label": "📋 5-0, then…"}
    emoji = {"name": "mt_5_0", "id": str(deleted)}
    body = {"nonce": "turn-7", "components": [{**button, "emoji": emoji}]}
    picture = discord.File(io.BytesIO(b"\x89PNG picture"), filename="hand.png")
    form = [{"name": "payload_json", "value": json.dumps(body)},
            {"name": "files[0]", "value": picture.fp, "filename": "hand.png"}]  # fmt: skip
    picture.fp.read()  # the refused request read it
    send = _Sender(_refusal(50035, "components.0.emoji.id"))
    assert await host.healed(send, known)("send", form=form, files=[picture]) == "sent"
    again = send.sent[1]["form"]
    assert json.loads(again[0]["value"]) == {
        "nonce": "turn-7",  # the same nonce: Discord made no message for the refused one
        "components": [button],
    }
    assert again[1] == form[1] and picture.fp.read() == b"\x89PNG picture"


@pytest.mark.parametrize(
    ("code", "field"),
    [
        (50035, "components.0.components.0.options.2.emoji.name"),  # not a tile's emoji
        (50035, "components.0.components.0.label"),  # not an emoji at all
        (50035, "components.9.emoji.id"),  # a path the body does not have
        (50013, "components.0.components.0.options.0.emoji.id"),  # another refusal
    ],
)
async def test_any_other_refusal_is_raised_as_it_came(code: int, field: str) -> None:
    known = _whole()
    select = {"type": 3, "custom_id": "m", "options": [
        _option(Tile(6, 6), known.shown[Tile(6, 6)].id), _option(Tile(3, 1), 5),
        {"label": "go", "value": "g", "emoji": {"name": "🔁"}}]}  # fmt: skip
    refusal = _refusal(code, field)
    send = _Sender(refusal)
    with pytest.raises(discord.HTTPException) as raised:
        await host.healed(send, known)("send", json={"components": [{"components": [select]}]})
    assert raised.value is refusal and len(send.sent) == 1 and len(known.shown) == 190
