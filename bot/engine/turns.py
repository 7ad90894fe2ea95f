"""Applying a move: what a play, a draw, a pass, a knock or a catch changes, and whose turn
it is next.

Functions over a :class:`~bot.engine.state.RoundState`, behind ``Round.apply``:
:func:`apply` checks a move with :mod:`bot.engine.legality` and then makes it completely, or
raises :class:`~bot.engine.legality.IllegalMove` and changes nothing; :func:`apply_unchecked`
is the playout shortcut for moves taken from ``legal_moves()``. Each move returns an
:class:`Applied` saying what it did (marker raised, double opened or satisfied, round over …)
for the messages the bot writes. A pass on an empty boneyard asks :mod:`bot.engine.ending`
whether the round is blocked.
"""

from __future__ import annotations

from typing import NamedTuple

from bot.engine.ending import blocked, finish
from bot.engine.legality import check, playable
from bot.engine.moves import DONE, DRAW, KNOCK, MEXICAN, PASS, Catch, Draw, Knock, Move, Pass, Play
from bot.engine.rules import DoubleRule
from bot.engine.state import LogEntry, RoundState
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


def apply(r: RoundState, move: Move, seat: int | None = None) -> Applied:
    """Make ``move`` for ``seat`` (default: the current player), or raise IllegalMove.

    Nothing changes when the move is refused.
    """
    actor = r.current if seat is None else seat
    check(r, move, actor)
    return _do(r, move, actor)


def apply_unchecked(r: RoundState, move: Move, seat: int) -> Applied:
    """Apply a move already known to be legal (from :meth:`legal_moves`): playouts only."""
    return _do(r, move, seat)


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
