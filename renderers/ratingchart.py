"""A player's rating over their rated matches: a small line chart (issue 48).

The sibling of :mod:`renderers.chart` (``/mt stats``), drawn the same way: the table's theme
and fonts, 900 px wide, labels at 21 px or more; one point per rated match, oldest on the
left; dotted lines mark the computer levels' fixed ratings that fall within the chart.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from renderers import text
from renderers.chart import HEIGHT, MARGIN, WIDTH, card
from renderers.theme import Theme, theme


def render_rating_chart(
    name: str,
    course: Sequence[int],
    anchors: Sequence[tuple[str, int]] = (),
    *,
    language: str = "en",
    theme_name: str | Theme = "dark",
) -> Image.Image:
    """``course``: the rating after each rated match, oldest first; ``anchors``: (computer
    level's name as shown, its rating)."""
    th = theme(theme_name)
    with text.recording() as drawn:
        img = _paint(name, course, anchors, language, th)
    img.info["theme"] = th
    img.info["text_px"] = tuple(drawn)
    img.info["text_ink"] = tuple(drawn.inks)
    return img


def _paint(name: str, course: Sequence[int], anchors: Sequence[tuple[str, int]],
           language: str, th: Theme) -> Image.Image:  # fmt: skip
    img, d = card(name, len(course), "rating", language, th)
    if not course:
        return img
    top, bottom = MARGIN + 110, HEIGHT - MARGIN - 30
    left, right = MARGIN + 84, WIDTH - MARGIN - 150
    low, high = min(course), max(course)
    pad = max(50, (high - low) // 8)
    low, high = low - pad, high + pad

    def y_of(value: int) -> int:
        return bottom - round((bottom - top) * (value - low) / (high - low))

    for label, value in anchors:
        if low <= value <= high:
            y = y_of(value)
            for x in range(left, right, 12):
                d.line([(x, y), (min(x + 6, right), y)], fill=th.lane_edge, width=2)
            text.draw(d, (right + 10, y), label, 21, th.muted, anchor="lm")
    for value in (low + pad, high - pad):
        text.draw(d, (left - 10, y_of(value)), f"{value:,}", 21, th.muted, anchor="rm")
    step = (right - left) / max(1, len(course) - 1)
    points = [(round(left + step * i), y_of(v)) for i, v in enumerate(course)]
    if len(points) > 1:
        d.line(points, fill=th.bar, width=4)
    for x, y in points[-40:]:
        d.ellipse((x - 5, y - 5, x + 5, y + 5), fill=th.bar)
    x, y = points[-1]
    d.ellipse((x - 8, y - 8, x + 8, y + 8), fill=th.open_double)
    return img
