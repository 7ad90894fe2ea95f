"""The engine's legal moves in fixed positions, compared with a data file exactly.

tests/engine/data/legal_moves.jsonl holds one position per line (the format of
``bot.engine.position``) with the moves the rules allow there, each case naming the row of
docs/rules.md it pins down. A rules change, deliberate or not, shows up here as a move that
disappeared or appeared in a named position; after a deliberate one,
``python scripts/make_legal_moves.py`` rewrites the file and its diff is the change to review.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.engine import parse_move
from bot.engine.position import from_position

DATA = Path(__file__).parent / "data" / "legal_moves.jsonl"


def _cases() -> list[dict[str, Any]]:
    with DATA.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


CASES = _cases()


def test_the_file_is_a_set_of_named_canonical_cases() -> None:
    names = [case["case"] for case in CASES]
    assert len(names) == len(set(names)), "case names must be unique"
    assert 30 <= len(CASES) <= 60
    for case in CASES:
        # Sorted and without repeats, so a change is one line's diff and never a reordering.
        assert case["legal"] == sorted(set(case["legal"])), case["case"]
        assert case["rule"], case["case"]


@pytest.mark.parametrize("case", CASES, ids=[case["case"] for case in CASES])
def test_legal_moves_are_exactly_the_listed_ones(case: dict[str, Any]) -> None:
    match = from_position(case["position"])
    rnd = match.round
    assert rnd is not None
    legal = {str(m) for m in rnd.legal_moves()}
    listed = set(case["legal"])
    assert (sorted(listed - legal), sorted(legal - listed)) == ([], []), (
        f"{case['case']} ({case['rule']}): (listed but no longer legal, legal but not listed)"
    )
    assert len(rnd.legal_moves()) == len(legal), "a legal move is listed twice by the engine"
    side = {
        f"@{seat + 1}": sorted(map(str, rnd.side_moves(seat)))
        for seat in range(rnd.players)
        if rnd.side_moves(seat)
    }
    assert side == case["side"], f"{case['case']}: knock and catch moves by seat"
    for move in legal:
        # The listed notation reads back as a move the engine accepts.
        assert rnd.is_legal(parse_move(move, players=rnd.players, max_pip=rnd.rules.max_pip))
