"""Computer-only matches for the rating benchmarks (``anchors.py``, ``season.py``).

A match is played with the engine alone (no store, no Discord), each seat by a computer
level, and its finishing places come out as the bot ranks a finished match: equal totals
share a place, the winners first (:func:`bot.engine.standing_places`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from bot.engine import KNOCK, Match, Rules, standing_places
from bot.engine.ai import Level, choose_move
from bot.engine.view import round_view


def play_places(rules: Rules, levels: Sequence[Level], seed: int) -> list[int]:
    """Play one match with ``levels[s]`` in seat ``s``; each seat's place (1 = first). The
    Expert is bounded by the CPU clock, as the bot's thinking workers bound it."""
    rng = random.Random(seed)
    match = Match(rules, [f"P{s + 1}" for s in range(len(levels))])
    n = 0
    while match.needs_deal:
        match.start_round(match.shuffle(rng))
        rnd = match.round
        assert rnd is not None
        while rnd.result is None:
            seat = rnd.current
            view = round_view(rnd, seat, match)
            move = choose_move(view, levels[seat], seed * 100_003 + n, clock=time.process_time)
            n += 1
            match.apply(move)
            if rules.knock and rnd.knock_window is not None and rnd.result is None:
                match.apply(KNOCK, rnd.knock_window)
    return list(standing_places(match.totals, match.winners()))
