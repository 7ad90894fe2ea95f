"""Heads-up endgames: the exact search, the worlds it deals, and the Hard player using them.

Positions come from seeded Normal-against-Normal rounds stopped once the boneyard is short, so
they are the endgames real rounds reach, under several rule sets.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from bot.engine import KNOCK, PRESETS, Match, Round, Rules
from bot.engine.ai import Level, choose_move, endgame, hint
from bot.engine.ai.knowledge import read_view
from bot.engine.moves import Move
from bot.engine.rules import DoubleRule
from bot.engine.view import round_view

from .test_legal import CASES

RULE_SETS = {
    "standard": PRESETS["standard"],
    "chain": Rules(double_rule=DoubleRule.CHAIN),
    "any-open-train": Rules(double_rule=DoubleRule.ANY_OPEN_TRAIN),
    "no-release": Rules(release_unsatisfiable_doubles=False),
    "no-go-out-on-double": Rules(go_out_on_double=False),
    "double-9": PRESETS["double-9"],
}


def _endgames(rules: Rules, boneyard: int, seeds: range) -> Iterator[Round]:
    """For each seed, a heads-up round played by two Normal players until at most
    ``boneyard`` tiles are left to draw and the player to move has a choice (rounds that end
    sooner give nothing)."""
    for seed in seeds:
        rng = random.Random(seed)
        order = Match(rules, ["A", "B"]).shuffle(rng)
        rnd = Round.deal(rules, ["A", "B"], 0, order)
        step = 0
        while rnd.result is None and (len(rnd.boneyard) > boneyard or len(rnd.legal_list()) < 2):
            move = choose_move(round_view(rnd, rnd.current), Level.NORMAL, seed * 1_000 + step)
            rnd.apply(move)
            step += 1
        if rnd.result is None:
            yield rnd


def _minimax(rnd: Round, seat: int) -> int:
    """The round's outcome for ``seat`` under perfect play, by plain minimax: no pruning,
    no table, nothing shared with the module under test but the engine."""
    if rnd.result is not None:
        mine, theirs = rnd.result.scores[seat], rnd.result.scores[1 - seat]
        return (mine < theirs) - (mine > theirs)
    values = []
    for m in rnd.legal_list():
        child = rnd.copy()
        child.apply_unchecked(m, rnd.current)
        values.append(_minimax(child, seat))
    return max(values) if rnd.current == seat else min(values)


def _small(rnd: Round) -> bool:
    return sum(len(h) for h in rnd.hands) + len(rnd.boneyard) <= 9


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_the_search_agrees_with_plain_minimax(name: str) -> None:
    checked = 0
    for rnd in _endgames(RULE_SETS[name], 2, range(400)):
        if not _small(rnd):
            continue
        seat = rnd.current
        moves = rnd.legal_list()
        solved = endgame.solve(rnd, seat, moves, budget=1_000_000)
        assert solved is not None
        for m in moves:
            child = rnd.copy()
            child.apply_unchecked(m, seat)
            assert solved[m] == _minimax(child, seat), f"{m} in\n{rnd.hands} {rnd.boneyard}"
        checked += 1
        if checked == 12:
            break
    assert checked >= 5, "too few small endgames to check: widen the seeds"


def test_hard_never_lets_a_won_endgame_go() -> None:
    """With the boneyard empty nothing is hidden: whenever a move wins the round against any
    defence, Hard plays a winning move; the heuristic alone does not always."""
    rules = PRESETS["standard"]
    positions = won = heuristic_missed = 0
    for rnd in _endgames(rules, 0, range(900)):
        seat = rnd.current
        view = round_view(rnd, seat)
        moves = list(view.legal)
        solved = endgame.solve(rnd, seat, moves, budget=200_000)
        if solved is None or len(set(solved.values())) == 1:
            continue
        positions += 1
        best = max(solved.values())
        assert solved[choose_move(view, Level.HARD, 0)] == best
        advice = hint(view)
        assert solved[advice.move] == best
        if best == endgame.WIN:
            won += 1
        if solved[_heuristic_move(view)] < best:
            heuristic_missed += 1
            assert advice.reason == "endgame"
    assert positions >= 20 and won >= 10
    assert heuristic_missed >= 1, "no position where the search beats the heuristic"


def _heuristic_move(view: object) -> Move:
    saved = endgame.NODES
    endgame.NODES = 0  # no budget: every world is left out and the heuristic decides alone
    try:
        return choose_move(view, Level.HARD, 0)  # type: ignore[arg-type]
    finally:
        endgame.NODES = saved


def test_worlds_keep_the_tiles_and_respect_the_suits_a_draw_showed() -> None:
    rules = PRESETS["standard"]
    for rnd in _endgames(rules, 8, range(40)):
        if len(rnd.boneyard) < 4:
            continue
        seat, other = rnd.current, 1 - rnd.current
        hidden = Counter([*rnd.hands[other], *rnd.boneyard])
        # Say the opponent showed it lacks a suit it truly lacks, and has not drawn since.
        held = {p for t in rnd.hands[other] for p in (t.high, t.low)}
        lacking = [p for p in range(rules.max_pip + 1) if p not in held]
        lacks = {lacking[0]: 0} if lacking else {}
        for w in range(5):
            world = endgame._deal(rnd, other, lacks, random.Random(w), hidden=True)
            assert Counter([*world.hands[other], *world.boneyard]) == hidden
            assert len(world.hands[other]) == len(rnd.hands[other])
            assert world.hands[seat] == rnd.hands[seat]
            for pip in lacks:
                assert not any(pip in (t.high, t.low) for t in world.hands[other])
            # The index the engine finds plays with is rebuilt for the new hand.
            for pip in range(rules.max_pip + 1):
                assert sorted(world.by_pip[other][pip]) == sorted(
                    t for t in world.hands[other] if pip in (t.high, t.low)
                )
        # Under open hands the opponent's hand stays as it is; only the draw order is dealt.
        world = endgame._deal(rnd, other, {}, random.Random(1), hidden=False)
        assert world.hands[other] == rnd.hands[other]
        assert sorted(world.boneyard) == sorted(rnd.boneyard)


def test_out_of_budget_leaves_the_choice_to_the_heuristic() -> None:
    rnd = next(_endgames(PRESETS["standard"], 6, range(10)))
    seat = rnd.current
    moves = rnd.legal_list()
    assert endgame.solve(rnd, seat, moves, budget=0) is None
    know = read_view(round_view(rnd, seat))
    assert endgame.judge(rnd, seat, moves, know.lacks[1 - seat], random.Random(0)) is not None
    # And with no budget at all Hard still makes a legal move.
    view = round_view(rnd, seat)
    assert _heuristic_move(view) in view.legal


def test_only_heads_up_rounds_without_knocking_qualify() -> None:
    standard = next(_endgames(PRESETS["standard"], 0, range(50)))
    assert endgame.applies(standard)
    fundex = next(_endgames(PRESETS["fundex"], 0, range(50)))
    assert fundex.rules.knock and not endgame.applies(fundex)
    rules = PRESETS["standard"]
    names = ["A", "B", "C"]
    three = Round.deal(rules, names, 0, Match(rules, names).shuffle(random.Random(1)))
    three.boneyard.clear()
    assert not endgame.applies(three)


@pytest.mark.parametrize("name", sorted(n for n, r in CASES.items() if r.player_range[0] <= 2))
def test_hard_heads_up_plays_only_legal_moves(name: str) -> None:
    """Heads-up is where the endgame search runs, so play Hard against Hard to the end under
    every preset and house rule that seats two (all of them today), checking each move."""
    rules = CASES[name]
    for seed in range(2):
        order = Match(rules, ["A", "B"]).shuffle(random.Random(seed))
        rnd = Round.deal(rules, ["A", "B"], 0, order)
        step = 0
        while rnd.result is None:
            view = round_view(rnd, rnd.current)
            move = choose_move(view, Level.HARD, seed * 1_000 + step)
            assert move in view.legal
            applied = rnd.apply(move)
            step += 1
            window = rnd.knock_window
            if rules.knock and applied.turn_over and window is not None and rnd.result is None:
                rnd.apply(KNOCK, window)


def test_endgame_decisions_do_not_depend_on_where_the_hidden_tiles_really_are() -> None:
    """The worlds are dealt from the seat's knowledge, never from the true hidden hands."""
    rng = random.Random(7)
    checked = 0
    for rnd in _endgames(PRESETS["standard"], 6, range(80)):
        if len(rnd.boneyard) < 2:
            continue
        seat, other = rnd.current, 1 - rnd.current
        before = choose_move(round_view(rnd, seat), Level.HARD, 3)
        for _ in range(3):
            pool = rnd.hands[other] + rnd.boneyard
            rng.shuffle(pool)
            size = len(rnd.hands[other])
            rnd.hands[other], rnd.boneyard = pool[:size], pool[size:]
            rnd.reindex()
            assert choose_move(round_view(rnd, seat), Level.HARD, 3) == before
        checked += 1
    assert checked >= 10
