"""A player's recent games as a small bar chart: average round score per game.

One bar per finished game, oldest on the left; the bar's height is the player's average score
per round in that game (lower is better, as in the game), gold for a game they won. A dotted
line marks their overall average. Drawn with the table's theme and fonts, labels in the
chosen language.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.i18n import tr
from renderers import paint, text
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


def render_stats_chart(
    name: str,
    games: Sequence[ChartGame],
    *,
    language: str = "en",
    theme_name: str | Theme = "dark",
) -> Image.Image:
    """``games`` oldest first (at most a couple of dozen are readable)."""
    th = theme(theme_name)
    img = Image.new("RGB", (WIDTH, HEIGHT), th.background)
    d = ImageDraw.Draw(img)
    paint.rounded(img, (MARGIN, MARGIN, WIDTH - MARGIN, HEIGHT - MARGIN), 14, th.lane)
    title = tr("pic.chart.title", language, name=text.clean(name) or "?", n=len(games))
    text.draw(d, (MARGIN + 20, MARGIN + 28), text.fit(title, 24, WIDTH - 80, "bold"), 24,
              th.text, "bold")  # fmt: skip
    legend = tr("pic.chart.legend", language)
    text.draw(d, (MARGIN + 20, MARGIN + 60), legend, 17, th.muted)
    if not games:
        text.draw(d, (WIDTH // 2, HEIGHT // 2 + 20), tr("pic.chart.empty", language), 22,
                  th.muted, "bold", "mm")  # fmt: skip
        return img
    top, bottom = MARGIN + 96, HEIGHT - MARGIN - 44
    left, right = MARGIN + 56, WIDTH - MARGIN - 70
    peak = max(max(g.average for g in games), 1.0)
    # Axis with three gridlines.
    for k in range(4):
        value = peak * k / 3
        y = bottom - round((bottom - top) * k / 3)
        d.line([(left, y), (right, y)], fill=th.lane_edge, width=1)
        text.draw(d, (left - 8, y), f"{value:.0f}", 15, th.muted, anchor="rm")
    slot = (right - left) / len(games)
    bar = max(6, min(48, round(slot * 0.62)))
    for i, g in enumerate(games):
        cx = round(left + slot * (i + 0.5))
        h = round((bottom - top) * g.average / peak)
        colour = th.open_double if g.won else th.last_move
        if h > 0:
            paint.rounded(img, (cx - bar // 2, bottom - h, cx + bar // 2, bottom), 4, colour)
        if slot >= 34:
            label = tr("pic.chart.game", language, game=g.game_id)
            text.draw(d, (cx, bottom + 18), text.fit(label, 14, int(slot) - 2), 14, th.muted,
                      anchor="mm")  # fmt: skip
    mean = sum(sum(g.round_scores) for g in games) / max(1, sum(len(g.round_scores) for g in games))
    y = bottom - round((bottom - top) * mean / peak)
    for x in range(left, right, 12):
        d.line([(x, y), (min(x + 6, right), y)], fill=th.text, width=2)
    text.draw(d, (right + 10, y), f"{mean:.1f}", 16, th.text, "bold", "lm")
    return img
