"""What the player to move may do now, and, for anything else, exactly why not.

Functions over a :class:`~bot.engine.state.RoundState` (``Round``'s methods hand the round
here): which trains a seat may play on this turn and whether doubles, non-doubles or both
(``_targets``, where the double rules live), the playable tiles that gives (:func:`playable`),
the full list of legal moves with draw, pass and done, the knock and catch side moves, and
:func:`check`, which refuses a move with an :class:`IllegalMove` whose code and sentence name
the rule it breaks. Nothing here changes the round; applying a move is :mod:`bot.engine.round`'s.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from bot.engine.errors import EngineError
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
from bot.engine.rules import DoubleRule
from bot.engine.state import RoundState
from bot.engine.tiles import Tile

# What a train accepts in the current turn: doubles, non-doubles, or both.
_DOUBLES = 1
_SINGLES = 2
_ANY = 3


class IllegalMove(EngineError):
    """A move the rules do not allow now; the message says why in a player's words.

    ``code`` names the reason for translation and tests; ``str()`` is the English sentence;
    ``params`` are its facts (a tile, a train's index, a pip, the legal moves…), so another
    language says as much (``refusal.<code>`` in the catalog takes them all). The code comes
    first here, as every rule check raises it with one (``"not-your-turn"``).
    """

    def __init__(self, code: str, message: str, **params: str | int) -> None:
        super().__init__(message, code, **params)
        self.params: Mapping[str, str | int] = params


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


# ------------------------------------------------------------------ what may be played


def _targets(r: RoundState, seat: int, turn_start: bool = False) -> list[tuple[int, int]]:
    """Which trains ``seat`` may play on now, and whether doubles and/or singles.

    ``turn_start`` asks what the seat could do at the start of a turn of its own (used to
    tell whether anyone at all can still play).
    """
    rules = r.rules
    if (
        not r.open_doubles
        and not r.turn_doubles
        and not turn_start
        and not r.fast
        and r.turns_taken[seat]
    ):
        # The common case: no doubles in play, not a first turn.
        trains = r.trains
        out = [(seat, _ANY), (MEXICAN, _ANY)]
        out.extend((t, _ANY) for t in range(r.players) if t != seat and trains[t].marked)
        return out
    fast = r.fast if not turn_start else r.is_fast(seat)
    turn_doubles: list[int] = [] if turn_start else r.turn_doubles
    open_turn = [t for t in turn_doubles if t in r.open_doubles]
    bound = r.binding_double(turn_doubles, fast=fast)
    if bound is not None:  # a double takes the next tile, on its train
        return [(bound.train, _ANY)]
    if fast:
        return [(seat, _ANY)]
    first_turn = r.turns_taken[seat] == 0
    restrict = first_turn and not rules.mexican_train_on_first_turn
    eligible = [seat]
    if not restrict:
        eligible.append(MEXICAN)
        eligible.extend(t for t in range(r.players) if t != seat and r.trains[t].marked)
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


def playable(r: RoundState, seat: int, turn_start: bool = False) -> list[Move]:
    pips = r.by_pip[seat]
    trains = r.trains
    moves: list[Move] = []
    for t, kinds in _targets(r, seat, turn_start):
        fits = pips[trains[t].end]
        if not fits:
            continue
        if kinds == _ANY:
            moves.extend([Play(tl, t) for tl in fits])
        else:
            want_double = kinds == _DOUBLES
            moves.extend([Play(tl, t) for tl in fits if (tl.high == tl.low) == want_double])
    return moves


def legal_moves(r: RoundState) -> LegalMoves:
    """Every move the current player may make now (empty once the round is over).

    Knock and catch are not turn moves; see :meth:`side_moves`.
    """
    return LegalMoves(legal_list(r))


def legal_list(r: RoundState) -> list[Move]:
    """:meth:`legal_moves` as a plain list, for playout loops that only pick from it."""
    if r.result is not None:
        return []
    moves = playable(r, r.current)
    if r.fast and r.turn_plays:
        moves.append(DONE)
    elif not moves:
        moves.append(DRAW if _may_draw(r) else PASS)
    return moves


def _may_draw(r: RoundState) -> bool:
    if not r.boneyard:
        return False
    if r.fast:
        return r.turn_plays == 0 and not r.drawn
    return not r.drawn


def side_moves(r: RoundState, seat: int) -> list[Move]:
    """Knock and catch moves ``seat`` may make now, whoever's turn it is."""
    if r.result is not None or not r.rules.knock:
        return []
    out: list[Move] = []
    if r.knock_window == seat and not r.knocked[seat] and len(r.hands[seat]) == 1:
        out.append(KNOCK)
    out.extend(Catch(s) for s in sorted(r.catchable) if s != seat)
    return out


def is_legal(r: RoundState, move: Move, seat: int | None = None) -> bool:
    try:
        check(r, move, r.current if seat is None else seat)
    except IllegalMove:
        return False
    return True


# ------------------------------------------------------------------ explaining


def check_turn(r: RoundState, seat: int) -> None:
    """Raise IllegalMove unless ``seat`` may make a turn move now (a play, a draw, a pass):
    who may act, asked before what the move is (a knock or a catch is anyone's, whenever
    :func:`check` allows it)."""
    if r.result is not None:
        raise IllegalMove("round-over", "this round is over")
    if seat != r.current:
        who = r.names[r.current]
        raise IllegalMove("not-your-turn", f"it's {who}'s turn", name=who)


def check(r: RoundState, move: Move, seat: int) -> None:
    """Raise IllegalMove saying exactly why ``move`` by ``seat`` is not allowed now."""
    if r.result is not None:
        raise IllegalMove("round-over", "this round is over")
    if not 0 <= seat < r.players:
        raise IllegalMove("no-seat", f"there is no seat {seat + 1} at this table", seat=seat + 1)
    if isinstance(move, Knock | Catch):
        _check_side(r, move, seat)
        return
    check_turn(r, seat)
    if isinstance(move, Play):
        _check_play(r, move, seat)
        return
    plays = playable(r, seat)
    if isinstance(move, Draw):
        if r.fast and r.turn_plays:
            raise IllegalMove(
                "fast-start-no-draw", "you have played this turn: play on or say done"
            )
        if plays:
            raise IllegalMove(
                "must-play",
                "you hold a playable tile, so you may not draw: " + _some(plays),
                moves=_some(plays),
            )
        if not r.boneyard:
            raise IllegalMove("boneyard-empty", "the boneyard is empty: pass instead")
        if r.drawn:
            raise IllegalMove("drawn-already", "you have drawn already this turn: pass")
        return
    if isinstance(move, Pass):
        if r.fast and r.turn_plays:
            raise IllegalMove("fast-start-done", "say done to end your fast start")
        if plays:
            raise IllegalMove(
                "must-play",
                "you hold a playable tile, so you may not pass: " + _some(plays),
                moves=_some(plays),
            )
        if _may_draw(r):
            raise IllegalMove("must-draw", "you cannot play, so draw first")
        return
    if isinstance(move, Done):
        if not (r.fast and r.turn_plays):
            raise IllegalMove("not-fast-start", "done only ends a fast start after you have played")
        return
    raise IllegalMove("unknown-move", f"{move!r} is not a move", move=repr(move))


def _check_side(r: RoundState, move: Knock | Catch, seat: int) -> None:
    if not r.rules.knock:
        raise IllegalMove("no-knock-rule", "this game is not using the knock rule")
    if isinstance(move, Knock):
        if len(r.hands[seat]) != 1:
            raise IllegalMove("knock-not-one", "you knock only when down to one tile")
        if r.knocked[seat]:
            raise IllegalMove("knocked-already", "you have already knocked")
        if r.knock_window != seat:
            raise IllegalMove("knock-too-late", "too late to knock: the next player has acted")
        return
    target = move.seat
    if not 0 <= target < r.players:
        raise IllegalMove(
            "no-seat", f"there is no seat {target + 1} at this table", seat=target + 1
        )
    if target == seat:
        raise IllegalMove("catch-self", "you cannot catch yourself")
    if target not in r.catchable:
        who = r.names[target]
        if len(r.hands[target]) != 1:
            raise IllegalMove("catch-miss", f"{who} does not hold one tile", name=who)
        if r.knocked[target]:
            raise IllegalMove("catch-miss", f"{who} knocked in time", name=who)
        raise IllegalMove(
            "catch-early", f"{who} may still knock until the next player acts", name=who
        )


def _check_play(r: RoundState, move: Play, seat: int) -> None:
    tile, train = move.tile, move.train
    if tile not in r.hands[seat]:
        raise IllegalMove("not-in-hand", f"you do not hold {tile}", tile=str(tile))
    if train != MEXICAN and not 0 <= train < r.players:
        raise IllegalMove(
            "no-train", f"there is no train {train_name(train)}", ref=train_name(train)
        )
    targets = dict(_targets(r, seat))
    label = r.train_label(train)
    end = r.trains[train].end
    if train not in targets:
        _explain_target(r, seat, train, tile)
    kinds = targets[train]
    if not tile.has(end):
        raise IllegalMove(
            "no-fit",
            f"{tile} doesn't fit {label}: it ends in {end}"
            if r.trains[train].started
            else f"{tile} can't start {label}: it must match the engine, {end}",
            **_on(r, seat, train),
            tile=str(tile),
            end=end,
        )
    if kinds == _SINGLES and tile.is_double:
        raise IllegalMove("need-single", "after a double your next tile must be a non-double")
    if kinds == _DOUBLES and not tile.is_double:
        raise IllegalMove(
            "chain-target",
            f"after your doubles, a non-double goes on the Mexican Train, the train of your "
            f"first double, or a train not ending in your double — not {label}",
            **_on(r, seat, train),
        )


def _explain_target(r: RoundState, seat: int, train: int, tile: Tile) -> None:
    label = r.train_label(train)
    rules = r.rules
    bound = r.binding_double(r.turn_doubles, fast=r.fast)
    if bound is not None:
        d = r.trains[bound.train].tiles[-1]
        if bound.code == "satisfy-own":
            raise IllegalMove(bound.code, f"you must satisfy your double {d} first", double=str(d))
        raise IllegalMove(
            bound.code, f"an open double on {d} must be satisfied first", double=str(d)
        )
    if r.fast:
        raise IllegalMove("fast-start-own", "on a fast start you play on your own train only")
    if r.turns_taken[seat] == 0 and not rules.mexican_train_on_first_turn:
        raise IllegalMove(
            "first-turn-own",
            f"on your first turn you may play only on your own train, not {label}",
            **_on(r, seat, train),
        )
    if train != MEXICAN and not r.trains[train].marked:
        raise IllegalMove(
            "train-closed",
            f"{label} has no marker, so only its owner plays there",
            **_on(r, seat, train),
        )
    raise IllegalMove(
        "no-target", f"{tile} cannot go on {label} now", **_on(r, seat, train), tile=str(tile)
    )


#: How long the list of legal moves in a refusal may be (an answer quotes the engine's sentence
#: up to 200 characters): every move when they fit, which is nearly always.
MOVES_SHOWN = 120


def _some(plays: list[Move]) -> str:
    """The legal moves, all of them when they fit in :data:`MOVES_SHOWN` characters."""
    shown = ", ".join(str(p) for p in plays)
    if len(shown) <= MOVES_SHOWN:
        return shown
    cut = shown[: MOVES_SHOWN - 2].rsplit(", ", 1)[0]
    return cut + " …"


def _on(r: RoundState, seat: int, train: int) -> dict[str, str | int]:
    """A refusal's facts about a train: its index, its owner's name, whether it is the
    mover's own (another language names it as the channel does: ``ton train (@1)``)."""
    owner = "" if train == MEXICAN else r.names[train]
    return {"train": train, "owner": owner, "own": train == seat}
