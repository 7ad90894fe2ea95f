"""The rating chart of ``/mt rating`` (issue 48): one point per rated match, the computer
levels in range as dotted lines, every label at 21 px or more, the title whole."""

from __future__ import annotations

from renderers import text_sizes
from renderers.ratingchart import render_rating_chart

ANCHORS = [("Easy", 497), ("Normal", 1500), ("Hard", 2092)]


def test_one_match_and_many_draw_with_readable_labels() -> None:
    one = render_rating_chart("Alice", [613], ANCHORS, language="fr")
    assert one.size == (900, 380)
    course = [900 + 13 * i - (i % 3) * 30 for i in range(60)]  # 870 to 1,667
    many = render_rating_chart("🚂 Zoë " * 10, course, ANCHORS, theme_name="light")
    sizes = text_sizes(many)
    labels = [label for _px, label in sizes]
    assert all(px >= 21 for px, _ in sizes), sizes
    assert next(x for x in labels if "Rating of" in x).endswith(", 60 rated matches")
    # The levels within the course's range are named; Easy (below) and Hard (above) not.
    assert "Easy" not in labels and "Normal" in labels and "Hard" not in labels
    assert f"{min(course):,}" in labels and f"{max(course):,}" in labels
