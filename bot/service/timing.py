"""The schedule as players meet it: its values, its time rules, and its settings and questions.

What a player sets and asks of the schedule (a game's timeout policy, a server's defaults,
their own time zone, quiet hours and away mode, ``/mt nudge``, ``/mt mygames``:
:class:`SchedulePlayers`), the time rules those settings feed (when a reminder is due, when
quiet hours end in a player's own time zone, the key that ties a piece of work to one turn,
how a player hears that their turn came: :func:`turn_ping`), and the values the schedule hands
the Discord layer (the :data:`Notice` of due work, a :class:`Nudge`, :class:`MyGame`). The
values live beside the calls that build them; the rules are pure functions of their arguments
(no store, no clock), unit-tested directly.

:class:`~bot.service.schedule.ScheduleService` exposes each :class:`SchedulePlayers` method and
does the due work, which changes games; nothing here changes a game.
"""

from __future__ import annotations

import dataclasses
import enum
import logging
import zoneinfo
from collections.abc import Collection
from datetime import UTC, date, datetime, time, timedelta

from bot.service import errors
from bot.service.games import GameService
from bot.service.outcome import GameSummary, Outcome, Player, Standing
from bot.store import GameRow, GameStatus, UserSettings
from bot.store import stats as stats_sql
from bot.store.schedule import (
    DueRow,
    GameScheduleRow,
    GuildScheduleRow,
    ScheduleStore,
    ScheduleTx,
    UserScheduleRow,
)
from bot.store.stats import FinishedRow
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


def turn_ping(
    settings: UserSettings, schedule: UserScheduleRow, now: datetime, *, turn: bool = True
) -> TurnPing:
    """The ping a player's settings ask for now (see :class:`TurnPing`). A DM needs their DMs
    on (``/mt me dms:``) and not known closed; without it a DM choice falls back to the
    mention, so nobody misses a turn for a setting. A player in daily digest mode (``/mt me
    digest:``) hears of a ``turn`` by their digest only: no DM, and the post names them
    without a ping (the match's end, ``turn=False``, is told as always) — unless their DMs
    are known closed, when no digest can reach them: then the mention, as for anyone."""
    if turn and schedule.digest_hour is not None and settings.dms_open:
        return TurnPing(settings.user_id, False, False, None, settings=settings)
    can_dm = settings.hand_dms and settings.dms_open
    wants = settings.ping
    dm = can_dm and wants in ("auto", "dm", "both")
    mention = wants in ("mention", "both") or not dm
    quiet = quiet_until(now, settings.time_zone, schedule.quiet_start, schedule.quiet_end)
    return TurnPing(settings.user_id, dm, mention, quiet, settings=settings)


# ---------------------------------------------------------------------- the players' side

#: How long a finished match is listed by ``/mt mygames``, and how many at most.
RECENTLY_FINISHED = timedelta(days=7)
FINISHED_LISTED = 5

log = logging.getLogger(__name__)


class SchedulePlayers:
    """The schedule as players and servers configure and ask it."""

    def __init__(
        self, games: GameService, rows: ScheduleStore, *, nudge_interval: timedelta
    ) -> None:
        self.games = games
        self.rows = rows
        self.nudge_interval = nudge_interval

    # ================================================================== settings

    async def game_schedule(self, game_id: int) -> GameScheduleRow:
        return await self.rows.game_schedule(game_id)

    async def set_game_schedule(
        self,
        game_id: int,
        *,
        policy: Policy | None = None,
        replace_after: int | None = None,
        remind_before: timedelta | None = None,
    ) -> GameScheduleRow:
        """The host's choices at ``/mt new`` (None: the server's default policy)."""
        game = await self.games.game(game_id)
        if policy is None:
            policy = Policy((await self.rows.guild_schedule(game.guild_id)).timeout_policy)
        if replace_after is not None and replace_after < 1:
            raise errors.BadSetting("replace after at least one missed turn", code="bad-setting")
        if remind_before is not None and remind_before < timedelta(minutes=1):
            raise errors.BadSetting("remind at least a minute before", code="bad-setting")
        row = GameScheduleRow(
            game_id,
            policy.value,
            replace_after or REPLACE_AFTER,
            None if remind_before is None else int(remind_before.total_seconds()),
        )
        async with self.games.store.transaction() as tx:
            await ScheduleTx(tx).put_game_schedule(row)
        return row

    async def guild_schedule(self, guild_id: int) -> GuildScheduleRow:
        return await self.rows.guild_schedule(guild_id)

    async def default_deadline(self, guild_id: int) -> timedelta | None:
        s = (await self.rows.guild_schedule(guild_id)).deadline_s
        return None if s is None else timedelta(seconds=s)

    async def update_guild_schedule(
        self,
        guild_id: int,
        now: datetime,
        *,
        is_manager: bool,
        deadline_hours: int | None = None,
        policy: Policy | None = None,
        stall_days: int | None = None,
    ) -> GuildScheduleRow:
        """Server defaults (Manage Server only). ``deadline_hours`` 0 means no deadline;
        ``stall_days`` 0 never closes stalled games. Applies to games opened from now on
        (stall limits: from each game's next change)."""
        if not is_manager:
            raise errors.ServiceError(
                "only a server manager can change the server's settings", code="not-manager"
            )
        row = await self.rows.guild_schedule(guild_id)
        if deadline_hours is not None:
            if deadline_hours < 0:
                raise errors.BadSetting("a deadline is a number of hours", code="bad-deadline")
            row = dataclasses.replace(row, deadline_s=deadline_hours * 3600 or None)
        if policy is not None:
            row = dataclasses.replace(row, timeout_policy=Policy(policy).value)
        if stall_days is not None:
            if stall_days < 0:
                raise errors.BadSetting("stall days can't be negative", code="bad-setting")
            row = dataclasses.replace(row, stall_days=stall_days)
        async with self.games.store.transaction() as tx:
            await ScheduleTx(tx).put_guild_schedule(row, now)
        return row

    async def turn_ping(self, user_id: int, now: datetime, *, turn: bool = True) -> TurnPing:
        """How ``user_id`` hears now that their turn came (their settings, quiet hours, daily
        digest; ``turn=False``: of something else, the match's end)."""
        mine = await self.my_settings(user_id)
        return turn_ping(mine.settings, mine.schedule, now, turn=turn)

    async def my_settings(self, user_id: int) -> MySettings:
        return MySettings(
            await self.games.store.user_settings(user_id), await self.rows.user_schedule(user_id)
        )

    async def update_my_settings(
        self,
        user_id: int,
        now: datetime,
        *,
        time_zone: str | None = None,
        quiet_start: int | None = None,
        quiet_end: int | None = None,
        reminder_dms: bool | None = None,
        reminders: bool | None = None,
    ) -> MySettings:
        """A player's own time zone (IANA name), quiet hours (0-23; equal hours: none), DM
        reminders (opt-in; turning them on also says the DMs are open) and reminders at all,
        written by the one writer of a user's settings (:meth:`Settings.update_user_settings
        <bot.service.settings.Settings.update_user_settings>`); then both rows as they stand."""
        await self.games.update_user_settings(
            user_id,
            now,
            time_zone=time_zone,
            reminders=reminders,
            dms_open=True if reminder_dms else None,
            quiet_start=quiet_start,
            quiet_end=quiet_end,
            reminder_dms=reminder_dms,
        )
        return await self.my_settings(user_id)

    async def set_away(self, user_id: int, away: bool, now: datetime) -> list[GameSummary]:
        """Away on: the player's turns are played by the computer at once (the ones waiting
        now too) until they come back. Returns their active games (to tell the channels)."""
        games = [g for g in await self.games.games_for_user(user_id) if g.turn is not None]
        mine = dataclasses.replace(await self.rows.user_schedule(user_id), away=away)
        async with self.games.store.transaction() as tx:
            w = ScheduleTx(tx)
            await w.put_user_schedule(mine, now)
            for g in games:
                key = turn_key(g.turn.seat if g.turn else None, g.turn_since)
                if away and key is not None and g.turn is not None and g.turn.user_id == user_id:
                    await w.put_due(DueRow(g.id, "away", key, user_id, now))
                elif not away:
                    await w.finish_away(g.id, user_id)
        return games

    # ================================================================== asking

    async def nudge(self, game_id: int, user_id: int, now: datetime) -> Nudge:
        """Any seated player pokes the player to move, once per interval per game."""
        game = await self.games.game(game_id)
        if game.status is not GameStatus.ACTIVE or game.turn is None:
            raise errors.WrongPhase("the game is not being played", code="not-started")
        by = game.player(user_id)
        if by is None:
            raise errors.NotInGame()
        target = game.turn
        if target.user_id is None or target.is_computer:
            raise errors.ServiceError("a computer player needs no nudge", code="nudge-computer")
        if target.user_id == user_id:
            raise errors.ServiceError("it's your own turn", code="nudge-self")
        last = await self.rows.last_nudge(game_id)
        if last is not None and now < last + self.nudge_interval:
            nxt = last + self.nudge_interval
            raise errors.ServiceError(
                "this game was nudged recently", code="nudge-too-soon", when=int(nxt.timestamp())
            )
        settings = await self.games.store.user_settings(target.user_id)
        mine = await self.rows.user_schedule(target.user_id)
        async with self.games.store.transaction() as tx:
            await ScheduleTx(tx).log_reminder(
                game_id, target.user_id, "nudge", now + self.nudge_interval, now
            )
        return Nudge(
            game,
            target,
            by,
            quiet_until(now, settings.time_zone, mine.quiet_start, mine.quiet_end),
            dm=mine.remind_dm and settings.dms_open,
            language=settings.language,
        )

    async def my_games(self, user_id: int, guild_ids: Collection[int] | None) -> list[MyGame]:
        """The user's unfinished games (in ``guild_ids`` if given): their turn first, soonest
        deadline first, then the others, most recently active first."""
        games = await self.games.games_for_user(user_id)
        if guild_ids is not None:
            games = [g for g in games if g.guild_id in guild_ids]
        messages = await self.rows.messages_of(g.id for g in games)
        out = []
        for g in games:
            kinds = messages.get(g.id, {})
            mine = g.turn is not None and g.turn.user_id == user_id
            out.append(MyGame(g, mine, kinds.get("table") or kinds.get("lobby")))
        far = datetime.max.replace(tzinfo=UTC)
        out.sort(key=lambda x: (not x.my_turn, x.game.deadline_at or far))
        return out

    async def my_finished(
        self, user_id: int, guild_ids: Collection[int] | None, now: datetime
    ) -> list[FinishedRow]:
        """The user's matches finished in the last :data:`RECENTLY_FINISHED` (in
        ``guild_ids`` if given), newest first, at most :data:`FINISHED_LISTED`: a finished
        game stays findable for a while, with its place, where a player looks for it."""
        rows = await stats_sql.finished_for_user(
            self.games.store, user_id, now - RECENTLY_FINISHED, 4 * FINISHED_LISTED
        )
        kept = [r for r in rows if guild_ids is None or r.guild_id in guild_ids]
        return kept[:FINISHED_LISTED]

    async def away_players(self, game: GameSummary) -> list[Player]:
        out = []
        for p in game.humans:
            if p.user_id is not None and (await self.rows.user_schedule(p.user_id)).away:
                out.append(p)
        return out
