"""What a seat can work out about the hidden tiles from its view alone.

The tiles a seat cannot see are the set less its own hand, the table and any hand the
open-hands house rule shows. The public log narrows that down: a player who draws had nothing
for any end it could play on, so for a while it lacks those suits (a later play of such a suit
proves otherwise and is believed instead). Replaying the log for the table's ends at each draw
needs only public facts, so nothing here looks past the view.
"""

from __future__ import annotations

import dataclasses
import math

from bot.engine.moves import MEXICAN, Catch, Draw, Knock, Pass, Play
from bot.engine.rules import DoubleRule, FirstTurn
from bot.engine.state import binding_double
from bot.engine.tiles import Tile
from bot.engine.view import SeatView


@dataclasses.dataclass(frozen=True, slots=True)
class Knowledge:
    """The hidden tiles as one seat sees them."""

    #: Tiles the viewer cannot see: in other (hidden) hands or the boneyard.
    unseen: tuple[Tile, ...]
    #: For each seat, the suits it has shown it lacks (none for the viewer), each with how
    #: many tiles that seat has drawn since (any of which may bring the suit back).
    lacks: tuple[dict[int, int], ...]
    #: Every hand the viewer can see (open hands), else None for hidden ones.
    hands: tuple[tuple[Tile, ...] | None, ...]

    def holds_suit(self, seat: int, pip: int, counts: tuple[int, ...]) -> float:
        """The chance ``seat`` holds at least one tile bearing ``pip``."""
        known = self.hands[seat]
        if known is not None:
            return 1.0 if any(t.high == pip or t.low == pip for t in known) else 0.0
        lacks = self.lacks[seat]
        if pip in lacks:
            # Only tiles drawn since it showed the want can bring the suit back.
            share = self.suit_left(pip) / max(1, len(self.unseen))
            return 1.0 - (1.0 - share) ** lacks[pip]
        pool = [t for t in self.unseen if not (t.high in lacks or t.low in lacks)]
        n = len(pool)
        h = min(counts[seat], n)
        k = sum(1 for t in pool if t.high == pip or t.low == pip)
        if k == 0 or h == 0:
            return 0.0
        if n - k < h:
            return 1.0
        # 1 - C(n-k, h) / C(n, h), as a product to stay in floats.
        miss = 1.0
        for i in range(h):
            miss *= (n - k - i) / (n - i)
        return 1.0 - miss

    def suit_left(self, pip: int) -> int:
        """How many tiles bearing ``pip`` the viewer cannot see."""
        return sum(1 for t in self.unseen if t.high == pip or t.low == pip)


def read_view(view: SeatView) -> Knowledge:
    """Everything ``view`` reveals about the tiles it does not show."""
    seen: set[Tile] = {view.engine}
    for tr in view.trains:
        seen.update(tr.tiles)
    for h in view.visible_hands:
        if h is not None:
            seen.update(h)
    everything = view.rules.tiles()
    unseen = tuple(t for t in everything if t not in seen)
    return Knowledge(unseen, _lacks(view), view.visible_hands)


@dataclasses.dataclass(frozen=True, slots=True)
class Choice:
    """One public decision of a seat, as the table stood then (for weighting worlds by how
    likely each seat's plays were, :mod:`bot.engine.ai.likelihood`)."""

    seat: int
    #: The log entry's index.
    at: int
    #: The tile laid (None for a draw or a pass).
    tile: Tile | None
    train: int
    #: The trains the seat could play on then and their ends (empty when unsure), as
    #: (seat or MEXICAN, end).
    options: tuple[tuple[int, int], ...]
    own_end: int
    marked: bool
    mexican_empty: bool
    #: A fast-start first turn (the plan is laid, nothing chosen).
    fast: bool


def choices(view: SeatView) -> list[Choice]:
    """Every play, draw and pass in ``view``'s log with what the table offered then."""
    found: list[Choice] = []
    _lacks(view, found)
    return found


def _lacks(view: SeatView, found: list[Choice] | None = None) -> tuple[dict[int, int], ...]:
    """Replay the public log to learn which suits each seat could not play when it drew
    (and, into ``found``, each decision with the table as it stood)."""
    players = view.players
    rules = view.rules
    start = view.engine.high
    ends = [start] * (players + 1)  # personal trains by seat, the Mexican Train last
    started = [False] * (players + 1)
    marked = [False] * players
    open_doubles: list[int] = []  # indexes into ends, in the order laid
    table = [0] * (rules.max_pip + 1)
    table[start] = 1
    turns = [0] * players
    lacks: list[dict[int, int]] = [{} for _ in range(players)]
    run_seat: int | None = None
    run_doubles: list[int] = []

    def idx(train: int) -> int:
        return players if train == MEXICAN else train

    for at, entry in enumerate(view.log):
        seat, move = entry.seat, entry.move
        if isinstance(move, Knock):
            continue
        if isinstance(move, Catch):
            _drew(lacks[move.seat], view.rules.knock_penalty)
            continue
        if seat != run_seat:
            if run_seat is not None:
                turns[run_seat] += 1
            run_seat, run_doubles = seat, []
        if found is not None and isinstance(move, Play | Pass | Draw):
            found.append(
                _choice(
                    at,
                    seat,
                    move,
                    turns[seat],
                    ends,
                    started,
                    marked,
                    open_doubles,
                    run_doubles,
                    view,
                )
            )
        if isinstance(move, Play):
            t, i = move.tile, idx(move.train)
            lacks[seat].pop(t.high, None)
            lacks[seat].pop(t.low, None)
            if i in open_doubles:
                open_doubles.remove(i)
            ends[i] = t.other(ends[i])
            started[i] = True
            table[t.high] += 1
            if t.low != t.high:
                table[t.low] += 1
            else:
                open_doubles.append(i)
                run_doubles.append(i)
            if i == seat:
                marked[seat] = False
            if rules.release_unsatisfiable_doubles:
                open_doubles = [d for d in open_doubles if table[ends[d]] <= rules.max_pip]
        elif isinstance(move, Pass | Draw):
            # A draw shows the seat had nothing for the ends it faced; a pass shows it again,
            # the drawn tile included. Tiles drawn later may bring a suit back.
            faced = _faced(seat, turns[seat], ends, marked, open_doubles, run_doubles, view)
            if isinstance(move, Draw):
                _drew(lacks[seat], 1)
            else:
                marked[seat] = True
            for pip in faced:
                lacks[seat][pip] = 0
    if view.seat is not None:
        lacks[view.seat].clear()
    return tuple(lacks)


def _choice(
    at: int,
    seat: int,
    move: Play | Pass | Draw,
    turns_taken: int,
    ends: list[int],
    started: list[bool],
    marked: list[bool],
    open_doubles: list[int],
    run_doubles: list[int],
    view: SeatView,
) -> Choice:
    players = view.players
    trains = _faced_trains(seat, turns_taken, ends, marked, open_doubles, run_doubles, view)
    return Choice(
        seat=seat,
        at=at,
        tile=move.tile if isinstance(move, Play) else None,
        train=move.train if isinstance(move, Play) else seat,
        options=tuple((MEXICAN if i == players else i, ends[i]) for i in sorted(trains)),
        own_end=ends[seat],
        marked=marked[seat],
        mexican_empty=not started[players],
        fast=turns_taken == 0 and view.rules.first_turn is FirstTurn.FAST_START,
    )


def _drew(lacks: dict[int, int], tiles: int) -> None:
    for pip in lacks:
        lacks[pip] += tiles


def _faced(
    seat: int,
    turns_taken: int,
    ends: list[int],
    marked: list[bool],
    open_doubles: list[int],
    run_doubles: list[int],
    view: SeatView,
) -> set[int]:
    """The suits ``seat`` surely could not play when it drew (empty when unsure)."""
    trains = _faced_trains(seat, turns_taken, ends, marked, open_doubles, run_doubles, view)
    return {ends[i] for i in trains}


def _faced_trains(
    seat: int,
    turns_taken: int,
    ends: list[int],
    marked: list[bool],
    open_doubles: list[int],
    run_doubles: list[int],
    view: SeatView,
) -> set[int]:
    """The trains (indexes into ``ends``) ``seat`` could surely play on (empty when unsure)."""
    rules = view.rules
    players = view.players
    if rules.double_rule is not DoubleRule.SATISFY and any(d in run_doubles for d in open_doubles):
        return set()  # after own doubles the other rules open several trains: unsure
    # The engine's own double rule; the tracker does not count the table's pips, so it takes
    # every double as satisfiable (a released one is read as binding: at worst, unsure).
    bound = binding_double(
        rules,
        open_doubles,
        run_doubles,
        fast=False,
        satisfiable=lambda _: True,
        end=lambda t: ends[t],
    )
    if bound is not None:
        return {bound.train}
    first = turns_taken == 0
    if first and rules.first_turn is FirstTurn.FAST_START:
        return {seat}
    faced = {seat}
    if not (first and not rules.mexican_train_on_first_turn):
        faced.add(players)
        faced.update(s for s in range(players) if s != seat and marked[s])
    return faced


def chance_any(probabilities: list[float]) -> float:
    """The chance at least one of independent events happens."""
    return 1.0 - math.prod(1.0 - p for p in probabilities)
