"""What the store hands out and takes in, whichever database holds it: rows, errors, times.

Both stores (:mod:`bot.store.sqlite`, :mod:`bot.store.postgres`) return these frozen rows and
raise these errors, so nothing above the store can tell which database it talks to. Times are
kept as fixed-width ISO-8601 text in UTC in both databases (see :func:`to_db_time`): the same
SQL compares and sorts them in both, and a copy between stores moves them byte for byte.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import zlib
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any


class StoreError(Exception):
    """Something the database refused or could not do."""


class StoreUnreachable(StoreError):
    """The database server could not be reached (refused, timed out, no such host): it may
    pass, unlike a wrong password or a damaged file, so start-up exits 1 (try again later)
    rather than 2 (fix the settings)."""


class CommitUnknown(StoreUnreachable):
    """The server stopped answering (or the connection broke) after a ``COMMIT`` was sent and
    before its answer came: the change may have been saved or not, and nobody can tell until
    the server answers again. Everything a commit writes goes in one transaction (the events,
    the game's version, what it owes the players in the outbox), so the database stays
    truthful either way; only the answer to the player must not claim "nothing changed"."""


class SchemaTooNew(StoreError):
    """The file was written by a newer version of the bot; opening it could damage it."""


class Conflict(StoreError):
    """Another writer changed the game first (the optimistic lock lost); nothing was written."""


class IntegrityRefused(StoreError):
    """The database refused a write that breaks a key, a check or the append-only log.

    ``constraint`` names what refused it with PostgreSQL's names in both stores (the SQLite
    store translates its messages), e.g. ``games_one_open_per_channel`` or ``events_pkey``;
    None when the database did not say.
    """

    def __init__(self, message: str, constraint: str | None = None) -> None:
        super().__init__(message)
        self.constraint = constraint


class ChannelBusy(StoreError):
    """The channel already has an unfinished game (the unique partial index said so)."""


class GameStatus(enum.StrEnum):
    LOBBY = "lobby"
    ACTIVE = "active"
    FINISHED = "finished"
    ABANDONED = "abandoned"

    @property
    def unfinished(self) -> bool:
        return self in (GameStatus.LOBBY, GameStatus.ACTIVE)


UNFINISHED_SQL = "('lobby', 'active')"


def to_db_time(when: datetime) -> str:
    """A time as stored: UTC, microseconds, fixed width (so text order is time order)."""
    if when.tzinfo is None:
        raise ValueError("times given to the store must be timezone-aware")
    return when.astimezone(UTC).isoformat(timespec="microseconds")


def from_db_time(text: str) -> datetime:
    return datetime.fromisoformat(text)


def opt_time(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


# ---------------------------------------------------------------------------- rows


@dataclasses.dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    guild_id: int
    channel_id: int
    host_id: int
    preset: str
    rules_json: str
    engine_version: int
    status: GameStatus
    version: int
    turn_seat: int | None
    round_no: int | None
    turn_deadline_s: int | None
    hints: bool
    created_at: datetime
    updated_at: datetime
    deadline_at: datetime | None
    turn_since: datetime | None


GAME_COLS = (
    "id, guild_id, channel_id, host_id, preset, rules, engine_version, status, version, "
    "turn_seat, round_no, turn_deadline_s, hints, created_at, updated_at, deadline_at, turn_since"
)


def game_row(r: Sequence[Any]) -> GameRow:
    return GameRow(
        id=r[0],
        guild_id=r[1],
        channel_id=r[2],
        host_id=r[3],
        preset=r[4],
        rules_json=r[5],
        engine_version=r[6],
        status=GameStatus(r[7]),
        version=r[8],
        turn_seat=r[9],
        round_no=r[10],
        turn_deadline_s=r[11],
        hints=bool(r[12]),
        created_at=from_db_time(r[13]),
        updated_at=from_db_time(r[14]),
        deadline_at=opt_time(r[15]),
        turn_since=opt_time(r[16]),
    )


@dataclasses.dataclass(frozen=True, slots=True)
class SeatRow:
    game_id: int
    seat: int
    #: The human who sits (or sat, before a computer took over) here; None for a computer.
    user_id: int | None
    display_name: str
    #: The computer level playing this seat ("easy", "normal", "hard"), None for a human.
    computer: str | None
    joined_at: datetime


SEAT_COLS = "game_id, seat, user_id, display_name, computer, joined_at"


def seat_row(r: Sequence[Any]) -> SeatRow:
    return SeatRow(r[0], r[1], r[2], r[3], r[4], from_db_time(r[5]))


@dataclasses.dataclass(frozen=True, slots=True)
class EventRow:
    game_id: int
    seq: int
    kind: str
    payload: str
    actor: int | None
    at: str


@dataclasses.dataclass(frozen=True, slots=True)
class NewEvent:
    """An event to append: ``payload`` is JSON text; ``actor`` the acting user (None: the
    bot itself, e.g. a deal or a computer player's move)."""

    kind: str
    payload: str
    actor: int | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class GameRecord:
    """One game as stored, read in one snapshot: the row, its seats, its events."""

    game: GameRow
    seats: tuple[SeatRow, ...]
    events: tuple[EventRow, ...]
    #: The latest round snapshot, (seq of its deal event, rounds JSON), if any.
    snapshot: tuple[int, str] | None = None
    #: Only the log's last rounds were read (``Store.load(rounds=...)``): the events start at
    #: a deal, not at seq 1, and the rounds before it are known from the snapshot alone.
    is_tail: bool = False


def pack_events(rows: Sequence[Sequence[Any]]) -> bytes:
    """A finished match's log as ``event_archive`` keeps it: ``(seq, kind, payload, actor,
    at)`` rows as one zlib-compressed JSON list (a 4-player match's ~1,400 rows shrink
    about tenfold: the same moves, tiles and times recur all through it)."""
    data = [[int(r[0]), str(r[1]), str(r[2]), r[3], str(r[4])] for r in rows]
    return zlib.compress(json.dumps(data, separators=(",", ":")).encode(), 9)


def unpack_events(game_id: int, blob: bytes) -> tuple[EventRow, ...]:
    """The rows :func:`pack_events` packed, as the ``events`` table gives them."""
    data = json.loads(zlib.decompress(bytes(blob)))
    return tuple(
        EventRow(
            game_id,
            int(seq),
            str(kind),
            str(payload),
            None if actor is None else int(actor),
            str(at),
        )
        for seq, kind, payload, actor, at in data
    )


def tail_from(snapshots: Sequence[Sequence[Any]], rounds: int | None) -> int:
    """The first seq a load reads: the deal of the ``rounds``-th latest snapshot among
    ``snapshots`` (``(seq, rounds)`` rows, newest first), or 1 (the whole log) when ``rounds``
    is None or the game has fewer snapshots than that."""
    if rounds is not None and rounds < 1:
        raise ValueError("a load reads at least the current round")
    if rounds is None or len(snapshots) < rounds:
        return 1
    return int(snapshots[rounds - 1][0])


@dataclasses.dataclass(frozen=True, slots=True)
class MessageRow:
    game_id: int
    kind: str
    channel_id: int
    message_id: int
    updated_at: datetime


#: What the bot plays at once for a player who never chose (``/mt me autoplay:``): the only
#: legal move too, since it is no decision (issue 46; docs/players.md says why). Not stored in
#: their row, so a change of it reaches everyone who never chose.
DEFAULT_AUTOPLAY = "only"


@dataclasses.dataclass(frozen=True, slots=True)
class UserSettings:
    user_id: int
    dms_open: bool = True
    hand_dms: bool = True
    reminders: bool = True
    reminder_after_s: int = 12 * 3600
    time_zone: str = "UTC"
    language: str = "en"
    #: How the tiles of their own pictures are drawn: ``pips`` or ``numerals``.
    tiles: str = "pips"
    #: Their DM channel, once opened: a DM never opens it again (it costs a rate-limited
    #: request), whichever process sends it.
    dm_channel_id: int | None = None
    #: How they are told it is their turn: ``auto`` (a DM where one can be delivered, else a
    #: mention in the channel), ``dm``, ``mention`` or ``both``.
    ping: str = "auto"
    #: What they chose the bot plays for them at once when their turn leaves no choice (``/mt
    #: me autoplay:``): ``off``, ``forced`` (a draw, a pass) or ``only`` (the only legal move
    #: too); None: never chosen, :data:`DEFAULT_AUTOPLAY` (read :attr:`autoplay_mode`).
    autoplay: str | None = None

    @property
    def autoplay_mode(self) -> str:
        """What the bot plays for them: their choice, else the default."""
        return self.autoplay if self.autoplay is not None else DEFAULT_AUTOPLAY


@dataclasses.dataclass(frozen=True, slots=True)
class GuildSettings:
    guild_id: int
    preset: str = "standard"
    house_rules: dict[str, Any] = dataclasses.field(default_factory=dict)
    allowed_channels: tuple[int, ...] = ()
    host_role_id: int | None = None
    #: New games open in a thread of their channel (``/mt new thread:`` overrides it).
    threads: bool = False


@dataclasses.dataclass(frozen=True, slots=True)
class ResultRow:
    seat: int
    user_id: int | None
    computer: str | None
    total: int
    place: int
    won: bool
    rounds_won: int


@dataclasses.dataclass(frozen=True, slots=True)
class DueRow:
    """One piece of scheduled work: ``kind`` for ``game_id`` at ``due_at``, planned for
    ``turn_key`` (see ``due_work`` in the schema)."""

    game_id: int
    kind: str
    turn_key: str
    user_id: int | None
    due_at: datetime


def due_row(r: Sequence[Any]) -> DueRow:
    return DueRow(r[0], r[1], r[2], r[3], from_db_time(r[4]))
