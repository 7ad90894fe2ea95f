"""A player's recent games as a small bar chart: average round score per game.

One bar per finished game, oldest on the left; the bar's height is the player's average score
per round in that game (lower is better, as in the game), gold for a game they won. A dotted
line marks their overall average; a game averaging 0 still shows a stub and its "0". The
y axis has whole-number gridlines only. Drawn with the table's theme and fonts, labels in the
chosen language, at 21 px or more so they stay 9 px tall when a phone scales the 900 px
picture to 400 px.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.i18n import tr
from renderers import paint, text
from renderers.pieces import plural
from renderers.theme import Theme, theme

WIDTH, HEIGHT = 900, 380
MARGIN = 20


@dataclasses.dataclass(frozen=True, slots=True)
class ChartGame:
    game_id: int
    round_scores: tuple[int, ...]
    won: bool

    @property
    def average(self) -> float:
        return sum(self.round_scores) / len(self.round_scores) if self.round_scores else 0.0


def axis_ticks(peak: float, most: int = 5) -> list[int]:
    """Whole-number gridline values from 0 to at least ``peak``, at most ``most`` of them
    and never the same number twice (a peak of 1.4 gives 0, 1, 2; not 0, 0, 1, 1)."""
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        count = math.ceil(peak / step) if peak > 0 else 1
        if count + 1 <= most:
            return [k * step for k in range(count + 1)]
    step = math.ceil(peak / (most - 1))
    return [k * step for k in range(most)]


def render_stats_chart(
    name: str,
    games: Sequence[ChartGame],
    *,
    language: str = "en",
    theme_name: str | Theme = "dark",
) -> Image.Image:
    """``games`` oldest first (at most a couple of dozen are readable). Like the table, the
    image carries ``info["theme"]`` and ``info["text_px"]``."""
    th = theme(theme_name)
    with text.recording() as drawn:
        img = _paint(name, games, language, th)
    img.info["theme"] = th
    img.info["text_px"] = tuple(drawn)
    img.info["text_ink"] = tuple(drawn.inks)
    return img


def card(
    name: str, n: int, key: str, language: str, th: Theme
) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A chart's card: the panel, its title (``pic.<key>.title``, a player's name and a count
    of ``n``) and its legend (``pic.<key>.legend``), shared by the statistics and the rating
    charts; the image and its drawing context, for the chart's own plot below."""
    img = Image.new("RGB", (WIDTH, HEIGHT), th.background)
    d = ImageDraw.Draw(img)
    paint.rounded(img, (MARGIN, MARGIN, WIDTH - MARGIN, HEIGHT - MARGIN), 14, th.lane)
    # The name gives way, never the end of the sentence ("…, last 12 games" stays whole).
    room = WIDTH - 2 * MARGIN - 40
    rest = plural(f"pic.{key}.title", n, language, name="")
    who = text.shorten(text.clean(name) or "?", 26, room - text.width(rest, 26, "bold"), "bold")
    title = plural(f"pic.{key}.title", n, language, name=who)
    text.draw(d, (MARGIN + 20, MARGIN + 32), text.fit(title, 26, room, "bold", ltr=True), 26,
              th.text, "bold")  # fmt: skip
    text.draw(d, (MARGIN + 20, MARGIN + 68), tr(f"pic.{key}.legend", language), 21, th.muted)
    return img, d


def _paint(name: str, games: Sequence[ChartGame], language: str, th: Theme) -> Image.Image:
    img, d = card(name, len(games), "chart", language, th)
    if not games:
        text.draw(d, (WIDTH // 2, HEIGHT // 2 + 30), tr("pic.chart.empty", language), 26,
                  th.muted, "bold", "mm")  # fmt: skip
        return img
    top, bottom = MARGIN + 110, HEIGHT - MARGIN - 48
    left, right = MARGIN + 64, WIDTH - MARGIN - 84
    ticks = axis_ticks(max(g.average for g in games))
    peak = ticks[-1]
    for value in ticks:
        y = bottom - round((bottom - top) * value / peak)
        d.line([(left, y), (right, y)], fill=th.lane_edge, width=1)
        text.draw(d, (left - 10, y), str(value), 21, th.muted, anchor="rm")
    slot = (right - left) / len(games)
    bar = max(6, min(48, round(slot * 0.62)))
    for i, g in enumerate(games):
        cx = round(left + slot * (i + 0.5))
        colour = th.open_double if g.won else th.bar
        # A game averaging 0 (the best possible) still gets a visible stub and its "0".
        h = max(5, round((bottom - top) * g.average / peak))
        paint.rounded(img, (cx - bar // 2, bottom - h, cx + bar // 2, bottom), 3, colour)
        if g.average < 0.5:
            text.draw(d, (cx, bottom - h - 14), "0", 21, colour, "bold", "mm")
        if slot >= 50:
            label = tr("pic.chart.game", language, game=g.game_id)
            text.draw(d, (cx, bottom + 22), text.fit(label, 21, int(slot) - 2), 21, th.muted,
                      anchor="mm")  # fmt: skip
    mean = sum(sum(g.round_scores) for g in games) / max(1, sum(len(g.round_scores) for g in games))
    y = bottom - round((bottom - top) * mean / peak)
    for x in range(left, right, 12):
        d.line([(x, y), (min(x + 6, right), y)], fill=th.text, width=2)
    text.draw(d, (right + 10, y), f"{mean:.1f}", 22, th.text, "bold", "lm")
    return img
