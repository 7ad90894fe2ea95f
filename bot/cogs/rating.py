"""``/mt rating [player]``: a player's rating in this server (issue 48), and the
leaderboard's rating view (``/mt leaderboard``, :mod:`bot.cogs.stats`).

The numbers are the service's (:mod:`bot.service.ratings`, a fold over the server's finished
matches); matches that finished before ratings existed are folded once, in the background,
at start-up (an upgrade).
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.drawing import draw_rating_chart
from bot.i18n import language_of
from bot.ui import mt
from bot.ui.alt_text import picture_file
from bot.ui.host import GameBot
from bot.ui.interactions import Interaction, bot_of, guarded, locale_of, reply, server_of
from bot.ui.limits import shown
from bot.ui.mt import GameCog
from bot.ui.ratings import anchor_labels, describe_rating_chart, rating_text
from bot.workers import WorkerFailed

log = logging.getLogger(__name__)


class Rating(GameCog):
    """``/mt rating``."""

    @mt.command(name="rating", description="A player's rating in this server")
    @app_commands.guild_only()
    @app_commands.describe(player="The player (default: you)")
    async def rating(self, interaction: Interaction, player: discord.User | None = None) -> None:
        bot, locale = bot_of(interaction), locale_of(interaction)
        async with guarded(interaction):
            who = player or interaction.user
            r = await bot.service.player_rating(server_of(interaction), who.id)
            text = rating_text(r, shown(who.display_name), locale)
            png = b""
            if r is not None:
                anchors = anchor_labels(locale)
                try:
                    lang = language_of(locale)
                    png = await bot.pictures.run(
                        draw_rating_chart, who.display_name, r.course, anchors, lang
                    )
                except WorkerFailed as exc:  # the numbers are in the text: send it alone
                    log.warning("rating chart not drawn: %s", exc)
            await reply(
                interaction,
                text,
                file=picture_file(png, "rating.png",
                                  describe_rating_chart(who.display_name, r.course, locale))
                if png and r is not None
                else discord.utils.MISSING,
                allowed_mentions=discord.AllowedMentions.none(),
            )  # fmt: skip


async def _backfill_ratings(bot: GameBot) -> None:
    """Servers with finished matches the fold has never seen (a database from before
    ratings: an upgrade) are refolded once, in the background."""
    try:
        done = await bot.service.rebuild_ratings(only_missing=True)
    except Exception:
        log.exception("could not fold the missing ratings")
        return
    if done:
        log.info("ratings folded for %d server(s)", done)


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, GameBot)
    await bot.add_cog(Rating(bot))
    bot.spawn(_backfill_ratings(bot))  # cancelled at close like the bot's other background work
