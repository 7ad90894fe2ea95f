"""One round of Mexican Train: the deal, the turns, the trains, and how it ends.

:class:`Round` is the rules engine's state machine. It is built from rules, seat names and the
shuffled tile order (chance is data, never a generator inside the engine), answers
``legal_moves()`` and takes moves through ``apply()``, which either changes the state completely
or raises :class:`IllegalMove` and changes nothing. Everything a turn needs to remember (a draw
already taken, doubles laid this turn, a fast start in progress) lives on the round, so any
position can be saved and loaded back mid-turn.

The turn, in the words of RULES.md: play if you can (you may not draw instead); otherwise draw
one and play it if it fits; otherwise pass and raise your marker. Doubles change what the next
tile may be; open doubles left at the end of a turn must be satisfied, oldest first, by the
players who follow. Where RULES.md is silent the docstrings below say which way the seeds'
majority goes.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from bot.engine.moves import (
    DONE,
    DRAW,
    KNOCK,
    MEXICAN,
    PASS,
    Catch,
    Done,
    Draw,
    Knock,
    Move,
    Pass,
    Play,
    train_name,
)
from bot.engine.rules import (
    ENGINE_VERSION,
    DoubleRule,
    EnginePlacement,
    FirstPlayer,
    FirstTurn,
    Rules,
    Scoring,
)
from bot.engine.tiles import Tile, double_set

#: The first engine version that waits for a full lap of passes before a round is blocked
#: (issue 15). Rounds played by an older engine keep the old, early ending on replay.
LAP_OF_PASSES_VERSION = 2

# What a train accepts in the current turn: doubles, non-doubles, or both.
_DOUBLES = 1
_SINGLES = 2
_ANY = 3


class IllegalMove(ValueError):
    """A move the rules do not allow now; the message says why in a player's words.

    ``code`` names the reason for translation and tests; ``str()`` is the English sentence.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class Train:
    """A line of tiles from the Engine: a player's own train or the Mexican Train.

    ``end`` is the pip a tile must match next (the Engine's pip while the train is unstarted).
    """

    __slots__ = ("end", "marked", "owner", "tiles")

    def __init__(self, owner: int, end: int) -> None:
        self.owner = owner
        self.tiles: list[Tile] = []
        self.end = end
        self.marked = False

    def copy(self) -> Train:
        other = Train(self.owner, self.end)
        other.tiles = self.tiles.copy()
        other.marked = self.marked
        return other

    @property
    def started(self) -> bool:
        return bool(self.tiles)


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


@dataclasses.dataclass(frozen=True, slots=True)
class RoundResult:
    """How a round ended and what each seat scores for it."""

    scores: tuple[int, ...]
    #: The seat that played its last tile, or None when the round was blocked.
    went_out: int | None

    @property
    def blocked(self) -> bool:
        return self.went_out is None


class LogEntry(NamedTuple):
    """One public line of a round's history (a draw does not show the tile)."""

    seat: int
    move: Move

    def __str__(self) -> str:
        return f"@{self.seat + 1} {self.move}"


class LegalMoves(Sequence[Move]):
    """The current player's legal moves, listed once each; ``move in legal_moves`` works."""

    __slots__ = ("_moves", "_set")

    def __init__(self, moves: list[Move]) -> None:
        self._moves = moves
        self._set: frozenset[Move] | None = None

    def __contains__(self, move: object) -> bool:
        if self._set is None:
            self._set = frozenset(self._moves)
        return move in self._set

    def __iter__(self) -> Iterator[Move]:
        return iter(self._moves)

    def __len__(self) -> int:
        return len(self._moves)

    def __getitem__(self, i: int) -> Move:  # type: ignore[override]
        return self._moves[i]

    def __repr__(self) -> str:
        return f"LegalMoves({', '.join(map(str, self._moves))})"

    def plays(self) -> list[Play]:
        return [m for m in self._moves if isinstance(m, Play)]


def hand_score(hand: Sequence[Tile], scoring: Scoring) -> int:
    """Penalty points for tiles left in hand: pips, or 25 per blank half (Fundex)."""
    if scoring is Scoring.FUNDEX_BLANKS:
        return sum((25 if t.high == 0 else t.high) + (25 if t.low == 0 else t.low) for t in hand)
    return sum(t.high + t.low for t in hand)


class Round:
    """The state of one round. Build it with :meth:`deal`; drive it with :meth:`apply`.

    ``engine_version`` is the version of the engine that recorded the round's moves; it decides
    only how a blocked round ends (see :meth:`_blocked`), so old recordings replay as played.
    """

    def __init__(
        self,
        rules: Rules,
        names: Sequence[str],
        round_no: int,
        engine: Tile,
        engine_version: int = ENGINE_VERSION,
    ) -> None:
        self.rules = rules
        self.engine_version = engine_version
        self.names: tuple[str, ...] = tuple(names)
        self.players = len(self.names)
        self.round_no = round_no
        self.engine = engine
        self.hands: list[list[Tile]] = [[] for _ in range(self.players)]
        #: ``by_pip[seat][pip]``: the seat's tiles bearing ``pip``, kept in step with ``hands``
        #: (see :meth:`reindex`) so finding playable tiles is a lookup, not a scan.
        self.by_pip: list[list[list[Tile]]] = []
        #: Face-down tiles; the next draw is the *last* element (a list pops from its end).
        self.boneyard: list[Tile] = []
        #: Personal trains by seat, then the Mexican Train, so ``trains[MEXICAN]`` is it.
        self.trains: list[Train] = [Train(s, engine.high) for s in range(self.players)]
        self.trains.append(Train(MEXICAN, engine.high))
        #: Train refs ending in an unsatisfied double, in the order the doubles were laid.
        self.open_doubles: list[int] = []
        #: How many tiles on the table (engine included) bear each pip, to spot doubles that
        #: can never be satisfied without rescanning the trains.
        self.table_pips = [0] * (rules.max_pip + 1)
        self.table_pips[engine.high] = 1
        self.current = 0
        self.first_seat = 0
        self.turns_taken = [0] * self.players
        # The turn in progress.
        self.drawn = False  # drew since the last tile this turn was played
        self.turn_plays = 0
        self.turn_doubles: list[int] = []  # trains given a double this turn (still open or not)
        self.fast = False  # this turn is a fast-start first turn
        # Knock rule: who has announced, who may still announce, who can be caught.
        self.knocked = [False] * self.players
        self.knock_window: int | None = None
        self.catchable: set[int] = set()
        self.result: RoundResult | None = None
        self.log: list[LogEntry] = []

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
        rnd.hands = hands
        rnd.reindex()
        rnd.boneyard = rest
        rnd.first_seat = first
        rnd._begin_turn(first)
        return rnd

    # ------------------------------------------------------------------ asking

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def current_seat(self) -> int | None:
        """Whose turn it is, or None once the round is over."""
        return None if self.result is not None else self.current

    def name(self, seat: int) -> str:
        return self.names[seat]

    def reindex(self) -> None:
        """Rebuild ``by_pip`` from ``hands`` (after a deal or a loaded position)."""
        self.by_pip = [[[] for _ in range(self.rules.max_pip + 1)] for _ in self.hands]
        for seat, hand in enumerate(self.hands):
            for t in hand:
                self._index(seat, t)

    def _index(self, seat: int, t: Tile) -> None:
        pips = self.by_pip[seat]
        pips[t.high].append(t)
        if t.low != t.high:
            pips[t.low].append(t)

    def _give(self, seat: int, t: Tile) -> None:
        self.hands[seat].append(t)
        self._index(seat, t)
        # Back above one tile: getting down to one again needs a fresh knock.
        self.knocked[seat] = False

    def _take(self, seat: int, t: Tile) -> None:
        self.hands[seat].remove(t)
        pips = self.by_pip[seat]
        pips[t.high].remove(t)
        if t.low != t.high:
            pips[t.low].remove(t)

    def train_label(self, train: int) -> str:
        return "the Mexican Train" if train == MEXICAN else f"{self.names[train]}'s train"

    def blocking_doubles(self) -> list[int]:
        """Open doubles laid before this turn that still bind, oldest first."""
        return [t for t in self.open_doubles if t not in self.turn_doubles]

    def satisfiable(self, pip: int) -> bool:
        """Whether some tile bearing ``pip`` is not yet on the table (hands or boneyard)."""
        return self.table_pips[pip] <= self.rules.max_pip

    def _targets(self, seat: int, turn_start: bool = False) -> list[tuple[int, int]]:
        """Which trains ``seat`` may play on now, and whether doubles and/or singles.

        ``turn_start`` asks what the seat could do at the start of a turn of its own (used to
        tell whether anyone at all can still play).
        """
        rules = self.rules
        if (
            not self.open_doubles
            and not self.turn_doubles
            and not turn_start
            and not self.fast
            and self.turns_taken[seat]
        ):
            # The common case: no doubles in play, not a first turn.
            trains = self.trains
            out = [(seat, _ANY), (MEXICAN, _ANY)]
            out.extend((t, _ANY) for t in range(self.players) if t != seat and trains[t].marked)
            return out
        fast = self.fast if not turn_start else self._is_fast(seat)
        turn_doubles: list[int] = [] if turn_start else self.turn_doubles
        open_turn = [t for t in turn_doubles if t in self.open_doubles]

        # Satisfy rule: a double laid this turn takes the next tile, on that double.
        if open_turn and rules.double_rule is DoubleRule.SATISFY and not fast:
            return [(open_turn[-1], _ANY)]
        # Doubles left open by earlier turns bind, oldest first, on any train.
        for t in self.open_doubles:
            if t in turn_doubles:
                continue
            pip = self.trains[t].end
            if not rules.release_unsatisfiable_doubles or self.satisfiable(pip):
                return [(t, _ANY)]
        if fast:
            return [(seat, _ANY)]
        first_turn = self.turns_taken[seat] == 0
        restrict = first_turn and not rules.mexican_train_on_first_turn
        eligible = [seat]
        if not restrict:
            eligible.append(MEXICAN)
            eligible.extend(t for t in range(self.players) if t != seat and self.trains[t].marked)
        if not turn_doubles:
            return [(t, _ANY) for t in eligible]
        # A double was laid this turn (even one released at once): the turn goes on.
        if rules.double_rule is DoubleRule.ANY_OPEN_TRAIN:
            return [(t, _SINGLES) for t in eligible]
        # Chain (002): more doubles on any eligible train, then one non-double on the
        # Mexican Train, the train of the first double, or an eligible train that does not
        # end in a double laid this turn.
        first_double = turn_doubles[0]
        out = []
        for t in eligible:
            ok_single = t in (MEXICAN, first_double) or t not in open_turn
            out.append((t, _ANY if ok_single else _DOUBLES))
        if first_double not in eligible:
            out.append((first_double, _SINGLES))
        return out

    def _plays(self, seat: int, turn_start: bool = False) -> list[Move]:
        pips = self.by_pip[seat]
        trains = self.trains
        moves: list[Move] = []
        for t, kinds in self._targets(seat, turn_start):
            fits = pips[trains[t].end]
            if not fits:
                continue
            if kinds == _ANY:
                moves.extend([Play(tl, t) for tl in fits])
            else:
                want_double = kinds == _DOUBLES
                moves.extend([Play(tl, t) for tl in fits if (tl.high == tl.low) == want_double])
        return moves

    def legal_moves(self) -> LegalMoves:
        """Every move the current player may make now (empty once the round is over).

        Knock and catch are not turn moves; see :meth:`side_moves`.
        """
        return LegalMoves(self.legal_list())

    def legal_list(self) -> list[Move]:
        """:meth:`legal_moves` as a plain list, for playout loops that only pick from it."""
        if self.result is not None:
            return []
        moves = self._plays(self.current)
        if self.fast and self.turn_plays:
            moves.append(DONE)
        elif not moves:
            moves.append(DRAW if self._may_draw() else PASS)
        return moves

    def _may_draw(self) -> bool:
        if not self.boneyard:
            return False
        if self.fast:
            return self.turn_plays == 0 and not self.drawn
        return not self.drawn

    def side_moves(self, seat: int) -> list[Move]:
        """Knock and catch moves ``seat`` may make now, whoever's turn it is."""
        if self.result is not None or not self.rules.knock:
            return []
        out: list[Move] = []
        if self.knock_window == seat and not self.knocked[seat] and len(self.hands[seat]) == 1:
            out.append(KNOCK)
        out.extend(Catch(s) for s in sorted(self.catchable) if s != seat)
        return out

    def is_legal(self, move: Move, seat: int | None = None) -> bool:
        try:
            self._check(move, self.current if seat is None else seat)
        except IllegalMove:
            return False
        return True

    # ------------------------------------------------------------------ explaining

    def _check(self, move: Move, seat: int) -> None:
        """Raise IllegalMove saying exactly why ``move`` by ``seat`` is not allowed now."""
        if self.result is not None:
            raise IllegalMove("round-over", "this round is over")
        if not 0 <= seat < self.players:
            raise IllegalMove("no-seat", f"there is no seat {seat + 1} at this table")
        if isinstance(move, Knock | Catch):
            self._check_side(move, seat)
            return
        if seat != self.current:
            raise IllegalMove("not-your-turn", f"it's {self.names[self.current]}'s turn")
        if isinstance(move, Play):
            self._check_play(move, seat)
            return
        plays = self._plays(seat)
        if isinstance(move, Draw):
            if self.fast and self.turn_plays:
                raise IllegalMove(
                    "fast-start-no-draw", "you have played this turn: play on or say done"
                )
            if plays:
                raise IllegalMove(
                    "must-play", "you hold a playable tile, so you may not draw: " + _some(plays)
                )
            if not self.boneyard:
                raise IllegalMove("boneyard-empty", "the boneyard is empty: pass instead")
            if self.drawn:
                raise IllegalMove("drawn-already", "you have drawn already this turn: pass")
            return
        if isinstance(move, Pass):
            if self.fast and self.turn_plays:
                raise IllegalMove("fast-start-done", "say done to end your fast start")
            if plays:
                raise IllegalMove(
                    "must-play", "you hold a playable tile, so you may not pass: " + _some(plays)
                )
            if self._may_draw():
                raise IllegalMove("must-draw", "you cannot play, so draw first")
            return
        if isinstance(move, Done):
            if not (self.fast and self.turn_plays):
                raise IllegalMove(
                    "not-fast-start", "done only ends a fast start after you have played"
                )
            return
        raise IllegalMove("unknown-move", f"{move!r} is not a move")

    def _check_side(self, move: Knock | Catch, seat: int) -> None:
        if not self.rules.knock:
            raise IllegalMove("no-knock-rule", "this game is not using the knock rule")
        if isinstance(move, Knock):
            if len(self.hands[seat]) != 1:
                raise IllegalMove("knock-not-one", "you knock only when down to one tile")
            if self.knocked[seat]:
                raise IllegalMove("knocked-already", "you have already knocked")
            if self.knock_window != seat:
                raise IllegalMove("knock-too-late", "too late to knock: the next player has acted")
            return
        target = move.seat
        if not 0 <= target < self.players:
            raise IllegalMove("no-seat", f"there is no seat {target + 1} at this table")
        if target == seat:
            raise IllegalMove("catch-self", "you cannot catch yourself")
        if target not in self.catchable:
            who = self.names[target]
            if len(self.hands[target]) != 1:
                raise IllegalMove("catch-miss", f"{who} does not hold one tile")
            if self.knocked[target]:
                raise IllegalMove("catch-miss", f"{who} knocked in time")
            raise IllegalMove("catch-early", f"{who} may still knock until the next player acts")

    def _check_play(self, move: Play, seat: int) -> None:
        tile, train = move.tile, move.train
        if tile not in self.hands[seat]:
            raise IllegalMove("not-in-hand", f"you do not hold {tile}")
        if train != MEXICAN and not 0 <= train < self.players:
            raise IllegalMove("no-train", f"there is no train {train_name(train)}")
        targets = dict(self._targets(seat))
        label = self.train_label(train)
        end = self.trains[train].end
        if train not in targets:
            self._explain_target(seat, train, tile)
        kinds = targets[train]
        if not tile.has(end):
            raise IllegalMove(
                "no-fit",
                f"{tile} doesn't fit {label}: it ends in {end}"
                if self.trains[train].started
                else f"{tile} can't start {label}: it must match the engine, {end}",
            )
        if kinds == _SINGLES and tile.is_double:
            raise IllegalMove("need-single", "after a double your next tile must be a non-double")
        if kinds == _DOUBLES and not tile.is_double:
            raise IllegalMove(
                "chain-target",
                f"after your doubles, a non-double goes on the Mexican Train, the train of your "
                f"first double, or a train not ending in your double — not {label}",
            )

    def _explain_target(self, seat: int, train: int, tile: Tile) -> None:
        label = self.train_label(train)
        rules = self.rules
        open_turn = [t for t in self.turn_doubles if t in self.open_doubles]
        if open_turn and rules.double_rule is DoubleRule.SATISFY and not self.fast:
            d = self.trains[open_turn[-1]].tiles[-1]
            raise IllegalMove("satisfy-own", f"you must satisfy your double {d} first")
        for t in self.open_doubles:
            if t in self.turn_doubles:
                continue
            d = self.trains[t].tiles[-1]
            if not rules.release_unsatisfiable_doubles or self.satisfiable(d.high):
                raise IllegalMove("open-double", f"an open double on {d} must be satisfied first")
        if self.fast:
            raise IllegalMove("fast-start-own", "on a fast start you play on your own train only")
        if self.turns_taken[seat] == 0 and not rules.mexican_train_on_first_turn:
            raise IllegalMove(
                "first-turn-own",
                f"on your first turn you may play only on your own train, not {label}",
            )
        if train != MEXICAN and not self.trains[train].marked:
            raise IllegalMove(
                "train-closed", f"{label} has no marker, so only its owner plays there"
            )
        raise IllegalMove("no-target", f"{tile} cannot go on {label} now")

    # ------------------------------------------------------------------ acting

    def apply(self, move: Move, seat: int | None = None) -> Applied:
        """Make ``move`` for ``seat`` (default: the current player), or raise IllegalMove.

        Nothing changes when the move is refused.
        """
        actor = self.current if seat is None else seat
        self._check(move, actor)
        return self._do(move, actor)

    def apply_unchecked(self, move: Move, seat: int) -> Applied:
        """Apply a move already known to be legal (from :meth:`legal_moves`): playouts only."""
        return self._do(move, seat)

    def _do(self, move: Move, seat: int) -> Applied:
        if type(move) is Play and self.knock_window is None:
            self.catchable.discard(seat)
            return self._play(seat, move)
        if isinstance(move, Knock):
            self.knocked[seat] = True
            self.knock_window = None
            self.log.append(LogEntry(seat, KNOCK))
            return Applied(seat, move, next_seat=self.current)
        if isinstance(move, Catch):
            return self._catch(seat, move)
        # Any turn move by the current player closes an earlier player's chance to knock.
        if self.knock_window is not None and self.knock_window != seat:
            if not self.knocked[self.knock_window]:
                self.catchable.add(self.knock_window)
            self.knock_window = None
        self.catchable.discard(seat)
        if isinstance(move, Play):
            return self._play(seat, move)
        if isinstance(move, Draw):
            tile = self.boneyard.pop()
            self._give(seat, tile)
            self.drawn = True
            self.log.append(LogEntry(seat, DRAW))
            fits = bool(self._plays(seat))
            return Applied(seat, move, drawn=(tile,), must_play_drawn=fits, next_seat=seat)
        if isinstance(move, Pass):
            self.log.append(LogEntry(seat, PASS))
            raised = not self.trains[seat].marked
            self.trains[seat].marked = True
            self._end_turn(seat)
            if not self.boneyard and self._blocked():
                self._finish(None)
            return Applied(
                seat,
                move,
                marker_raised=raised,
                turn_over=True,
                round_over=self.result is not None,
                next_seat=self.current_seat,
            )
        # Done: a fast start ends by choice.
        self.log.append(LogEntry(seat, DONE))
        self._end_turn(seat)
        return Applied(seat, move, turn_over=True, next_seat=self.current)

    def _play(self, seat: int, move: Play) -> Applied:
        tile, ref = move.tile, move.train
        train = self.trains[ref]
        hand = self.hands[seat]
        self._take(seat, tile)
        was_open = ref in self.open_doubles
        satisfied: Tile | None = None
        if was_open:
            satisfied = train.tiles[-1]
            self.open_doubles.remove(ref)
        started_mexican = ref == MEXICAN and not train.tiles
        train.tiles.append(tile)
        train.end = tile.low if tile.high == train.end else tile.high
        self.table_pips[tile.high] += 1
        if tile.low != tile.high:
            self.table_pips[tile.low] += 1
        removed = False
        if ref == seat and train.marked:
            train.marked = False
            removed = True
        self.turn_plays += 1
        self.drawn = False
        self.log.append(LogEntry(seat, move))
        opened = tile.high == tile.low
        if opened:
            self.open_doubles.append(ref)
            self.turn_doubles.append(ref)
        released = self._release()
        last_tile = len(hand) == 1

        if not hand and (not opened or self.rules.go_out_on_double or not self.boneyard):
            self._finish(seat)
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
        rule = self.rules.double_rule
        if self.fast:
            # A fast start goes on while something fits the seat's own train.
            ends = not self._plays(seat)
        elif was_open and ref not in self.turn_doubles:
            ends = True  # satisfying an earlier player's double is the turn's one tile
        elif opened:
            ends = rule is DoubleRule.SATISFY and ref not in self.open_doubles
        else:
            ends = True
        if ends and not hand:
            # A last-tile double that nothing can ever satisfy leaves nothing to wait for.
            self._finish(seat)
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
            self._end_turn(seat)
        return Applied(
            seat,
            move,
            marker_removed=removed,
            opened_double=opened and ref in self.open_doubles,
            satisfied=satisfied,
            released=released,
            started_mexican=started_mexican,
            turn_over=ends,
            next_seat=self.current,
            last_tile=last_tile and ends,
        )

    def _release(self) -> tuple[Tile, ...]:
        """Drop open doubles that can never be satisfied, when the rules say they block nothing."""
        if not self.rules.release_unsatisfiable_doubles or not self.open_doubles:
            return ()
        gone = []
        for t in list(self.open_doubles):
            if not self.satisfiable(self.trains[t].end):
                self.open_doubles.remove(t)
                gone.append(self.trains[t].tiles[-1])
        return tuple(gone)

    def _catch(self, seat: int, move: Catch) -> Applied:
        target = move.seat
        self.catchable.discard(target)
        taken = []
        for _ in range(min(self.rules.knock_penalty, len(self.boneyard))):
            t = self.boneyard.pop()
            self._give(target, t)
            taken.append(t)
        self.log.append(LogEntry(seat, move))
        return Applied(target, move, drawn=tuple(taken), next_seat=self.current)

    def _is_fast(self, seat: int) -> bool:
        return self.rules.first_turn is FirstTurn.FAST_START and self.turns_taken[seat] == 0

    def _begin_turn(self, seat: int) -> None:
        self.current = seat
        self.drawn = False
        self.turn_plays = 0
        self.turn_doubles = []
        self.fast = self._is_fast(seat)

    def _end_turn(self, seat: int) -> None:
        self.turns_taken[seat] += 1
        if self.rules.knock and len(self.hands[seat]) == 1 and not self.knocked[seat]:
            self.knock_window = seat
        if len(self.hands[seat]) != 1:
            self.knocked[seat] = False
        self._begin_turn((seat + 1) % self.players)

    def _blocked(self) -> bool:
        """Whether the pass just made, with the boneyard empty, ends the round blocked.

        RULES.md: the round ends "when the boneyard is empty and no player can play (every
        player passed in a row)". This is that sentence read literally: the last turn of every
        seat was a pass, one after another with no tile played in between (a full lap), and
        still no seat can play. It is *not* "no play can ever become legal once every remaining
        seat's marker is raised", which would end the round before the remaining players have
        passed: the same scores, but turns the written rule still gives them (and events the
        table sees) skipped. Both readings agree on who scores what; only this one is the rule.

        Why the lap matters: each pass raises the passer's marker and opens that train to
        everyone, so a seat that could not play a moment ago may be able to once the seats after
        it have passed (issue 15). After a full lap every marker is up and nothing on the table
        can change any more, so "nobody can play" is then final. It is asked of every seat at
        the start of a turn of its own, so the open-double limits hold: a binding open double
        must be satisfied first, oldest first, unless every tile of its number is on the table
        and the release house rule is on; a double laid in a turn counts only in that turn. The
        any-open-train and chain rules only shape the tiles *after* a double within one turn,
        and a fast start is a seat's first turn, which every seat has had by the end of a lap.
        Knock and catch are side moves, not turns: they neither count as passes nor break a run
        of them (with the boneyard empty a catch draws nothing).

        Rounds recorded by engine version 1 end as that engine ended them, as soon as nobody
        could play with the markers as they were: their later events (the next deal) assume it.
        """
        if self.engine_version < LAP_OF_PASSES_VERSION:
            return not self._anyone_can_play()
        return self._passes_in_a_row() >= self.players and not self._anyone_can_play()

    def _passes_in_a_row(self) -> int:
        """How many turns in a row, up to the last, ended in a pass (at most a lap's worth).

        Read from the round's own log, so a saved position carries it without a field of its
        own. A draw before a pass belongs to the same turn; knocks and catches are not turns.
        """
        count = 0
        for entry in reversed(self.log):
            move = entry.move
            if move is PASS:
                count += 1
                if count >= self.players:
                    break
            elif type(move) is Play or move is DONE:
                break
        return count

    def _anyone_can_play(self) -> bool:
        """With the boneyard empty, whether any seat could play at the start of its turn now."""
        return any(self._plays(s, turn_start=True) for s in range(self.players))

    def _finish(self, went_out: int | None) -> None:
        scoring = self.rules.scoring
        scores = tuple(hand_score(h, scoring) for h in self.hands)
        self.result = RoundResult(scores, went_out)
        self.knock_window = None
        self.catchable.clear()

    # ------------------------------------------------------------------ copying

    def copy(self) -> Round:
        """An independent copy, for search and what-if questions."""
        other = Round.__new__(Round)
        for name in _SHALLOW:
            setattr(other, name, getattr(self, name))
        other.hands = [h.copy() for h in self.hands]
        other.by_pip = [[lst.copy() for lst in seat] for seat in self.by_pip]
        other.boneyard = self.boneyard.copy()
        other.trains = [t.copy() for t in self.trains]
        other.open_doubles = self.open_doubles.copy()
        other.turns_taken = self.turns_taken.copy()
        other.table_pips = self.table_pips.copy()
        other.turn_doubles = self.turn_doubles.copy()
        other.knocked = self.knocked.copy()
        other.catchable = set(self.catchable)
        other.log = self.log.copy()
        return other

    def tiles_everywhere(self) -> list[Tile]:
        """Every tile of the set, wherever it is (engine, trains, hands, boneyard)."""
        out = [self.engine]
        for tr in self.trains:
            out.extend(tr.tiles)
        for h in self.hands:
            out.extend(h)
        out.extend(self.boneyard)
        return out


_SHALLOW = (
    "rules",
    "engine_version",
    "names",
    "players",
    "round_no",
    "engine",
    "current",
    "first_seat",
    "drawn",
    "turn_plays",
    "fast",
    "knock_window",
    "result",
)


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


def _some(plays: list[Move]) -> str:
    shown = ", ".join(str(p) for p in plays[:3])
    return shown + (" …" if len(plays) > 3 else "")
