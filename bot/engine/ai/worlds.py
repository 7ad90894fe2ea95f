"""Worlds a seat cannot tell apart from the real one: the hidden tiles dealt from its view.

A search that plays moves forward needs every hand and the boneyard's order, and a fair
player knows only its :class:`~bot.engine.view.SeatView`. So it deals the tiles it cannot see
into the hidden hands (each the size the table shows) and the boneyard, as many times as it
likes: each deal is a *world*. Everything here reads the view alone, so a world, and whatever
is decided from worlds, cannot depend on where the hidden tiles really are (a test swaps the
real hidden tiles around under one view and gets the same worlds).

**Consistent with what the seat has seen.** The public log shows each draw and pass; a player
who drew (or passed) facing some ends held no tile bearing those pips then
(:mod:`bot.engine.ai.knowledge`). Since that moment it has drawn ``k`` tiles, and only those can
have brought such a suit back. So in a world, for every ``k``, the seat holds at most ``k``
tiles whose *limit* is ``k`` or less, a tile's limit being the fewest draws since any want of
a pip it bears. A dealt hand that breaks this could not have happened, and is never dealt.
(A want is forgotten once the seat plays that suit, as the knowledge module does: the worlds
are then drawn from a slightly larger set than the strictly possible ones, never a smaller.)

The deal is a seeded shuffle, each hidden hand taking the first tiles of it that keep it
consistent and the boneyard the rest; a shuffle that cannot fill a hand is dealt again.
Every consistent world is a possible one; :mod:`bot.engine.ai.likelihood` weights them by how
likely each opponent's own plays were in them (issue 35's lever with the most headroom).
"""

from __future__ import annotations

import dataclasses
import random

from bot.engine.ai.knowledge import Knowledge, read_view
from bot.engine.ai.state import round_with_hands
from bot.engine.round import Round
from bot.engine.tiles import Tile
from bot.engine.view import SeatView

#: Shuffles tried for one world before the suits' limits are given up for that world (a deal
#: of the real tiles always satisfies them, so this is a bound on bad luck, not a case).
TRIES = 64


@dataclasses.dataclass(frozen=True, slots=True)
class World:
    """Every hand (the viewer's and visible ones as shown) and the boneyard, next draw last."""

    hands: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...]
    #: Whether the suits' limits held (False only when :data:`TRIES` shuffles all failed).
    consistent: bool = True


def sample_worlds(view: SeatView, count: int, seed: int) -> list[World]:
    """``count`` worlds dealt from ``view`` alone: the same view and seed give the same worlds."""
    know = read_view(view)
    rng = random.Random(seed)
    return [sample_world(view, know, rng) for _ in range(count)]


def sample_world(view: SeatView, know: Knowledge, rng: random.Random) -> World:
    """One world consistent with ``view`` (and ``know``, read from it)."""
    hidden = [s for s in range(view.players) if view.visible_hands[s] is None]
    limits = [_Limit(know.lacks[s]) for s in range(view.players)]
    for _ in range(TRIES):
        dealt = _deal(view, know.unseen, hidden, limits, rng)
        if dealt is not None:
            return dealt
    pool = list(know.unseen)
    rng.shuffle(pool)
    return _assemble(view, pool, {}, consistent=False)


def world_round(view: SeatView, world: World) -> Round:
    """A playable round in ``view``'s public state, dealt as ``world``."""
    return round_with_hands(view, [list(h) for h in world.hands], list(world.boneyard))


def consistent(view: SeatView, know: Knowledge, hands: tuple[tuple[Tile, ...], ...]) -> bool:
    """Whether every hidden hand in ``hands`` keeps its seat's suits' limits (used by the
    tests on the real deal: the inference must never rule out what really happened)."""
    for s in range(view.players):
        if view.visible_hands[s] is not None:
            continue
        limit = _Limit(know.lacks[s])
        if not _within([v for t in hands[s] if (v := limit(t)) is not None]):
            return False
    return True


def _deal(
    view: SeatView,
    unseen: tuple[Tile, ...],
    hidden: list[int],
    limits: list[_Limit],
    rng: random.Random,
) -> World | None:
    pool = list(unseen)
    rng.shuffle(pool)
    taken: dict[int, list[Tile]] = {}
    left = pool
    for s in hidden:
        need = view.hand_counts[s]
        limit = limits[s]
        hand: list[Tile] = []
        held: list[int] = []
        rest: list[Tile] = []
        for t in left:
            if len(hand) == need:
                rest.append(t)
                continue
            v = limit(t)
            if v is None:
                hand.append(t)
            elif _within([*held, v]):
                hand.append(t)
                held.append(v)
            else:
                rest.append(t)
        if len(hand) < need:
            return None
        taken[s] = hand
        left = rest
    return _assemble(view, left, taken, consistent=True)


def _assemble(
    view: SeatView,
    pool: list[Tile],
    taken: dict[int, list[Tile]],
    *,
    consistent: bool,
) -> World:
    """The world's hands (dealing ``pool``'s front to hidden seats not in ``taken``) and the
    rest of ``pool`` as the boneyard."""
    pool = list(pool)
    hands: list[tuple[Tile, ...]] = []
    for s in range(view.players):
        shown = view.visible_hands[s]
        if shown is not None:
            hands.append(shown)
        elif s in taken:
            hands.append(tuple(taken[s]))
        else:
            n = view.hand_counts[s]
            hands.append(tuple(pool[:n]))
            del pool[:n]
    return World(tuple(hands), tuple(pool), consistent)


class _Limit:
    """A tile's limit for one seat: the fewest draws since it showed it lacked a pip the
    tile bears, or None when no want covers the tile."""

    __slots__ = ("lacks",)

    def __init__(self, lacks: dict[int, int]) -> None:
        self.lacks = lacks

    def __call__(self, t: Tile) -> int | None:
        a = self.lacks.get(t.high)
        b = self.lacks.get(t.low)
        if a is None:
            return b
        return a if b is None else min(a, b)


def _within(values: list[int]) -> bool:
    """Whether a hand holding tiles with these limits is possible: for every ``k``, at most
    ``k`` of them have a limit of ``k`` or less (the i-th smallest is at least i)."""
    return all(v >= i for i, v in enumerate(sorted(values), start=1))
