"""One round of Mexican Train: the deal, the turns, the trains, and how it ends.

:class:`Round` is the rules engine's state machine. It is built from rules, seat names and the
shuffled tile order (chance is data, never a generator inside the engine), answers
``legal_moves()`` and takes moves through ``apply()``, which either changes the state completely
or raises :class:`IllegalMove` and changes nothing. Everything a turn needs to remember (a draw
already taken, doubles laid this turn, a fast start in progress) lives on the round, so any
position can be saved and loaded back mid-turn.

The turn, in the words of docs/rules.md: play if you can (you may not draw instead); otherwise draw
one and play it if it fits; otherwise pass and raise your marker. Doubles change what the next
tile may be; open doubles left at the end of a turn must be satisfied, oldest first, by the
players who follow. Where docs/rules.md is silent the docstrings of the modules below say which way
the seeds' majority goes.

``Round`` is what a round holds (:class:`~bot.engine.state.RoundState`) with the rules asked
of it; each rule's concern is a module of functions over that state, read on its own:

- :mod:`bot.engine.state` — what a round holds (hands, boneyard, trains, the turn in progress);
- :mod:`bot.engine.legality` — the legal moves, and why any other move is refused;
- :mod:`bot.engine.ending` — a blocked round, and the scores;
- :mod:`bot.engine.turns` — applying a move and passing the turn on;
- this module — the deal, the tiles a round is dealt from, and ``Round``'s methods, each one
  line handing the round to the function that holds the rule.

The names those modules define for callers are importable from here too, as they always were.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from bot.engine import legality, turns
from bot.engine.ending import LAP_OF_PASSES_VERSION, hand_score
from bot.engine.legality import IllegalMove, LegalMoves
from bot.engine.moves import Move
from bot.engine.rules import ENGINE_VERSION, EnginePlacement, FirstPlayer, Rules
from bot.engine.state import LogEntry, RoundResult, RoundState, Train
from bot.engine.tiles import Tile, double_set
from bot.engine.turns import Applied

__all__ = [
    "LAP_OF_PASSES_VERSION",
    "Applied",
    "IllegalMove",
    "LegalMoves",
    "LogEntry",
    "Round",
    "RoundResult",
    "Train",
    "hand_score",
    "round_tiles",
]


class Round(RoundState):
    """The state of one round. Build it with :meth:`deal`; drive it with :meth:`apply`.

    ``engine_version`` is the version of the engine that recorded the round's moves; it decides
    only how a blocked round ends (see :func:`bot.engine.ending.blocked`), so old recordings
    replay as played.
    """

    # ------------------------------------------------------------------ the rules, asked

    def legal_moves(self) -> LegalMoves:
        """Every move the current player may make now (empty once the round is over).

        Knock and catch are not turn moves; see :meth:`side_moves`.
        """
        return legality.legal_moves(self)

    def legal_list(self) -> list[Move]:
        """:meth:`legal_moves` as a plain list, for playout loops that only pick from it."""
        return legality.legal_list(self)

    def side_moves(self, seat: int) -> list[Move]:
        """Knock and catch moves ``seat`` may make now, whoever's turn it is."""
        return legality.side_moves(self, seat)

    def is_legal(self, move: Move, seat: int | None = None) -> bool:
        return legality.is_legal(self, move, seat)

    def apply(self, move: Move, seat: int | None = None) -> Applied:
        """Make ``move`` for ``seat`` (default: the current player), or raise IllegalMove.

        Nothing changes when the move is refused.
        """
        return turns.apply(self, move, seat)

    def apply_unchecked(self, move: Move, seat: int) -> Applied:
        """Apply a move already known to be legal (from :meth:`legal_moves`): playouts only."""
        return turns.apply_unchecked(self, move, seat)

    # ------------------------------------------------------------------ setting up

    @classmethod
    def deal(
        cls,
        rules: Rules,
        names: Sequence[str],
        round_no: int,
        order: Sequence[Tile],
        engine_version: int = ENGINE_VERSION,
    ) -> Round:
        """Deal a round from ``order``, the shuffled tiles (see :func:`round_tiles`).

        Seat ``i`` takes the ``i``-th run of hand-size tiles; the rest is the boneyard, drawn
        from the front of ``order``'s remainder. Engine placements that need drawing (highest
        double when nobody holds one, draw-until-found) are resolved here from the same order,
        players drawing in turn from the first player, so the round is fully determined by it.
        """
        players = len(names)
        rules.check(players)
        if len(order) != len(expected := _round_tile_set(rules, round_no)) or (
            expected.symmetric_difference(order)
        ):
            raise ValueError(f"the tile order for round {round_no + 1} is not the round's tiles")
        hand = rules.hand_size_for(players)
        hands = [list(order[i * hand : (i + 1) * hand]) for i in range(players)]
        rest = list(order[players * hand :])
        rest.reverse()
        rotate_seat = round_no % players

        placement = rules.engine_placement
        if placement is EnginePlacement.SET_ASIDE:
            engine = rules.engine_for_round(round_no)
            first = rotate_seat
            if rules.first_player is FirstPlayer.HIGHEST_TILE:
                first = _holder_of_highest(hands, engine.high, rotate_seat)
        else:
            if placement is EnginePlacement.DRAW_UNTIL_FOUND:
                target = rules.engine_for_round(round_no)

                def wanted(t: Tile) -> bool:
                    return t == target

            else:

                def wanted(t: Tile) -> bool:
                    return t.is_double

            held = [(t, s) for s, h in enumerate(hands) for t in h if wanted(t)]
            seat = rotate_seat
            while not held:
                # Nobody holds it: draw in turn, from the first player, until it appears.
                drawn = rest.pop()
                hands[seat].append(drawn)
                if wanted(drawn):
                    held = [(drawn, seat)]
                seat = (seat + 1) % players
            engine, first = max(held)
            hands[first].remove(engine)

        rnd = cls(rules, names, round_no, engine, engine_version)
        rnd._lay_out(hands, rest, first)
        return rnd

    def _lay_out(self, hands: list[list[Tile]], boneyard: list[Tile], first: int) -> None:
        """Put the dealt hands and the boneyard in place and give ``first`` the first turn."""
        self.hands = hands
        self.reindex()
        self.boneyard = boneyard
        self.first_seat = first
        turns.begin_turn(self, first)


def round_tiles(rules: Rules, round_no: int) -> tuple[Tile, ...]:
    """The tiles shuffled for a round: the whole set, less the engine when it is set aside."""
    tiles = double_set(rules.max_pip)
    if rules.engine_placement is EnginePlacement.SET_ASIDE:
        engine = rules.engine_for_round(round_no)
        return tuple(t for t in tiles if t != engine)
    return tiles


@functools.lru_cache(maxsize=256)
def _round_tile_set(rules: Rules, round_no: int) -> frozenset[Tile]:
    return frozenset(round_tiles(rules, round_no))


def _holder_of_highest(hands: list[list[Tile]], pip: int, default: int) -> int:
    """Seat holding the highest tile of the engine's suit (002: "the highest 12-# domino")."""
    best: tuple[int, int] | None = None
    for seat, hand in enumerate(hands):
        for t in hand:
            if t.has(pip):
                key = (t.other(pip), seat)
                if best is None or key[0] > best[0]:
                    best = key
    return default if best is None else best[1]
