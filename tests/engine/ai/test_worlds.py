"""Worlds dealt from a seat's view: consistent with what it saw, blind to the real deal."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bot.engine import KNOCK, PRESETS, Match, Round
from bot.engine.ai import Level, choose_move
from bot.engine.ai.knowledge import read_view
from bot.engine.ai.likelihood import likely_worlds, weighted_worlds
from bot.engine.ai.worlds import consistent, sample_worlds, world_round
from bot.engine.view import round_view
from tests.engine.ai.helpers import rehide


def _positions(preset: str, players: int, seeds: range, every: int = 7) -> Iterator[Round]:
    """Positions from Normal-played rounds, every few moves (draws and passes included)."""
    rules = PRESETS[preset]
    names = [f"P{i + 1}" for i in range(players)]
    for seed in seeds:
        match = Match(rules, names)
        rnd = Round.deal(rules, names, 0, match.shuffle(random.Random(seed)))
        step = 0
        while rnd.result is None:
            if step % every == every - 1:
                yield rnd
            view = round_view(rnd, rnd.current)
            applied = rnd.apply(choose_move(view, Level.NORMAL, seed * 1000 + step))
            step += 1
            window = rnd.knock_window
            if rules.knock and applied.turn_over and window is not None and rnd.result is None:
                rnd.apply(KNOCK, window)


@pytest.mark.parametrize("players", [2, 4])
def test_worlds_do_not_depend_on_the_real_hidden_deal(players: int) -> None:
    rng = random.Random(11)
    checked = unequal = 0
    for rnd in _positions("standard", players, range(6)):
        seat = rnd.current
        view = round_view(rnd, seat)
        twin = rehide(rnd, seat, rng)
        assert twin.hands != rnd.hands or twin.boneyard != rnd.boneyard
        twin_view = round_view(twin, seat)
        assert twin_view == view  # the seat cannot tell the two apart...
        # ...and neither can its worlds, nor their weights by the opponents' plays.
        assert sample_worlds(twin_view, 4, seed=5) == sample_worlds(view, 4, seed=5)
        weighted = weighted_worlds(view, 6, seed=5)
        assert weighted_worlds(twin_view, 6, seed=5) == weighted
        assert likely_worlds(twin_view, 3, seed=5) == likely_worlds(view, 3, seed=5)
        unequal += len({w for _, w in weighted}) > 1
        checked += 1
    assert checked >= 20
    assert unequal >= 5  # the weights did weigh: the same weights both times


def test_the_real_deal_is_always_a_possible_world() -> None:
    """The suits' limits never rule out what really happened (else worlds would be wrong)."""
    checked = 0
    for preset, players in (("standard", 2), ("standard", 3), ("fundex", 4)):
        for rnd in _positions(preset, players, range(8), every=3):
            view = round_view(rnd, rnd.current)
            assert consistent(view, read_view(view), tuple(map(tuple, rnd.hands)))
            checked += 1
    assert checked > 300


def test_worlds_keep_the_view_and_its_limits() -> None:
    checked = limited = 0
    for rnd in _positions("standard", 3, range(5), every=4):
        seat = rnd.current
        view = round_view(rnd, seat)
        know = read_view(view)
        worlds = sample_worlds(view, 6, seed=checked)
        for w in worlds:
            assert w.consistent
            assert w.hands[seat] == view.hand
            assert tuple(len(h) for h in w.hands) == view.hand_counts
            assert len(w.boneyard) == view.boneyard_count
            hidden = [t for s, h in enumerate(w.hands) if s != seat for t in h]
            assert sorted(hidden + list(w.boneyard)) == sorted(know.unseen)
            assert consistent(view, know, w.hands)
            # A playable round: the seat's moves there are the moves it sees.
            assert list(world_round(view, w).legal_list()) == list(view.legal)
        # Worlds differ from one another (the hidden tiles really are dealt afresh).
        assert (
            len({w.hands for w in worlds}) > 1
            or view.boneyard_count + sum(view.hand_counts) - view.hand_counts[seat] <= 1
        )
        limited += any(know.lacks[s] for s in range(view.players))
        checked += 1
    assert checked > 30 and limited > 10


def test_a_seat_that_drew_facing_a_suit_is_dealt_none_of_it() -> None:
    """Seen in the worlds: a seat that drew with no draw since holds none of those suits."""
    found = 0
    for rnd in _positions("standard", 2, range(10), every=2):
        seat = rnd.current
        view = round_view(rnd, seat)
        know = read_view(view)
        other = 1 - seat
        fresh = {pip for pip, drawn in know.lacks[other].items() if drawn == 0}
        if not fresh:
            continue
        for w in sample_worlds(view, 5, seed=1):
            assert not any(t.high in fresh or t.low in fresh for t in w.hands[other])
        found += 1
    assert found >= 5
