"""What a round holds: hands, boneyard, trains, open doubles, the turn in progress.

:class:`RoundState` is the bottom layer of :class:`~bot.engine.round.Round`: the fields every
other part reads and changes, the small questions about them (whose turn, what a train is
called, whether a pip can still be matched) and the bookkeeping that keeps the per-pip index of
each hand in step with the hand. It knows no rules of play; those are built on top of it, one
module each: what may be played (:mod:`bot.engine.legality`), how a round ends
(:mod:`bot.engine.ending`), and dealing and applying a move (:mod:`bot.engine.round`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import NamedTuple, Self

from bot.engine.moves import MEXICAN, Move
from bot.engine.rules import ENGINE_VERSION, DoubleRule, FirstTurn, Rules
from bot.engine.tiles import Tile


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


class Bound(NamedTuple):
    """A double that binds the next tile: its train, and why (the refusal's code)."""

    train: int
    #: ``satisfy-own``: the mover's own double of this turn (satisfy rule); ``open-double``:
    #: one left open by an earlier turn.
    code: str


def binding_double(
    rules: Rules,
    open_doubles: Sequence[int],
    turn_doubles: Sequence[int],
    *,
    fast: bool,
    satisfiable: Callable[[int], bool],
    end: Callable[[int], int],
) -> Bound | None:
    """Which open double binds the next tile now — the one source of the double rule, used
    by the legal moves, the refusal's explanation and the computer players' inferences.

    Under the satisfy rule (outside a fast start) a double the mover laid this turn takes the
    next tile; else the oldest double left open by an earlier turn does, on whichever train it
    is — unless ``release_unsatisfiable_doubles`` and no tile bearing its pips is left
    (``satisfiable(end(train))``). None: no double binds. ``open_doubles`` oldest first."""
    if rules.double_rule is DoubleRule.SATISFY and not fast:
        mine = [t for t in turn_doubles if t in open_doubles]
        if mine:
            return Bound(mine[-1], "satisfy-own")
    for t in open_doubles:
        if t in turn_doubles:
            continue
        if not rules.release_unsatisfiable_doubles or satisfiable(end(t)):
            return Bound(t, "open-double")
    return None


class RoundState:
    """The fields of one round and the questions every rule asks of them.

    ``engine_version`` is the version of the engine that recorded the round's moves; it decides
    only how a blocked round ends (see :func:`bot.engine.ending.blocked`).
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

    def give(self, seat: int, t: Tile) -> None:
        self.hands[seat].append(t)
        self._index(seat, t)
        # Back above one tile: getting down to one again needs a fresh knock.
        self.knocked[seat] = False

    def take(self, seat: int, t: Tile) -> None:
        self.hands[seat].remove(t)
        pips = self.by_pip[seat]
        pips[t.high].remove(t)
        if t.low != t.high:
            pips[t.low].remove(t)

    def train_label(self, train: int) -> str:
        return "the Mexican Train" if train == MEXICAN else f"{self.names[train]}'s train"

    def binding_double(self, turn_doubles: Sequence[int], *, fast: bool) -> Bound | None:
        """The open double that takes the next tile now, if one does (see
        :func:`binding_double`); ``turn_doubles``: the doubles the mover laid this turn."""
        return binding_double(
            self.rules,
            self.open_doubles,
            turn_doubles,
            fast=fast,
            satisfiable=self.satisfiable,
            end=lambda t: self.trains[t].end,
        )

    def satisfiable(self, pip: int) -> bool:
        """Whether some tile bearing ``pip`` is not yet on the table (hands or boneyard)."""
        return self.table_pips[pip] <= self.rules.max_pip

    def is_fast(self, seat: int) -> bool:
        return self.rules.first_turn is FirstTurn.FAST_START and self.turns_taken[seat] == 0

    # ------------------------------------------------------------------ copying

    def copy(self) -> Self:
        """An independent copy, for search and what-if questions."""
        other = type(self).__new__(type(self))
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


#: The fields :meth:`RoundState.copy` shares rather than copies (immutable, or replaced whole).
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
