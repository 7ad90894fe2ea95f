"""Playing across time zones on Discord: the scheduler loop and ``/mt nudge``, ``/mt away``,
``/mt mygames``. (The options ``/mt new``, ``/mt me``, ``/mt-admin settings`` and ``/mt status``
gain live in the lobby and admin cogs, over the same
:class:`~bot.service.schedule.ScheduleService`, which the bot owns: ``GameBot.schedule``.)

The loop (:class:`~bot.service.schedule.Scheduler`) starts once the bot is ready and sleeps
until the store's next due time (a move whose commit made work due sooner wakes it).
``/mt mygames`` and ``/mt nudge`` link to each game's latest table message, which the post
book (``bot.ui.posts``) records in batches. Messages the loop sends are spaced out
(:attr:`ScheduleCog.send_interval`); DMs go only to players who opted in and whose DMs are not
known to be closed, and a closed DM is remembered and never retried.

The extension that loads the cog is :mod:`bot.cogs.schedule`: discord.py runs an extension
as a fresh module at every load (and drops it, with its submodules, at unload), so the class
lives here, in a plain module, where tests can reach the one class every bot uses.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from datetime import timedelta

from discord import app_commands

from bot.i18n import tr, tr_count
from bot.service import FinishedRow, GameStatus, GameSummary, MessageRow
from bot.service.daily import DailyDigest
from bot.service.scheduler import Scheduler
from bot.service.timing import Notice, Reminder, StallClosed, StallWarning, TurnPlayed
from bot.ui import announcer, language, limits, messages, mt, notices
from bot.ui.choices import ChoiceText
from bot.ui.host import GameBot
from bot.ui.interactions import (
    Interaction,
    bot_of,
    channel_locale,
    game_here,
    guarded,
    locale_of,
    reply,
)
from bot.ui.matchend import ordinal
from bot.ui.mt import GameCog

log = logging.getLogger(__name__)

#: Seconds between two messages the loop sends (reminders, timeouts), so thousands of due
#: reminders after downtime drain at 4 a second instead of bursting against Discord.
SEND_INTERVAL = 0.25

_ON_OFF = [app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")]


def link(game: GameSummary, message: MessageRow | None) -> str:
    """Where to jump: the latest table message, else the channel."""
    base = f"https://discord.com/channels/{game.guild_id}/{game.channel_id}"
    return f"{base}/{message.message_id}" if message is not None else base


def link_to(guild_id: int, channel_id: int, message_id: int | None) -> str:
    base = f"https://discord.com/channels/{guild_id}/{channel_id}"
    return base if message_id is None else f"{base}/{message_id}"


def _guild_locale(bot: GameBot, guild_id: int) -> str:
    """The language for messages the loop posts in a server's channel (no interaction): the
    server's choice (``/mt-admin settings language:``) like every channel post, else its Discord
    locale. (It read the Discord locale only: a French server's reminders came in English.)"""
    return channel_locale(None, client=bot, guild_id=guild_id)


def _by(game: GameSummary, locale: str | None) -> str:
    if game.deadline_at is None:
        return ""
    return tr("schedule.by", locale, when=messages.timestamp(game.deadline_at))


class ScheduleCog(GameCog, name="Schedule"):
    """Owns the scheduler loop; ``/mt`` nudge, away and mygames."""

    send_interval = SEND_INTERVAL

    def __init__(self, bot: GameBot) -> None:
        super().__init__(bot)
        self.schedule = bot.schedule
        lease = bot.config.schedule_lease
        shared = bot.service.store.kind == "postgresql"  # other processes may plan work too
        self.scheduler = Scheduler(
            self.schedule,
            bot.now,
            self.deliver,
            game_lock=bot.game_lock,
            send_interval=self.send_interval,
            lease=timedelta(seconds=lease),
            # A row another process planned, or one whose claimer died, is seen within this.
            max_sleep=max(0.25, lease / 2) if shared else 3600.0,
            outage=bot.outage,
            deliver_digest=self.send_digest,
        )
        self._task: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        await super().cog_load()
        self._task = asyncio.create_task(self._run(), name="mt-scheduler")

    async def cog_unload(self) -> None:
        await super().cog_unload()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        try:  # the other processes of a cluster take this one's claimed work at once
            await self.scheduler.release()
        except Exception:
            log.exception("could not give back the claimed scheduled work")

    async def _run(self) -> None:
        await self.bot.wait_until_ready()
        await self.scheduler.run()

    def latest_message(self, game: GameSummary, stored: MessageRow | None) -> MessageRow | None:
        # The newer of the book's memory and the database's row (ids grow with time): the
        # row lags behind a batch being written; in a cluster, another process may have
        # made a newer post than this one remembers.
        known = self.bot.posts.known(game.id)
        if known is None or (stored is not None and stored.message_id >= known.message_id):
            return stored
        return MessageRow(game.id, "table", known.channel_id, known.message_id, self.bot.now())

    # ------------------------------------------------------------------ delivering

    async def deliver(self, notice: Notice) -> None:
        """Tell Discord about one piece of due work (called by the scheduler, in order).

        In a cluster the work may be for a server of another process's shard (claims go to
        any process): its posts go out through REST all the same, in the server's language
        read afresh (that process may have changed it since this one started)."""
        guild_id = _notice_guild(notice)
        if guild_id is not None and not self.bot.config.runs_guild(guild_id):
            await language.refresh(self.bot, self.bot.service, guild_id)
        if isinstance(notice, TurnPlayed):
            await announcer.announce(self.bot, [notice.outcome], None)
        elif isinstance(notice, Reminder):
            await self._remind(notice)
        elif isinstance(notice, StallWarning):
            await self._stall_warning(notice)
        elif isinstance(notice, StallClosed):
            await self._stall_closed(notice)

    async def post(self, channel_id: int, text: str, *, ping: bool = True) -> None:
        await notices.post(self.bot, channel_id, text, ping=ping)

    async def dm(self, user_id: int, text: str) -> bool:
        """DM a player; False (and remembered, never retried) when their DMs are closed."""
        return await notices.dm(self.bot, user_id, text)

    async def link_for(self, game: GameSummary) -> str:
        stored = (await self.schedule.rows.messages_of([game.id]))[game.id].get("table")
        return link(game, self.latest_message(game, stored))

    async def send_digest(self, d: DailyDigest) -> None:
        """A player's daily digest (issue 46): every game waiting on them, soonest deadline
        first, each with a jump link; by DM, with the digest's nonce (a DM sent again after a
        crash is answered with the first: one digest a day). Closed DMs are remembered."""
        lang = d.language
        head = tr("digest.head", lang, n=len(d.games) + d.more)
        foot = tr("digest.foot", lang, hour=d.hour, zone=d.time_zone)
        room = limits.CONTENT - len(head) - len(foot) - 200  # the "more" line's room
        lines: list[str] = []
        for w in d.games:
            where = f"<#{w.channel_id}>"
            guild = self.bot.get_guild(w.guild_id)
            if guild is not None:
                where += f" ({limits.shown(guild.name)})"
            url = link_to(w.guild_id, w.channel_id, self.latest_id(w.game_id, w.message))
            since = "" if w.turn_since is None else f"<t:{int(w.turn_since.timestamp())}:R>"
            line = tr("digest.game", lang, game=w.game_id, where=where, since=since, url=url)
            if w.deadline_at is not None:
                line += " " + tr("digest.by", lang, when=f"<t:{int(w.deadline_at.timestamp())}:R>")
            room -= len(line) + 1
            if room < 0:
                break
            lines.append(line)
        more = d.more + len(d.games) - len(lines)
        if more:
            lines.append(tr("digest.more", lang, n=more))
        text = "\n".join([head, *lines, foot])
        await notices.dm(self.bot, d.user_id, text, nonce=d.nonce)

    def latest_id(self, game_id: int, stored: MessageRow | None) -> int | None:
        known = self.bot.posts.known(game_id)
        if known is None or (stored is not None and stored.message_id >= known.message_id):
            return None if stored is None else stored.message_id
        return known.message_id

    async def _remind(self, n: Reminder) -> None:
        game = n.game
        url = await self.link_for(game)
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
        await self.post(game.channel_id, text)

    async def _stall_warning(self, n: StallWarning) -> None:
        game = n.game
        locale = _guild_locale(self.bot, game.guild_id)
        lobby = game.status is GameStatus.LOBBY
        key = "schedule.stall.warn-lobby" if lobby else "schedule.stall.warn"
        who = f"<@{n.user_id}>" if n.user_id is not None else "@here"
        text = tr(
            key, locale, game=game.id, days=n.idle_days, mention=who,
            when=messages.timestamp(n.closes_at),
        )  # fmt: skip
        await self.post(game.channel_id, text)

    async def _stall_closed(self, n: StallClosed) -> None:
        game = n.game
        locale = _guild_locale(self.bot, game.guild_id)
        if n.standings:
            text = tr(
                "schedule.stall.closed",
                locale,
                game=game.id,
                standings=messages.standings_text(
                    n.standings, locale, rounds=game.rules.rounds_total
                ),
            )
        else:
            text = tr("schedule.stall.closed-lobby", locale, game=game.id)
        await self.post(game.channel_id, text, ping=False)
        if n.game.round_no is None:
            await announcer.close_lobby(self.bot, game, locale)

    # ------------------------------------------------------------------ /mt nudge, away, mygames

    @mt.command(name="nudge", description="Remind the player to move that you wait")
    @app_commands.guild_only()
    async def nudge(self, interaction: Interaction) -> None:
        await _nudge(interaction)

    @mt.command(
        name="away", description="Away: the computer plays your turns at once until you return"
    )
    @app_commands.describe(state="on: you are away; off: you are back")
    @app_commands.choices(state=_ON_OFF)
    async def away(self, interaction: Interaction, state: ChoiceText) -> None:
        await _away(interaction, state)

    @mt.command(
        name="mygames", description="Your games and where it's your turn (in a DM: all servers)"
    )
    async def mygames(self, interaction: Interaction) -> None:
        await _mygames(interaction)


def _notice_guild(notice: Notice) -> int | None:
    if isinstance(notice, TurnPlayed):
        return notice.outcome.game.guild_id
    return notice.game.guild_id


def cog_of(bot: GameBot) -> ScheduleCog:
    cog = bot.get_cog("Schedule")
    assert isinstance(cog, ScheduleCog), "bot.cogs.schedule is not loaded"
    return cog


# ---------------------------------------------------------------------- /mt nudge, away, mygames


async def _nudge(interaction: Interaction) -> None:
    bot = bot_of(interaction)
    cog, locale = cog_of(bot), locale_of(interaction)
    async with guarded(interaction):
        game = await game_here(interaction)
        n = await cog.schedule.nudge(game.id, interaction.user.id, bot.now())
        target = n.target
        assert target.user_id is not None
        url = await cog.link_for(n.game)
        if n.quiet_until is None and n.dm:
            lang = n.language
            text = tr(
                "schedule.nudge.dm",
                lang,
                by_name=limits.shown(n.by.name),
                game=game.id,
                channel=f"<#{game.channel_id}>",
                by=_by(n.game, lang),
                link=tr("schedule.link", lang, url=url),
            )
            if await cog.dm(target.user_id, text):
                await reply(
                    interaction, tr("schedule.nudge.done", locale, name=limits.shown(target.name))
                )
                return
        public = _guild_locale(bot, game.guild_id)
        text = tr(
            "schedule.nudge.channel",
            public,
            mention=f"<@{target.user_id}>",
            by_name=limits.shown(n.by.name),
            game=game.id,
            by=_by(n.game, public),
        )
        await cog.post(game.channel_id, text, ping=n.quiet_until is None)
        if n.quiet_until is not None:
            when = f"<t:{int(n.quiet_until.timestamp())}:t>"
            text = tr("schedule.nudge.quiet", locale, name=limits.shown(target.name), when=when)
            await reply(interaction, text)
        else:
            await reply(
                interaction, tr("schedule.nudge.done", locale, name=limits.shown(target.name))
            )


async def _away(interaction: Interaction, state: str) -> None:
    bot = bot_of(interaction)
    cog, locale = cog_of(bot), locale_of(interaction)
    async with guarded(interaction):
        away = state == "on"
        user = interaction.user
        games = await cog.schedule.set_away(user.id, away, bot.now())
        cog.scheduler.wake()
        if away:
            await reply(interaction, tr_count("schedule.away.on", len(games), locale))
        else:
            await reply(interaction, tr("schedule.away.off", locale))
        key = "schedule.away.channel-on" if away else "schedule.away.channel-off"
        for game in games:
            me = game.player(user.id)
            name = me.name if me is not None else user.display_name
            await cog.post(
                game.channel_id, tr(key, _guild_locale(bot, game.guild_id), name=name), ping=False
            )
            await asyncio.sleep(cog.send_interval)


async def _mygames(interaction: Interaction) -> None:
    bot = bot_of(interaction)
    cog, locale = cog_of(bot), locale_of(interaction)
    async with guarded(interaction):
        in_dm = interaction.guild is None
        if in_dm:
            # Servers the bot is in; in a cluster this process sees only its shards' servers,
            # so those of the other shards are taken on trust (the DM comes to shard 0).
            here = {g.id for g in bot.guilds}
            mine = [
                m
                for m in await cog.schedule.my_games(interaction.user.id, None)
                if m.game.guild_id in here or not bot.config.runs_guild(m.game.guild_id)
            ]
        else:
            mine = await cog.schedule.my_games(interaction.user.id, {interaction.guild_id or 0})
        guilds = None if in_dm else {interaction.guild_id or 0}
        done = await cog.schedule.my_finished(interaction.user.id, guilds, bot.now())
        if not mine and not done:
            await reply(interaction, tr("schedule.mine.none", locale))
            return
        lines = [tr("schedule.mine.head", locale, count=len(mine))] if mine else []
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
        lines += finished_lines(done, locale)
        # clip's "…" line and the reply's own wrapping fit in the margin kept under the limit.
        await reply(interaction, messages.clip(lines, limits.CONTENT - 100))


def finished_lines(done: Sequence[FinishedRow], locale: str | None) -> list[str]:
    """``/mt mygames``: the matches the player finished lately, with their place and a link
    to where each was played (a finished game's commands still answer there)."""
    if not done:
        return []
    lines = [tr("schedule.mine.finished-head", locale)]
    for r in done:
        url = f"https://discord.com/channels/{r.guild_id}/{r.channel_id}"
        place = tr("end.won", locale) if r.won else ordinal(r.place, locale)
        lines.append(
            tr("schedule.mine.finished", locale, game=r.game_id, where=f"<#{r.channel_id}>",
               place=place, total=tr_count("re.pts", r.total, locale),
               link=tr("schedule.link", locale, url=url))
        )  # fmt: skip
    return lines
