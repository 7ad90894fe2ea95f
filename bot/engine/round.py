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
of it; the questions the rules ask of a position are modules of functions over that state,
read on its own:

- :mod:`bot.engine.state` — what a round holds (hands, boneyard, trains, the turn in progress);
- :mod:`bot.engine.legality` — the legal moves, and why any other move is refused;
- :mod:`bot.engine.ending` — a blocked round, and the scores;
- this module — what changes them: the deal (and the tiles a round is dealt from) and applying
  a move (what a play, a draw, a pass, a knock or a catch changes, and whose turn it is next).
  ``Round.apply`` checks a move with :mod:`bot.engine.legality` and then makes it completely,
  or raises :class:`IllegalMove` and changes nothing; ``apply_unchecked`` is the playout
  shortcut for moves taken from ``legal_moves()``. Each move returns an :class:`Applied`
  saying what it did (marker raised, double opened or satisfied, round over …) for the
  messages the bot writes. A pass on an empty boneyard asks :mod:`bot.engine.ending` whether
  the round is blocked.

The names those modules define for callers are importable from here too, as they always were.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import NamedTuple

from bot.engine import legality
from bot.engine.ending import LAP_OF_PASSES_VERSION, blocked, finish, hand_score
from bot.engine.errors import EngineError
from bot.engine.legality import IllegalMove, LegalMoves, check, playable
from bot.engine.moves import DONE, DRAW, KNOCK, MEXICAN, PASS, Catch, Draw, Knock, Move, Pass, Play
from bot.engine.rules import ENGINE_VERSION, DoubleRule, EnginePlacement, FirstPlayer, Rules
from bot.engine.state import LogEntry, RoundResult, RoundState, Train
from bot.engine.tiles import Tile, double_set

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


class Applied(NamedTuple):
    """What one applied move did, for the messages the bot writes about it.

    ``drawn`` is private to the mover; everything else may be told to the table. (A named
    tuple rather than a frozen dataclass: one is built per move, in the playout hot loop.)
    """

    seat: int
    move: Move
    drawn: tuple[Tile, ...] = ()
    #: The drawn tile fits somewhere, so the mover must now play it.
    must_play_drawn: bool = False
    marker_raised: bool = False
    marker_removed: bool = False
    #: The play laid a double that is now open.
    opened_double: bool = False
    #: The play closed an open double (the double's tile).
    satisfied: Tile | None = None
    #: Open doubles that every remaining tile of their number has made harmless.
    released: tuple[Tile, ...] = ()
    started_mexican: bool = False
    turn_over: bool = False
    round_over: bool = False
    #: The seat whose turn it now is (None when the round is over).
    next_seat: int | None = None
    #: The mover is now down to one tile (announced by the bot; owed as a knock if that rule is on).
    last_tile: bool = False


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
        actor = self.current if seat is None else seat
        check(self, move, actor)
        return _do(self, move, actor)

    def apply_unchecked(self, move: Move, seat: int) -> Applied:
        """Apply a move already known to be legal (from :meth:`legal_moves`): playouts only."""
        return _do(self, move, seat)

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
            raise EngineError(
                f"the tile order for round {round_no + 1} is not the round's tiles", "bad-deal"
            )
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
        begin_turn(self, first)


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


# ---------------------------------------------------------------------- applying a move


def _do(r: RoundState, move: Move, seat: int) -> Applied:
    if type(move) is Play and r.knock_window is None:
        r.catchable.discard(seat)
        return _play(r, seat, move)
    if isinstance(move, Knock):
        r.knocked[seat] = True
        r.knock_window = None
        r.log.append(LogEntry(seat, KNOCK))
        return Applied(seat, move, next_seat=r.current)
    if isinstance(move, Catch):
        return _catch(r, seat, move)
    # Any turn move by the current player closes an earlier player's chance to knock.
    if r.knock_window is not None and r.knock_window != seat:
        if not r.knocked[r.knock_window]:
            r.catchable.add(r.knock_window)
        r.knock_window = None
    r.catchable.discard(seat)
    if isinstance(move, Play):
        return _play(r, seat, move)
    if isinstance(move, Draw):
        tile = r.boneyard.pop()
        r.give(seat, tile)
        r.drawn = True
        r.log.append(LogEntry(seat, DRAW))
        fits = bool(playable(r, seat))
        return Applied(seat, move, drawn=(tile,), must_play_drawn=fits, next_seat=seat)
    if isinstance(move, Pass):
        r.log.append(LogEntry(seat, PASS))
        raised = not r.trains[seat].marked
        r.trains[seat].marked = True
        _end_turn(r, seat)
        if not r.boneyard and blocked(r):
            finish(r, None)
        return Applied(
            seat,
            move,
            marker_raised=raised,
            turn_over=True,
            round_over=r.result is not None,
            next_seat=r.current_seat,
        )
    # Done: a fast start ends by choice.
    r.log.append(LogEntry(seat, DONE))
    _end_turn(r, seat)
    return Applied(seat, move, turn_over=True, next_seat=r.current)


def _play(r: RoundState, seat: int, move: Play) -> Applied:
    tile, ref = move.tile, move.train
    train = r.trains[ref]
    hand = r.hands[seat]
    r.take(seat, tile)
    was_open = ref in r.open_doubles
    satisfied: Tile | None = None
    if was_open:
        satisfied = train.tiles[-1]
        r.open_doubles.remove(ref)
    started_mexican = ref == MEXICAN and not train.tiles
    train.tiles.append(tile)
    train.end = tile.low if tile.high == train.end else tile.high
    r.table_pips[tile.high] += 1
    if tile.low != tile.high:
        r.table_pips[tile.low] += 1
    removed = False
    if ref == seat and train.marked:
        train.marked = False
        removed = True
    r.turn_plays += 1
    r.drawn = False
    r.log.append(LogEntry(seat, move))
    opened = tile.high == tile.low
    if opened:
        r.open_doubles.append(ref)
        r.turn_doubles.append(ref)
    released = _release(r)
    last_tile = len(hand) == 1

    if not hand and (not opened or r.rules.go_out_on_double or not r.boneyard):
        finish(r, seat)
        return Applied(
            seat,
            move,
            marker_removed=removed,
            opened_double=opened,
            satisfied=satisfied,
            released=released,
            started_mexican=started_mexican,
            turn_over=True,
            round_over=True,
        )
    rule = r.rules.double_rule
    if r.fast:
        # A fast start goes on while something fits the seat's own train.
        ends = not playable(r, seat)
    elif was_open and ref not in r.turn_doubles:
        ends = True  # satisfying an earlier player's double is the turn's one tile
    elif opened:
        ends = rule is DoubleRule.SATISFY and ref not in r.open_doubles
    else:
        ends = True
    if ends and not hand:
        # A last-tile double that nothing can ever satisfy leaves nothing to wait for.
        finish(r, seat)
        return Applied(
            seat,
            move,
            marker_removed=removed,
            opened_double=False,
            satisfied=satisfied,
            released=released,
            started_mexican=started_mexican,
            turn_over=True,
            round_over=True,
        )
    if ends:
        _end_turn(r, seat)
    return Applied(
        seat,
        move,
        marker_removed=removed,
        opened_double=opened and ref in r.open_doubles,
        satisfied=satisfied,
        released=released,
        started_mexican=started_mexican,
        turn_over=ends,
        next_seat=r.current,
        last_tile=last_tile and ends,
    )


def _release(r: RoundState) -> tuple[Tile, ...]:
    """Drop open doubles that can never be satisfied, when the rules say they block nothing."""
    if not r.rules.release_unsatisfiable_doubles or not r.open_doubles:
        return ()
    gone = []
    for t in list(r.open_doubles):
        if not r.satisfiable(r.trains[t].end):
            r.open_doubles.remove(t)
            gone.append(r.trains[t].tiles[-1])
    return tuple(gone)


def _catch(r: RoundState, seat: int, move: Catch) -> Applied:
    target = move.seat
    r.catchable.discard(target)
    taken = []
    for _ in range(min(r.rules.knock_penalty, len(r.boneyard))):
        t = r.boneyard.pop()
        r.give(target, t)
        taken.append(t)
    r.log.append(LogEntry(seat, move))
    return Applied(target, move, drawn=tuple(taken), next_seat=r.current)


def begin_turn(r: RoundState, seat: int) -> None:
    r.current = seat
    r.drawn = False
    r.turn_plays = 0
    r.turn_doubles = []
    r.fast = r.is_fast(seat)


def _end_turn(r: RoundState, seat: int) -> None:
    r.turns_taken[seat] += 1
    if r.rules.knock and len(r.hands[seat]) == 1 and not r.knocked[seat]:
        r.knock_window = seat
    if len(r.hands[seat]) != 1:
        r.knocked[seat] = False
    begin_turn(r, (seat + 1) % r.players)
