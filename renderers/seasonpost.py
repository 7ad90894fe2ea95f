"""A season's end: its top players as a picture (issue 48, ``bot/ui/seasons.py``).

A card in the table's theme and fonts, 900 px wide, labels at 21 px or more: the season's
name, then one row per player, best first: the place (gold, silver, bronze discs for the
first three), the name (cut so two never look alike), the rating, and its change over the
season with the rated matches played.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.i18n import tr
from renderers import paint, text
from renderers.names import distinct
from renderers.theme import Theme, theme

WIDTH = 900
MARGIN = 20
ROW = 52
HEAD = 110
MEDALS = ("#E8B923", "#B8C2CC", "#C7844A")


@dataclasses.dataclass(frozen=True, slots=True)
class SeasonLine:
    place: int
    name: str
    #: Already written in the reader's way ("1,412", "+23 · 9 matches").
    rating: str
    detail: str


def render_season_post(
    season: str, lines: Sequence[SeasonLine], *, language: str = "en",
    theme_name: str | Theme = "dark",
) -> Image.Image:  # fmt: skip
    th = theme(theme_name)
    with text.recording() as drawn:
        img = _paint(season, lines, language, th)
    img.info["theme"] = th
    img.info["text_px"] = tuple(drawn)
    img.info["text_ink"] = tuple(drawn.inks)
    return img


def _paint(season: str, lines: Sequence[SeasonLine], language: str, th: Theme) -> Image.Image:
    height = HEAD + ROW * max(1, len(lines)) + 2 * MARGIN + 10
    img = Image.new("RGB", (WIDTH, height), th.background)
    d = ImageDraw.Draw(img)
    paint.rounded(img, (MARGIN, MARGIN, WIDTH - MARGIN, height - MARGIN), 14, th.lane)
    room = WIDTH - 2 * MARGIN - 40
    title = tr("pic.season.title", language, name=text.clean(season) or "?")
    text.draw(d, (MARGIN + 20, MARGIN + 32), text.fit(title, 26, room, "bold", ltr=True), 26,
              th.text, "bold")  # fmt: skip
    text.draw(d, (MARGIN + 20, MARGIN + 68), tr("pic.season.legend", language), 21, th.muted)
    if not lines:
        text.draw(d, (WIDTH // 2, MARGIN + HEAD + ROW // 2), tr("pic.season.empty", language),
                  24, th.muted, "bold", "mm")  # fmt: skip
        return img
    names = distinct([ln.name for ln in lines], 24, 360, "bold")
    for i, (ln, name) in enumerate(zip(lines, names, strict=True)):
        y = MARGIN + HEAD + ROW * i + ROW // 2
        if ln.place <= len(MEDALS):
            disc = MEDALS[ln.place - 1]
            d.ellipse((MARGIN + 28, y - 19, MARGIN + 66, y + 19), fill=disc)
            text.draw(d, (MARGIN + 47, y), str(ln.place), 22, "#1E1F22", "bold", "mm")
        else:
            text.draw(d, (MARGIN + 47, y), str(ln.place), 22, th.muted, "bold", "mm")
        text.draw(d, (MARGIN + 90, y), name, 24, th.text, "bold")
        text.draw(d, (MARGIN + 600, y), ln.rating, 24, th.text, "bold", "rm")
        text.draw(d, (MARGIN + 620, y), text.fit(ln.detail, 21, WIDTH - MARGIN * 2 - 640), 21,
                  th.muted)  # fmt: skip
    return img
