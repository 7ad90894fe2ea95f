"""A review's verdict on a decision comes from what its player could see: the same view with
the hidden tiles dealt otherwise gives the same finding (issue 49: never the others' true
hands). Few worlds and every positive gain reported, so verdicts exist to compare."""

from __future__ import annotations

import dataclasses
import random

from bot.engine import PRESETS, Match, Round, view_for
from bot.engine.ai import Level, choose_move
from bot.engine.ai import review as rv
from bot.engine.view import round_view
from tests.engine.ai.helpers import rehide

LOOSE = rv.ReviewSettings(worlds=6, screen=3, others=2, z=0.0, luck_deals=1, budget_s=None)


def test_a_verdict_does_not_depend_on_the_hidden_tiles() -> None:
    rules = PRESETS["standard"]
    names = ["A", "B", "C"]
    rng = random.Random(8)
    compared = found = 0
    for seed in range(2):
        rnd = Round.deal(rules, names, 0, Match(rules, names).shuffle(random.Random(seed)))
        step = 0
        while rnd.result is None and step < 40:
            seat = rnd.current
            view = round_view(rnd, seat)
            move = choose_move(view, Level.EASY, step)
            if len(view.legal) > 1:
                twin = rehide(rnd, seat, rng)
                assert round_view(twin, seat) == view and twin.hands != rnd.hands
                verdicts = []
                for r in (rnd, twin):
                    d = rv._decision(step, 1, round_view(r, seat), move, LOOSE)
                    verdicts.append(
                        rv._examine(d, LOOSE, step, None, None) if d.candidates else None
                    )
                assert verdicts[0] == verdicts[1]
                compared += 1
                found += verdicts[0] is not None
            rnd.apply(move)
            step += 1
    assert compared >= 20 and found >= 3


def test_past_its_budget_a_review_stops_and_says_how_far_it_got() -> None:
    rules = PRESETS["quick"]
    names = ["A", "B"]
    match = Match(rules, names)
    match.start_round(match.shuffle(random.Random(2)))
    step = 0
    while not match.is_over:
        seat = match.current_seat
        assert seat is not None
        match.apply(choose_move(view_for(match, seat), Level.EASY, step), seat)
        step += 1
    ticks = iter(range(10**6))
    budget = dataclasses.replace(LOOSE, budget_s=30.0)  # a clock that ticks a second a look
    cut = rv.review_seat(rules, names, match.events, 0, settings=budget, clock=lambda: next(ticks))
    full = rv.review_seat(rules, names, match.events, 0, settings=LOOSE)
    assert 0 < cut.examined < cut.decisions == full.decisions and not cut.complete
    assert full.complete and set(cut.findings) <= set(full.findings)
