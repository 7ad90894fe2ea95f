"""The Hard player's documented behaviours, each shown by a fixed position."""

from __future__ import annotations

import random

import pytest

from bot.engine import MEXICAN, Play, parse_move
from bot.engine.ai import REASONS, Level, choose_move, hard, hint
from bot.engine.ai.knowledge import read_view
from bot.engine.tiles import parse_tiles
from bot.engine.view import round_view

from .helpers import table

OPPONENT = "11-0 10-2 9-1 7-0 6-0 4-4 2-0 10-10"


def _hard(rnd: object, seat: int = 0) -> str:
    view = round_view(rnd, seat)  # type: ignore[arg-type]
    return str(choose_move(view, Level.HARD, 0))


def test_plays_a_double_it_can_satisfy_and_then_satisfies_it() -> None:
    # Own train ends in 6; 6-6 then 6-2 lays two tiles this turn.
    rnd = table(["6-6 6-2 11-10 2-1", OPPONENT], {"@1": "12-6", "mexican": "12-9"})
    view = round_view(rnd, 0)
    advice = hint(view)
    assert str(advice.move) == "6-6 @1"
    assert advice.reason == "double-combo"
    rnd.apply(advice.move, 0)
    # Mid-turn: the double must be satisfied, and Hard does.
    assert _hard(rnd) == "6-2 @1"


def test_does_not_lay_a_double_it_cannot_satisfy() -> None:
    # 9-9 fits the Mexican Train but nothing in hand follows it; 5-2 is a plain play.
    rnd = table(["9-9 5-2 2-1", OPPONENT], {"@1": "12-5", "mexican": "12-9"})
    assert _hard(rnd) != "9-9 mexican"


def test_closes_its_own_marker() -> None:
    # Marker up on its own train; 4-8 fits the Mexican Train just as well.
    rnd = table(
        ["5-3 3-8 4-8 1-0", OPPONENT],
        {"@1": "12-5", "mexican": "12-4"},
        marked=("@1",),
    )
    advice = hint(round_view(rnd, 0))
    assert advice.move == Play(parse_tiles("5-3")[0], 0)
    assert advice.reason == "close-marker"


def test_keeps_its_planned_train_and_sheds_elsewhere() -> None:
    # Own train ends in 5: 5-3 3-8 8-1 is the plan. 5-9 fits both trains; it goes on the
    # Mexican Train so the plan stays whole.
    rnd = table(["5-3 3-8 8-1 5-9", OPPONENT], {"@1": "12-5", "mexican": "12-7 7-5"})
    advice = hint(round_view(rnd, 0))
    assert advice.train == parse_tiles("5-3 3-8 8-1")
    assert advice.move == Play(parse_tiles("5-9")[0], MEXICAN)
    assert advice.reason in {"keep-plan", "block"}


def test_sheds_heavy_tiles_when_an_opponent_is_nearly_out() -> None:
    # The opponent holds one tile: 11-10 (21 pips) goes first, though 5-3 would continue
    # its own train.
    hand = "5-3 3-1 11-10"
    calm = table([hand, OPPONENT], {"@1": "12-5", "mexican": "12-8 8-11"})
    late = table([hand, "11-0"], {"@1": "12-5", "mexican": "12-8 8-11"})
    assert _hard(late) == "11-10 mexican"
    assert hint(round_view(late, 0)).reason == "dump-heavy"
    # With the opponent far from out there is no hurry, and the reason says so.
    assert hint(round_view(calm, 0)).reason != "dump-heavy"


def test_reads_a_draw_as_a_missing_suit() -> None:
    # Seat 2 drew facing its own train's 7 and the Mexican Train's 9, then passed.
    rnd = table(
        ["5-3 3-8 9-4 9-7", OPPONENT],
        {"@1": "12-5", "@2": "12-7", "mexican": "12-9"},
        log=[(0, "12-5 @1"), (1, "12-7 @2"), (0, "12-9 mexican"), (1, "draw"), (1, "pass")],
    )
    view = round_view(rnd, 0)
    know = read_view(view)
    assert {7, 9} <= set(know.lacks[1])
    assert know.holds_suit(1, 7, view.hand_counts) < 0.05
    # So Hard leaves the Mexican Train ending in 7 (9-7), a suit the opponent lacks,
    # rather than in 4 (9-4).
    assert _hard(rnd) == "9-7 mexican"


def test_hint_explains_and_shows_the_train() -> None:
    rnd = table(["5-3 3-8 8-1 12-0", OPPONENT], {"@1": "12-5"})
    advice = hint(round_view(rnd, 0))
    assert advice.text == REASONS[advice.reason]
    assert advice.train == parse_tiles("5-3 3-8 8-1")
    assert advice.move in round_view(rnd, 0).legal


def test_decisions_do_not_depend_on_hidden_tiles() -> None:
    """Swapping the unseen tiles between the opponent's hand and the boneyard changes nothing."""
    rnd = table(["5-3 3-8 9-4 9-7 6-6 6-1", OPPONENT], {"@1": "12-5", "mexican": "12-9"})
    before = [_hard(rnd, 0) for _ in range(2)]
    rng = random.Random(3)
    for _ in range(5):
        pool = rnd.hands[1] + rnd.boneyard
        rng.shuffle(pool)
        rnd.hands[1], rnd.boneyard = pool[: len(rnd.hands[1])], pool[len(rnd.hands[1]) :]
        rnd.reindex()
        assert _hard(rnd, 0) == before[0]
    assert parse_move(before[0]) in round_view(rnd, 0).legal


def test_keeps_its_own_train_alive(monkeypatch: pytest.MonkeyPatch) -> None:
    # Own train ends in 5; 5-9 or 5-2 goes there. Every other 9 is on the table, so after
    # 5-9 nothing could ever follow it; plenty of 2s are still unseen. Hard leaves the live
    # end, though 5-9 would shed more pips.
    rnd = table(
        ["5-9 5-2 0-3 1-4", "6-1 7-2 8-0 10-4 11-6"],
        {
            "@1": "12-5",
            "@2": "12-2 2-9",
            "mexican": "12-9 9-9 9-0 0-1 1-9 9-3 3-4 4-9 9-6 6-7 7-9 9-8 8-10 10-9 9-11",
        },
    )
    assert _hard(rnd) == "5-2 @1"
    # The pips alone would have chosen the other tile.
    monkeypatch.setattr(hard, "LIVE", 0.0)
    assert _hard(rnd) == "9-5 @1"


def test_a_hint_never_plans_the_tile_it_plays_elsewhere() -> None:
    """Across whole rounds played by hints: a tile the hint plays off its own train is not in
    the train plan shown beside it, and a reason that calls the tile one "your own train
    cannot use" is never given for a planned tile. (A hint once called 12-2 "a tile your own
    train cannot use", then showed a plan containing 12-2.)"""
    from bot.engine import Round, Rules
    from bot.engine.match import Match

    elsewhere = 0
    rules = Rules()
    names = ["A", "B", "C"]
    for seed in range(12):
        rnd = Round.deal(rules, names, 0, Match(rules, names).shuffle(random.Random(seed)))
        for _ in range(400):
            if rnd.result is not None:
                break
            view = round_view(rnd, rnd.current)
            advice = hint(view)
            move = advice.move
            if isinstance(move, Play) and move.train != view.seat:
                elsewhere += 1
                assert move.tile not in advice.train, (str(move), advice.reason, advice.train)
            if advice.reason in {"keep-plan", "start-mexican", "dump-heavy"}:
                assert isinstance(move, Play) and move.tile not in advice.train
            rnd.apply(move, rnd.current)
    assert elsewhere > 50


def test_turn_values_rank_the_plays_hard_chooses_from() -> None:
    rnd = table(["5-3 3-8 8-1 5-9", OPPONENT], {"@1": "12-5", "mexican": "12-7 7-5"})
    view = round_view(rnd, 0)
    ranked = hard.turn_values(view, random.Random(0))
    assert {m for m, _ in ranked} == set(view.legal)
    values = [v for _, v in ranked]
    assert values == sorted(values, reverse=True)
    # Outside an endgame, the best value is Hard's move.
    assert ranked[0][0] == choose_move(view, Level.HARD, 0)
    # A forced move is no contest.
    forced = table(["5-3 11-11", OPPONENT], {"@1": "12-5", "mexican": "12-7"})
    assert hard.turn_values(round_view(forced, 0), random.Random(0)) == []
