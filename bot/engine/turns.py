"""Applying a move: what a play, a draw, a pass, a knock or a catch changes, and whose turn
it is next.

:class:`Turns` is the top of the rule layers under :class:`~bot.engine.round.Round`.
``apply()`` checks a move with :mod:`bot.engine.legality` and then makes it completely, or
raises :class:`~bot.engine.legality.IllegalMove` and changes nothing; ``apply_unchecked()`` is
the playout shortcut for moves taken from ``legal_moves()``. Each move returns an
:class:`Applied` saying what it did (marker raised, double opened or satisfied, round over …)
for the messages the bot writes. A pass on an empty boneyard asks :mod:`bot.engine.ending`
whether the round is blocked.
"""

from __future__ import annotations

from typing import NamedTuple

from bot.engine.ending import RoundEnding
from bot.engine.moves import DONE, DRAW, KNOCK, MEXICAN, PASS, Catch, Draw, Knock, Move, Pass, Play
from bot.engine.rules import DoubleRule
from bot.engine.state import LogEntry
from bot.engine.tiles import Tile


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


class Turns(RoundEnding):
    """Moves applied to a round, and the turn passed on."""

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
