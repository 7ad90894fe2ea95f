"""Playing across time zones on Discord: the scheduler loop and ``/mt nudge``, ``/mt away``,
``/mt mygames``, plus the options the lobby's ``/mt new``, ``/mt me``, ``/mt settings`` and
``/mt status`` gain (they call the helpers at the end of this module).

The loop (:class:`~bot.service.schedule.Scheduler`) starts once the bot is ready and sleeps
until the store's next due time; every table message the bot posts wakes it (the move may have
made new work due sooner, e.g. an away player's turn) and is remembered as the game's latest
table message, written in batches (one small transaction per :data:`FLUSH_DELAY`, not one per
move), so ``/mt mygames`` can link to it. Messages the loop sends are spaced out
(:attr:`ScheduleCog.send_interval`); DMs go only to players who opted in and whose DMs are not
known to be closed, and a closed DM is remembered and never retried.

The extension that loads the cog is :mod:`bot.cogs.schedule`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import zoneinfo
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import MexicanTrainBot
from bot.cogs import actions, render
from bot.cogs.common import Interaction, bot_of, guarded, locale_of, reply
from bot.i18n import tr
from bot.service import GameSummary
from bot.service.schedule import ScheduleService
from bot.service.scheduler import Scheduler
from bot.service.timing import (
    DEADLINE_HOURS,
    Notice,
    Policy,
    Reminder,
    StallClosed,
    StallWarning,
    TurnPlayed,
)
from bot.store import GameStatus
from bot.store.schedule import GameScheduleRow, ScheduleTx
from bot.store.store import MessageRow

log = logging.getLogger(__name__)

#: Seconds between the first unrecorded table message and the write that records it.
FLUSH_DELAY = 2.0
#: Seconds between two messages the loop sends (reminders, timeouts), so thousands of due
#: reminders after downtime drain at 4 a second instead of bursting against Discord.
SEND_INTERVAL = 0.25

#: Offered first by the time zone autocomplete; any IANA name is accepted.
COMMON_ZONES = (
    "UTC",
    "Europe/London",
    "Europe/Paris",
    "Europe/Berlin",
    "Europe/Madrid",
    "Europe/Rome",
    "Europe/Brussels",
    "Europe/Amsterdam",
    "Europe/Zurich",
    "Europe/Lisbon",
    "Europe/Athens",
    "Europe/Moscow",
    "America/New_York",
    "America/Chicago",
    "America/Denver",
    "America/Phoenix",
    "America/Los_Angeles",
    "America/Anchorage",
    "America/Toronto",
    "America/Montreal",
    "America/Vancouver",
    "America/Mexico_City",
    "America/Sao_Paulo",
    "America/Buenos_Aires",
    "Pacific/Honolulu",
    "Africa/Casablanca",
    "Africa/Dakar",
    "Africa/Abidjan",
    "Africa/Lagos",
    "Africa/Johannesburg",
    "Indian/Reunion",
    "Asia/Dubai",
    "Asia/Kolkata",
    "Asia/Bangkok",
    "Asia/Shanghai",
    "Asia/Tokyo",
    "Asia/Seoul",
    "Australia/Perth",
    "Australia/Sydney",
    "Pacific/Auckland",
    "Pacific/Noumea",
    "Pacific/Tahiti",
    "America/Martinique",
    "America/Guadeloupe",
)

DEADLINE_CHOICES = [app_commands.Choice(name="none", value=0)] + [
    app_commands.Choice(name=f"{h} h", value=h) for h in DEADLINE_HOURS
]
POLICY_CHOICES = [
    app_commands.Choice(name="computer plays that turn (default)", value="computer"),
    app_commands.Choice(name="skip: draw and pass", value="skip"),
    app_commands.Choice(name="computer takes the seat after K missed turns", value="replace"),
]
_ON_OFF = [app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")]


def zone_choices(typed: str) -> list[app_commands.Choice[str]]:
    """Time zones matching what was typed: common ones first, then any IANA name (25 max)."""
    needle = typed.strip().lower().replace(" ", "_")
    out = [z for z in COMMON_ZONES if needle in z.lower()]
    if len(out) < 25 and needle:
        extra = sorted(z for z in zoneinfo.available_timezones() if needle in z.lower())
        out += [z for z in extra if z not in out]
    return [app_commands.Choice(name=z, value=z) for z in out[:25]]


def link(game: GameSummary, message: MessageRow | None) -> str:
    """Where to jump: the latest table message, else the channel."""
    base = f"https://discord.com/channels/{game.guild_id}/{game.channel_id}"
    return f"{base}/{message.message_id}" if message is not None else base


def _guild_locale(bot: MexicanTrainBot, guild_id: int) -> str:
    """The language for messages the loop posts in a server's channel (no interaction)."""
    guild = bot.get_guild(guild_id)
    return str(guild.preferred_locale) if guild is not None else "en"


def _what(params: dict[str, object], locale: str | None) -> str:
    tiles = params.get("tiles") or ()
    shown = ", ".join(str(t) for t in tiles) if isinstance(tiles, tuple) else ""
    if shown:
        key = "schedule.what.drew-played" if params.get("drew") else "schedule.what.played"
        return tr(key, locale, tiles=shown)
    if params.get("drew"):
        return tr("schedule.what.drew-passed", locale)
    if params.get("passed"):
        return tr("schedule.what.passed", locale)
    return tr("schedule.what.moved", locale)


def played_for_line(params: dict[str, object], locale: str | None) -> str:
    """The channel's line for a turn played for an absent or away player."""
    what = _what(params, locale)
    name = params.get("name", "?")
    if params.get("reason") == "away":
        return tr("schedule.away.played", locale, name=name, what=what)
    if params.get("replaced"):
        return tr(
            "schedule.timeout.replaced", locale, name=name, what=what, missed=params.get("missed")
        )
    key = "schedule.timeout.skip" if params.get("policy") == "skip" else "schedule.timeout.computer"
    return tr(key, locale, name=name, what=what)


render.FACT_LINES["turn-played-for"] = played_for_line


def policy_text(row: GameScheduleRow | None, policy: str, locale: str | None) -> str:
    count = row.replace_after if row is not None else 3
    return tr(f"schedule.policy.{policy}", locale, count=count)


def _by(game: GameSummary, locale: str | None) -> str:
    if game.deadline_at is None:
        return ""
    return tr("schedule.by", locale, when=render.timestamp(game.deadline_at))


class ScheduleCog(commands.Cog, name="Schedule"):
    """Owns the scheduler loop; its commands join the ``/mt`` group."""

    send_interval = SEND_INTERVAL
    flush_delay = FLUSH_DELAY

    def __init__(self, bot: MexicanTrainBot) -> None:
        self.bot = bot
        self.schedule = ScheduleService(bot.service)
        self.scheduler = Scheduler(
            self.schedule,
            bot.now,
            self.deliver,
            game_lock=bot.game_lock,
            send_interval=self.send_interval,
        )
        self._task: asyncio.Task[None] | None = None
        self._flush: asyncio.Task[None] | None = None
        #: Latest table message per game, not yet written: game -> (channel, message).
        self._latest: dict[int, tuple[int, int]] = {}
        self._commands = _commands()

    async def cog_load(self) -> None:
        group = self.bot.tree.get_command("mt")
        if not isinstance(group, app_commands.Group):
            raise RuntimeError("bot.cogs.schedule loads after bot.cogs.lobby (its /mt group)")
        for command in self._commands:
            group.add_command(command, override=True)
        self._task = asyncio.create_task(self._run(), name="mt-scheduler")

    async def cog_unload(self) -> None:
        group = self.bot.tree.get_command("mt")
        if isinstance(group, app_commands.Group):
            for command in self._commands:
                group.remove_command(command.name)
        for task in (self._task, self._flush):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        await self.flush()

    async def _run(self) -> None:
        await self.bot.wait_until_ready()
        await self.scheduler.run()

    # ------------------------------------------------------------------ table messages

    @commands.Cog.listener()
    async def on_mt_table_posted(self, game: GameSummary, message: discord.Message) -> None:
        self._latest[game.id] = (message.channel.id, message.id)
        if self._flush is None or self._flush.done():
            self._flush = asyncio.create_task(self._flush_later())
        self.scheduler.wake()

    async def _flush_later(self) -> None:
        await asyncio.sleep(self.flush_delay)
        await self.flush()

    async def flush(self) -> None:
        """Write the latest table messages noted since the last write, in one transaction."""
        if not self._latest:
            return
        rows, self._latest = self._latest, {}
        try:
            async with self.bot.service.store.transaction() as tx:
                await ScheduleTx(tx).set_messages(
                    [(g, "table", c, m) for g, (c, m) in rows.items()], self.bot.now()
                )
        except Exception:
            log.exception("could not record %d table messages", len(rows))

    def latest_message(self, game: GameSummary, stored: MessageRow | None) -> MessageRow | None:
        pending = self._latest.get(game.id)
        if pending is None:
            return stored
        return MessageRow(game.id, "table", pending[0], pending[1], self.bot.now())

    # ------------------------------------------------------------------ delivering

    async def deliver(self, notice: Notice) -> None:
        """Tell Discord about one piece of due work (called by the scheduler, in order)."""
        if isinstance(notice, TurnPlayed):
            out = notice.outcome
            await actions.publish(self.bot, [out], None)
            await actions.send_hands(self.bot, out.game, out.hands_changed, None)
            if out.computer_pending:
                await actions.run_computers(self.bot, out.game_id, None)
        elif isinstance(notice, Reminder):
            await self._remind(notice)
        elif isinstance(notice, StallWarning):
            await self._stall_warning(notice)
        elif isinstance(notice, StallClosed):
            await self._stall_closed(notice)

    async def _post(self, channel_id: int, text: str, *, ping: bool = True) -> None:
        mentions = discord.AllowedMentions(users=ping, roles=False, everyone=False)
        try:
            await self.bot.get_partial_messageable(channel_id).send(text, allowed_mentions=mentions)
        except discord.HTTPException as exc:
            log.warning("could not post in channel %s: %s", channel_id, exc)

    async def dm(self, user_id: int, text: str) -> bool:
        """DM a player; False (and remembered, never retried) when their DMs are closed."""
        try:
            channel = await self.bot.create_dm(discord.Object(user_id))
            await channel.send(text)
        except discord.Forbidden as exc:
            if exc.code == 50007:
                await self.bot.service.update_user_settings(user_id, self.bot.now(), dms_open=False)
            else:
                log.warning("DM to %s refused: %s", user_id, exc)
            return False
        except discord.HTTPException as exc:
            log.warning("DM to %s failed: %s", user_id, exc)
            return False
        return True

    async def _link_for(self, game: GameSummary) -> str:
        stored = (await self.schedule.rows.messages_of([game.id]))[game.id].get("table")
        return link(game, self.latest_message(game, stored))

    async def _remind(self, n: Reminder) -> None:
        game = n.game
        url = await self._link_for(game)
        if n.dm:
            lang = n.language
            text = tr(
                "schedule.remind.dm",
                lang,
                game=game.id,
                channel=f"<#{game.channel_id}>",
                by=_by(game, lang),
                link=tr("schedule.link", lang, url=url),
            )
            if await self.dm(n.user_id, text):
                return
        locale = _guild_locale(self.bot, game.guild_id)
        text = tr(
            "schedule.remind.channel",
            locale,
            mention=f"<@{n.user_id}>",
            game=game.id,
            by=_by(game, locale),
            link=tr("schedule.link", locale, url=url),
        )
        await self._post(game.channel_id, text)

    async def _stall_warning(self, n: StallWarning) -> None:
        game = n.game
        locale = _guild_locale(self.bot, game.guild_id)
        lobby = game.status is GameStatus.LOBBY
        key = "schedule.stall.warn-lobby" if lobby else "schedule.stall.warn"
        who = f"<@{n.user_id}>" if n.user_id is not None else "@here"
        text = tr(
            key, locale, game=game.id, days=n.idle_days, mention=who,
            when=render.timestamp(n.closes_at),
        )  # fmt: skip
        await self._post(game.channel_id, text)

    async def _stall_closed(self, n: StallClosed) -> None:
        game = n.game
        locale = _guild_locale(self.bot, game.guild_id)
        if n.standings:
            text = tr(
                "schedule.stall.closed",
                locale,
                game=game.id,
                standings=render.standings_text(n.standings, locale),
            )
        else:
            text = tr("schedule.stall.closed-lobby", locale, game=game.id)
        await self._post(game.channel_id, text, ping=False)
        row = (await self.bot.service.messages(game.id)).get("lobby")
        if row is not None and n.game.round_no is None:
            message = self.bot.get_partial_messageable(row.channel_id).get_partial_message(
                row.message_id
            )
            with contextlib.suppress(discord.HTTPException):
                await message.edit(embed=actions.lobby_embed(game, locale), view=None)


def cog_of(bot: MexicanTrainBot) -> ScheduleCog:
    cog = bot.get_cog("Schedule")
    assert isinstance(cog, ScheduleCog), "bot.cogs.schedule is not loaded"
    return cog


# ---------------------------------------------------------------------- /mt nudge, away, mygames


def _commands() -> list[app_commands.Command[Any, ..., None]]:
    """The commands this cog adds to ``/mt`` (fresh objects per bot: a group owns them)."""

    @app_commands.command(name="nudge", description="Remind the player to move that you wait")
    @app_commands.guild_only()
    async def nudge(interaction: Interaction) -> None:
        await _nudge(interaction)

    @app_commands.command(
        name="away", description="Away: the computer plays your turns at once until you return"
    )
    @app_commands.describe(state="on: you are away; off: you are back")
    @app_commands.choices(state=_ON_OFF)
    async def away(interaction: Interaction, state: str) -> None:
        await _away(interaction, state)

    @app_commands.command(
        name="mygames", description="Your games and where it's your turn (in a DM: all servers)"
    )
    async def mygames(interaction: Interaction) -> None:
        await _mygames(interaction)

    return [nudge, away, mygames]


async def _nudge(interaction: Interaction) -> None:
    bot = bot_of(interaction)
    cog, locale = cog_of(bot), locale_of(interaction)
    async with guarded(interaction):
        game = await actions.game_here(interaction)
        n = await cog.schedule.nudge(game.id, interaction.user.id, bot.now())
        target = n.target
        assert target.user_id is not None
        url = await cog._link_for(n.game)
        if n.quiet_until is None and n.dm:
            lang = n.language
            text = tr(
                "schedule.nudge.dm",
                lang,
                by_name=n.by.name,
                game=game.id,
                channel=f"<#{game.channel_id}>",
                by=_by(n.game, lang),
                link=tr("schedule.link", lang, url=url),
            )
            if await cog.dm(target.user_id, text):
                await reply(interaction, tr("schedule.nudge.done", locale, name=target.name))
                return
        public = _guild_locale(bot, game.guild_id)
        text = tr(
            "schedule.nudge.channel",
            public,
            mention=f"<@{target.user_id}>",
            by_name=n.by.name,
            game=game.id,
            by=_by(n.game, public),
        )
        await cog._post(game.channel_id, text, ping=n.quiet_until is None)
        if n.quiet_until is not None:
            when = f"<t:{int(n.quiet_until.timestamp())}:t>"
            text = tr("schedule.nudge.quiet", locale, name=target.name, when=when)
            await reply(interaction, text)
        else:
            await reply(interaction, tr("schedule.nudge.done", locale, name=target.name))


async def _away(interaction: Interaction, state: str) -> None:
    bot = bot_of(interaction)
    cog, locale = cog_of(bot), locale_of(interaction)
    async with guarded(interaction):
        away = state == "on"
        user = interaction.user
        games = await cog.schedule.set_away(user.id, away, bot.now())
        cog.scheduler.wake()
        if away:
            await reply(interaction, tr("schedule.away.on", locale, count=len(games)))
        else:
            await reply(interaction, tr("schedule.away.off", locale))
        key = "schedule.away.channel-on" if away else "schedule.away.channel-off"
        for game in games:
            me = game.player(user.id)
            name = me.name if me is not None else user.display_name
            await cog._post(
                game.channel_id, tr(key, _guild_locale(bot, game.guild_id), name=name), ping=False
            )
            await asyncio.sleep(cog.send_interval)


async def _mygames(interaction: Interaction) -> None:
    bot = bot_of(interaction)
    cog, locale = cog_of(bot), locale_of(interaction)
    async with guarded(interaction):
        in_dm = interaction.guild is None
        guilds = {g.id for g in bot.guilds} if in_dm else {interaction.guild_id or 0}
        mine = await cog.schedule.my_games(interaction.user.id, guilds)
        if not mine:
            await reply(interaction, tr("schedule.mine.none", locale))
            return
        lines = [tr("schedule.mine.head", locale, count=len(mine))]
        for m in mine:
            game = m.game
            where = f"<#{game.channel_id}>"
            if in_dm:
                guild = bot.get_guild(game.guild_id)
                where += f" ({guild.name})" if guild is not None else ""
            url = link(game, cog.latest_message(game, m.message))
            jump = tr("schedule.link", locale, url=url)
            if game.status is GameStatus.LOBBY:
                text = tr("schedule.mine.lobby", locale, game=game.id, where=where, link=jump)
                lines.append(text)
            elif m.my_turn:
                lines.append(
                    tr("schedule.mine.turn", locale, game=game.id, where=where,
                       by=_by(game, locale), link=jump)
                )  # fmt: skip
            else:
                name = game.turn.name if game.turn is not None else "?"
                lines.append(
                    tr("schedule.mine.waiting", locale, game=game.id, where=where, name=name,
                       link=jump)
                )  # fmt: skip
        await reply(interaction, render.clip(lines, 1900))


# ---------------------------------------------------------------------- for the lobby cog


async def resolve_deadline(interaction: Interaction, hours: int | None) -> timedelta | None:
    """``/mt new deadline_hours``: None takes the server's default; 0 is no deadline."""
    if hours is not None:
        return timedelta(hours=hours) if hours > 0 else None
    if interaction.guild_id is None:
        return None
    return await cog_of(bot_of(interaction)).schedule.default_deadline(interaction.guild_id)


def game_options_saver(
    interaction: Interaction,
    *,
    policy: str | None,
    replace_after: int | None,
    remind_hours: int | None,
) -> Callable[[GameSummary], Awaitable[None]]:
    """For ``/mt new``: keeps the host's choices for absent players with the new game."""
    cog = cog_of(bot_of(interaction))

    async def save(game: GameSummary) -> None:
        await cog.schedule.set_game_schedule(
            game.id,
            policy=None if policy is None else Policy(policy),
            replace_after=replace_after,
            remind_before=None if remind_hours is None else timedelta(hours=remind_hours),
        )

    return save


async def me_text(
    interaction: Interaction,
    *,
    time_zone: str | None,
    quiet_start: int | None,
    quiet_end: int | None,
    reminder_dms: bool | None,
    reminders: bool | None,
) -> str:
    """Apply the time-zone options of ``/mt me`` and describe them (refusals raise)."""
    bot = bot_of(interaction)
    locale = locale_of(interaction)
    mine = await cog_of(bot).schedule.update_my_settings(
        interaction.user.id,
        bot.now(),
        time_zone=time_zone,
        quiet_start=quiet_start,
        quiet_end=quiet_end,
        reminder_dms=reminder_dms,
        reminders=reminders,
    )
    s, sc = mine.settings, mine.schedule
    if sc.quiet_start is None or sc.quiet_end is None or sc.quiet_start == sc.quiet_end:
        quiet = tr("schedule.me.none", locale)
    else:
        quiet = tr("schedule.me.quiet", locale, start=sc.quiet_start, end=sc.quiet_end)
    if not s.reminders:
        how = tr("schedule.me.off", locale)
    elif sc.remind_dm and s.dms_open:
        how = tr("schedule.me.dm", locale)
    else:
        how = tr("schedule.me.channel", locale)
    local = bot.now().astimezone(zoneinfo.ZoneInfo(s.time_zone)).strftime("%H:%M")
    return tr(
        "schedule.me",
        locale,
        zone=s.time_zone,
        local=local,
        quiet=quiet,
        how=how,
        away=tr("word.on" if sc.away else "word.off", locale),
    )


async def time_zone_autocomplete(
    interaction: Interaction, current: str
) -> list[app_commands.Choice[str]]:
    return zone_choices(current)


async def settings_text(
    interaction: Interaction,
    *,
    is_manager: bool,
    deadline_hours: int | None,
    policy: str | None,
    stall_days: int | None,
) -> str:
    """Apply the server-default options of ``/mt settings`` and describe them."""
    bot = bot_of(interaction)
    locale = locale_of(interaction)
    guild_id = interaction.guild_id or 0
    cog = cog_of(bot)
    if deadline_hours is not None or policy is not None or stall_days is not None:
        row = await cog.schedule.update_guild_schedule(
            guild_id,
            bot.now(),
            is_manager=is_manager,
            deadline_hours=deadline_hours,
            policy=None if policy is None else Policy(policy),
            stall_days=stall_days,
        )
    else:
        row = await cog.schedule.guild_schedule(guild_id)
    deadline = (
        tr("schedule.hours", locale, hours=row.deadline_s // 3600)
        if row.deadline_s
        else tr("schedule.no-deadline", locale)
    )
    stall = (
        tr("schedule.days", locale, days=row.stall_days)
        if row.stall_days
        else tr("schedule.never", locale)
    )
    grace = tr("schedule.days", locale, days=cog.schedule.stall_grace.days)
    return tr(
        "schedule.settings",
        locale,
        deadline=deadline,
        policy=policy_text(None, row.timeout_policy, locale),
        stall=stall,
        grace=grace,
    )


async def status_lines(interaction: Interaction, game: GameSummary) -> list[str]:
    """``/mt status``: what happens when time runs out, and who is away."""
    cog = cog_of(bot_of(interaction))
    locale = locale_of(interaction)
    lines = []
    if game.options.turn_deadline is not None:
        row = await cog.schedule.game_schedule(game.id)
        lines.append(
            tr(
                "schedule.status.policy",
                locale,
                policy=policy_text(row, row.timeout_policy, locale),
            )
        )
    away = await cog.schedule.away_players(game)
    if away:
        lines.append(tr("schedule.status.away", locale, names=", ".join(p.name for p in away)))
    return lines
