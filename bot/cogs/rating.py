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

from bot.drawing import RenderFailed, draw_rating_chart
from bot.i18n import language_of, tr
from bot.service.ratings import PROVISIONAL_GAMES, anchor_points
from bot.service.ratingviews import PlayerRating
from bot.ui import mt
from bot.ui.alt_text import picture_file
from bot.ui.host import GameBot
from bot.ui.interactions import Interaction, bot_of, guarded, locale_of, reply, server_of
from bot.ui.mt import GameCog
from bot.ui.ratings import number

log = logging.getLogger(__name__)


def _level(level: str, locale: str | None) -> str:
    return tr(f"level.{level}", locale)


def rating_text(r: PlayerRating | None, name: str, locale: str | None) -> str:
    """``/mt rating``'s answer: the rating and its uncertainty, the matches, provisional or
    not, where it sits among the computer levels, and what the number means."""
    if r is None:
        return tr("rating.none", locale, name=name)
    lines = [
        "**" + tr("rating.title", locale, name=name) + "**",
        tr("rating.value", locale, rating=number(r.rating, locale),
           spread=number(r.uncertainty, locale)),
        tr("rating.games", locale, games=r.games),
    ]  # fmt: skip
    if r.provisional:
        lines.append(
            tr("rating.provisional", locale, n=PROVISIONAL_GAMES, left=PROVISIONAL_GAMES - r.games)
        )
    anchors = dict(anchor_points())
    if r.below is not None and r.above is not None:
        lines.append(tr("rating.between", locale, below=_level(r.below, locale),
                        above=_level(r.above, locale)))  # fmt: skip
    elif r.above is None and r.below is not None:
        lines.append(tr("rating.above-all", locale, level=_level(r.below, locale),
                        rating=number(anchors[r.below], locale)))  # fmt: skip
    elif r.above is not None:
        lines.append(tr("rating.below-all", locale, level=_level(r.above, locale),
                        rating=number(anchors[r.above], locale)))  # fmt: skip
    lines.append(tr("rating.scale", locale))
    return "\n".join(lines)


def rating_board_text(people: list[PlayerRating], locale: str | None) -> str:
    """The leaderboard by rating; equal ratings share a place ("1, 1, 3")."""
    if not people:
        return tr("leaderboard.rating.empty", locale)
    head = tr("leaderboard.title", locale)
    lines = [f"**{head}** · " + tr("leaderboard.by-rating", locale)]
    ratings = [p.rating for p in people]
    for p in people:
        lines.append(
            tr(
                "leaderboard.rating.line",
                locale,
                place=ratings.index(p.rating) + 1,
                mention=f"<@{p.user_id}>",
                rating=number(p.rating, locale),
                games=p.games,
                provisional=tr("leaderboard.provisional", locale) if p.provisional else "",
            )
        )
    return "\n".join(lines)


def describe_rating_chart(name: str, course: tuple[int, ...], locale: str | None) -> str:
    return tr("alt.rating", locale, name=name, n=len(course),
              first=number(course[0], locale), last=number(course[-1], locale))  # fmt: skip


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
            text = rating_text(r, who.display_name, locale)
            png = b""
            if r is not None:
                anchors = [(_level(lv, locale), pts) for lv, pts in anchor_points()]
                try:
                    lang = language_of(locale)
                    png = await bot.pictures.run(
                        draw_rating_chart, who.display_name, r.course, anchors, lang
                    )
                except RenderFailed as exc:  # the numbers are in the text: send it alone
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
