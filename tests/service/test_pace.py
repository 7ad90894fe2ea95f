"""The pace model (issue 46, bot/service/pace.py): a match's expected length from its rules
and table, calibrated on benchmarks/pace.py; and its words (bot/ui/pacewords.py)."""

from __future__ import annotations

import pytest

from bot.engine import PRESETS
from bot.service import pace
from bot.ui.pacewords import how_long


def test_the_length_follows_the_rounds_the_table_and_who_waits() -> None:
    standard = PRESETS["standard"]
    four = pace.expected_length(standard, 4)
    assert (four.rounds, four.seats) == (13, 4)
    # The calibration run itself: 4 people, 13 rounds of the 91-tile double-12 set.
    turns = 13 * 91 * pace.TURNS_PER_SET_TILE
    assert four.days == pytest.approx(turns * pace.WAIT_SHARE * pace.HOURS_PER_WAIT / 24)
    assert 30 < four.days < 120  # weeks, not days nor a year, at the default model's pace
    fewer = pace.expected_length(standard.replace(rounds=5), 4)
    assert fewer.rounds == 5 and fewer.days == pytest.approx(four.days * 5 / 13)
    # A computer seat never waits; more people, more waits; a 1-seat lobby counts as 2.
    assert pace.expected_length(standard, 4, humans=2).days == pytest.approx(four.days / 2)
    assert pace.expected_length(standard, 8).days == pytest.approx(four.days)  # (turns alike)
    assert pace.expected_length(PRESETS["double-15"], 4).days > four.days  # a bigger set
    assert pace.expected_length(standard, 1).seats == 2
    assert pace.expected_length(PRESETS["double-15"], 10).seats == 10
    assert pace.expected_length(standard, 12).seats == standard.player_range[1]


def test_shorter_matches_offered_are_all_half_and_a_third() -> None:
    assert pace.shorter_rounds(PRESETS["standard"]) == (13, 7, 5)
    assert pace.shorter_rounds(PRESETS["double-9"]) == (10, 5, 4)
    assert pace.shorter_rounds(PRESETS["quick"]) == (13, 7, 5)  # quick: 1 of 13 possible
    assert pace.shorter_rounds(PRESETS["standard"].replace(starting_double=0)) == (1,)


@pytest.mark.parametrize(
    ("days", "en", "fr"),
    [
        (0.4, "under a day", "moins d'un jour"),
        (1.2, "about 1 day", "environ 1 jour"),
        (9.6, "about 10 days", "environ 10 jours"),
        (20, "about 3 weeks", "environ 3 semaines"),
        (61.6, "about 2 months", "environ 2 mois"),
    ],
)
def test_a_length_in_words(days: float, en: str, fr: str) -> None:
    assert how_long(days, "en") == en
    assert how_long(days, "fr") == fr
