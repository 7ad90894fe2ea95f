"""Playing across time zones: turn deadlines, reminders, absent and away players, stalled games.

The database is the source of truth. Every piece of work is a ``due_work`` row (migration 5)
naming its game, its kind and the turn it was planned for (``turn_key`` = ``"seat@turn_since"``):

* a move that starts a turn plans that turn's rows in its own transaction (a commit hook on
  :class:`GameService`): the ``timeout`` at the deadline, a ``remind`` before it, and ``away``
  at once when the player is away; the rows of the previous turn go in the same breath;
* triggers keep one ``stall`` row per unfinished game at "last change + N days".

:meth:`ScheduleService.handle` does one row's work at ``now`` and checks first that the row
still describes the game (same turn, same player, still away…): a row that outlived its turn is
a no-op, so a restart, a second process or a late tick can never play or remind twice. State
changes (a move for an absent player, closing a stalled game) commit before anything is posted;
messages (reminders, warnings) are acknowledged after the Discord layer has delivered them.

:class:`Scheduler` is the loop: run what is due, ask the store for the next due time, sleep
until then or until :meth:`Scheduler.wake`. Time is injected everywhere (``now``, a clock), so
tests move time forward instead of sleeping. Nothing here knows Discord.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import enum
import json
import logging
import zoneinfo
from collections.abc import AsyncIterator, Awaitable, Callable, Collection
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from bot.engine import DONE, DRAW, PASS, Draw, Move, Pass, Play, view_for
from bot.engine.ai import Level
from bot.service import errors
from bot.service.games import GameService, _Batch, _Game, _players, _summary
from bot.service.outcome import Fact, GameSummary, Outcome, Player, Standing
from bot.store import GameRow, GameStatus, NewEvent, ResultRow, SeatRow, Tx, UserSettings
from bot.store.schedule import (
    DueRow,
    GameScheduleRow,
    GuildScheduleRow,
    ScheduleStore,
    ScheduleTx,
    UserScheduleRow,
)
from bot.store.store import MessageRow, to_db_time

log = logging.getLogger(__name__)


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


# ---------------------------------------------------------------------- the service


class ScheduleService:
    """Deadlines, reminders, absent players and stalled games over a :class:`GameService`."""

    def __init__(
        self,
        games: GameService,
        *,
        stall_grace: timedelta = STALL_GRACE,
        nudge_interval: timedelta = NUDGE_INTERVAL,
        level: Level = Level.NORMAL,
    ) -> None:
        self.games = games
        self.rows = ScheduleStore(games.store)
        self.stall_grace = stall_grace
        self.nudge_interval = nudge_interval
        self.level = level
        games.add_commit_hook(self._plan_turn)

    # ================================================================== planning

    async def _plan_turn(
        self, tx: Tx, before: GameRow, after: GameRow, seats: tuple[SeatRow, ...], now: datetime
    ) -> None:
        """The commit hook: a new turn gets its work (the old turn's went with it, by the
        ``due_work_turn`` trigger). Two statements per new turn, none otherwise."""
        key = row_turn_key(after)
        seat = seats[after.turn_seat] if key is not None and after.turn_seat is not None else None
        human = seat is not None and seat.computer is None and seat.user_id is not None
        if key == row_turn_key(before):
            if key is not None and not human:  # the player to move was replaced mid-turn
                await ScheduleTx(tx).clear_turn_work(after.id)
            return
        if key is None or not human or after.turn_since is None:
            return
        assert seat is not None and seat.user_id is not None
        w = ScheduleTx(tx)
        uid = seat.user_id
        reminders_on, remind_after_s, away, before_s = await w.turn_facts(after.id, uid)
        rows = []
        if after.deadline_at is not None:
            rows.append(DueRow(after.id, "timeout", key, uid, after.deadline_at))
        if reminders_on:
            when = reminder_time(
                after.turn_since,
                after.deadline_at,
                remind_before=None if before_s is None else timedelta(seconds=before_s),
                remind_after=timedelta(seconds=remind_after_s),
            )
            if when is not None:
                rows.append(DueRow(after.id, "remind", key, uid, when))
        if away:
            rows.append(DueRow(after.id, "away", key, uid, now))
        await w.put_dues(rows)

    # ================================================================== due work

    async def next_due(self) -> datetime | None:
        return await self.rows.next_due()

    async def due(self, now: datetime, limit: int = 50) -> list[DueRow]:
        return await self.rows.due(now, limit)

    async def handle(self, due: DueRow, now: datetime) -> Notice | None:
        """Do one row's work at ``now``; None when there is nothing to tell (stale, deferred)."""
        if due.kind == "remind":
            return await self._remind(due, now)
        if due.kind in ("timeout", "away"):
            return await self._play_for_absent(due, now)
        if due.kind == "stall":
            return await self._stall(due, now)
        await self._finish(due)  # an unknown kind (a newer release's?): do not loop on it
        return None

    async def done(self, notice: Notice, now: datetime) -> None:
        """The Discord layer delivered ``notice``: acknowledge its row."""
        due = notice.due
        if isinstance(notice, Reminder):
            async with self.games.store.transaction() as tx:
                w = ScheduleTx(tx)
                await w.finish_due(due)
                await w.log_reminder(due.game_id, notice.user_id, "turn", due.due_at, now)
        elif isinstance(notice, StallWarning):
            async with self.games.store.transaction() as tx:
                await ScheduleTx(tx).move_due(due, "close", notice.closes_at)

    async def retry_later(self, due: DueRow, now: datetime) -> None:
        """The row's work failed: try again later rather than at once, over and over."""
        async with self.games.store.transaction() as tx:
            await ScheduleTx(tx).move_due(due, due.turn_key, now + RETRY_AFTER)

    async def _finish(self, due: DueRow) -> None:
        async with self.games.store.transaction() as tx:
            await ScheduleTx(tx).finish_due(due)

    async def _current(self, due: DueRow) -> tuple[GameRow, tuple[SeatRow, ...]] | None:
        """The game if the row still describes its turn (same turn, same human), else None."""
        row = await self.games.store.game(due.game_id)
        if row is None or row_turn_key(row) != due.turn_key or row.turn_seat is None:
            return None
        seats = tuple(await self.games.store.seats(due.game_id))
        if not 0 <= row.turn_seat < len(seats):
            return None
        seat = seats[row.turn_seat]
        if seat.computer is not None or seat.user_id is None or seat.user_id != due.user_id:
            return None
        return row, seats

    async def _remind(self, due: DueRow, now: datetime) -> Reminder | None:
        current = await self._current(due)
        if current is None:
            await self._finish(due)
            return None
        row, seats = current
        uid = due.user_id
        assert uid is not None
        settings = await self.games.store.user_settings(uid)
        mine = await self.rows.user_schedule(uid)
        if not settings.reminders or (row.deadline_at is not None and row.deadline_at <= now):
            # Off, or too late to help (e.g. the bot was down): the deadline's policy acts.
            await self._finish(due)
            return None
        wait = quiet_until(now, settings.time_zone, mine.quiet_start, mine.quiet_end)
        if wait is not None:
            async with self.games.store.transaction() as tx:
                w = ScheduleTx(tx)
                if row.deadline_at is not None and wait >= row.deadline_at:
                    # Asleep until after the deadline: no ping at night; the policy will act.
                    await w.finish_due(due)
                else:
                    await w.move_due(due, due.turn_key, wait)
            return None
        return Reminder(
            due,
            _summary(row, seats),
            uid,
            dm=mine.remind_dm and settings.dms_open,
            language=settings.language,
        )

    async def _play_for_absent(self, due: DueRow, now: datetime) -> TurnPlayed | None:
        """A deadline passed, or the player is away: their turn is played for them."""
        svc = self.games
        async with svc._locked(due.game_id):
            g = await svc._get(due.game_id)
            m = g.match
            seat_no = g.row.turn_seat
            uid = due.user_id
            stale = (
                row_turn_key(g.row) != due.turn_key
                or m is None
                or m.round is None
                or seat_no is None
                or m.round.current_seat != seat_no
                or g.seats[seat_no].computer is not None
                or g.seats[seat_no].user_id != uid
            )
            if not stale and due.kind == "timeout":
                stale = g.row.deadline_at is None or g.row.deadline_at > now
            if not stale and due.kind == "away":
                assert uid is not None
                stale = not (await self.rows.user_schedule(uid)).away
            if stale:
                await self._finish(due)
                return None
            assert m is not None and seat_no is not None and uid is not None
            options = await self.rows.game_schedule(g.row.id)
            policy = Policy(options.timeout_policy) if due.kind == "timeout" else Policy.COMPUTER
            replaced = False
            seats = g.seats
            if due.kind == "timeout" and policy is Policy.REPLACE:
                missed = 1 + await self._missed_in_a_row(g.row.id, seat_no, uid)
                replaced = missed >= options.replace_after
            else:
                missed = 0
            if replaced:
                seats = tuple(
                    dataclasses.replace(s, computer=self.level.value) if s.seat == seat_no else s
                    for s in seats
                )
            batch = _Batch(svc, g, m, seats, now)
            payload: dict[str, Any] = {"seat": seat_no, "user": uid}
            if due.kind == "timeout":
                payload |= {"policy": policy.value, "missed": missed}
            batch.event(due.kind, payload, None)
            if replaced:
                batch.event(
                    "replace",
                    {"seat": seat_no, "user": uid, "computer": self.level.value, "by": None},
                    None,
                )
            player = batch.players[seat_no]
            shown = _players(g.seats)[seat_no]  # the human, as the channel knows them
            try:
                self._play_turn(batch, seat_no, player, policy)
                pending = svc._after_move(batch, 0)
            except BaseException:
                svc._forget(g.row.id)
                raise
            mine = [s for s in batch.steps if s.player.seat == seat_no]
            batch.facts.insert(
                0,
                Fact.of(
                    "turn-played-for",
                    name=shown.name,
                    user_id=uid,
                    reason=due.kind,
                    policy=policy.value,
                    replaced=replaced,
                    missed=missed,
                    tiles=tuple(str(s.move.tile) for s in mine if isinstance(s.move, Play)),
                    drew=any(isinstance(s.move, Draw) for s in mine),
                    passed=any(isinstance(s.move, Pass) for s in mine),
                ),
            )
            outcome = await svc._commit_play(g, batch, pending, seats_changed=replaced)
            return TurnPlayed(due, outcome, due.kind, shown, policy, replaced)

    def _play_turn(self, batch: _Batch, seat_no: int, player: Player, policy: Policy) -> None:
        """Moves for ``seat_no`` until its turn is over (a drawn tile that fits is played)."""
        m = batch.match
        assert m.round is not None
        round_no = m.round.round_no
        for _ in range(64):  # a turn is a handful of moves (a fast start, a draw and a play)
            rnd = m.round
            if (
                m.is_over
                or rnd is None
                or rnd.round_no != round_no
                or rnd.result is not None
                or rnd.current_seat != seat_no
            ):
                return
            move = self._absent_move(batch, seat_no, policy)
            applied = batch.apply(player, move, None)
            batch.knock_for(seat_no, None)  # a computer always knocks in time, and so for them
            if applied.turn_over:
                return

    def _absent_move(self, batch: _Batch, seat_no: int, policy: Policy) -> Move:
        if policy is Policy.SKIP:
            legal = view_for(batch.match, seat_no).legal
            for move in (DRAW, PASS, DONE):
                if move in legal:
                    return move
            # The rules force a play (a tile that fits must be played): the computer picks it.
        return batch.service._computer_move(batch, seat_no, self.level)

    async def _missed_in_a_row(self, game_id: int, seat: int, user_id: int) -> int:
        """Deadlines this seat missed since its player last acted (from the event log)."""
        missed = 0
        for _, kind, payload, actor in await self.rows.tail_events(game_id, 2000):
            if actor == user_id:
                break
            if kind == "timeout":
                with contextlib.suppress(ValueError, TypeError, AttributeError):
                    if json.loads(payload).get("seat") == seat:
                        missed += 1
        return missed

    async def _stall(self, due: DueRow, now: datetime) -> StallWarning | StallClosed | None:
        row = await self.games.store.game(due.game_id)
        if row is None or not row.status.unfinished:
            await self._finish(due)
            return None
        seats = tuple(await self.games.store.seats(due.game_id))
        game = _summary(row, seats)
        if due.turn_key != "close":
            who = game.turn.user_id if game.turn is not None else game.host_id
            if who is not None:
                settings = await self.games.store.user_settings(who)
                mine = await self.rows.user_schedule(who)
                wait = quiet_until(now, settings.time_zone, mine.quiet_start, mine.quiet_end)
                if wait is not None:
                    async with self.games.store.transaction() as tx:
                        await ScheduleTx(tx).move_due(due, due.turn_key, wait)
                    return None
            idle = max(0, (now - row.updated_at).days)
            return StallWarning(due, game, who, idle, now + self.stall_grace)
        return await self._close_stalled(due, now)

    async def _close_stalled(self, due: DueRow, now: datetime) -> StallClosed | None:
        """Close a game nobody touched through its warning: status ``abandoned`` (nobody won),
        with the standings so far kept in ``results`` (``won`` is 0 for everyone)."""
        svc = self.games
        async with svc._locked(due.game_id):
            g = await svc._get(due.game_id)
            if not g.row.status.unfinished:
                await self._finish(due)
                return None
            standings = _partial_standings(g)
            results = tuple(
                ResultRow(
                    st.player.seat,
                    g.seats[st.player.seat].user_id,
                    g.seats[st.player.seat].computer,
                    st.total,
                    st.place,
                    False,
                    st.rounds_won,
                )
                for st in standings
            )
            end = NewEvent("end", json.dumps({"by": None, "reason": "stalled"}), None)
            try:
                async with svc.store.transaction() as tx:
                    await tx.append_events(g.row.id, g.seq + 1, [end], now)
                    await tx.touch(
                        g.row.id,
                        g.row.version,
                        now,
                        status=GameStatus.ABANDONED,
                        turn_seat=None,
                        turn_since=None,
                        deadline_at=None,
                    )
                    if results:
                        await tx.write_results(g.row.id, results, now)
            finally:
                svc._forget(g.row.id)
            return StallClosed(due, await svc.game(g.row.id), standings)

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
        reminders (opt-in; turning them on also says the DMs are open) and reminders at all."""
        if time_zone is not None:
            time_zone = check_time_zone(time_zone)
        for hour in (quiet_start, quiet_end):
            if hour is not None and not 0 <= hour <= 23:
                raise errors.BadSetting("quiet hours are whole hours, 0 to 23", code="bad-quiet")
        if time_zone is not None or reminders is not None or reminder_dms:
            await self.games.update_user_settings(
                user_id,
                now,
                time_zone=time_zone,
                reminders=reminders,
                dms_open=True if reminder_dms else None,
            )
        mine = await self.rows.user_schedule(user_id)
        if quiet_start is not None or quiet_end is not None:
            start = quiet_start if quiet_start is not None else mine.quiet_start
            end = quiet_end if quiet_end is not None else mine.quiet_end
            if start is None or end is None:
                start = end = start if start is not None else end
            mine = dataclasses.replace(mine, quiet_start=start, quiet_end=end)
        if reminder_dms is not None:
            mine = dataclasses.replace(mine, remind_dm=reminder_dms)
        if quiet_start is not None or quiet_end is not None or reminder_dms is not None:
            async with self.games.store.transaction() as tx:
                await ScheduleTx(tx).put_user_schedule(mine, now)
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

    async def away_players(self, game: GameSummary) -> list[Player]:
        out = []
        for p in game.humans:
            if p.user_id is not None and (await self.rows.user_schedule(p.user_id)).away:
                out.append(p)
        return out


def _partial_standings(g: _Game) -> tuple[Standing, ...]:
    """Standings of a match that stops early: totals so far, lower is better; nobody won."""
    players = _players(g.seats)
    m = g.match
    if m is None:
        return ()
    totals = list(m.totals)
    places = [1 + sum(t < totals[s] for t in totals) for s in range(len(players))]
    rounds_won = [sum(1 for r in m.results if r.went_out == s) for s in range(len(players))]
    order = sorted(range(len(players)), key=lambda s: (places[s], s))
    return tuple(Standing(players[s], totals[s], places[s], rounds_won[s], False) for s in order)


# ---------------------------------------------------------------------- the loop

Clock = Callable[[], datetime]
Deliver = Callable[[Notice], Awaitable[None]]
GameLock = Callable[[int], contextlib.AbstractAsyncContextManager[None]]
#: Sleeps ``seconds`` or until the event is set (tests and the benchmark pass a virtual one).
Waiter = Callable[[asyncio.Event, float], Awaitable[None]]


@contextlib.asynccontextmanager
async def _no_lock(game_id: int) -> AsyncIterator[None]:
    yield


class Scheduler:
    """Runs due work, then sleeps until the next due time or a :meth:`wake`.

    ``deliver`` tells Discord (or a test) about each :class:`Notice`; ``game_lock`` is the
    Discord layer's per-game posting lock, held from the state change to the post so the
    channel shows moves in order. Sends are spaced ``send_interval`` seconds apart, so a bot
    coming back to thousands of due reminders drains them at a steady rate instead of
    bursting. ``max_sleep`` bounds a sleep (a backstop against a wake that never came, e.g.
    another process wrote a deadline): at most one look per ``max_sleep`` when idle.
    """

    def __init__(
        self,
        schedule: ScheduleService,
        clock: Clock,
        deliver: Deliver,
        *,
        game_lock: GameLock = _no_lock,
        batch: int = 50,
        send_interval: float = 0.25,
        max_sleep: float = 3600.0,
        waiter: Waiter | None = None,
    ) -> None:
        self.schedule = schedule
        self.clock = clock
        self.deliver = deliver
        self.game_lock = game_lock
        self.batch = batch
        self.send_interval = send_interval
        self.max_sleep = max_sleep
        self._wake = asyncio.Event()
        self._tick_lock = asyncio.Lock()
        self._wait: Waiter = waiter or _wait_or_wake
        #: For the benchmark and tests: loop iterations, next-due queries, rows handled.
        self.wakeups = 0
        self.queries = 0
        self.handled = 0

    def wake(self) -> None:
        """Something may be due sooner than planned (a new turn, away mode): look again."""
        self._wake.set()

    async def tick(self) -> int:
        """Run everything due now (in batches, oldest first); the number of rows handled.

        Ticks never overlap, so a row is never delivered by two ticks at once."""
        done = 0
        async with self._tick_lock:
            retried: set[tuple[int, str]] = set()
            seen: set[DueRow] = set()  # every path changes its row; this is insurance
            while True:
                now = self.clock()
                rows = [
                    r
                    for r in await self.schedule.due(now, self.batch)
                    if (r.game_id, r.kind) not in retried and r not in seen
                ]
                if not rows:
                    return done
                seen.update(rows)
                for row in rows:
                    sent = await self._one(row, now, retried)
                    done += 1
                    self.handled += 1
                    if sent and self.send_interval > 0:
                        await asyncio.sleep(self.send_interval)

    async def _one(self, row: DueRow, now: datetime, retried: set[tuple[int, str]]) -> bool:
        try:
            async with self.game_lock(row.game_id):
                notice = await self.schedule.handle(row, now)
                if notice is None:
                    return False
                try:
                    await self.deliver(notice)
                finally:
                    # Delivered or not (a channel gone, DMs shut): never retry a message in
                    # a loop; the state change behind a TurnPlayed is committed either way.
                    await self.schedule.done(notice, now)
                return True
        except Exception:
            log.exception("game %s: %s work failed; trying again later", row.game_id, row.kind)
            retried.add((row.game_id, row.kind))
            with contextlib.suppress(Exception):
                await self.schedule.retry_later(row, now)
            return False

    async def sleep_time(self) -> float:
        """Seconds until the next due work (bounded by ``max_sleep``; 0 if due now)."""
        nxt = await self.schedule.next_due()
        self.queries += 1
        if nxt is None:
            return self.max_sleep
        return min(self.max_sleep, max(0.0, (nxt - self.clock()).total_seconds()))

    async def run(self) -> None:
        """Forever: tick, then sleep until the next due time or a wake."""
        while True:
            self._wake.clear()
            try:
                await self.tick()
                delay = await self.sleep_time()
            except Exception:
                log.exception("scheduler tick failed")
                delay = min(self.max_sleep, RETRY_AFTER.total_seconds())
            if delay > 0:
                await self._wait(self._wake, delay)
            self.wakeups += 1


async def _wait_or_wake(wake: asyncio.Event, seconds: float) -> None:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(wake.wait(), seconds)
