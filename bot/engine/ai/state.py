"""A playable :class:`Round` rebuilt from one seat's view, for searching the seat's own turn.

The engine already knows every rule and house rule, so the Hard player asks it what may follow
a move instead of re-deriving doubles, chains and fast starts. The view does not show other
hands or the boneyard, so they are filled from the unseen tiles in a seeded random order: the
search only ever looks ahead within the viewer's own turn and judges the result by the
viewer's hand and the public table, so nothing depends on those stand-in tiles.
"""

from __future__ import annotations

import random

from bot.engine.errors import EngineError
from bot.engine.moves import MEXICAN, Catch, Knock, Play
from bot.engine.round import Round
from bot.engine.tiles import Tile
from bot.engine.view import SeatView


def round_from_view(view: SeatView, unseen: tuple[Tile, ...], rng: random.Random) -> Round:
    """A round in the same public state, with the viewer's hand and stand-ins elsewhere."""
    if view.seat is None or view.hand is None:
        raise EngineError("a spectator has no hand to play", "spectator")
    pool = list(unseen)
    rng.shuffle(pool)
    hands: list[list[Tile]] = []
    for s in range(view.players):
        shown = view.visible_hands[s]
        if shown is not None:
            hands.append(list(shown))
        else:
            n = view.hand_counts[s]
            hands.append(pool[:n])
            del pool[:n]
    return round_with_hands(view, hands, pool[: view.boneyard_count])


def round_with_hands(view: SeatView, hands: list[list[Tile]], boneyard: list[Tile]) -> Round:
    """A round in ``view``'s public state with these hands and this boneyard (the next draw
    last): a world dealt by :mod:`bot.engine.ai.worlds`, or stand-ins."""
    seat = view.seat
    if seat is None or view.hand is None:
        raise EngineError("a spectator has no hand to play", "spectator")
    players = view.players
    # The log is left out (copying it at every searched position costs time): the passes it
    # holds change only *when* a blocked round ends, never how it scores (see endgame._key).
    rnd = Round(view.rules, view.names, view.round_no, view.engine, view.engine_version)
    rnd.hands = hands
    rnd.reindex()
    rnd.boneyard = boneyard
    refs = [*range(players), MEXICAN]
    for ref, tv in zip(refs, view.trains, strict=True):
        tr = rnd.trains[ref]
        tr.tiles = list(tv.tiles)
        tr.end = tv.end
        tr.marked = tv.marked
        for t in tv.tiles:
            rnd.table_pips[t.high] += 1
            if t.low != t.high:
                rnd.table_pips[t.low] += 1
    blocking = sorted(
        (tv.open_double, ref)
        for ref, tv in zip(refs, view.trains, strict=True)
        if tv.open_double is not None
    )
    rnd.open_doubles = [ref for _, ref in blocking]
    rnd.current = seat
    rnd.drawn = view.turn_drawn
    rnd.turn_plays = view.turn_plays
    rnd.fast = view.fast_start
    this_turn, earlier = _turn_history(view, seat)
    rnd.turn_doubles = [p.train for p in this_turn if p.tile.is_double]
    # Only "has this seat had a turn yet" matters to the rules; others are past theirs or not,
    # which matters only when judging whether anyone can still play at all.
    rnd.turns_taken = [1] * players
    rnd.turns_taken[seat] = 1 if earlier else 0
    return rnd


def _turn_history(view: SeatView, seat: int) -> tuple[list[Play], bool]:
    """The plays of the viewer's current turn, and whether it had a turn before this one."""
    moves = [e for e in view.log if not isinstance(e.move, Knock | Catch)]
    i = len(moves)
    while i > 0 and moves[i - 1].seat == seat:
        i -= 1
    current = [e.move for e in moves[i:] if isinstance(e.move, Play)]
    if view.turn_plays < len(current):
        current = current[len(current) - view.turn_plays :]
    earlier = any(e.seat == seat for e in moves[:i])
    return current, earlier
