"""The season's end picture (issue 48): one row per top player, best first, the first three
on gold, silver and bronze discs, names cut so two never look alike, every label at 21 px or
more; a season without a rated match says so; French labels."""

from __future__ import annotations

from renderers import text_sizes
from renderers.seasonpost import SeasonLine, render_season_post


def test_the_top_players_read_at_21_px_or_more() -> None:
    lines = [
        SeasonLine(1, "Cat", "1,743", "+130 · 12 matches"),
        SeasonLine(1, "Fay", "1,743", "+130 · 9 matches"),
        SeasonLine(3, "Hana_The_Great_Conqueror_Of_Trains", "1,675", "+62 · 1 match"),
        SeasonLine(4, "Hana_The_Great_Conqueror_Of_Boats", "1,502", "-111 · 3 matches"),
    ]
    img = render_season_post("Autumn", lines)
    assert img.size[0] == 900 and img.size[1] > 4 * 52
    sizes = text_sizes(img)
    labels = [label for _px, label in sizes]
    assert all(px >= 21 for px, _ in sizes), sizes
    assert "Season Autumn: the top players" in labels
    assert "1,743" in labels and "+130 · 12 matches" in labels
    hanas = [x for x in labels if x.startswith("Hana")]
    assert len(hanas) == 2 and hanas[0] != hanas[1]  # cut apart, never alike
    # The medal discs: gold behind the first places.
    assert img.getpixel((20 + 47, 20 + 110 + 26 - 12)) == (0xE8, 0xB9, 0x23)


def test_a_season_without_rated_matches_in_french() -> None:
    img = render_season_post("Hiver", [], language="fr", theme_name="light")
    labels = [label for _px, label in text_sizes(img)]
    assert "Saison Hiver : les meilleurs" in labels and "Aucune partie classée" in labels
