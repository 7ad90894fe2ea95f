"""The double rule's one source (``bot.engine.state.binding_double``): which open double takes
the next tile now. Legality, the refusal's reason and the computer players' inferences all
read it, so these rows pin it once."""

from __future__ import annotations

import dataclasses

import pytest

from bot.engine import DoubleRule, Rules
from bot.engine.state import Bound, binding_double

SATISFY = Rules()
CHAIN = dataclasses.replace(SATISFY, double_rule=DoubleRule.CHAIN)
HELD = dataclasses.replace(SATISFY, release_unsatisfiable_doubles=False)
ENDS = {0: 6, 1: 9, 2: 12, 8: 3}  # train -> the pips its last tile shows


def bound(
    rules: Rules,
    open_doubles: list[int],
    turn_doubles: list[int],
    *,
    fast: bool = False,
    gone: frozenset[int] = frozenset(),
) -> Bound | None:
    return binding_double(
        rules,
        open_doubles,
        turn_doubles,
        fast=fast,
        satisfiable=lambda pip: pip not in gone,
        end=ENDS.__getitem__,
    )


@pytest.mark.parametrize(
    ("rules", "open_doubles", "turn_doubles", "fast", "gone", "expected"),
    [
        (SATISFY, [], [], False, frozenset(), None),
        # the mover's own double of this turn, the latest of them, under the satisfy rule
        (SATISFY, [0, 1], [1], False, frozenset(), Bound(1, "satisfy-own")),
        (SATISFY, [0, 1, 2], [1, 2], False, frozenset(), Bound(2, "satisfy-own")),
        # a fast start lays doubles freely: the oldest earlier double still binds
        (SATISFY, [0, 1], [1], True, frozenset(), Bound(0, "open-double")),
        (SATISFY, [1], [1], True, frozenset(), None),
        # other double rules: own doubles never bind; earlier ones do, oldest first
        (CHAIN, [0, 1], [1], False, frozenset(), Bound(0, "open-double")),
        (CHAIN, [8, 0], [], False, frozenset(), Bound(8, "open-double")),
        # a double nobody can satisfy is released (house rule), else it holds
        (SATISFY, [0, 1], [], False, frozenset({6}), Bound(1, "open-double")),
        (SATISFY, [0], [], False, frozenset({6}), None),
        (HELD, [0], [], False, frozenset({6}), Bound(0, "open-double")),
    ],
)
def test_which_double_binds(
    rules: Rules,
    open_doubles: list[int],
    turn_doubles: list[int],
    fast: bool,
    gone: frozenset[int],
    expected: Bound | None,
) -> None:
    assert bound(rules, open_doubles, turn_doubles, fast=fast, gone=gone) == expected
