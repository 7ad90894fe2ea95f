"""The schedule's values: timeout policies, the time rules, and what it tells the Discord layer.

Pure functions of their arguments (no store, no clock): when a reminder is due, when quiet
hours end in a player's own time zone, the key that ties a piece of work to one turn, and the
notices (:data:`Notice`) :class:`~bot.service.schedule.ScheduleService` hands over for
delivery. Kept apart from the service so they are unit-tested directly.
"""

from __future__ import annotations

import dataclasses
import enum
import zoneinfo
from datetime import UTC, date, datetime, time, timedelta

from bot.service import errors
from bot.service.outcome import GameSummary, Outcome, Player, Standing
from bot.store import GameRow, GameStatus, UserSettings
from bot.store.schedule import (
    DueRow,
    UserScheduleRow,
)
from bot.store.store import MessageRow, to_db_time


class Policy(enum.StrEnum):
    """What happens when a player's turn deadline passes."""

    #: A computer player (Normal) plays that one turn for them.
    COMPUTER = "computer"
    #: The least the rules allow: draw, then pass (or pass); a tile only when the rules force one.
    SKIP = "skip"
    #: As COMPUTER, and after ``replace_after`` missed turns in a row the seat goes to a
    #: computer player for the rest of the game.
    REPLACE = "replace"


#: The turn deadlines a host picks from (hours); None is "no deadline".
DEADLINE_HOURS = (1, 12, 24, 72)
STALL_DAYS = 14
STALL_GRACE = timedelta(days=2)
NUDGE_INTERVAL = timedelta(hours=1)
REPLACE_AFTER = 3
#: A row whose work failed (database busy, Discord down) is tried again this much later.
RETRY_AFTER = timedelta(minutes=5)


# ---------------------------------------------------------------------- pure time rules


def turn_key(seat: int | None, since: datetime | None) -> str | None:
    """The identity of a turn: the seat to play and when its turn began."""
    if seat is None or since is None:
        return None
    return f"{seat}@{to_db_time(since)}"


def row_turn_key(row: GameRow) -> str | None:
    if row.status is not GameStatus.ACTIVE:
        return None
    return turn_key(row.turn_seat, row.turn_since)


def reminder_time(
    turn_since: datetime,
    deadline_at: datetime | None,
    *,
    remind_before: timedelta | None = None,
    remind_after: timedelta = timedelta(hours=12),
) -> datetime | None:
    """When to nudge the player to move (before quiet hours are considered).

    With a deadline: ``remind_before`` it (default: half-way through the turn), never before
    the turn began. Without one: ``remind_after`` the turn began (the player's own setting).
    """
    if deadline_at is None:
        return turn_since + remind_after
    length = deadline_at - turn_since
    if length <= timedelta(0):
        return None
    before = remind_before if remind_before is not None else length / 2
    if before >= length:
        before = length / 2
    return deadline_at - before


def quiet_until(
    now: datetime, time_zone: str, start: int | None, end: int | None
) -> datetime | None:
    """If ``now`` falls in the quiet hours ``start`` to ``end`` (whole hours of the player's own
    day in ``time_zone``; may wrap past midnight), the UTC instant they end; else None.

    The end is the wall-clock hour in that zone on the right day, so it follows daylight
    saving changes (zoneinfo): 08:00 in New York is 13:00 UTC in winter and 12:00 in summer.
    """
    if start is None or end is None or start == end:
        return None
    try:
        zone = zoneinfo.ZoneInfo(time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        zone = zoneinfo.ZoneInfo("UTC")
    local = now.astimezone(zone)
    hour = local.hour + local.minute / 60 + local.second / 3600
    if start < end:
        quiet = start <= hour < end
        end_day = local.date()
    else:  # wraps midnight, e.g. 22 -> 8
        quiet = hour >= start or hour < end
        end_day = local.date() + timedelta(days=1) if hour >= start else local.date()
    if not quiet:
        return None
    return _wall_clock(end_day, end, zone)


def _wall_clock(day: date, hour: int, zone: zoneinfo.ZoneInfo) -> datetime:
    """``hour``:00 on ``day`` in ``zone``, as UTC. An hour skipped by a spring-forward change
    resolves to the instant after the gap (fold=0 reads it with the old offset)."""
    return datetime.combine(day, time(hour), tzinfo=zone).astimezone(UTC)


def check_time_zone(name: str) -> str:
    name = name.strip()
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise errors.BadSetting(
            f"{name!r} is not a time zone (try Europe/Paris)", code="bad-time-zone", zone=name
        ) from None
    return name


# ---------------------------------------------------------------------- what to tell


@dataclasses.dataclass(frozen=True, slots=True)
class Reminder:
    """Remind ``user_id`` that it is their turn (by DM if ``dm``, else in the channel)."""

    due: DueRow
    game: GameSummary
    user_id: int
    dm: bool
    language: str


@dataclasses.dataclass(frozen=True, slots=True)
class TurnPlayed:
    """A turn played for an absent (``timeout``) or away (``away``) player, committed."""

    due: DueRow
    outcome: Outcome
    reason: str
    player: Player
    policy: Policy
    replaced: bool


@dataclasses.dataclass(frozen=True, slots=True)
class StallWarning:
    due: DueRow
    game: GameSummary
    #: Who is holding the game up (the player to move; the host of a lobby).
    user_id: int | None
    idle_days: int
    closes_at: datetime


@dataclasses.dataclass(frozen=True, slots=True)
class StallClosed:
    due: DueRow
    game: GameSummary
    #: Standings when it closed (empty for a lobby); kept in ``results``.
    standings: tuple[Standing, ...]


Notice = Reminder | TurnPlayed | StallWarning | StallClosed


@dataclasses.dataclass(frozen=True, slots=True)
class Nudge:
    game: GameSummary
    target: Player
    by: Player
    #: When the target's quiet hours end, if they are in them now (then: no ping).
    quiet_until: datetime | None
    dm: bool
    language: str


@dataclasses.dataclass(frozen=True, slots=True)
class MyGame:
    game: GameSummary
    my_turn: bool
    #: The latest table message (else the lobby message), to link to.
    message: MessageRow | None


@dataclasses.dataclass(frozen=True, slots=True)
class MySettings:
    settings: UserSettings
    schedule: UserScheduleRow


@dataclasses.dataclass(frozen=True, slots=True)
class TurnPing:
    """How a player hears that their turn came: ONE ping by default (``/mt me ping:``,
    ``auto``: a DM where one can be delivered, else a mention in the game's channel), a DM
    and a mention if they asked for both; in their quiet hours both arrive without a sound
    (``quiet_until``: when those hours end). ``here``: they are the one acting, already
    looking — nothing to ping, their hand comes with their answer."""

    user_id: int
    dm: bool
    mention: bool
    quiet_until: datetime | None
    here: bool = False
    settings: UserSettings | None = None


def turn_ping(settings: UserSettings, schedule: UserScheduleRow, now: datetime) -> TurnPing:
    """The ping a player's settings ask for now (see :class:`TurnPing`). A DM needs their DMs
    on (``/mt me dms:``) and not known closed; without it a DM choice falls back to the
    mention, so nobody misses a turn for a setting."""
    can_dm = settings.hand_dms and settings.dms_open
    wants = settings.ping
    dm = can_dm and wants in ("auto", "dm", "both")
    mention = wants in ("mention", "both") or not dm
    quiet = quiet_until(now, settings.time_zone, schedule.quiet_start, schedule.quiet_end)
    return TurnPing(settings.user_id, dm, mention, quiet, settings=settings)
