"""Normal's greedy habits and Easy's randomness, each on a fixed position."""

from __future__ import annotations

from bot.engine.ai import Level, choose_move
from bot.engine.view import round_view

from .helpers import table

OPPONENT = "11-0 10-2 9-1 7-0 6-0 4-4 2-0 10-10"


def test_normal_lays_a_double_it_can_satisfy() -> None:
    rnd = table(["6-6 6-2 11-8 2-1", OPPONENT], {"@1": "12-6", "mexican": "12-11"})
    assert str(choose_move(round_view(rnd, 0), Level.NORMAL, 0)) == "6-6 @1"


def test_normal_keeps_the_only_tile_for_its_own_train() -> None:
    # 5-8 fits both trains and is the only tile for its own train: it goes there.
    rnd = table(["5-8 2-1 1-0", OPPONENT], {"@1": "12-5", "mexican": "12-8"})
    assert str(choose_move(round_view(rnd, 0), Level.NORMAL, 0)) == "8-5 @1"


def test_normal_starts_the_mexican_train() -> None:
    rnd = table(["12-3 5-3 1-0", OPPONENT], {"@1": "12-5"})
    assert str(choose_move(round_view(rnd, 0), Level.NORMAL, 0)) == "12-3 mexican"


def test_levels_are_deterministic_given_a_seed() -> None:
    rnd = table(["5-3 3-8 9-4 9-7 6-6 6-1", OPPONENT], {"@1": "12-5", "mexican": "12-9"})
    view = round_view(rnd, 0)
    for level in Level:
        assert len({choose_move(view, level, 42) for _ in range(3)}) == 1
