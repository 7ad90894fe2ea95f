"""Positions with their exact legal moves, as data (``fixtures/legal_positions.jsonl``, one
case a line in the position format): the engine must still give exactly these moves, in its
order, and these knock and catch moves. A rules change shows here as a diff of data; regenerate
the file on purpose with ``fixtures/make_legal_positions.py`` and read the diff."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.engine.position import from_position

DATA = Path(__file__).parent / "fixtures" / "legal_positions.jsonl"
CASES: list[dict[str, Any]] = [json.loads(line) for line in DATA.read_text().splitlines()]


def test_every_kind_of_position_is_covered() -> None:
    kinds = {c["case"].split(": ")[1] for c in CASES}
    assert kinds >= {"double-binds", "satisfy-own", "first-turn", "after-draw", "draw-or-pass"}
    assert {"fast-start", "side-moves"} <= kinds


@pytest.mark.parametrize("case", CASES, ids=[c["case"] for c in CASES])
def test_the_legal_moves_are_exactly_these(case: dict[str, Any]) -> None:
    rnd = from_position(case["position"]).round
    assert rnd is not None
    assert [str(m) for m in rnd.legal_list()] == case["legal"]
    assert [[str(m) for m in rnd.side_moves(s)] for s in range(rnd.players)] == case["side"]
