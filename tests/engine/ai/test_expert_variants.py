"""Issue 49's variants of the Expert's search (``expert.Settings``), selectable by
``benchmarks/ai_strength.py``'s ``--search-*`` flags: each flag changes the search as meant."""

from __future__ import annotations

import argparse
import random

import pytest

from bot.engine import PRESETS, Match, Round
from bot.engine.ai import Level, choose_move, endgame, expert
from bot.engine.view import SeatView, round_view


def _views(players: int = 2, seed: int = 4, every: int = 6, count: int = 4) -> list[SeatView]:
    """Views of the seat to move, every few moves of a Hard round (the opponents have made
    plays the weighting can read)."""
    rules = PRESETS["standard"]
    names = ["A", "B", "C", "D"][:players]
    rnd = Round.deal(rules, names, 0, Match(rules, names).shuffle(random.Random(seed)))
    out: list[SeatView] = []
    step = 0
    while rnd.result is None and len(out) < count:
        view = round_view(rnd, rnd.current)
        if step >= every and step % every == 0 and view.boneyard_count > endgame.BONEYARD:
            out.append(view)
        rnd.apply(choose_move(view, Level.HARD, step))
        step += 1
    assert len(out) == count
    return out


def test_more_dealt_worlds_or_a_warmer_weighting_give_more_distinct_worlds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(expert, "STAGES", (16, 16, 16))
    views = _views(seed=4) + _views(seed=9)
    few = many = 0
    for n, view in enumerate(views):
        for dealt, into in ((2.0, "few"), (8.0, "many")):
            settings = expert.Settings(temperature=8.0, dealt=dealt)
            (worlds, _seeds), *_ = expert.candidate_worlds(view, n, settings, 1)
            assert len(worlds) == 48
            if into == "few":
                few += expert.distinct(worlds)
            else:
                many += expert.distinct(worlds)
    assert many > few
    # A warmer softmax spreads the weight: more distinct worlds from the same pool.
    cold = warm = 0
    for n, view in enumerate(views):
        for temperature in (2.0, 16.0):
            settings = expert.Settings(temperature=temperature, dealt=2.0)
            (worlds, _seeds), *_ = expert.candidate_worlds(view, n, settings, 1)
            if temperature == 2.0:
                cold += expert.distinct(worlds)
            else:
                warm += expert.distinct(worlds)
    assert warm > cold


def test_common_random_numbers_give_every_candidate_the_same_worlds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(expert, "STAGES", (4, 4, 4))
    view = _views(count=1)[0]
    common = expert.candidate_worlds(view, 3, expert.Settings(), 3)
    assert all(c is common[0] for c in common)
    apart = expert.candidate_worlds(view, 3, expert.Settings(crn=False), 3)
    assert apart[0] == common[0]  # Hard's pick keeps the Expert's own worlds and seeds
    for worlds, seeds in apart[1:]:
        assert worlds != common[0][0]
        assert seeds != common[0][1]
    assert apart[1] != apart[2]


def test_the_exact_endgame_finishes_the_playouts_only_when_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(expert, "STAGES", (1, 1, 1))
    calls: list[int] = []
    solve = endgame.solve

    def counted(rnd: Round, *args: object, **kw: object) -> object:
        calls.append(len(rnd.boneyard))
        return solve(rnd, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(endgame, "solve", counted)
    views = _views(count=3)
    for step, view in enumerate(views):
        assert view.seat is not None
        world = expert.world_round(
            view, expert.candidate_worlds(view, step, expert.OFFERED, 1)[0][0][0]
        )
        plain = expert.score(world, view.legal[0], view.seat, step)
        assert calls == []  # the Expert as offered: the policy plays every playout out
        below = len(world.boneyard) - 1
        exact = expert.score(world, view.legal[0], view.seat, step, below)
        assert calls and max(calls) <= below
        assert isinstance(plain, float) and isinstance(exact, float)
        calls.clear()


def test_the_benchmarks_flags_choose_the_variant(monkeypatch: pytest.MonkeyPatch) -> None:
    from benchmarks import ai_strength, expert_search

    parser = argparse.ArgumentParser()
    ai_strength.add_search_flags(parser)
    assert ai_strength.search_settings(parser.parse_args([])) == expert.OFFERED
    flags = "--search-temperature 8 --search-dealt 8 --search-no-crn --search-endgame 6"
    tuned = ai_strength.search_settings(parser.parse_args(flags.split()))
    assert tuned == expert.Settings(temperature=8.0, dealt=8.0, crn=False, endgame=6)
    seen: list[expert.Settings | None] = []

    def spy(view: SeatView, seed: int, **kw: object) -> object:
        seen.append(kw["settings"])  # type: ignore[arg-type]
        return view.legal[0]

    monkeypatch.setattr(expert, "search", spy)
    monkeypatch.setattr(expert_search, "SETTINGS", expert.OFFERED)
    expert_search.configure(tuned)
    view = _views(count=1)[0]
    expert_search.search_move(view, 1)
    expert_search.flat_search_move(view, 1)
    assert seen == [tuned, expert.Settings(False, 8.0, 8.0, False, 6)]


def test_deals_as_plays_another_pairings_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--deals-as search_vs_hard``: the control's rounds are the Expert's run's very deals
    (each pairing's deals are otherwise keyed by its own name)."""
    from benchmarks import ai_strength

    dealt: list[int] = []
    monkeypatch.setattr(
        ai_strength, "play", lambda rules, p, order, seed, t: dealt.append(seed) or (0, 0)
    )
    ai_strength.configure(expert.OFFERED, None)
    ai_strength.heads_up_chunk(("search_vs_hard", 0, 3, 37))
    own, dealt[:] = list(dealt), []
    ai_strength.heads_up_chunk(("flat_search_vs_hard", 0, 3, 37))
    assert dealt != own
    dealt.clear()
    ai_strength.configure(expert.OFFERED, "search_vs_hard")
    try:
        ai_strength.heads_up_chunk(("flat_search_vs_hard", 0, 3, 37))
    finally:
        ai_strength.configure(expert.OFFERED, None)
    assert dealt == own
