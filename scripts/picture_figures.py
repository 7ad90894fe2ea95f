"""Issue 25's colour figures, measured the way the tests measure them, as ONE JSON line.

* the smallest CIEDE2000 distance between two of the ten seat colours, in normal vision and
  under simulated deuteranopia, protanopia and tritanopia (Machado 2009, full severity);
* the same for the number inks (and the blank's grey), and from the last-move ring (each
  theme's text colour) to the nearest seat colour;
* the lowest WCAG contrast of any text the renderers drew on its ground, over tables of 10
  players in both themes and both tile modes, round and match ends, hands and charts;
* the seat swatches of a replay GIF that differ from the table's colours (0 wanted).

Needs the ``test`` extra (``colour-science``). Run from the repository root:
``python scripts/picture_figures.py``.
"""

from __future__ import annotations

import io
import json
import sys
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere

warnings.filterwarnings("ignore")  # colour-science's notes on SciPy, Matplotlib, tritanomaly

from PIL import Image  # noqa: E402

from bot.engine import view_for  # noqa: E402
from renderers import TableOptions, render_table, text_inks, to_png  # noqa: E402
from renderers.replay import render_replay  # noqa: E402
from renderers.theme import BLANK_INK, NUMBER_INKS, SEAT_COLOURS, THEMES  # noqa: E402
from tests.renderers.positions import playout  # noqa: E402
from tests.renderers.test_colours import (  # noqa: E402
    DEFICIENCIES,
    _pictures,
    _swatch_centres,
    contrast,
    delta_e,
    smallest,
)


def distances(colours: list[tuple[int, int, int]]) -> dict[str, float]:
    out = {"normal": round(smallest(colours), 1)}
    for deficiency in DEFICIENCIES:
        out[deficiency.lower().replace("anomaly", "")] = round(smallest(colours, deficiency), 1)
    return out


def ring_to_seats() -> dict[str, float]:
    out = {}
    for vision in (None, *DEFICIENCIES):
        key = "normal" if vision is None else vision.lower().replace("anomaly", "")
        out[key] = round(
            min(delta_e(th.last_move, c, vision) for th in THEMES.values() for c in SEAT_COLOURS),
            1,
        )
    return out


def text_contrast() -> tuple[float, int, str]:
    lowest, count, where = 99.0, 0, ""
    for name, image in _pictures().items():
        for label, ink, ground in text_inks(image):
            count += 1
            ratio = contrast(ink, ground)
            if ratio < lowest:
                lowest, where = ratio, f"{name}: {label!r}"
    return round(lowest, 2), count, where


def gif_swatches() -> tuple[int, int]:
    names = [f"P{i}" for i in range(8)]
    views = [view_for(playout(8, 3, n, names=names), None) for n in (0, 10, 20, 30)]
    checked = wrong = 0
    for theme in THEMES:
        opts = TableOptions(theme=theme)
        gif = Image.open(io.BytesIO(render_replay(views, opts, max_frames=4, width=700)))
        for frame, view in enumerate(views):
            table = render_table(view, opts)
            png = Image.open(io.BytesIO(to_png(table))).convert("RGB")
            gif.seek(frame)
            rgb = gif.convert("RGB")
            for x, y in _swatch_centres(table, 8).values():
                checked += 1
                here = rgb.getpixel((round(x * 700 / 800), round(y * 700 / 800)))
                wrong += here != png.getpixel((x, y))
    return checked, wrong


def main() -> None:
    lowest, texts, where = text_contrast()
    checked, wrong = gif_swatches()
    print(
        json.dumps(
            {
                "script": "picture_figures",
                "seat_delta_e2000_min": distances(list(SEAT_COLOURS)),
                "number_ink_delta_e2000_min": distances([*NUMBER_INKS, BLANK_INK]),
                "last_move_ring_to_nearest_seat": ring_to_seats(),
                "wanted": {"normal": 20, "deficient": 10, "text_contrast": 4.5},
                "text_contrast_min": lowest,
                "text_contrast_min_at": where,
                "texts_measured": texts,
                "gif_swatches_checked": checked,
                "gif_swatches_wrong": wrong,
            },
            ensure_ascii=False,
        )
    )


if __name__ == "__main__":
    main()
