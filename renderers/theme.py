"""Colours for Discord's dark and light themes, the seat identities and the numbers' inks.

Each seat gets a colour *and* a shape, so the shape alone tells seats apart; the ten colours
were searched for (``docs/pictures.md``, "Colours") so that any two stay apart by a CIEDE2000
distance of 20 or more in normal vision and 10 or more under simulated deuteranopia,
protanopia and tritanopia (Machado 2009), that none comes near the last-move ring (the
theme's text colour) or the amber of open doubles, and that each keeps a 2:1 contrast on
both themes' lanes (a dark ring around every glyph and pill does the rest).
``tests/renderers/test_colours.py`` measures all of it with ``colour-science``.

Numbers are read from their numerals; hue is a second cue. Six inks, each dark enough for
4.5:1 on the ivory face and as far apart as seats are, are shared so that two numbers of one
ink are never neighbours nor easily mistaken for each other (1 and 7, 6 and 9, 3 and 8 never
share); the blank's ``0`` is grey. Every text colour of a theme keeps 4.5:1 (WCAG AA) on the
ground it is drawn on, which the renderers report and the tests check.
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
    #: Open doubles, playable tiles, your train plan, a last tile; all readable as text.
    open_double: RGB
    #: The ring around the last tile played: the theme's text colour, which no seat is near.
    last_move: RGB
    playable: RGB
    plan: RGB
    danger: RGB
    #: The bars of the statistics chart (a game not won).
    bar: RGB


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
    last_move=hex_rgb("#F2F3F5"),
    playable=hex_rgb("#2DC770"),
    plan=hex_rgb("#C77DFF"),
    danger=hex_rgb("#FF6B6B"),
    bar=hex_rgb("#00A8FC"),
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
    open_double=hex_rgb("#A85A00"),
    last_move=hex_rgb("#060607"),
    playable=hex_rgb("#147A3E"),
    plan=hex_rgb("#8A2BE2"),
    danger=hex_rgb("#C42B30"),
    bar=hex_rgb("#006CE7"),
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


#: Seat identities: colour + shape, up to 10 seats (docs/rules.md allows 2-10 players). The
#: first four (the common 2-4 player games) are the most saturated.
SEAT_COLOURS: tuple[RGB, ...] = tuple(
    hex_rgb(c)
    for c in (
        "#E00040",  # crimson
        "#3040F0",  # royal blue
        "#00C0B0",  # turquoise
        "#606000",  # olive
        "#E090F0",  # orchid
        "#6090B0",  # steel blue
        "#B00090",  # magenta
        "#A0B070",  # sage
        "#008050",  # green
        "#908080",  # taupe
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


#: The six inks numbers are told apart by, after their numerals (see the module's docstring).
NUMBER_INKS: tuple[RGB, ...] = tuple(
    hex_rgb(c)
    for c in (
        "#D81070",  # raspberry
        "#184088",  # navy
        "#288030",  # green
        "#9820E0",  # violet
        "#782800",  # brown
        "#111111",  # black
    )
)
#: The blank's grey ``0``.
BLANK_INK: RGB = hex_rgb("#666666")
#: Which ink each number 1-18 takes (index into :data:`NUMBER_INKS`): numbers sharing an ink
#: are never neighbours, and never a pair read for each other (1/7, 3/8, 6/9, 5/6, 1/4).
_INK_OF = (0, 1, 2, 3, 4, 5, 4, 5, 0, 1, 2, 3, 2, 5, 4, 3, 0, 1)


def number_ink(n: int) -> RGB:
    """The colour of ``n``'s numeral (and pips) on a tile face; 0 is the grey blank."""
    if n <= 0:
        return BLANK_INK
    return NUMBER_INKS[_INK_OF[(n - 1) % len(_INK_OF)]]


#: How far a pip's ink fades toward the tile face: pips are the second cue, the numeral first.
PIP_FADE = 0.45


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` moved ``t`` of the way to ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


#: Inks the renderers put on coloured pills and badges (see :func:`readable_on`).
INK_DARK: RGB = (16, 16, 18)
INK_LIGHT: RGB = (255, 255, 255)


def luminance(colour: RGB) -> float:
    """WCAG 2 relative luminance of an sRGB colour."""

    def lin(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = colour
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def contrast(a: RGB, b: RGB) -> float:
    """WCAG 2 contrast ratio (1-21) of two colours: what the renderers aim by when they
    pick an ink; the tests measure the pictures independently of it."""
    la, lb = sorted((luminance(a), luminance(b)))
    return (lb + 0.05) / (la + 0.05)


def readable_on(colour: RGB) -> RGB:
    """The dark or the light ink, whichever contrasts more with ``colour`` (at least 4.5:1
    for any colour: the worst case, mid-grey, still gives 4.6:1 with one of them)."""
    return INK_DARK if contrast(INK_DARK, colour) >= contrast(INK_LIGHT, colour) else INK_LIGHT


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
        th.open_double, th.last_move, th.playable, th.plan, th.danger, th.bar, BLANK_INK,
        INK_DARK, INK_LIGHT, MEXICAN_COLOUR, MEXICAN_DISC, (24, 24, 24),
        mix(th.background, th.playable, 0.18), mix(th.background, th.plan, 0.14),
        *SEAT_COLOURS, *NUMBER_INKS,
    ]  # fmt: skip
    faded = [mix(c, th.tile_face, PIP_FADE) for c in (*NUMBER_INKS, BLANK_INK)]
    ramps: list[RGB] = []
    for ground in (th.lane, th.background):
        ramps += _ramp(ground, th.text, 6) + _ramp(ground, th.muted, 4)
    ramps += _ramp(th.tile_face, th.tile_ink, 6) + _ramp(th.tile_face, th.tile_edge, 3)
    ramps += _ramp(th.tile_face, th.divider, 2) + _ramp(th.lane, th.tile_edge, 2)
    ramps += _ramp(th.tile_shadow, th.lane, 2) + _ramp(th.tile_edge, th.tile_shadow, 1)
    for c in (*NUMBER_INKS, BLANK_INK):
        ramps += _ramp(th.tile_face, c, 3)
    for c in SEAT_COLOURS:
        ramps += _ramp(th.glyph_edge, c, 2) + _ramp(th.lane, c, 1)
        ramps += _ramp(c, readable_on(c), 2)
    for accent in (th.open_double, th.last_move, th.playable, th.plan, th.danger):
        ramps += _ramp(th.lane, accent, 2) + _ramp(th.background, accent, 1)
    ramps += _ramp(th.open_double, readable_on(th.open_double), 3)
    ramps += _ramp(th.playable, readable_on(th.playable), 3)
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
