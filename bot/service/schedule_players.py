"""The schedule's settings and questions: a game's timeout policy, a server's defaults, a
player's time zone, quiet hours and away mode, ``/mt nudge`` and ``/mt mygames``.

Part of :class:`~bot.service.schedule.ScheduleService` (which exposes each method): these
calls read and write the schedule's own rows (:mod:`bot.store.schedule`) and never change a
game, so they stay apart from the due work that does.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Collection
from datetime import UTC, datetime, timedelta

from bot.service import errors
from bot.service.games import GameService
from bot.service.outcome import GameSummary, Player
from bot.service.timing import (
    REPLACE_AFTER,
    MyGame,
    MySettings,
    Nudge,
    Policy,
    TurnPing,
    check_time_zone,
    quiet_until,
    turn_key,
    turn_ping,
)
from bot.store import GameStatus
from bot.store import stats as stats_sql
from bot.store.schedule import (
    DueRow,
    GameScheduleRow,
    GuildScheduleRow,
    ScheduleStore,
    ScheduleTx,
)
from bot.store.stats import FinishedRow

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

    async def turn_ping(self, user_id: int, now: datetime) -> TurnPing:
        """How ``user_id`` hears now that their turn came (their settings, quiet hours)."""
        mine = await self.my_settings(user_id)
        return turn_ping(mine.settings, mine.schedule, now)

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
