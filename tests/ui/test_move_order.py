"""Where a player can play is listed in the order their hand is shown (highest tile first).

The engine lists legal moves in its own order; written beside the sorted hand line they read
as shuffled ("12-8 12-6 12-11 12-4 12-0" under a hand shown "12-11 12-8 12-6 ..."). A turn DM
(``hand_lines``), the channel's private answer and ``/play``'s autocomplete all read
:func:`~bot.ui.messages.plays_by_tile`."""

from __future__ import annotations

import random

import pytest

from bot.engine import Match, Play, Rules, SeatView, view_for
from bot.engine.simulate import random_move
from bot.ui.messages import plays_by_tile
from bot.ui.options import TrainOption, WhichTrain


def _turn_views() -> list[SeatView]:
    """The player to move's own view at many points of many rounds (2 to 6 players)."""
    views = []
    for seed in range(10):
        rng = random.Random(seed)
        players = 2 + seed % 5
        m = Match(Rules(max_pip=12), [f"P{i + 1}" for i in range(players)])
        m.start_round(m.shuffle(rng))
        for _ in range(120):
            assert m.round is not None
            if m.round.result is not None:
                break
            views.append(view_for(m, m.round.current))
            m.apply(random_move(m.round, rng))
    return views


def test_playable_tiles_come_in_the_hands_order_with_every_legal_play() -> None:
    seen_several = 0
    for view in _turn_views():
        plays = plays_by_tile(view)
        tiles = list(plays)
        assert tiles == sorted(tiles, reverse=True), (view.hand, tiles)
        legal = {(m.tile, m.train) for m in view.legal if isinstance(m, Play)}
        assert {(t, train) for t, trains in plays.items() for train in trains} == legal
        seen_several += len(tiles) > 2
    assert seen_several > 50  # the order was really put to the test


def test_a_tile_s_trains_are_found_once_for_a_typed_move() -> None:
    """``TrainOption.move`` is the one place a typed tile's trains are found: a tile alone
    plays on its only train, and a tile that fits several is refused with those trains, which
    the terminal game names its example from (it once found them a second time)."""
    several = 0
    for view in _turn_views():
        for tile, trains in plays_by_tile(view).items():
            if len(trains) == 1:
                assert TrainOption.move(view, tile, None) == Play(tile, trains[0])
                continue
            several += 1
            with pytest.raises(WhichTrain) as refused:
                TrainOption.move(view, tile, None)
            assert refused.value.trains == trains
            assert refused.value.key == "error.which-train"
            assert refused.value.params == {"tile": str(tile)}
    assert several > 10
