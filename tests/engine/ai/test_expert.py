"""The Expert (bot.engine.ai.expert, not offered yet): its moves come from the view alone, and
out of time it plays Hard's."""

from __future__ import annotations

import random

import pytest

from bot.engine import PRESETS, Match, Round
from bot.engine.ai import Level, choose_move, expert
from bot.engine.ai.hard import turn_values
from bot.engine.view import round_view
from tests.engine.ai.helpers import rehide


def test_its_decisions_do_not_depend_on_the_real_hidden_deal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(expert, "STAGES", (3, 3, 5))  # few worlds: this tests fairness
    monkeypatch.setattr(expert, "SWITCH", -100.0)  # switch on any survivor
    rules = PRESETS["standard"]
    names = ["A", "B", "C"]
    rng = random.Random(5)
    searched = switched = 0
    for seed in range(2):
        rnd = Round.deal(rules, names, 0, Match(rules, names).shuffle(random.Random(seed)))
        step = 0
        while rnd.result is None and step < 30 and searched < 6 * (seed + 1):
            seat = rnd.current
            view = round_view(rnd, seat)
            move = choose_move(view, Level.EXPERT, step)
            assert move in view.legal
            if len(turn_values(view, random.Random(step))) > 1:
                twin = rehide(rnd, seat, rng)
                assert round_view(twin, seat) == view
                assert choose_move(round_view(twin, seat), Level.EXPERT, step) == move
                searched += 1
                switched += move != choose_move(view, Level.HARD, step)
            rnd.apply(move)
            step += 1
    assert searched >= 10
    assert switched >= 1  # the search did decide something, the same way both times


def test_out_of_time_it_plays_hards_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past its budget a decision is Hard's, never a half-searched one: a clock that jumps a
    second at every look runs out at the first world, where the search would have switched."""
    monkeypatch.setattr(expert, "STAGES", (3, 3, 5))
    monkeypatch.setattr(expert, "SWITCH", -100.0)
    rules = PRESETS["standard"]
    names = ["A", "B"]
    rnd = Round.deal(rules, names, 0, Match(rules, names).shuffle(random.Random(3)))
    ticks = iter(range(10**6))
    timed_out = 0
    for step in range(40):
        if rnd.result is not None:
            break
        view = round_view(rnd, rnd.current)
        hard = choose_move(view, Level.HARD, step)
        free = expert.search(view, step, clock=lambda: 0.0)
        rushed = choose_move(view, Level.EXPERT, step, clock=lambda: next(ticks))
        assert rushed == hard
        timed_out += free != hard
        rnd.apply(free)
    assert timed_out >= 1  # decisions where only the clock kept Hard's move


def test_the_benchmarks_play_the_engines_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """``benchmarks/ai_strength.py --only search_vs_hard`` plays the engine's Expert: the same
    move as ``choose_move`` wherever its budget does not run out (few worlds, so a search
    costs milliseconds of its 0.8 s of CPU)."""
    from benchmarks import expert_search

    monkeypatch.setattr(expert, "STAGES", (3, 3, 5))
    monkeypatch.setattr(expert, "SWITCH", -100.0)

    rules = PRESETS["standard"]
    names = ["A", "B", "C"]
    rnd = Round.deal(rules, names, 0, Match(rules, names).shuffle(random.Random(11)))
    for step in range(6):
        view = round_view(rnd, rnd.current)
        move = expert_search.search_move(view, step)
        assert move == choose_move(view, Level.EXPERT, step)
        rnd.apply(move)
