"""What one seat (or a spectator) may see: the only state that leaves the engine.

Renderers, messages and computer players take a :class:`SeatView`, never a :class:`Round`, so
showing a hidden hand would take deliberate work: a view holds the viewer's own hand, the public
table, and other hands only when the open-hands house rule is on. The boneyard appears only as a
count, and the round's public log shows that someone drew, never what. Once a round is over
every hand is shown, as players lay their tiles down to count them.
"""

from __future__ import annotations

import dataclasses

from bot.engine.errors import EngineError
from bot.engine.match import Match
from bot.engine.moves import MEXICAN, Move
from bot.engine.round import Round
from bot.engine.rules import ENGINE_VERSION, Rules
from bot.engine.state import LogEntry, RoundResult
from bot.engine.tiles import Tile


@dataclasses.dataclass(frozen=True, slots=True)
class TrainView:
    """One train as everyone sees it."""

    #: The owning seat, or MEXICAN (-1) for the Mexican Train.
    owner: int
    tiles: tuple[Tile, ...]
    #: The pip the next tile must match (the engine's while unstarted).
    end: int
    marked: bool
    #: Position in the order open doubles must be satisfied (0 = next), or None.
    open_double: int | None

    @property
    def is_mexican(self) -> bool:
        return self.owner == MEXICAN

    @property
    def started(self) -> bool:
        return bool(self.tiles)


@dataclasses.dataclass(frozen=True, slots=True)
class SeatView:
    """The table from one seat's chair (``seat`` None: a spectator's view)."""

    seat: int | None
    names: tuple[str, ...]
    rules: Rules
    round_no: int
    rounds_total: int
    engine: Tile
    #: Personal trains in seat order, then the Mexican Train.
    trains: tuple[TrainView, ...]
    #: The viewer's own hand (None for a spectator).
    hand: tuple[Tile, ...] | None
    #: Every hand the viewer may see: their own, and all of them under open hands.
    visible_hands: tuple[tuple[Tile, ...] | None, ...]
    hand_counts: tuple[int, ...]
    boneyard_count: int
    #: Whose turn it is; None when the round is over.
    current: int | None
    #: The viewer's legal moves when it is their turn, else empty.
    legal: tuple[Move, ...]
    #: Knock/catch moves the viewer may make now.
    side_moves: tuple[Move, ...]
    #: Match totals so far (a finished round included), and each finished round's scores.
    totals: tuple[int, ...]
    round_scores: tuple[tuple[int, ...], ...]
    #: This round's result once it is over.
    result: RoundResult | None
    match_over: bool
    winners: tuple[int, ...]
    #: The round's public history (draws do not show the tile).
    log: tuple[LogEntry, ...]
    #: Seats that have knocked, and seats that can be caught not having knocked.
    knocked: tuple[int, ...]
    catchable: tuple[int, ...]
    #: The current turn: tiles played so far and whether the player has drawn.
    turn_plays: int
    turn_drawn: bool
    fast_start: bool
    #: The engine version the game is played by (it decides how a blocked round ends).
    engine_version: int = ENGINE_VERSION

    @property
    def mexican(self) -> TrainView:
        return self.trains[-1]

    def train(self, ref: int) -> TrainView:
        return self.trains[ref]

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def open_doubles(self) -> list[TrainView]:
        """Trains ending in an open double, in the order they must be satisfied."""
        found = [t for t in self.trains if t.open_double is not None]
        return sorted(found, key=lambda t: t.open_double or 0)

    @property
    def last_move(self) -> LogEntry | None:
        return self.log[-1] if self.log else None

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.seat == self.current


def view_for(match: Match, seat: int | None) -> SeatView:
    """The match as ``seat`` may see it; ``None`` gives the spectator's view."""
    rnd = match.round
    if rnd is None:
        raise EngineError("no round has been dealt yet", "no-round")
    return round_view(rnd, seat, match)


def round_view(rnd: Round, seat: int | None, match: Match | None = None) -> SeatView:
    """A view of a bare round (``match`` adds the scores and winners around it)."""
    if seat is not None and not 0 <= seat < rnd.players:
        raise EngineError(f"there is no seat {seat + 1}", "no-seat")
    blocking = rnd.open_doubles
    trains = tuple(
        TrainView(
            owner=tr.owner,
            tiles=tuple(tr.tiles),
            end=tr.end,
            marked=tr.marked,
            open_double=blocking.index(ref) if ref in blocking else None,
        )
        for ref, tr in zip([*range(rnd.players), MEXICAN], rnd.trains, strict=True)
    )
    open_hands = rnd.rules.open_hands
    visible = tuple(
        tuple(h) if open_hands or s == seat or rnd.result is not None else None
        for s, h in enumerate(rnd.hands)
    )
    my_turn = seat is not None and rnd.result is None and seat == rnd.current
    if match is not None:
        totals = list(match.totals)
        round_scores = tuple(r.scores for r in match.results)
        rounds_total = match.rules.rounds_total
        match_over = match.is_over
        winners = tuple(match.winners())
    else:
        totals = [0] * rnd.players
        round_scores = ()
        rounds_total = rnd.rules.rounds_total
        match_over = False
        winners = ()
    return SeatView(
        seat=seat,
        names=rnd.names,
        rules=rnd.rules,
        round_no=rnd.round_no,
        rounds_total=rounds_total,
        engine=rnd.engine,
        trains=trains,
        hand=None if seat is None else tuple(rnd.hands[seat]),
        visible_hands=visible,
        hand_counts=tuple(len(h) for h in rnd.hands),
        boneyard_count=len(rnd.boneyard),
        current=rnd.current_seat,
        legal=tuple(rnd.legal_moves()) if my_turn else (),
        side_moves=tuple(rnd.side_moves(seat)) if seat is not None else (),
        totals=tuple(totals),
        round_scores=round_scores,
        result=rnd.result,
        match_over=match_over,
        winners=winners,
        log=tuple(rnd.log),
        knocked=tuple(s for s in range(rnd.players) if rnd.knocked[s]),
        catchable=tuple(sorted(rnd.catchable)),
        turn_plays=rnd.turn_plays,
        turn_drawn=rnd.drawn,
        fast_start=rnd.fast,
        engine_version=rnd.engine_version,
    )
