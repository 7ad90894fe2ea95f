"""Fixed positions against stored pictures (regenerate: UPDATE_GOLDEN=1 pytest tests/renderers)."""

from __future__ import annotations

import pytest

from bot.engine import MEXICAN, view_for
from renderers import HandOptions, TableOptions, render_hand, render_table
from renderers.round_end import RoundEndOptions, render_round_end
from tests.renderers.positions import built, match_over, playout, spectator

#: Discord allows 32 characters in a display name.
LONG = [
    "Alexandra-Maximiliana Rosenthal",
    "Jean-Baptiste de La Fontaine-Ho",
    "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW",
    "Bartholomew Fitzgerald-Ngozi 3rd",
    "Zoë Ødegård-Łukasiewicz Ñúñez",
    "Marie-Ève Beauchemin-Tremblay!!",
    "Christopher Alexander Johnson Jr",
    "Anastasia Konstantinopoulou-Bee",
    "中文名字很长很长很长很长很长很长很长很长",
    "محمد عبد الله الطويل جدا جدا",
]
COLOURS = ("Red", "Blue", "Green", "Gold", "Grey", "Pink", "Teal", "Rust", "Jade", "Plum")

CASES = {
    "table_2p_light": lambda: render_table(
        spectator(playout(2, 1, 60, names=["Alice", "Bob"])), TableOptions(theme="light")
    ),
    "table_4p_dark": lambda: render_table(
        spectator(playout(4, 3, 40, names=["Alice", "Bob", "Carol", "Dan"])),
        TableOptions(is_computer=[False, True, False, False]),
    ),
    "table_8p_round_over": lambda: render_table(spectator(playout(8, 5, 400))),
    "table_8p_open_doubles_markers_long": lambda: render_table(
        built(
            8,
            {MEXICAN: 16, **{s: 7 for s in range(8)}},
            open_doubles=(2, 5),
            marked=(1, 3, 4, 6),
            current=2,
        )
    ),
    "table_10p_double15": lambda: render_table(
        spectator(playout(10, 2, 150, preset="double-15")), TableOptions(theme="light")
    ),
    "table_match_over": lambda: render_table(spectator(match_over())),
    "table_8p_numerals_fr": lambda: render_table(
        _worst(), TableOptions(language="fr", tiles="numerals", theme="light")
    ),
    # The end of a round: every leftover hand, points and totals, the board (issue 29).
    "round_end_2p_long_names": lambda: render_round_end(
        spectator(playout(2, 1, 10_000, names=LONG[:2])),
        RoundEndOptions(is_computer=[False, True]),
    ),
    "round_end_3p_blocked_light_fr": lambda: render_round_end(
        spectator(playout(3, 0, 10_000, names=["Alice", "Bob", "Chloé"])),
        RoundEndOptions(theme="light", language="fr"),
    ),
    "round_end_6p": lambda: render_round_end(spectator(playout(6, 4, 10_000, names=LONG[:6]))),
    "round_end_10p_double15_light": lambda: render_round_end(
        spectator(playout(10, 2, 10_000, preset="double-15", names=LONG)),
        RoundEndOptions(theme="light", is_computer=[i % 4 == 3 for i in range(10)]),
    ),
    "round_end_match_over_4p_fr": lambda: render_round_end(
        spectator(match_over(4)), RoundEndOptions(language="fr")
    ),
    "round_end_match_over_8p_numerals_light": lambda: render_round_end(
        spectator(match_over(8, 3)), RoundEndOptions(theme="light", tiles="numerals")
    ),
    "table_10p_dark_markers_shared_names": lambda: render_table(
        built(
            10,
            {MEXICAN: 9, **{s: 3 for s in range(10)}},
            open_doubles=(4, 7),
            marked=(0, 3, 5, 8, 9),
            current=4,
            names=[f"Gus_The_Magnificent_{w}" for w in COLOURS],
        ),
        TableOptions(is_computer=[s % 3 == 1 for s in range(10)]),
    ),
    "table_3p_match_over_light": lambda: render_table(
        spectator(match_over(players=3, seed=5)), TableOptions(theme="light")
    ),
    "hand_plan_ten": lambda: _hand_plan_ten(),
    "hand_playable_plan": lambda: _hand(),
    "hand_playable_plan_numerals_fr": lambda: _hand(language="fr", tiles="numerals"),
    "hand_one_tile_plan": lambda: _hand_one_tile(),
    "hand_light_waiting": lambda: render_hand(
        view_for(playout(4, 7, 30), 0), HandOptions(theme="light")
    ),
}


def _worst():  # type: ignore[no-untyped-def]
    lengths = {MEXICAN: 16, **{s: 7 for s in range(8)}}
    return built(8, lengths, open_doubles=(2, 5), marked=(1, 3, 4, 6), current=2)


def _hand(language: str = "en", tiles: str = "pips"):  # type: ignore[no-untyped-def]
    m = playout(4, 7, 36)
    assert m.round is not None
    v = view_for(m, m.round.current)
    plan = v.hand[:3] if v.hand else ()
    return render_hand(v, HandOptions(plan=plan, language=language, tiles=tiles))


def _hand_plan_ten():  # type: ignore[no-untyped-def]
    """A long plan: its "#10" and "#11" badges must stay inside their cells."""
    m = playout(2, 1, 0)
    v = view_for(m, 1)
    assert v.hand is not None and len(v.hand) >= 11
    return render_hand(v, HandOptions(plan=v.hand[:11]))


def _hand_one_tile():  # type: ignore[no-untyped-def]
    """The last tile, which is also the whole train plan: no "#1", no legend."""
    m = playout(2, 6, 38)
    assert m.round is not None
    v = view_for(m, m.round.current)
    assert v.hand is not None and len(v.hand) == 1
    return render_hand(v, HandOptions(plan=v.hand))


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(name: str, golden) -> None:  # type: ignore[no-untyped-def]
    golden.check(name, CASES[name]())
