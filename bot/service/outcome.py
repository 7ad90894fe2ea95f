"""What the service hands back: plain frozen data, no Discord objects and no English prose.

An :class:`Outcome` says what one call did (the engine's :class:`~bot.engine.Applied` record
per move, human and computer moves alike, in order), where the game stands now
(:class:`GameSummary`), whose turn it is, whose hand changed (so the bot DMs it), how any
round and the match ended, and a list of :class:`Fact` values — a code plus parameters — that
the Discord layer turns into sentences in the reader's language.

Each value is read off the stored rows here too, beside its definition (:func:`summarise`,
:func:`players_of`, :func:`standings_of`): every use case that returns one, the commit path,
the queries, the history, undo and statistics, builds it the same way.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from types import MappingProxyType

from bot.engine import Applied, Draw, Match, Move, Pass, Play, Rules, standing_places
from bot.engine.ai import Level
from bot.service import errors
from bot.store import GameRow, GameStatus, SeatRow

FactValue = str | int | bool | None | tuple[str, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class Player:
    """Who sits at a seat: a human (``user_id``) or a computer player (``computer``)."""

    seat: int
    name: str
    #: The human playing this seat; None when a computer plays it.
    user_id: int | None
    computer: Level | None

    @property
    def is_computer(self) -> bool:
        return self.computer is not None


@dataclasses.dataclass(frozen=True, slots=True)
class GameOptions:
    #: How long a player has for a turn (None: no deadline); kept for the timeout sweeper.
    turn_deadline: timedelta | None = None
    #: Whether the bot shows playable-tile hints.
    hints: bool = True


@dataclasses.dataclass(frozen=True, slots=True)
class GameSummary:
    """A game as the database holds it, without replaying it (cheap: used by listings)."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    status: GameStatus
    preset: str
    rules: Rules
    players: tuple[Player, ...]
    #: Whose turn it is (None unless the game is active).
    turn: Player | None
    #: The round being played, 0-based (None before the deal).
    round_no: int | None
    options: GameOptions
    #: Bumped by every change: pass it back as ``expected_version`` to refuse stale clicks.
    version: int
    created_at: datetime
    updated_at: datetime
    #: When the current turn started, and its deadline (with the turn-deadline option).
    turn_since: datetime | None
    deadline_at: datetime | None

    def player(self, user_id: int) -> Player | None:
        """The seat ``user_id`` plays (None if not seated, or replaced by a computer)."""
        for p in self.players:
            if p.user_id == user_id:
                return p
        return None

    @property
    def host(self) -> Player | None:
        return self.player(self.host_id)

    @property
    def humans(self) -> tuple[Player, ...]:
        return tuple(p for p in self.players if not p.is_computer)


@dataclasses.dataclass(frozen=True, slots=True)
class Step:
    """One applied move and the event that recorded it."""

    seq: int
    #: Who made the move (for a catch, the catcher; ``applied.seat`` is the one caught).
    player: Player
    move: Move
    #: What the engine says the move did. ``applied.drawn`` is private to ``applied.seat``.
    applied: Applied
    round_no: int

    @property
    def by_computer(self) -> bool:
        return self.player.is_computer


@dataclasses.dataclass(frozen=True, slots=True)
class RoundEnd:
    round_no: int
    scores: tuple[int, ...]
    #: The seat that went out, or None for a blocked round.
    went_out: int | None
    #: Match totals after this round.
    totals: tuple[int, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class Standing:
    player: Player
    total: int
    #: 1 for the winner(s); equal totals share a place unless the tie-break split them.
    place: int
    rounds_won: int
    won: bool


@dataclasses.dataclass(frozen=True, slots=True)
class MatchEnd:
    standings: tuple[Standing, ...]
    winners: tuple[Player, ...]


class FactCode(enum.StrEnum):
    """What a :class:`Fact` says happened, named from the game. A member's value is the code
    the house has always spelled (``"double-opened"``), so a log line or a test that reads
    one as a string reads the same text; the Discord layer's words for each are
    :mod:`bot.ui.facts`."""

    # A move (bot/service/batch.py): what the engine's Applied record says it did.
    PLAYED = "played"
    MEXICAN_STARTED = "mexican-started"
    DOUBLE_SATISFIED = "double-satisfied"
    DOUBLE_OPENED = "double-opened"
    DOUBLES_RELEASED = "doubles-released"
    MARKER_REMOVED = "marker-removed"
    LAST_TILE = "last-tile"
    DREW = "drew"
    PASSED = "passed"
    FAST_START_DONE = "fast-start-done"
    KNOCKED = "knocked"
    CAUGHT = "caught"
    # The rounds and the match.
    ROUND_OVER = "round-over"
    ROUND_STARTED = "round-started"
    MATCH_OVER = "match-over"
    # A turn the bot played for a human, and an undo (rebuilt by the outbox after a crash).
    TURN_PLAYED_FOR = "turn-played-for"
    UNDONE = "undone"
    # The table: the lobby, its seats, and a game's start and end (bot/service/lobby.py).
    LOBBY_OPENED = "lobby-opened"
    JOINED = "joined"
    COMPUTER_ADDED = "computer-added"
    COMPUTER_REMOVED = "computer-removed"
    GAME_STARTED = "game-started"
    KICKED = "kicked"
    LEFT = "left"
    HOST_CHANGED = "host-changed"
    COMPUTER_TOOK_OVER = "computer-took-over"
    GAME_ENDED = "game-ended"
    GAME_ABANDONED = "game-abandoned"
    REMATCH = "rematch"


@dataclasses.dataclass(frozen=True, slots=True)
class Fact:
    """Something to tell the table, as a code and parameters (never prose)."""

    code: FactCode
    params: Mapping[str, FactValue] = dataclasses.field(
        default_factory=lambda: MappingProxyType({})
    )

    @classmethod
    def of(cls, code: FactCode, **params: FactValue) -> Fact:
        return cls(code, MappingProxyType(params))


def played_for(
    name: str,
    seat: int,
    steps: Sequence[Step],
    *,
    user_id: int | None,
    reason: str,
    policy: str,
    replaced: bool = False,
    missed: int = 0,
) -> Fact:
    """The ``turn-played-for`` fact of a turn the bot played for a human (no choice, out of
    time, away): who, why, and what its ``steps`` did. One constructor for the live paths
    (autoplay, the scheduler) and the post the outbox rebuilds after a crash, so all three
    tell the same turn in the same words."""
    moves = [s.move for s in steps]
    return Fact.of(
        FactCode.TURN_PLAYED_FOR,
        name=name,
        seat=seat,
        first=steps[0].seq if steps else None,
        moves=len(steps),
        user_id=user_id,
        reason=reason,
        policy=policy,
        replaced=replaced,
        missed=missed,
        tiles=tuple(str(mv.tile) for mv in moves if isinstance(mv, Play)),
        drew=any(isinstance(mv, Draw) for mv in moves),
        passed=any(isinstance(mv, Pass) for mv in moves),
    )


@dataclasses.dataclass(frozen=True, slots=True)
class Outcome:
    """What a call did and who must be told."""

    #: The game after the call.
    game: GameSummary
    #: Every move applied by this call in order: the caller's first, then computer players'.
    steps: tuple[Step, ...] = ()
    rounds_ended: tuple[RoundEnd, ...] = ()
    #: Rounds dealt by this call (0-based numbers).
    rounds_started: tuple[int, ...] = ()
    #: Whose turn it is now (None when no round is being played).
    next_player: Player | None = None
    #: Humans whose hand changed (a deal, a play, a draw, a catch): DM them their hand.
    hands_changed: tuple[Player, ...] = ()
    match_over: MatchEnd | None = None
    #: A computer player is to move and was not run (paced play): call advance_computers.
    computer_pending: bool = False
    facts: tuple[Fact, ...] = ()

    @property
    def game_id(self) -> int:
        return self.game.id


# ---------------------------------------------------------------------- read off the rows


def players_of(seats: tuple[SeatRow, ...]) -> tuple[Player, ...]:
    return tuple(
        Player(
            s.seat,
            s.display_name,
            s.user_id if s.computer is None else None,
            None if s.computer is None else Level(s.computer),
        )
        for s in seats
    )


def read_rules(row: GameRow) -> Rules:
    try:
        return Rules.from_json(row.rules_json)
    except (ValueError, TypeError, KeyError) as exc:
        raise errors.GameCorrupt(row.id, f"unreadable rules: {exc}") from None


def summarise(row: GameRow, seats: tuple[SeatRow, ...], rules: Rules | None = None) -> GameSummary:
    players = players_of(seats)
    turn = row.turn_seat
    return GameSummary(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        host_id=row.host_id,
        status=row.status,
        preset=row.preset,
        rules=rules if rules is not None else read_rules(row),
        players=players,
        turn=players[turn] if turn is not None and 0 <= turn < len(players) else None,
        round_no=row.round_no,
        options=GameOptions(
            turn_deadline=None
            if row.turn_deadline_s is None
            else timedelta(seconds=row.turn_deadline_s),
            hints=row.hints,
        ),
        version=row.version,
        created_at=row.created_at,
        updated_at=row.updated_at,
        turn_since=row.turn_since,
        deadline_at=row.deadline_at,
    )


def standings_of(m: Match, players: tuple[Player, ...]) -> tuple[Standing, ...]:
    """Totals so far, best first; equal totals share a place (the winners of a finished
    match go first: see :func:`~bot.engine.standing_places`)."""
    winners = m.winners()
    return standings_from(players, m.totals, [r.went_out for r in m.results], winners)


def standings_from(
    players: tuple[Player, ...],
    totals: Sequence[int],
    went_out: Sequence[int | None],
    winners: Sequence[int] = (),
) -> tuple[Standing, ...]:
    """Standings from totals, who went out in each round so far, and the winners (none
    before the match is over): best first, ties sharing a place, seat order within one."""
    places = standing_places(totals, winners)
    order = sorted(range(len(players)), key=lambda s: (places[s], s))
    return tuple(
        Standing(
            players[s],
            totals[s],
            places[s],
            sum(1 for w in went_out if w == s),
            s in winners,
        )
        for s in order
    )
