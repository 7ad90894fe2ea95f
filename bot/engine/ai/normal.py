"""The Normal computer player: sensible greedy play, one move at a time.

It sheds heavy tiles, lays a double only when it holds a tile to satisfy it (and then
satisfies it), keeps its own train going (above all when its marker is up), and starts the
Mexican Train when it can. It does not plan ahead or watch its opponents.
"""

from __future__ import annotations

import random

from bot.engine.moves import MEXICAN, Move, Play
from bot.engine.rules import DoubleRule
from bot.engine.view import SeatView


def normal_move(view: SeatView, rng: random.Random) -> Move:
    plays = [m for m in view.legal if isinstance(m, Play)]
    if not plays:
        return view.legal[0]
    seat = view.seat
    hand = view.hand or ()
    own = view.trains[seat] if seat is not None else None

    def score(move: Play) -> float:
        t = move.tile
        value = float(t.pips)
        if t.is_double:
            # Can another tile in hand follow it?
            follow = any(o != t and o.has(t.high) for o in hand)
            if follow or view.rules.double_rule is not DoubleRule.SATISFY:
                value += 30
            else:
                value -= 20
        if move.train == MEXICAN and not view.mexican.started:
            value += 8
        if move.train == seat:
            value += 2
            if own is not None and own.marked:
                value += 6
        return value + rng.random() * 0.01

    # A fast start goes on while a tile fits: stopping early only keeps tiles in hand.
    return max(plays, key=score)
