"""Colours measured, not guessed: seats and number inks told apart in normal and colour-deficient
vision, every text readable on its ground, pips never on a numeral, GIF frames in true colours.

Distances are CIEDE2000 and the colour-deficient views Machado et al. (2009) at full severity,
both from ``colour-science``; contrast is WCAG 2's ratio of relative luminances (the luminance
from ``colour-science`` too). Thresholds are issue 25's: 20 between any two seat colours (or
number inks) in normal vision, 10 under each simulated deficiency, 4.5:1 for every text.
"""

from __future__ import annotations

import io
import itertools
import warnings

import numpy as np
import pytest
from PIL import Image

from bot.engine import MEXICAN
from renderers import HandOptions, TableOptions, render_hand, render_table, text_inks
from renderers.chart import ChartGame, render_stats_chart
from renderers.paint import TILE_MODES, half_layout
from renderers.ratingchart import render_rating_chart
from renderers.replay import render_replay
from renderers.table import tile_size
from renderers.theme import (
    BLANK_INK,
    DARK,
    LIGHT,
    NUMBER_INKS,
    SEAT_COLOURS,
    THEMES,
    number_ink,
    seat_colour,
)
from tests.renderers.positions import built, match_over, playout, spectator

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # colour warns that SciPy and Matplotlib are absent
    import colour
    from colour.utilities import filter_warnings

    filter_warnings(colour_usage_warnings=True)

#: colour-science reminds that Machado's tritanomaly matrices come from a shift model, an
#: approximation of tritanopia (docs/pictures.md says so beside the figures).
pytestmark = pytest.mark.filterwarnings("ignore:.*Machado et al.*tritanomaly")

RGB = tuple[int, int, int]
DEFICIENCIES = ("Deuteranomaly", "Protanomaly", "Tritanomaly")
NORMAL_MIN, DEFICIENT_MIN, TEXT_MIN = 20.0, 10.0, 4.5
SRGB = colour.RGB_COLOURSPACES["sRGB"]


def lab(rgb: RGB, deficiency: str | None = None) -> np.ndarray:
    """CIE Lab of an sRGB colour, as seen with ``deficiency`` (Machado 2009, severity 1)."""
    linear = colour.cctf_decoding(np.asarray(rgb, dtype=float) / 255, function="sRGB")
    if deficiency is not None:
        matrix = colour.blindness.matrix_cvd_Machado2009(deficiency, 1.0)
        linear = np.clip(matrix @ linear, 0, 1)
    xyz = colour.RGB_to_XYZ(linear, SRGB, apply_cctf_decoding=False)
    return colour.XYZ_to_Lab(xyz, SRGB.whitepoint)


def delta_e(a: RGB, b: RGB, deficiency: str | None = None) -> float:
    return float(colour.delta_E(lab(a, deficiency), lab(b, deficiency), method="CIE 2000"))


def smallest(colours: list[RGB], deficiency: str | None = None) -> float:
    return min(delta_e(a, b, deficiency) for a, b in itertools.combinations(colours, 2))


def contrast(a: RGB, b: RGB) -> float:
    """WCAG 2 contrast ratio, from the relative luminance (CIE Y) of each sRGB colour."""
    ya, yb = (float(colour.sRGB_to_XYZ(np.asarray(c, dtype=float) / 255)[1]) for c in (a, b))
    return (max(ya, yb) + 0.05) / (min(ya, yb) + 0.05)


# ---------------------------------------------------------------------- seats and numbers


@pytest.mark.parametrize("deficiency", [None, *DEFICIENCIES])
def test_any_two_of_ten_seats_are_distinct(deficiency: str | None) -> None:
    want = NORMAL_MIN if deficiency is None else DEFICIENT_MIN
    assert len(set(SEAT_COLOURS)) == 10
    assert smallest(list(SEAT_COLOURS), deficiency) >= want


@pytest.mark.parametrize("deficiency", [None, *DEFICIENCIES])
def test_the_last_move_ring_is_no_seat_colour(deficiency: str | None) -> None:
    """The ring around the last tile (each theme's ``last_move``) is far from every seat."""
    want = NORMAL_MIN if deficiency is None else DEFICIENT_MIN
    for th in THEMES.values():
        assert min(delta_e(th.last_move, c, deficiency) for c in SEAT_COLOURS) >= want


@pytest.mark.parametrize("deficiency", [None, *DEFICIENCIES])
def test_number_inks_are_distinct(deficiency: str | None) -> None:
    """Hue carries meaning on tiles in the ``pips`` mode: the six inks and the blank's grey."""
    want = NORMAL_MIN if deficiency is None else DEFICIENT_MIN
    assert smallest([*NUMBER_INKS, BLANK_INK], deficiency) >= want


def test_numbers_sharing_an_ink_are_far_apart_and_unlike() -> None:
    lookalikes = {frozenset(p) for p in ((1, 7), (3, 8), (6, 9), (5, 6), (1, 4), (0, 8))}
    for a, b in itertools.combinations(range(19), 2):
        if number_ink(a) == number_ink(b):
            assert abs(a - b) > 1, (a, b)
            assert frozenset((a, b)) not in lookalikes, (a, b)
    # Within a double-12 set an ink is shared by at most two numbers.
    for ink in NUMBER_INKS:
        assert sum(number_ink(n) == ink for n in range(13)) <= 2


def test_seats_show_on_both_lanes() -> None:
    """Each seat colour keeps 2:1 on either theme's lane (a dark ring does the rest)."""
    for th in (DARK, LIGHT):
        assert min(contrast(c, th.lane) for c in SEAT_COLOURS) >= 2.0


# ---------------------------------------------------------------------- text on its ground


def _pictures() -> dict[str, Image.Image]:
    worst = built(10, {MEXICAN: 16, **{s: 5 for s in range(10)}}, open_doubles=(2, 5),
                  marked=(1, 3, 4, 6, 9), current=2)  # fmt: skip
    out: dict[str, Image.Image] = {}
    for name, th in THEMES.items():
        for mode in TILE_MODES:
            opts = TableOptions(theme=th, tiles=mode, is_computer=[False, True] * 5)
            out[f"table10-{name}-{mode}"] = render_table(worst, opts)
            out[f"hand-{name}-{mode}"] = render_hand(
                _hand_view(), HandOptions(theme=th, tiles=mode, plan=_hand_view().hand[:3])
            )
        out[f"round-over-{name}"] = render_table(spectator(playout(8, 5, 400)), TableOptions(
            theme=th))  # fmt: skip
        out[f"match-over-{name}"] = render_table(spectator(match_over()), TableOptions(theme=th))
        out[f"waiting-{name}"] = render_hand(spectator_hand(), HandOptions(theme=th, language="fr"))
        out[f"chart-{name}"] = render_stats_chart(
            "Zoë", [ChartGame(1, (3, 0), True), ChartGame(2, (40, 12), False)], theme_name=th
        )
        out[f"rating-{name}"] = render_rating_chart(  # issue 48
            "Zoë", [613, 900, 1450, 1620], [("Normal", 1500)], theme_name=th
        )
    return out


def _hand_view():  # type: ignore[no-untyped-def]
    from bot.engine import view_for

    m = playout(4, 7, 36)
    assert m.round is not None
    return view_for(m, m.round.current)


def spectator_hand():  # type: ignore[no-untyped-def]
    from bot.engine import view_for

    return view_for(playout(4, 7, 30), 0)


def test_every_text_has_aa_contrast_on_its_ground() -> None:
    low: list[tuple[str, str, float]] = []
    for name, image in _pictures().items():
        inks = text_inks(image)
        assert inks, f"{name}: no text reported"
        for label, ink, ground in inks:
            ratio = contrast(ink, ground)
            if ratio < TEXT_MIN:
                low.append((name, label, round(ratio, 2)))
    assert not low, f"text under {TEXT_MIN}:1: {sorted(set(low))[:12]}"


def test_the_marker_keeps_its_word_at_ten_players() -> None:
    view = built(10, {s: 2 for s in range(10)}, marked=tuple(range(10)))
    for lang, word in (("en", "marker"), ("fr", "marqueur")):
        labels = [label for label, _ink, _g in text_inks(render_table(view, TableOptions(
            language=lang)))]  # fmt: skip
        assert labels.count(word) == 10


# ---------------------------------------------------------------------- pips and numerals


@pytest.mark.parametrize("players", [2, 5, 6, 8, 10])
def test_pips_never_cross_a_numeral(players: int) -> None:
    s = tile_size(players)
    for n in range(19):
        for mode in TILE_MODES:
            (x0, y0, x1, y1), pips = half_layout(s, n, mode)
            assert x0 >= 0 and y0 >= 0 and x1 <= s and y1 <= s, (n, s, mode)
            for px0, py0, px1, py1 in pips:
                apart = px1 <= x0 or px0 >= x1 or py1 <= y0 or py0 >= y1
                assert apart, f"a pip of {n} crosses its numeral at half-side {s}"


# ---------------------------------------------------------------------- the replay GIF


def _swatch_centres(table: Image.Image, seats: int) -> dict[int, tuple[int, int]]:
    """The middle of each seat's glyph in the label column (x = 44): the middle of the first
    run of 8 or more pixels of its colour down that column below the header's glyph (the current
    lane's outline is 4 px thick, the whose-turn glyph is in the header)."""
    out = {}
    column = [table.getpixel((44, y)) for y in range(table.height)]
    for seat in range(seats):
        want = seat_colour(seat)
        run = 0
        for y in range(100, table.height):  # the header's glyph is at y 50; lanes from 150
            run = run + 1 if column[y] == want else 0
            if run >= 8 and column[y + 1] != want:
                out[seat] = (44, y - run // 2)
                break
        assert seat in out, f"no swatch of seat {seat + 1}"
    return out


def test_gif_frames_show_the_tables_true_colours() -> None:
    from bot.engine import view_for

    m = playout(6, 3, 0, names=[f"P{i}" for i in range(6)])
    views = [view_for(m, None)]
    rng_moves = playout(6, 3, 30, names=[f"P{i}" for i in range(6)])
    views.append(view_for(rng_moves, None))
    for th in ("dark", "light"):
        opts = TableOptions(theme=th)
        gif = Image.open(io.BytesIO(render_replay(views, opts, max_frames=2, width=700)))
        # The frames are drawn steady (every lane keeps a double's room: no jumping).
        table = render_table(views[0], TableOptions(theme=th, steady=True))
        centres = _swatch_centres(table, 6)
        # The table's PNG keeps each swatch exactly...
        from renderers import to_png

        png = Image.open(io.BytesIO(to_png(table))).convert("RGB")
        for seat, xy in centres.items():
            assert png.getpixel(xy) == seat_colour(seat)
        # ...and so does every frame of the GIF, at the same place scaled.
        scale = 700 / table.width
        for frame in range(gif.n_frames):
            gif.seek(frame)
            rgb = gif.convert("RGB")
            for seat, (x, y) in centres.items():
                assert rgb.getpixel((round(x * scale), round(y * scale))) == seat_colour(seat), (
                    th, frame, seat)  # fmt: skip
