"""Heads-up endgames, played out exactly over the deals the hidden tiles could be in.

Late in a heads-up round little is hidden: the tiles the Hard player cannot see are its one
opponent's hand and a short boneyard. Once the boneyard is empty they are exactly the
opponent's hand, so the rest of the round is a game of perfect information with no chance in
it; before that, only a few deals of the hidden tiles are possible in any way that matters.
So the Hard player deals a few *worlds* consistent with what it knows (the opponent's count,
and the suits its draws and passes showed it lacks, which must then be in the boneyard),
solves each world exactly by minimax over the engine's own rules, and prefers the move that
wins the round in the most worlds. Its turn heuristic breaks ties, so a world where every
move wins or every move loses changes nothing.

Each world's search is bounded by a number of positions rather than by time, so a decision
is still a pure function of the view and the seed; a world that needs more is left out, and
with every world left out the heuristic decides alone. Values are only win, tie and loss, so
alpha-beta cuts off early, and a table of solved positions catches the many orders in which
the same tiles reach the same table.

Knock rules are left out (a knock window interleaves side moves with the turns), and so are
tables of three or more, where a round is not a two-sided contest any more.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.engine.moves import Move, Play
from bot.engine.round import Round

WIN = 1
TIE = 0
LOSS = -1

#: The endgame starts when the boneyard is down to this many tiles.
BONEYARD = 10
#: Worlds dealt while the boneyard still hides tiles (one world once it is empty).
WORLDS = 8
#: Positions one decision may examine, shared out between its worlds.
NODES = 4_000

_Key = tuple[object, ...]


class OutOfBudget(Exception):
    """The search examined its bound of positions without finishing."""


def applies(rnd: Round) -> bool:
    """Whether the round from here is an endgame this module plays: heads-up, no knocking,
    and at most :data:`BONEYARD` tiles left to draw."""
    return (
        rnd.players == 2
        and len(rnd.boneyard) <= BONEYARD
        and not rnd.rules.knock
        and rnd.result is None
    )


def judge(
    rnd: Round,
    seat: int,
    moves: Sequence[Move],
    lacks: dict[int, int],
    rng: random.Random,
    *,
    hidden: bool = True,
) -> dict[Move, float] | None:
    """Each of ``moves`` with its share of worlds won (a tie counts half, a loss nothing).

    ``rnd`` is the round as the seat knows it, with stand-ins for the hidden tiles;
    ``hidden`` says whether the opponent's hand is hidden (it is not under open hands).
    ``lacks`` are the suits the opponent has shown it lacks, each with how many tiles it has
    drawn since. None when no world could be solved within the budget.
    """
    other = 1 - seat
    worlds = WORLDS if rnd.boneyard else 1
    budget = NODES // worlds
    totals = dict.fromkeys(moves, 0.0)
    solved = 0
    for _ in range(worlds):
        world = _deal(rnd, other, lacks, rng, hidden) if rnd.boneyard else rnd
        values = solve(world, seat, moves, budget)
        if values is None:
            continue
        solved += 1
        for m, v in values.items():
            totals[m] += (v + 1) / 2
    if not solved:
        return None
    return {m: total / solved for m, total in totals.items()}


def _deal(rnd: Round, other: int, lacks: dict[int, int], rng: random.Random, hidden: bool) -> Round:
    """A copy of ``rnd`` with the hidden tiles dealt afresh into the opponent's hand (when
    hidden) and the boneyard's order. Tiles of a suit the opponent showed it lacks, and has
    not drawn since, go to the boneyard, unless there are too many for that to be so."""
    world = rnd.copy()
    if not hidden:
        rng.shuffle(world.boneyard)
        return world
    pool = [*rnd.hands[other], *rnd.boneyard]
    rng.shuffle(pool)
    size = len(rnd.hands[other])
    wanting = {pip for pip, drawn in lacks.items() if drawn == 0}
    absent = [t for t in pool if t.high in wanting or t.low in wanting]
    if absent and len(absent) <= len(pool) - size:
        rest = [t for t in pool if not (t.high in wanting or t.low in wanting)]
        hand, boneyard = rest[:size], rest[size:] + absent
        rng.shuffle(boneyard)
    else:
        hand, boneyard = pool[:size], pool[size:]
    world.hands[other] = hand
    world.boneyard = boneyard
    world.reindex()
    return world


def solve(rnd: Round, seat: int, moves: Sequence[Move], budget: int) -> dict[Move, int] | None:
    """Each of ``moves`` (legal for ``seat`` now) with the round's outcome for ``seat`` when
    both sides play perfectly in this fully known world, or None past ``budget`` positions."""
    search = _Search(seat, budget)
    out: dict[Move, int] = {}
    try:
        for move in moves:
            child = rnd.copy()
            child.apply_unchecked(move, seat)
            # A full window for every move: the caller wants each move's exact value.
            out[move] = search.value(child, LOSS, WIN)
    except OutOfBudget:
        return None
    return out


class _Search:
    """Alpha-beta over win, tie and loss for ``seat``, with a table of solved positions."""

    def __init__(self, seat: int, budget: int) -> None:
        self.seat = seat
        self.budget = budget
        #: Solved positions: a value, and whether it is exact (0), a floor (1) or a ceiling (-1).
        self.table: dict[_Key, tuple[int, int]] = {}

    def value(self, rnd: Round, alpha: int, beta: int) -> int:
        result = rnd.result
        if result is not None:
            mine = result.scores[self.seat]
            theirs = result.scores[1 - self.seat]
            return WIN if mine < theirs else LOSS if mine > theirs else TIE
        self.budget -= 1
        if self.budget < 0:
            raise OutOfBudget
        key = _key(rnd)
        known = self.table.get(key)
        if known is not None:
            v, kind = known
            if kind == 0 or (kind > 0 and v >= beta) or (kind < 0 and v <= alpha):
                return v
        lo, hi = alpha, beta
        moves = rnd.legal_list()
        if len(moves) > 1:
            # Heavy tiles first: shedding them is what usually wins a blocked round.
            moves.sort(key=_weight, reverse=True)
        seat = rnd.current
        mine = seat == self.seat
        best = LOSS - 1 if mine else WIN + 1
        for m in moves:
            child = rnd.copy()
            child.apply_unchecked(m, seat)
            v = self.value(child, alpha, beta)
            if mine:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        kind = 1 if best >= hi else -1 if best <= lo else 0
        self.table[key] = (best, kind)
        return best


def _weight(move: Move) -> int:
    return move.tile.pips if type(move) is Play else -1


def _key(rnd: Round) -> _Key:
    """What the rest of the round depends on in one world: the hands, the ends and markers,
    the doubles in play, the turn in progress and how far down the boneyard is (its order is
    fixed in a world; what lies on the table is fixed by the hands and the boneyard).

    The passes in a row before this position are left out on purpose. Since engine version 2
    a blocked round ends only after a full lap of passes, so they decide *when* the round
    ends, but not its value: passes change no hand, a seat that can play must play whatever
    the count, and the round ends blocked only once every marker is up and nobody can play,
    when the hands are final either way. Two positions differing only in that count have the
    same value, and sharing their table entry loses nothing."""
    return (
        rnd.current,
        frozenset(rnd.hands[0]),
        frozenset(rnd.hands[1]),
        tuple((t.end, t.marked, bool(t.tiles)) for t in rnd.trains),
        tuple(rnd.open_doubles),
        tuple(rnd.turn_doubles),
        rnd.turn_plays,
        rnd.drawn,
        rnd.fast,
        len(rnd.boneyard),
    )
