"""The bot's only door to pictures: ``table_png(view)`` and ``hand_png(view)`` -> PNG bytes.

The real drawings come from the ``renderers`` package (``render_table``, ``render_hand``,
``to_png``) when it is installed; until then, and whenever it lacks those functions, a plain
Pillow drawing of our own lists the trains and the hand, so every message still carries a
true picture. Both are blocking CPU work: callers run them with ``asyncio.to_thread``.

Hidden hands never reach a picture by construction: the table is drawn from the spectator's
view (``GameService.table_view``), which holds other hands only under the open-hands rule, and
a hand picture is only ever made from the viewer's own ``seat_view`` for a DM or an ephemeral.
"""

from __future__ import annotations

import functools
import importlib
import io
from collections.abc import Callable
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from bot.engine import Play, SeatView, Tile, TrainView

#: Pixels: a tile is drawn as a TILE_W x TILE_H box with its notation inside.
TILE_W, TILE_H, GAP, MARGIN, LINE = 44, 22, 4, 10, 26
#: The widest picture we make; long trains wrap onto the next line.
WIDTH = 720
#: Tiles shown per train before the rest are summarised ("… +7"), keeping the PNG bounded.
MAX_TRAIN_TILES = 40

#: The fallback draws straight onto a fixed 8-colour palette image: no quantising step (that
#: cost ~25 ms a picture, most of a move's CPU), and the PNG stays a few kB.
_COLOURS = ("#1f5e3b", "#f4f1e8", "#fbfaf5", "#f2b134", "#e0564b", "#333333", "#111111")
FELT, INK, TILE_FILL, MARK, OPEN, EDGE, PIPS = range(len(_COLOURS))
_PALETTE = [c for hexa in _COLOURS for c in bytes.fromhex(hexa[1:])]


@functools.cache
def _renderers() -> tuple[Callable[..., Any], Callable[..., Any], Callable[[Any], bytes]] | None:
    """The real renderers if they are importable and complete, else None (cached)."""
    try:
        module = importlib.import_module("renderers")
    except ImportError:
        return None
    parts = [getattr(module, n, None) for n in ("render_table", "render_hand", "to_png")]
    if not all(callable(p) for p in parts):
        return None
    table, hand, png = parts
    assert table is not None and hand is not None and png is not None
    return table, hand, png


def table_png(view: SeatView) -> bytes:
    """The public table as a PNG (give it ``table_view``: never a seat's view)."""
    real = _renderers()
    if real is not None:
        return real[2](real[0](view, None))
    return _to_png(_draw_table(view))


def hand_png(view: SeatView) -> bytes:
    """One seat's hand as a PNG, for that player only (a DM or an ephemeral answer)."""
    real = _renderers()
    if real is not None:
        return real[2](real[1](view, None))
    return _to_png(_draw_hand(view))


# ---------------------------------------------------------------------- the fallback drawing


@functools.cache
def _font() -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    return ImageFont.load_default()


def _canvas(height: int) -> Image.Image:
    image = Image.new("P", (WIDTH, height), FELT)
    image.putpalette(_PALETTE)
    return image


def _to_png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def _train_label(view: SeatView, train: TrainView) -> str:
    if train.is_mexican:
        label = "Mexican Train"
    else:
        label = f"@{train.owner + 1} {view.names[train.owner]}"
        if view.current == train.owner:
            label = "> " + label
    return label


def _tiles_height(count: int) -> int:
    per_line = max(1, (WIDTH - 2 * MARGIN - 170) // (TILE_W + GAP))
    lines = max(1, -(-count // per_line))
    return lines * (TILE_H + GAP)


def _draw_tiles(
    draw: ImageDraw.ImageDraw, tiles: tuple[Tile, ...], x0: int, y: int, highlight: int = -1
) -> int:
    """Draw tiles left to right from (x0, y), wrapping; returns the y below the last line."""
    font = _font()
    x = x0
    shown = tiles[-MAX_TRAIN_TILES:]
    if len(tiles) > len(shown):
        draw.text((x, y + 5), f"+{len(tiles) - len(shown)}", fill=INK, font=font)
        x += 28
    for i, t in enumerate(shown):
        if x + TILE_W > WIDTH - MARGIN:
            x, y = x0, y + TILE_H + GAP
        outline = OPEN if i == highlight else EDGE
        draw.rounded_rectangle((x, y, x + TILE_W, y + TILE_H), 4, fill=TILE_FILL, outline=outline)
        draw.text((x + 6, y + 5), str(t), fill=PIPS, font=font)
        x += TILE_W + GAP
    return y + TILE_H + GAP


def _draw_table(view: SeatView) -> Image.Image:
    rows = len(view.trains)
    hands = [
        (s, h) for s, h in enumerate(view.visible_hands) if h is not None and view.seat is None
    ]
    height = MARGIN * 2 + LINE * 2
    height += sum(_tiles_height(len(t.tiles[-MAX_TRAIN_TILES:]) + 1) + 6 for t in view.trains)
    height += sum(LINE + _tiles_height(len(h)) for _, h in hands)
    # Estimates err on the tall side; the picture is cropped to what was drawn.
    image = _canvas(height + 4 * LINE)
    draw = ImageDraw.Draw(image)
    font = _font()
    head = (
        f"Round {view.round_no + 1}/{view.rounds_total}   Engine {view.engine}   "
        f"Boneyard {view.boneyard_count}"
    )
    draw.text((MARGIN, MARGIN), head, fill=INK, font=font)
    counts = "   ".join(
        f"{name}: {n} tile{'s' if n != 1 else ''}"
        for name, n in zip(view.names, view.hand_counts, strict=True)
    )
    draw.text((MARGIN, MARGIN + 14), counts, fill=INK, font=font)
    y = MARGIN + LINE + 14
    for train in view.trains[:rows]:
        label = _train_label(view, train)
        draw.text((MARGIN, y + 5), label[:24], fill=INK, font=font)
        x = MARGIN + 150
        if train.marked:
            draw.ellipse((x - 16, y + 5, x - 4, y + 17), fill=MARK)
        if not train.tiles:
            draw.text((x, y + 5), f"(starts from {train.end})", fill=INK, font=font)
            y += TILE_H + GAP + 6
            continue
        highlight = len(train.tiles[-MAX_TRAIN_TILES:]) - 1 if train.open_double is not None else -1
        y = _draw_tiles(draw, train.tiles, x, y, highlight) + 6
    for seat, hand in hands:
        draw.text((MARGIN, y + 5), f"{view.names[seat]}'s hand (open hands)", fill=INK, font=font)
        y = _draw_tiles(draw, hand, MARGIN, y + LINE)
    return image.crop((0, 0, WIDTH, y + MARGIN))


def _draw_hand(view: SeatView) -> Image.Image:
    hand = view.hand or ()
    playable = {m.tile for m in view.legal if isinstance(m, Play)}
    height = MARGIN * 2 + LINE + _tiles_height(len(hand) + 4)
    image = _canvas(height)
    draw = ImageDraw.Draw(image)
    who = view.names[view.seat] if view.seat is not None else "?"
    draw.text(
        (MARGIN, MARGIN),
        f"{who}'s hand: {len(hand)} tiles   Engine {view.engine}",
        fill=INK,
        font=_font(),
    )
    y, x = MARGIN + LINE, MARGIN
    for t in sorted(hand, reverse=True):
        if x + TILE_W > WIDTH - MARGIN:
            x, y = MARGIN, y + TILE_H + GAP
        outline = MARK if t in playable else EDGE
        draw.rounded_rectangle(
            (x, y, x + TILE_W, y + TILE_H), 4, fill=TILE_FILL, outline=outline, width=2
        )
        draw.text((x + 6, y + 5), str(t), fill=PIPS, font=_font())
        x += TILE_W + GAP
    return image
