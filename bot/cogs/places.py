"""Where a game lives, as Discord changes it: a game's thread archived for idleness is reopened;
a game's channel or thread deleted, or the bot removed from its server, ends the game.

Discord says so on the gateway (CHANNEL_DELETE, THREAD_DELETE, and GUILD_DELETE without
``unavailable``). Unheard, such a game would keep failing — its reminders answered 10003
Unknown Channel — until the stall timer closed it, and its players would never learn why.
Here it ends at once (abandoned: nobody wins; its deadlines and reminders end with it, the
scheduler skipping a finished game), and each human player is told by DM in one line. A
GUILD_DELETE with ``unavailable`` is an outage, not a removal (discord.py calls
``on_guild_unavailable``): nothing is done then. A deleted channel takes its threads with it
(discord.py reports each as a thread deletion).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

import discord
from discord.ext import commands

from bot.i18n import tr
from bot.service import ServiceError
from bot.ui.announcer import dm
from bot.ui.host import GameBot
from bot.ui.limits import shown
from bot.ui.mt import GameCog

log = logging.getLogger(__name__)

#: What is gone -> the reason written in the game's log.
REASONS = {"channel": "channel-deleted", "server": "server-left"}


class Places(GameCog):
    """Ends the games whose channel, thread or server went away."""

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        self.bot.hooks.forget(channel.id)  # its webhook went with it (a thread has none)
        await self.gone([channel.id], "channel", channel.guild.name)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        guild = self.bot.get_guild(payload.guild_id)
        await self.gone([payload.thread_id], "channel", guild.name if guild else "?")

    @commands.Cog.listener()
    async def on_mt_channel_gone(self, channel_id: int) -> None:
        """A post in a game's channel was answered 404 Unknown Channel (10003,
        :func:`bot.ui.route.gone`): it was deleted and its delete event never reached
        the bot. The game ends as if the event had come."""
        self.bot.hooks.forget(channel_id)
        try:
            game = await self.bot.service.game_in_channel(channel_id)
        except Exception:
            log.exception("channel %s: could not check for its game", channel_id)
            return
        if game is None:
            return  # ended already (the event came after all, or a second refused post)
        guild = self.bot.get_guild(game.guild_id)
        log.info("channel %s: Discord says it is gone (10003)", channel_id)
        await self.gone([channel_id], "channel", guild.name if guild else "?")

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        places = [c.id for c in guild.channels] + [t.id for t in guild.threads]
        await self.gone(places, "server", guild.name)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """What changed while the bot was away: each unfinished game of a server this process
        serves whose channel discord.py does not know after connecting is an archived thread
        (reopened) or a deleted channel (the game ends). Servers themselves are left alone:
        one missing at start-up may be an outage as well as a removal."""
        bot = self.bot
        try:
            places = await bot.service.unfinished_places()
        except Exception:
            log.exception("could not list where the unfinished games are")
            return
        for _, guild_id, channel_id in places:
            guild = bot.get_guild(guild_id)
            if guild is None or guild.unavailable or not bot.config.runs_guild(guild_id):
                continue
            if guild.get_channel_or_thread(channel_id) is not None:
                continue  # known: a channel, or a thread still open
            try:
                found = await bot.fetch_channel(channel_id)
            except discord.NotFound:
                await self.gone([channel_id], "channel", guild.name)
                continue
            except discord.HTTPException as exc:
                log.warning("channel %s: could not look it up: %s", channel_id, exc)
                continue
            if isinstance(found, discord.Thread) and found.archived and not found.locked:
                await self.reopen(channel_id)

    @commands.Cog.listener()
    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        """Discord archives a thread nobody wrote in for its auto-archive time (7 days asked,
        sooner in a busy channel), and in an archived thread nobody can use a command or a
        button: a game's thread is reopened at once while the game lives. (The bot archives
        it itself when the game is over; a locked thread is a moderator's decision, kept.)"""
        meta = payload.data.get("thread_metadata") or {}
        if meta.get("archived") and not meta.get("locked"):
            await self.reopen(payload.thread_id)

    async def reopen(self, thread_id: int) -> None:
        """Unarchive ``thread_id`` if an unfinished game is played in it."""
        try:
            game = await self.bot.service.game_in_channel(thread_id)
            if game is None:
                return
            await self.bot.http.edit_channel(
                thread_id, archived=False, reason=f"game #{game.id} is still on"
            )
            log.info("game %s: its thread was archived; reopened", game.id)
        except discord.HTTPException as exc:
            log.warning("thread %s: could not reopen it: %s", thread_id, exc)
        except Exception:
            log.exception("thread %s: could not check for its game", thread_id)

    async def gone(self, channel_ids: Iterable[int], what: str, server: str) -> None:
        """End the unfinished game of each of ``channel_ids`` and tell its players."""
        bot = self.bot
        for channel_id in channel_ids:
            try:
                game = await bot.service.game_in_channel(channel_id)
                if game is None:
                    continue
                async with bot.game_lock(game.id):
                    out = await bot.service.place_gone(game.id, bot.now(), REASONS[what])
                    # Nothing it owes can reach a place that is gone: no retry (issue 50).
                    await bot.service.outbox.delivered(
                        game.id, out.game.version, post=True, ping=True, now=bot.now()
                    )
                bot.posts.forget(game.id)
                log.info("game %s ended: its %s is gone", game.id, what)
            except ServiceError as exc:  # ended meanwhile by someone else: nothing to do
                log.info("channel %s: %s", channel_id, exc)
                continue
            except Exception:
                log.exception("channel %s: could not end its game", channel_id)
                continue
            for player in game.players:
                if player.user_id is None:
                    continue
                language = (await bot.service.user_settings(player.user_id)).language
                text = tr(f"gone.{what}", language, game=game.id, server=shown(server))
                await dm(bot, player.user_id, text)


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, GameBot)
    await bot.add_cog(Places(bot))
