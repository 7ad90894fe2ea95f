"""Drawing primitives: anti-aliased shapes, seat glyphs, icons and domino tiles.

Pillow's shape drawing is not anti-aliased, so every curved thing is drawn four times larger
into a mask, scaled down, and cached: a render pastes a few dozen cached sprites instead of
drawing hundreds of pips. Sprites are keyed by everything that changes their pixels, so the
cache never changes what an image looks like, only how fast it is made.
"""

from __future__ import annotations

import functools
import math
from typing import Literal

from PIL import Image, ImageDraw

from renderers import text
from renderers.theme import PIP_FADE, RGB, Theme, mix, number_ink, readable_on

SS = 4  # supersampling factor for sprites

Box = tuple[int, int, int, int]


#: Lanczos rings a little inside a filled shape (coverage 250-254 where it should be 255):
#: snapped to full, so a glyph or pill is one flat colour that the palette keeps exactly.
_SOLID = [v if v < 250 else 255 for v in range(256)]


def _down(img: Image.Image, size: tuple[int, int]) -> Image.Image:
    small = img.resize(size, Image.Resampling.LANCZOS)
    return small.point(_SOLID) if small.mode == "L" else small


@functools.lru_cache(maxsize=512)
def rounded_mask(w: int, h: int, radius: int, ring: int = 0) -> Image.Image:
    """An anti-aliased rounded rectangle mask (``ring`` > 0: only an outline that thick)."""
    big = Image.new("L", (w * SS, h * SS), 0)
    d = ImageDraw.Draw(big)
    d.rounded_rectangle((0, 0, w * SS - 1, h * SS - 1), radius * SS, fill=255)
    if ring:
        r2 = max(0, radius - ring) * SS
        d.rounded_rectangle(
            (ring * SS, ring * SS, (w - ring) * SS - 1, (h - ring) * SS - 1), r2, fill=0
        )
    return _down(big, (w, h))


@functools.lru_cache(maxsize=256)
def _corner(radius: int, ring: int) -> Image.Image:
    """The top-left corner of :func:`rounded_mask`, ``radius`` px square."""
    return rounded_mask(2 * radius + 2, 2 * radius + 2, radius, ring).crop((0, 0, radius, radius))


def rounded(
    img: Image.Image,
    box: Box,
    radius: int,
    fill: RGB | None = None,
    outline: RGB | None = None,
    width: int = 0,
) -> None:
    """A rounded rectangle with anti-aliased corners.

    Only the four corners go through a mask; the straight parts are plain fills, which keeps
    big boxes (a lane is 768 px wide) cheap.
    """
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if w <= 0 or h <= 0:
        return
    r = max(1, min(radius, w // 2, h // 2))
    draw = ImageDraw.Draw(img)

    def rect(a: int, b: int, c: int, e: int, colour: RGB) -> None:
        if c >= a and e >= b:
            draw.rectangle((a, b, c, e), fill=colour)

    corners = ((x0, y0), (x1 - r, y0), (x0, y1 - r), (x1 - r, y1 - r))
    flips = (None, Image.Transpose.FLIP_LEFT_RIGHT, Image.Transpose.FLIP_TOP_BOTTOM,
             Image.Transpose.ROTATE_180)  # fmt: skip
    if fill is not None:
        rect(x0 + r, y0, x1 - r - 1, y1 - 1, fill)
        rect(x0, y0 + r, x0 + r - 1, y1 - r - 1, fill)
        rect(x1 - r, y0 + r, x1 - 1, y1 - r - 1, fill)
        for (cx, cy), flip in zip(corners, flips, strict=True):
            img.paste(fill, (cx, cy), _flipped(r, 0, flip))
    if outline is not None and width:
        rect(x0 + r, y0, x1 - r - 1, y0 + width - 1, outline)
        rect(x0 + r, y1 - width, x1 - r - 1, y1 - 1, outline)
        rect(x0, y0 + r, x0 + width - 1, y1 - r - 1, outline)
        rect(x1 - width, y0 + r, x1 - 1, y1 - r - 1, outline)
        for (cx, cy), flip in zip(corners, flips, strict=True):
            img.paste(outline, (cx, cy), _flipped(r, width, flip))


@functools.lru_cache(maxsize=512)
def _flipped(radius: int, ring: int, flip: Image.Transpose | None) -> Image.Image:
    corner = _corner(radius, ring)
    return corner if flip is None else corner.transpose(flip)


def _polygon(
    cx: float, cy: float, r: float, n: int, rot: float = -90.0
) -> list[tuple[float, float]]:
    return [
        (
            cx + r * math.cos(math.radians(rot + 360 * i / n)),
            cy + r * math.sin(math.radians(rot + 360 * i / n)),
        )
        for i in range(n)
    ]


def _shape(d: ImageDraw.ImageDraw, shape: str, c: float, r: float, fill: int) -> None:
    """Draw ``shape`` centred at (c, c) with radius ``r`` on a big mask."""
    if shape == "circle":
        d.ellipse((c - r, c - r, c + r, c + r), fill=fill)
    elif shape == "square":
        q = r * 0.86
        d.rectangle((c - q, c - q, c + q, c + q), fill=fill)
    elif shape == "triangle":
        d.polygon(_polygon(c, c + r * 0.18, r * 1.12, 3), fill=fill)
    elif shape == "triangle_down":
        d.polygon(_polygon(c, c - r * 0.18, r * 1.12, 3, 90), fill=fill)
    elif shape == "diamond":
        d.polygon(_polygon(c, c, r * 1.08, 4), fill=fill)
    elif shape == "hexagon":
        d.polygon(_polygon(c, c, r, 6, 0), fill=fill)
    elif shape == "star":
        pts = []
        for i in range(10):
            rr = r * 1.12 if i % 2 == 0 else r * 0.48
            a = math.radians(-90 + 36 * i)
            pts.append((c + rr * math.cos(a), c + 0.08 * r + rr * math.sin(a)))
        d.polygon(pts, fill=fill)
    elif shape == "plus":
        t = r * 0.36
        d.rectangle((c - t, c - r, c + t, c + r), fill=fill)
        d.rectangle((c - r, c - t, c + r, c + t), fill=fill)
    elif shape == "cross":
        t = r * 0.36
        for sign in (1, -1):
            pts = []
            for dx, dy in ((-t, -r * 1.2), (t, -r * 1.2), (t, r * 1.2), (-t, r * 1.2)):
                a = math.radians(45 * sign)
                pts.append(
                    (
                        c + dx * math.cos(a) - dy * math.sin(a),
                        c + dx * math.sin(a) + dy * math.cos(a),
                    )
                )
            d.polygon(pts, fill=fill)
    elif shape == "heart":
        q = r * 0.55
        d.ellipse((c - 2 * q, c - r * 0.85, c, c - r * 0.85 + 2 * q), fill=fill)
        d.ellipse((c, c - r * 0.85, c + 2 * q, c - r * 0.85 + 2 * q), fill=fill)
        d.polygon(
            [(c - 2 * q + r * 0.03, c - r * 0.2), (c + 2 * q - r * 0.03, c - r * 0.2), (c, c + r)],
            fill=fill,
        )
    elif shape == "loco":
        _loco(d, c, r, fill)
    else:
        raise ValueError(f"unknown shape {shape!r}")


def _loco(d: ImageDraw.ImageDraw, c: float, r: float, fill: int) -> None:
    """A little steam engine facing right: the game's train marker."""
    u = r / 10
    x0, y0 = c - 10 * u, c - 10 * u
    cut = 255 - fill
    d.rounded_rectangle((x0, y0 + 1 * u, x0 + 7.5 * u, y0 + 13 * u), 1.2 * u, fill=fill)  # cab
    d.rectangle((x0 - 0.8 * u, y0 - 0.2 * u, x0 + 8.3 * u, y0 + 1.6 * u), fill=fill)  # roof
    d.rectangle((x0 + 1.8 * u, y0 + 3 * u, x0 + 5.7 * u, y0 + 6.8 * u), fill=cut)  # window
    d.rounded_rectangle((x0 + 6.5 * u, y0 + 5.5 * u, x0 + 19 * u, y0 + 13 * u), 2 * u, fill=fill)
    d.polygon(
        [(x0 + 12.5 * u, y0 + 5.8 * u), (x0 + 11.8 * u, y0 + 1 * u), (x0 + 16.2 * u, y0 + 1 * u),
         (x0 + 15.5 * u, y0 + 5.8 * u)], fill=fill,
    )  # fmt: skip
    d.polygon(
        [(x0 + 18 * u, y0 + 13 * u), (x0 + 21 * u, y0 + 18.5 * u), (x0 + 17 * u, y0 + 18.5 * u)],
        fill=fill,
    )  # cow-catcher
    for wx, wr in ((x0 + 4 * u, 3.6 * u), (x0 + 11 * u, 2.7 * u), (x0 + 16 * u, 2.7 * u)):
        cy = y0 + 18.6 * u - wr
        d.ellipse((wx - wr - 1.1 * u, cy - wr - 1.1 * u, wx + wr + 1.1 * u, cy + wr + 1.1 * u),
                  fill=cut)  # fmt: skip
        d.ellipse((wx - wr, cy - wr, wx + wr, cy + wr), fill=fill)


@functools.lru_cache(maxsize=256)
def shape_mask(shape: str, size: int, grow: float = 0.0) -> Image.Image:
    """A ``size`` px square mask of a glyph; ``grow`` fattens it (for an outline)."""
    big = Image.new("L", (size * SS, size * SS), 0)
    d = ImageDraw.Draw(big)
    c = size * SS / 2
    r = size * SS * 0.40 + grow * SS
    _shape(d, shape, c, r, 255)
    return _down(big, (size, size))


def glyph(
    img: Image.Image, shape: str, xy: tuple[int, int], size: int, fill: RGB, edge: RGB
) -> None:
    """A seat glyph centred at ``xy`` with a 2 px ``edge`` so any colour reads on any lane."""
    x, y = xy[0] - size // 2, xy[1] - size // 2
    img.paste(edge, (x, y), shape_mask(shape, size, 2.0))
    img.paste(fill, (x, y), shape_mask(shape, size))


@functools.lru_cache(maxsize=64)
def robot_mask(size: int) -> Image.Image:
    big = Image.new("L", (size * SS, size * SS), 0)
    d = ImageDraw.Draw(big)
    u = size * SS / 16
    d.rounded_rectangle((2 * u, 4 * u, 14 * u, 13 * u), 2.5 * u, fill=255)  # head
    d.rectangle((7.3 * u, 1.5 * u, 8.7 * u, 4 * u), fill=255)  # antenna
    d.ellipse((6.5 * u, 0.2 * u, 9.5 * u, 3.2 * u), fill=255)
    d.rectangle((0.5 * u, 7 * u, 2 * u, 10 * u), fill=255)  # ears
    d.rectangle((14 * u, 7 * u, 15.5 * u, 10 * u), fill=255)
    d.ellipse((4.5 * u, 6.5 * u, 7 * u, 9 * u), fill=0)  # eyes
    d.ellipse((9 * u, 6.5 * u, 11.5 * u, 9 * u), fill=0)
    d.rectangle((5.5 * u, 10.5 * u, 10.5 * u, 11.3 * u), fill=0)  # mouth
    return _down(big, (size, size))


@functools.lru_cache(maxsize=64)
def trophy_mask(size: int) -> Image.Image:
    big = Image.new("L", (size * SS, size * SS), 0)
    d = ImageDraw.Draw(big)
    u = size * SS / 16
    d.pieslice((3 * u, -4 * u, 13 * u, 10 * u), 0, 180, fill=255)  # cup
    d.rectangle((3 * u, 1 * u, 13 * u, 3 * u), fill=255)
    d.ellipse((0.5 * u, 2 * u, 4.5 * u, 7 * u), outline=255, width=round(1.3 * u))  # handles
    d.ellipse((11.5 * u, 2 * u, 15.5 * u, 7 * u), outline=255, width=round(1.3 * u))
    d.rectangle((7 * u, 9 * u, 9 * u, 12.5 * u), fill=255)  # stem
    d.rectangle((4 * u, 12.5 * u, 12 * u, 15 * u), fill=255)  # base
    return _down(big, (size, size))


def icon(img: Image.Image, mask: Image.Image, xy: tuple[int, int], fill: RGB) -> None:
    img.paste(fill, (xy[0] - mask.width // 2, xy[1] - mask.height // 2), mask)


# ---------------------------------------------------------------- dominoes

#: The pip rows of a half (unit square): pips sit in a row along the top and one along the
#: bottom edge, up to six each, so the numeral in the middle is never crossed by one.
PIP_ROWS = (0.13, 0.87)
PIP_SPAN = (0.17, 0.83)
PIP_R = 0.058


def pip_layout(n: int) -> tuple[tuple[float, float], ...]:
    """Pip centres for 0-12 in a unit square (x, y): ``ceil(n/2)`` along the top edge and the
    rest along the bottom, each row centred; 13 and above have none (numerals only)."""
    if not 0 < n <= 12:
        return ()
    top = (n + 1) // 2
    out: list[tuple[float, float]] = []
    for count, y in ((top, PIP_ROWS[0]), (n - top, PIP_ROWS[1])):
        if count == 0:
            continue
        lo, hi = PIP_SPAN
        step = (hi - lo) / 5  # six places across; fewer pips keep the same spacing, centred
        x0 = 0.5 - step * (count - 1) / 2
        out += [(x0 + i * step, y) for i in range(count)]
    return tuple(out)


#: How tiles show their numbers: ``pips`` (pips with the numeral over them, the default) or
#: ``numerals`` (a big black numeral only: high contrast for small screens and weak eyes).
TILE_MODES = ("pips", "numerals")
TileMode = Literal["pips", "numerals"]


def tile_mode(mode: str) -> TileMode:
    if mode == "pips":
        return "pips"
    if mode == "numerals":
        return "numerals"
    raise ValueError(f"there is no tile mode {mode!r}: choose {' or '.join(TILE_MODES)}")


@functools.lru_cache(maxsize=256)
def numeral_px(s: int, n: int, mode: TileMode) -> int:
    """The font size of ``n``'s numeral on a tile half of side ``s``: as large as the mode
    allows while two digits keep clear of the line between the halves (0.86 of the side), or,
    on the smallest tiles, at 18 px (9 px on a phone) while they still fit the half."""
    want = round(s * (0.6 if mode == "pips" else 0.74))
    label = str(n)
    while want > 18 and text.width(label, want, "bold") > s * 0.86:
        want -= 1
    while want > 8 and text.width(label, want, "bold") > s * 0.94:
        want -= 1
    return want


def half_layout(
    s: int, n: int, mode: TileMode
) -> tuple[tuple[float, float, float, float], tuple[tuple[float, float, float, float], ...]]:
    """Where a half of side ``s`` px draws ``n``: the numeral's ink box and each pip's box, in
    px from the half's top-left. The pips' rows lie outside the numeral's box by construction
    (``tests/renderers/test_colours.py`` checks every number at every tile size)."""
    size = numeral_px(s, n, mode)
    f = text.main_font(size, "bold")
    cx, cy = s / 2, s / 2 + size * 0.04
    left, top, right, bottom = f.getbbox(str(n), anchor="mm")
    numeral = (cx + left, cy + top, cx + right, cy + bottom)
    if mode == "numerals":
        return numeral, ()
    r = s * PIP_R
    pips = tuple((px * s - r, py * s - r, px * s + r, py * s + r) for px, py in pips_at(s, n))
    return numeral, pips


#: Below this half-side (px) pips would be specks a phone cannot show: numerals only.
MIN_PIP_HALF = 36


def pips_at(s: int, n: int) -> tuple[tuple[float, float], ...]:
    """The pips a half of side ``s`` px draws for ``n`` (none on small tiles)."""
    return pip_layout(n) if s >= MIN_PIP_HALF else ()


def _draw_half(
    d: ImageDraw.ImageDraw, x: float, y: float, s: float, n: int, theme: Theme, mode: TileMode
) -> None:
    """The half of side ``s`` (supersampled) at (x, y) showing ``n``.

    ``pips``: the numeral in its number's ink on a clear face, and the pips, faded, in a row
    along the top and bottom edges: the count still reads as a domino, and nothing crosses
    the numeral. ``numerals``: the numeral alone, larger and in near-black.
    """
    half = round(s / SS)
    size = numeral_px(half, n, mode) * SS
    f = text.main_font(size, "bold")
    centre = (x + s / 2, y + s / 2 + size * 0.04)
    if mode == "numerals":
        d.text(centre, str(n), font=f, fill=(*theme.tile_ink, 255), anchor="mm")
        return
    colour = number_ink(n)
    faded = (*mix(colour, theme.tile_face, PIP_FADE), 255)
    r = s * PIP_R
    for px, py in pips_at(half, n):
        cx, cy = x + px * s, y + py * s
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=faded)
    d.text(centre, str(n), font=f, fill=(*colour, 255), anchor="mm")


@functools.lru_cache(maxsize=2048)
def tile_sprite(
    theme: Theme, s: int, a: int, b: int, vertical: bool, mode: TileMode = "pips"
) -> Image.Image:
    """A domino of half-side ``s``: ``a`` on the left (top), ``b`` on the right (bottom).

    The sprite is ``2s x s`` (``s x 2s`` vertical) plus 2 px of drop shadow below.
    """
    w, h = (s, 2 * s) if vertical else (2 * s, s)
    shadow = 2
    big = Image.new("RGBA", (w * SS, (h + shadow) * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    rad = s * SS * 0.16
    d.rounded_rectangle(
        (0, shadow * SS, w * SS - 1, (h + shadow) * SS - 1), rad, fill=(*theme.tile_shadow, 255)
    )
    d.rounded_rectangle(
        (0, 0, w * SS - 1, h * SS - 1), rad, fill=(*theme.tile_face, 255),
        outline=(*theme.tile_edge, 255), width=max(SS, round(SS * s / 40)),
    )  # fmt: skip
    ss = s * SS
    line = max(SS, round(SS * s / 30))
    divider = theme.divider
    if mode == "numerals":
        # Bare numerals need a firm line between the halves, or 15|3 reads as 1|53.
        line, divider = max(2 * SS, round(SS * s / 16)), theme.tile_edge
    if vertical:
        d.line((ss * 0.16, ss, ss * 0.84, ss), fill=(*divider, 255), width=line)
        _draw_half(d, 0, 0, ss, a, theme, mode)
        _draw_half(d, 0, ss, ss, b, theme, mode)
    else:
        d.line((ss, ss * 0.16, ss, ss * 0.84), fill=(*divider, 255), width=line)
        _draw_half(d, 0, 0, ss, a, theme, mode)
        _draw_half(d, ss, 0, ss, b, theme, mode)
    return _down(big, (w, h + shadow))


def paste_tile(
    img: Image.Image,
    xy: tuple[int, int],
    theme: Theme,
    s: int,
    a: int,
    b: int,
    vertical: bool,
    mode: TileMode = "pips",
) -> None:
    """Paste a cached tile sprite, and report its two numerals as drawn text."""
    sprite = tile_sprite(theme, s, a, b, vertical, mode)
    img.alpha_composite(sprite, xy) if img.mode == "RGBA" else img.paste(sprite, xy, sprite)
    for n in (a, b):
        ink = theme.tile_ink if mode == "numerals" else number_ink(n)
        text.note(numeral_px(s, n, mode), str(n), ink, theme.tile_face)


@functools.lru_cache(maxsize=64)
def tile_back(theme: Theme, s: int) -> Image.Image:
    """A face-down tile (the boneyard's icon)."""
    w, h = s, 2 * s
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.rounded_rectangle((0, 0, w * SS - 1, h * SS - 1), s * SS * 0.18, fill=(*theme.muted, 255))
    d.rounded_rectangle(
        (s * SS * 0.18, s * SS * 0.18, (w - s * 0.18) * SS, (h - s * 0.18) * SS),
        s * SS * 0.1,
        outline=(*theme.background, 255),
        width=SS * 2,
    )
    return _down(big, (w, h))


def badge(img: Image.Image, xy: tuple[int, int], label: str, fill: RGB, size: int = 18) -> None:
    """A filled circle with a short label (an open double's order) centred at ``xy``."""
    r = round(size * 0.8)
    x, y = xy
    img.paste(fill, (x - r, y - r), rounded_mask(2 * r, 2 * r, r))
    d = ImageDraw.Draw(img)
    text.draw(d, (x, y), label, size, readable_on(fill), "bold", "mm")
