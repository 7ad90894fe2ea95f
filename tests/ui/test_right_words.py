"""Wording slips (issue 47, item 5) in the moves' own sentences: a computer player's double
read "… (a double: it must be satisfied) (computer)", two brackets in a row; the computer is
now marked beside its name, in English and in French."""

from __future__ import annotations

import pytest

from bot.engine import Applied, parse_move
from bot.engine.ai import Level
from bot.service import Player
from bot.service.outcome import Step
from bot.ui.messages import step_lines

NAMES = ["Alice", "Bob", "Carol"]


@pytest.mark.parametrize(
    ("lang", "want"),
    [
        ("en", "Bob (computer) played 7-7 on Carol's train (a double: it must be satisfied)"),
        (
            "fr",
            "Bob (ordinateur) a posé 7-7 sur le train de Carol (un double : il faut le compléter)",
        ),
    ],
)
def test_a_computers_double_reads_with_one_pair_of_brackets(lang: str, want: str) -> None:
    move = parse_move("7-7 @3", players=3)
    applied = Applied(1, move, opened_double=True, satisfied=None)
    step = Step(5, Player(1, "Bob", None, Level.NORMAL), move, applied, 0)
    (line,) = step_lines(NAMES, step, lang)
    assert line == want and ") (" not in line
    # A human's play is unchanged.
    human = Step(6, Player(0, "Alice", 100, None), move, applied, 0)
    assert step_lines(NAMES, human, lang)[0].startswith("Alice ")
