"""A match: rounds from N-N down, cumulative scores, the winner — and its event list.

A match is fully described by its rules, its seat names and its ordered events: a
:class:`RoundStarted` carrying the round's whole shuffled tile order, then one :class:`Moved`
per move. :meth:`Match.replay` folds those events back into the identical state, which is how
the store loads a game and why a random generator's version can never change a stored game.
A match also carries the engine version that recorded it, so a rule fixed later (a blocked
round waits for a full lap of passes since version 2) never rewrites how an old game went.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Sequence
from typing import Any

from bot.engine.errors import EngineError
from bot.engine.legality import IllegalMove
from bot.engine.moves import Move, MoveError, parse_move
from bot.engine.round import Applied, Round, round_tiles
from bot.engine.rules import ENGINE_VERSION, Rules
from bot.engine.state import RoundResult
from bot.engine.tiles import Tile, format_tiles, parse_tiles


@dataclasses.dataclass(frozen=True, slots=True)
class RoundStarted:
    """Chance, as data: the round's tiles in shuffled order (see :meth:`Round.deal`)."""

    round_no: int
    order: tuple[Tile, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "round", "round": self.round_no, "order": format_tiles(self.order)}


@dataclasses.dataclass(frozen=True, slots=True)
class Moved:
    """A move by a seat, in notation when stored."""

    seat: int
    move: Move

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "move", "seat": self.seat, "move": str(self.move)}


Event = RoundStarted | Moved


class EventError(EngineError):
    """A stored event that cannot be read or does not follow from the events before it."""

    default_code = "bad-event"


def event_from_dict(data: dict[str, Any], rules: Rules, players: int) -> Event:
    try:
        kind = data["kind"]
        if kind == "round":
            return RoundStarted(int(data["round"]), parse_tiles(data["order"], rules.max_pip))
        if kind == "move":
            seat = int(data["seat"])
            return Moved(seat, parse_move(data["move"], players=players, max_pip=rules.max_pip))
    except (KeyError, TypeError, ValueError) as exc:
        raise EventError(f"unreadable event {data!r}: {exc}") from None
    raise EventError(f"unknown event kind {kind!r}")


class Match:
    """A whole game: its rounds, scores so far, and every event that made it."""

    def __init__(
        self, rules: Rules, names: Sequence[str], engine_version: int = ENGINE_VERSION
    ) -> None:
        """``engine_version`` is the engine that recorded the match (stored with the game):
        rounds play by that version's rules, so an old game replays exactly as it was played."""
        rules.check(len(names))
        check_engine_version(engine_version)
        self.rules = rules
        self.names: tuple[str, ...] = tuple(names)
        self.players = len(self.names)
        self.engine_version = engine_version
        self.events: list[Event] = []
        self.round: Round | None = None
        self.results: list[RoundResult] = []
        self.totals = [0] * self.players

    # ------------------------------------------------------------------ asking

    @property
    def rounds_played(self) -> int:
        return len(self.results)

    @property
    def is_over(self) -> bool:
        return self.rounds_played >= self.rules.rounds_total

    @property
    def needs_deal(self) -> bool:
        """Whether the next step is dealing a round (none yet, or the last one ended)."""
        return not self.is_over and (self.round is None or self.round.is_over)

    @property
    def current_seat(self) -> int | None:
        return None if self.round is None else self.round.current_seat

    def winners(self) -> list[int]:
        """The seat(s) with the lowest total; empty until the match is over.

        Ties share the win with ``ties_share_win``; otherwise the most rounds won by going out
        breaks a tie, then the lower score in the last round, and a tie that survives both is
        shared (no seed breaks ties; this keeps a single winner in nearly every match).
        """
        if not self.is_over:
            return []
        low = min(self.totals)
        tied = [s for s in range(self.players) if self.totals[s] == low]
        if self.rules.ties_share_win or len(tied) == 1:
            return tied

        def key(s: int) -> tuple[int, int]:
            wins = sum(1 for r in self.results if r.went_out == s)
            return (-wins, self.results[-1].scores[s])

        best = min(key(s) for s in tied)
        return [s for s in tied if key(s) == best]

    def standings(self) -> list[tuple[int, int]]:
        """(seat, total) from best to worst."""
        return sorted(enumerate(self.totals), key=lambda st: (st[1], st[0]))

    # ------------------------------------------------------------------ acting

    def shuffle(self, rng: random.Random) -> tuple[Tile, ...]:
        """A shuffled order for the next round, from a generator the caller owns."""
        tiles = list(round_tiles(self.rules, self.rounds_played))
        rng.shuffle(tiles)
        return tuple(tiles)

    def start_round(self, order: Sequence[Tile]) -> Round:
        """Deal the next round from ``order`` and record it as an event."""
        if not self.needs_deal:
            if self.is_over:
                raise IllegalMove("match-over", "the match is over")
            raise IllegalMove("round-in-progress", "the current round is not over")
        event = RoundStarted(self.rounds_played, tuple(order))
        self.round = Round.deal(
            self.rules, self.names, event.round_no, event.order, self.engine_version
        )
        self.events.append(event)
        return self.round

    def apply(self, move: Move, seat: int | None = None) -> Applied:
        """Apply a move to the current round and record it; refused moves change nothing."""
        if self.round is None:
            raise IllegalMove("no-round", "no round has been dealt yet")
        rnd = self.round
        actor = rnd.current if seat is None else seat
        applied = rnd.apply(move, actor)
        self.events.append(Moved(actor, move))
        if applied.round_over:
            self._close_round()
        return applied

    def _close_round(self) -> None:
        assert self.round is not None and self.round.result is not None
        self.results.append(self.round.result)
        for s, pts in enumerate(self.round.result.scores):
            self.totals[s] += pts

    # ------------------------------------------------------------------ replay

    @classmethod
    def replay(
        cls,
        rules: Rules,
        names: Sequence[str],
        events: Iterable[Event],
        engine_version: int = ENGINE_VERSION,
    ) -> Match:
        """Rebuild a match from its events; a bad event raises EventError naming its index.

        Pass the ``engine_version`` the game was recorded with: a game recorded by version 1
        may hold a round that version ended early as blocked, followed by the next deal, which
        only replays under the rule it was played by.
        """
        match = cls(rules, names, engine_version)
        for i, event in enumerate(events):
            try:
                if isinstance(event, RoundStarted):
                    if event.round_no != match.rounds_played:
                        raise EventError(
                            f"round {event.round_no + 1} starts after {match.rounds_played} rounds"
                        )
                    match.start_round(event.order)
                else:
                    match.apply(event.move, event.seat)
            except (IllegalMove, ValueError) as exc:
                if isinstance(exc, EventError):
                    raise EventError(f"event {i}: {exc}") from None
                raise EventError(f"event {i} ({_describe(event)}) does not apply: {exc}") from None
        return match

    def event_dicts(self) -> list[dict[str, Any]]:
        return [e.to_dict() for e in self.events]

    @classmethod
    def replay_dicts(
        cls,
        rules: Rules,
        names: Sequence[str],
        events: Iterable[dict[str, Any]],
        engine_version: int = ENGINE_VERSION,
    ) -> Match:
        players = len(names)
        return cls.replay(
            rules, names, (event_from_dict(e, rules, players) for e in events), engine_version
        )

    def history(self) -> list[str]:
        """The match's moves in notation, one line each, with round headers."""
        lines: list[str] = []
        for e in self.events:
            if isinstance(e, RoundStarted):
                lines.append(f"# round {e.round_no + 1}")
            else:
                lines.append(f"{self.names[e.seat]}: {e.move}")
        return lines


def standing_places(totals: Sequence[int], winners: Iterable[int] = ()) -> tuple[int, ...]:
    """Each seat's place, 1 the best: a lower total ranks higher and equal totals share a
    place ("1. Alice 12, 1. Bob 12, 3. Carol 20"). Only the match's ``winners`` go before
    an equal total: when a tie-break picked one winner among equal totals (see
    :meth:`Match.winners`), the standings must agree with who won.

    >>> standing_places([12, 12, 20])
    (1, 1, 3)
    >>> standing_places([12, 12, 20], winners=[1])
    (2, 1, 3)
    """
    won = set(winners)

    def better(a: int, b: int) -> bool:
        if totals[a] != totals[b]:
            return totals[a] < totals[b]
        return a in won and b not in won

    seats = range(len(totals))
    return tuple(1 + sum(better(o, s) for o in seats) for s in seats)


def check_engine_version(version: object) -> int:
    """``version`` if this engine can play a game recorded by it, else a clear ValueError."""
    if type(version) is not int or version < 1:
        raise EngineVersionError(f"{version!r} is not an engine version")
    if version > ENGINE_VERSION:
        raise EngineVersionError(
            f"this game was recorded by engine version {version}, newer than this bot's "
            f"{ENGINE_VERSION}: upgrade the bot to load it"
        )
    return version


class EngineVersionError(EngineError):
    """A game recorded by an engine version this engine does not know."""

    default_code = "engine-version"


def _describe(event: Event) -> str:
    if isinstance(event, RoundStarted):
        return f"round {event.round_no + 1} deal"
    return f"seat {event.seat + 1} {event.move}"


__all__ = [
    "EngineVersionError",
    "Event",
    "EventError",
    "Match",
    "MoveError",
    "Moved",
    "RoundStarted",
    "check_engine_version",
    "event_from_dict",
    "standing_places",
]
