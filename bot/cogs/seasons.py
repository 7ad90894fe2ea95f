"""``/mt season`` (issue 48): a season's standings, and its league: ``league:join`` signs up,
``league:leave`` leaves, ``league:tables`` shows the tables (``/mt`` holds Discord's most
subcommands, 25: the league is an option of the season's command). The server admin's side
is ``/mt-admin season`` and ``/mt-admin league`` (:mod:`bot.cogs.admin`, :mod:`bot.ui.seasonadmin`).

While this cog is loaded the scheduler's loop also runs the seasons' work
(:class:`bot.ui.seasons.SeasonLoop`): a league's tables opened at its season's start, the
season ended at its end, and its end post, owed until it is posted.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import tr
from bot.ui import league as leagueui
from bot.ui import messages, mt, seasons
from bot.ui.choices import ChoiceText
from bot.ui.host import GameBot
from bot.ui.interactions import Interaction, bot_of, guarded, locale_of, reply, server_of
from bot.ui.language import remember_client_language
from bot.ui.limits import shown
from bot.ui.mt import GameCog

LEAGUE_ACTIONS = [
    app_commands.Choice(name="join", value="join"),
    app_commands.Choice(name="leave", value="leave"),
    app_commands.Choice(name="tables", value="tables"),
]


class Season(GameCog):
    """``/mt season``; the seasons' work in the scheduler's loop."""

    def __init__(self, bot: GameBot) -> None:
        super().__init__(bot)
        self.work = seasons.SeasonLoop(bot)

    async def cog_load(self) -> None:
        await super().cog_load()
        self.bot.schedule.side_work.append(self.work)

    async def cog_unload(self) -> None:
        await super().cog_unload()
        if self.work in self.bot.schedule.side_work:
            self.bot.schedule.side_work.remove(self.work)

    @mt.command(
        name="season", description="The season: standings, or its league (join, leave, tables)"
    )
    @app_commands.guild_only()
    @app_commands.describe(league="The season's league: join it, leave it, or see its tables")
    @app_commands.choices(league=LEAGUE_ACTIONS)
    async def season(self, interaction: Interaction, league: ChoiceText | None = None) -> None:
        bot, locale = bot_of(interaction), locale_of(interaction)
        async with guarded(interaction):
            svc, guild_id, user = bot.service.seasons, server_of(interaction), interaction.user
            current = await svc.current(guild_id)
            if league == "join":
                # Their table's DMs (and their result's at the season's end) in their language.
                await remember_client_language(bot, user.id, locale)
                season = await svc.league.join(guild_id, user.id, user.display_name, bot.now())
                text = tr("league.joined", locale, name=shown(season.name),
                          start=messages.timestamp(season.starts_at))  # fmt: skip
            elif league == "leave":
                season = await svc.league.leave(guild_id, user.id)
                text = tr("league.left", locale, name=shown(season.name))
            elif league is not None and current is not None:
                signed = await svc.league.signed(current)
                tables = await svc.league.tables(current)
                text = leagueui.tables_text(current, tables, signed, locale)
            else:
                rows = [] if current is None else await svc.standings(current, 20)
                text = seasons.standings_text(current, rows, locale, bot.now())
            await reply(interaction, text, allowed_mentions=discord.AllowedMentions.none())


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, GameBot)
    await bot.add_cog(Season(bot))
