"""Playouts with the rollout policy: legal to the end, plans that stay layable, no peeking."""

from __future__ import annotations

import random

import pytest

from bot.engine import KNOCK, PRESETS, Match, Round
from bot.engine.ai.rollout import RolloutPolicy, playout, rollout_move
from bot.engine.ai.trains import longest_train
from bot.engine.moves import Move
from bot.engine.state import RoundState
from bot.engine.tiles import Tile
from bot.engine.view import round_view

from .helpers import table


def _deal(preset: str, players: int, seed: int) -> Round:
    rules = PRESETS[preset]
    names = [f"P{i + 1}" for i in range(players)]
    return Round.deal(rules, names, 0, Match(rules, names).shuffle(random.Random(seed)))


def _layable(plan: tuple[Tile, ...], end: int) -> bool:
    for t in plan:
        if not t.has(end):
            return False
        end = t.other(end)
    return True


class _Checked(RolloutPolicy):
    """The policy, checking at every choice that each kept plan is still a train the
    seat's hand can lay from its train's end, and that every move it makes is legal."""

    __slots__ = ("checks",)

    def __init__(self) -> None:
        super().__init__()
        self.checks = 0

    def choose(self, rnd: RoundState, seat: int, moves: list[Move], rng: random.Random) -> Move:
        for s, (end, plan) in self.plans.items():
            if end == rnd.trains[s].end:
                assert set(plan) <= set(rnd.hands[s]), (plan, rnd.hands[s])
                assert _layable(plan, end)
                # Never longer than the truly longest train (a kept plan may be shorter).
                assert len(plan) <= len(longest_train(rnd.hands[s], end))
                self.checks += 1
        move = super().choose(rnd, seat, moves, rng)
        assert move in moves and isinstance(rnd, Round) and rnd.is_legal(move, seat)
        return move


@pytest.mark.parametrize(
    ("preset", "players"), [("standard", 2), ("standard", 4), ("fundex", 3), ("double-9", 2)]
)
def test_playouts_reach_the_end_with_plans_the_hands_can_lay(preset: str, players: int) -> None:
    checks = 0
    for seed in range(12):
        rnd = _deal(preset, players, seed)
        policy = _Checked()
        scores = playout(rnd, random.Random(seed), policy)
        assert rnd.result is not None and scores == rnd.result.scores
        checks += policy.checks
    assert checks > 100


def test_a_playout_is_a_function_of_the_position_and_the_seed() -> None:
    start = _deal("standard", 2, 3)
    runs = {playout(start.copy(), random.Random(9)) for _ in range(3)}
    assert len(runs) == 1
    # Other seeds play differently somewhere (the jitter breaks near-ties).
    assert len({playout(start.copy(), random.Random(s)) for s in range(20)}) > 1


def test_the_policy_follows_its_plan_and_sheds_elsewhere() -> None:
    # Own train ends in 5: 5-3 3-8 8-1 is the plan; 5-9 fits the Mexican Train too.
    rnd = table(
        ["5-3 3-8 8-1 5-9", "11-0 10-2 9-1 7-0 6-0 4-4 2-0 10-10"],
        {"@1": "12-5", "mexican": "12-7 7-5"},
    )
    move = rollout_move(round_view(rnd, 0), random.Random(0))
    assert str(move) in {"5-3 @1", "9-5 mexican"}
    assert str(move) != "9-5 @1"


def test_its_moves_do_not_depend_on_the_hidden_tiles() -> None:
    rng = random.Random(2)
    checked = 0
    for seed in range(6):
        rnd = _deal("standard", 2, seed)
        step = 0
        while rnd.result is None:
            seat = rnd.current
            view = round_view(rnd, seat)
            move = rollout_move(view, random.Random(step))
            if len(view.legal) > 1:
                twin = rnd.copy()
                pool = twin.hands[1 - seat] + twin.boneyard
                rng.shuffle(pool)
                n = len(twin.hands[1 - seat])
                twin.hands[1 - seat], twin.boneyard = pool[:n], pool[n:]
                twin.reindex()
                assert rollout_move(round_view(twin, seat), random.Random(step)) == move
                checked += 1
            applied = rnd.apply(move)
            step += 1
            if rnd.rules.knock and applied.turn_over and rnd.knock_window is not None:
                rnd.apply(KNOCK, rnd.knock_window)
    assert checked > 50
