"""Colours for Discord's dark and light themes, and the seat identities.

Each seat gets a colour *and* a shape (colour-blind safe: the shape alone tells seats apart);
the colours start from the Okabe-Ito palette. Pip colours follow the habit of double-12 sets
(every number its own colour), tuned to stand out on an ivory face; the layouts differ anyway.
"""

from __future__ import annotations

import dataclasses

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


#: Seat identities: colour + shape, up to 10 seats (RULES.md allows 2-10 players).
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
#: The Mexican Train's marker is a black engine (RULES.md, "Flavour").
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
