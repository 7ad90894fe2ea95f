"""Every level only ever returns one of the view's legal moves, whatever the rules.

Random playouts of every preset and every house rule, with the seats' levels mixed, ask the
computer player at every step of every turn (after a draw, after a double, mid fast start,
during a chain of doubles), and check the move is in ``view.legal`` before applying it.
"""

from __future__ import annotations

import random

import pytest

from bot.engine import KNOCK, PRESETS, Match, Round, Rules
from bot.engine.ai import Level, choose_move, hint
from bot.engine.rules import DoubleRule, EnginePlacement, FirstPlayer, FirstTurn, Scoring
from bot.engine.view import round_view

HOUSE_RULES: dict[str, Rules] = {
    "open-hands": Rules(open_hands=True),
    "chain": Rules(double_rule=DoubleRule.CHAIN),
    "any-open-train": Rules(double_rule=DoubleRule.ANY_OPEN_TRAIN, first_turn=FirstTurn.FAST_START),
    "fast-start-chain": Rules(first_turn=FirstTurn.FAST_START, double_rule=DoubleRule.CHAIN),
    "highest-double": Rules(engine_placement=EnginePlacement.HIGHEST_DOUBLE),
    "highest-tile": Rules(first_player=FirstPlayer.HIGHEST_TILE),
    "no-release": Rules(release_unsatisfiable_doubles=False),
    "no-go-out-on-double": Rules(go_out_on_double=False),
    "knock-blanks": Rules(knock=True, scoring=Scoring.FUNDEX_BLANKS),
    "double-blank-50": Rules(scoring=Scoring.DOUBLE_BLANK_50),
    "no-mexican-first-turn": Rules(
        mexican_train_on_first_turn=False, first_turn=FirstTurn.FAST_START
    ),
}
CASES = {**{f"preset-{k}": v for k, v in PRESETS.items()}, **HOUSE_RULES}


def _playout(rules: Rules, players: int, seed: int) -> int:
    rng = random.Random(seed)
    names = [f"P{i + 1}" for i in range(players)]
    order = Match(rules, names).shuffle(rng)
    rnd = Round.deal(rules, names, 0, order)
    levels = [list(Level)[(seed + s) % 3] for s in range(players)]
    steps = 0
    while rnd.result is None:
        seat = rnd.current
        view = round_view(rnd, seat)
        move = choose_move(view, levels[seat], seed * 7919 + steps)
        assert move in view.legal, f"{levels[seat]} chose {move} from {list(map(str, view.legal))}"
        if steps % 5 == 0:
            assert hint(view).move in view.legal
        applied = rnd.apply(move, seat)
        steps += 1
        if rules.knock and applied.turn_over and rnd.knock_window is not None and not rnd.result:
            rnd.apply(KNOCK, rnd.knock_window)
    return steps


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_level_plays_only_legal_moves(name: str) -> None:
    rules = CASES[name]
    low, high = rules.player_range
    for seed in range(3):
        players = [2, 4, min(high, 6)][seed % 3]
        assert _playout(rules, max(low, players), seed) > 0


def test_not_my_turn_is_refused() -> None:
    rules = PRESETS["standard"]
    rnd = Round.deal(rules, ["A", "B"], 0, Match(rules, ["A", "B"]).shuffle(random.Random(1)))
    view = round_view(rnd, 1 - rnd.current)
    with pytest.raises(ValueError, match="not this seat's turn"):
        choose_move(view, Level.HARD, 0)
