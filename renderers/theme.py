"""Colours for Discord's dark and light themes, and the seat identities.

Each seat gets a colour *and* a shape (colour-blind safe: the shape alone tells seats apart);
the colours start from the Okabe-Ito palette. Pip colours follow the habit of double-12 sets
(every number its own colour), tuned to stand out on an ivory face; the layouts differ anyway.
"""

from __future__ import annotations

import dataclasses
import functools

RGB = tuple[int, int, int]


def hex_rgb(code: str) -> RGB:
    code = code.lstrip("#")
    return (int(code[0:2], 16), int(code[2:4], 16), int(code[4:6], 16))


@dataclasses.dataclass(frozen=True, slots=True)
class Theme:
    name: str
    background: RGB
    lane: RGB
    lane_edge: RGB
    text: RGB
    muted: RGB
    rail: RGB
    tile_face: RGB
    tile_edge: RGB
    tile_shadow: RGB
    #: The numerals of the high-contrast ``numerals`` tile mode.
    tile_ink: RGB
    divider: RGB
    chip: RGB
    #: The outline around seat glyphs, so yellow reads on white and blue on grey.
    glyph_edge: RGB
    #: Open doubles, the last move, playable tiles, your train plan.
    open_double: RGB
    last_move: RGB
    playable: RGB
    plan: RGB
    danger: RGB


DARK = Theme(
    name="dark",
    background=hex_rgb("#313338"),
    lane=hex_rgb("#2B2D31"),
    lane_edge=hex_rgb("#3F4147"),
    text=hex_rgb("#F2F3F5"),
    muted=hex_rgb("#B5BAC1"),
    rail=hex_rgb("#4E5058"),
    tile_face=hex_rgb("#FBF7EC"),
    tile_edge=hex_rgb("#111214"),
    tile_shadow=hex_rgb("#1E1F22"),
    tile_ink=hex_rgb("#0B0B0C"),
    divider=hex_rgb("#9A9488"),
    chip=hex_rgb("#404249"),
    glyph_edge=hex_rgb("#111214"),
    open_double=hex_rgb("#F0B232"),
    last_move=hex_rgb("#00A8FC"),
    playable=hex_rgb("#23A55A"),
    plan=hex_rgb("#C77DFF"),
    danger=hex_rgb("#F23F43"),
)

LIGHT = Theme(
    name="light",
    background=hex_rgb("#FFFFFF"),
    lane=hex_rgb("#F2F3F5"),
    lane_edge=hex_rgb("#E3E5E8"),
    text=hex_rgb("#060607"),
    muted=hex_rgb("#4E5058"),
    rail=hex_rgb("#C4C9CE"),
    tile_face=hex_rgb("#FFFDF6"),
    tile_edge=hex_rgb("#5C5E66"),
    tile_shadow=hex_rgb("#C4C9CE"),
    tile_ink=hex_rgb("#0B0B0C"),
    divider=hex_rgb("#A8A294"),
    chip=hex_rgb("#E3E5E8"),
    glyph_edge=hex_rgb("#4E5058"),
    open_double=hex_rgb("#D97706"),
    last_move=hex_rgb("#006CE7"),
    playable=hex_rgb("#1A8D4A"),
    plan=hex_rgb("#8A2BE2"),
    danger=hex_rgb("#DA373C"),
)

THEMES: dict[str, Theme] = {"dark": DARK, "light": LIGHT}


def theme(name_or_theme: str | Theme) -> Theme:
    if isinstance(name_or_theme, Theme):
        return name_or_theme
    try:
        return THEMES[name_or_theme]
    except KeyError:
        raise ValueError(
            f"there is no theme {name_or_theme!r}: choose {' or '.join(THEMES)}"
        ) from None


#: Seat identities: colour + shape, up to 10 seats (docs/rules.md allows 2-10 players).
SEAT_COLOURS: tuple[RGB, ...] = tuple(
    hex_rgb(c)
    for c in (
        "#E69F00",  # orange
        "#56B4E9",  # sky blue
        "#009E73",  # bluish green
        "#F0E442",  # yellow
        "#0072B2",  # blue
        "#D55E00",  # vermilion
        "#CC79A7",  # reddish purple
        "#A6761D",  # ochre brown
        "#B0B7C0",  # silver
        "#7FC97F",  # light green
    )
)
SEAT_SHAPES: tuple[str, ...] = (
    "circle",
    "square",
    "triangle",
    "diamond",
    "star",
    "plus",
    "triangle_down",
    "hexagon",
    "heart",
    "cross",
)
#: The Mexican Train's marker is a black engine (docs/rules.md, "Flavour").
MEXICAN_COLOUR: RGB = (20, 20, 22)


def seat_colour(seat: int) -> RGB:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def seat_shape(seat: int) -> str:
    return SEAT_SHAPES[seat % len(SEAT_SHAPES)]


#: Pip colours by number, 1-18 (13+ are drawn as numerals in these colours).
PIP_COLOURS: tuple[RGB, ...] = tuple(
    hex_rgb(c)
    for c in (
        "#000000",  # 0: blank, unused
        "#1C7ED6",
        "#2F9E44",
        "#E03131",
        "#8B4513",
        "#1B3F8B",
        "#D9480F",
        "#9C36B5",
        "#0B7A5B",
        "#3B5BDB",
        "#C2255C",
        "#5C7A0D",
        "#2B2D31",
        "#1864AB",
        "#A61E4D",
        "#2B8A3E",
        "#862E9C",
        "#C92A2A",
        "#212529",
    )
)


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` moved ``t`` of the way to ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def readable_on(colour: RGB) -> RGB:
    """Black or white, whichever reads on ``colour``."""
    r, g, b = colour
    return (16, 16, 18) if 0.299 * r + 0.587 * g + 0.114 * b > 150 else (255, 255, 255)


#: Inks the renderers put on coloured pills and badges (see :func:`readable_on`).
INK_DARK: RGB = (16, 16, 18)
INK_LIGHT: RGB = (255, 255, 255)
#: The light disc behind the Mexican Train's black engine.
MEXICAN_DISC: RGB = (236, 236, 236)


def _ramp(a: RGB, b: RGB, steps: int) -> list[RGB]:
    """``steps`` colours strictly between ``a`` and ``b``: the anti-aliased edge between them."""
    return [mix(a, b, k / (steps + 1)) for k in range(1, steps + 1)]


@functools.cache
def palette(th: Theme) -> tuple[RGB, ...]:
    """The theme's fixed 256-colour palette: every flat colour a picture uses, then the
    anti-aliasing ramps between the pairs that meet most (text on lanes, numerals and pips on
    tile faces, glyphs on lanes), most visible first.

    Every picture of a theme maps onto this one palette, so encoding needs no colour count and
    no palette search per image; an edge pixel between two colours with no ramp here takes
    its nearest entry, which at worst shifts a faint fringe by a shade.
    """
    flat: list[RGB] = [
        th.background, th.lane, th.lane_edge, th.text, th.muted, th.rail, th.tile_face,
        th.tile_edge, th.tile_shadow, th.tile_ink, th.divider, th.chip, th.glyph_edge,
        th.open_double, th.last_move, th.playable, th.plan, th.danger,
        INK_DARK, INK_LIGHT, MEXICAN_COLOUR, MEXICAN_DISC, (24, 24, 24),
        mix(th.background, th.playable, 0.18), mix(th.background, th.plan, 0.14),
        *SEAT_COLOURS, *PIP_COLOURS[1:],
    ]  # fmt: skip
    faded = [mix(c, th.tile_face, 0.55) for c in PIP_COLOURS[1:]]
    ramps: list[RGB] = []
    for ground in (th.lane, th.background):
        ramps += _ramp(ground, th.text, 6) + _ramp(ground, th.muted, 4)
    ramps += _ramp(th.tile_face, th.tile_ink, 6) + _ramp(th.tile_face, th.tile_edge, 3)
    ramps += _ramp(th.tile_face, th.divider, 2) + _ramp(th.lane, th.tile_edge, 2)
    ramps += _ramp(th.tile_shadow, th.lane, 2) + _ramp(th.tile_edge, th.tile_shadow, 1)
    for c in PIP_COLOURS[1:]:
        ramps += _ramp(th.tile_face, c, 3)
    for c in SEAT_COLOURS:
        ramps += _ramp(th.glyph_edge, c, 2) + _ramp(th.lane, c, 1)
        ramps += _ramp(c, readable_on(c), 2)
    for accent in (th.open_double, th.last_move, th.playable, th.plan, th.danger):
        ramps += _ramp(th.lane, accent, 2) + _ramp(th.background, accent, 1)
    ramps += _ramp(th.open_double, (24, 24, 24), 3) + _ramp(th.playable, INK_LIGHT, 3)
    ramps += _ramp(th.chip, th.text, 3) + _ramp(th.lane, th.rail, 2)
    for c in faded:
        ramps += _ramp(th.tile_face, c, 1)
    out: list[RGB] = []
    seen: set[RGB] = set()
    for c in [*flat, *faded, *ramps]:
        if c not in seen:
            seen.add(c)
            out.append(c)
    return tuple(out[:256])
