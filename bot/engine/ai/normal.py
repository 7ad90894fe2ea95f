"""The Normal computer player: sensible greedy play, one move at a time.

It sheds heavy tiles (heavy by the table's scoring: a blank under the Fundex blanks, the 0-0
when the double blank scores 50), lays a double only when it holds a tile to satisfy it (and
then satisfies it), keeps its own train going (it will not spend elsewhere the only tile that
fits its own train, and on its train it prefers a tile that leaves an end it can follow), takes
its marker down, and starts the Mexican Train when it can. It looks one tile ahead, no further,
and does not watch its opponents.
"""

from __future__ import annotations

import random

from bot.engine.ending import tile_score
from bot.engine.moves import MEXICAN, Move, Play
from bot.engine.rules import DoubleRule
from bot.engine.view import SeatView

#: How a play is ranked: what the tile would score left in hand (its pips under the standard
#: scoring) times PIP_WEIGHT, plus the points below.
PIP_WEIGHT = 0.5
#: Once an opponent is down to one or two tiles, heavy tiles go first.
LATE_PIP_WEIGHT = 1.5
SATISFIABLE_DOUBLE = 30.0
UNSATISFIABLE_DOUBLE = -20.0
START_MEXICAN = 8.0
OWN_TRAIN = 2.0
CLOSE_MARKER = 6.0
#: A tile on its own train that leaves an end it can follow. A light preference, weighed
#: against the pips: at 15 it outranked nearly everything, and Normal played so much of Hard's
#: own-train plan that the two levels were barely apart (Hard won 59-61 % of heads-up rounds;
#: at 4, 63 %, while Normal still beats Easy 69 % of the time; docs/computer-players.md).
KEEPS_GOING = 4.0
LAST_FOR_OWN = 20.0
ELSEWHERE = 8.0


def normal_move(view: SeatView, rng: random.Random) -> Move:
    plays = [m for m in view.legal if isinstance(m, Play)]
    if not plays:
        return view.legal[0]
    seat = view.seat
    hand = view.hand or ()
    own = view.trains[seat] if seat is not None else None
    own_end = own.end if own is not None else -1
    fits_own = [t for t in hand if t.has(own_end)]
    others = [c for s, c in enumerate(view.hand_counts) if s != seat]
    pip_weight = PIP_WEIGHT if not others or min(others) > 2 else LATE_PIP_WEIGHT

    def score(move: Play) -> float:
        t = move.tile
        value = pip_weight * tile_score(t, view.rules.scoring)
        if t.is_double:
            # Can another tile in hand follow it?
            follow = any(o != t and o.has(t.high) for o in hand)
            if follow or view.rules.double_rule is not DoubleRule.SATISFY:
                value += SATISFIABLE_DOUBLE
            else:
                value += UNSATISFIABLE_DOUBLE
        if move.train == MEXICAN and not view.mexican.started:
            value += START_MEXICAN
        if move.train == seat:
            value += OWN_TRAIN
            if own is not None and own.marked:
                value += CLOSE_MARKER
            after = t.other(own_end)
            if any(o != t and o.has(after) for o in hand):
                value += KEEPS_GOING
        elif fits_own == [t]:
            value -= LAST_FOR_OWN
        elif not t.has(own_end):
            value += ELSEWHERE
        return value + rng.random() * 0.01

    # A fast start goes on while a tile fits: stopping early only keeps tiles in hand.
    return max(plays, key=score)
