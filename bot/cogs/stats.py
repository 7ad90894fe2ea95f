"""``/mt stats`` and ``/mt leaderboard``: how each player of a server fares, in words and a
chart.

The commands join ``/mt`` while the cog is loaded (:mod:`bot.ui.mt`). The figures come from
the service (:mod:`bot.service.stats`, derived from finished games' event logs); games that
finished before statistics existed get theirs once, in the background, at start-up.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.drawing import draw_chart
from bot.i18n import language_of, tr, tr_count
from bot.service.stats import PlayerSummary
from bot.ui import mt
from bot.ui.alt_text import describe_chart, picture_file
from bot.ui.choices import ChoiceText
from bot.ui.host import GameBot
from bot.ui.interactions import Interaction, bot_of, guarded, locale_of, reply, server_of
from bot.ui.limits import shown
from bot.ui.mt import GameCog
from bot.ui.ratings import rating_board_text
from bot.workers import WorkerFailed
from renderers.chart import ChartGame

log = logging.getLogger(__name__)

#: ``/mt leaderboard view:``: by rating (issue 48), or by wins as before ratings.
VIEW_CHOICES = [
    app_commands.Choice(name="rating", value="rating"),
    app_commands.Choice(name="wins", value="wins"),
]


def _rate(value: float | None) -> str:
    return "—" if value is None else f"{value:.0%}"


def stats_text(summary: PlayerSummary, name: str, locale: str | None) -> str:
    if not summary.games:
        return tr("stats.none", locale, name=name)
    lines = [
        "**" + tr("stats.title", locale, name=name) + "**",
        tr("stats.games", locale, games=summary.games, wins=summary.wins,
           rate=_rate(summary.win_rate)),
        tr("stats.rounds", locale, rounds=summary.rounds, won=summary.rounds_won),
        tr("stats.average", locale, avg=f"{summary.average_round or 0:.1f}"),
        tr("stats.best", locale, best=summary.best_total),
        tr_count("stats.double-blank", summary.double_blank, locale),
        tr("stats.longest", locale, tiles=summary.longest_train),
    ]  # fmt: skip
    if summary.games_vs_computer:
        lines.append(
            tr(
                "stats.vs-computer",
                locale,
                wins=summary.wins_vs_computer,
                games=summary.games_vs_computer,
                rate=_rate(summary.win_rate_vs_computer),
            )
        )
    else:
        lines.append(tr("stats.vs-none", locale))
    return "\n".join(lines)


def leaderboard_text(people: list[PlayerSummary], locale: str | None) -> str:
    if not people:
        return tr("leaderboard.empty", locale)
    lines = ["**" + tr("leaderboard.title", locale) + "**"]
    # Players level on every count share a place ("1, 1, 3"), as in a match's standings.
    level = [(p.wins, p.win_rate or 0.0, p.average_round) for p in people]
    for i, p in enumerate(people):
        place = level.index(level[i]) + 1
        lines.append(
            tr(
                "leaderboard.line",
                locale,
                place=place,
                mention=f"<@{p.user_id}>",
                wins=tr_count("count.wins", p.wins, locale),
                games=tr_count("count.games", p.games, locale),
                rate=_rate(p.win_rate),
                avg=f"{p.average_round or 0:.1f}",
            )
        )
    return "\n".join(lines)


class Stats(GameCog):
    """``/mt`` stats and leaderboard."""

    @mt.command(name="stats", description="Statistics of a player in this server")
    @app_commands.guild_only()
    @app_commands.describe(player="The player (default: you)")
    async def stats(self, interaction: Interaction, player: discord.User | None = None) -> None:
        bot, locale = bot_of(interaction), locale_of(interaction)
        async with guarded(interaction):
            who = player or interaction.user
            summary = await bot.service.player_stats(server_of(interaction), who.id)
            text = stats_text(summary, shown(who.display_name), locale)
            if not summary.games:
                await reply(interaction, text)
                return
            games = [ChartGame(gid, scores, won) for gid, scores, won in reversed(summary.recent)]
            try:
                png = await bot.pictures.run(
                    draw_chart, who.display_name, games, language_of(locale)
                )
            except WorkerFailed as exc:  # the numbers are in the text: send it alone
                log.warning("stats chart not drawn: %s", exc)
                png = b""
            await reply(
                interaction,
                text,
                file=picture_file(png, "stats.png", describe_chart(who.display_name, games, locale))
                if png
                else discord.utils.MISSING,
                allowed_mentions=discord.AllowedMentions.none(),
            )

    @mt.command(name="leaderboard", description="The best players of this server")
    @app_commands.guild_only()
    @app_commands.describe(view="Rank by rating (default) or by wins")
    @app_commands.choices(view=VIEW_CHOICES)
    async def leaderboard(self, interaction: Interaction, view: ChoiceText = "rating") -> None:
        bot, locale = bot_of(interaction), locale_of(interaction)
        async with guarded(interaction):
            if view == "rating":  # issue 48: the rating view (bot/cogs/rating.py)
                board = await bot.service.rating_board(server_of(interaction))
                text = rating_board_text(board, locale)
            else:
                people = await bot.service.leaderboard(server_of(interaction))
                text = leaderboard_text(people, locale)
            await reply(interaction, text, allowed_mentions=discord.AllowedMentions.none())


async def _backfill_stats(bot: GameBot) -> None:
    """Games that finished before statistics existed get them, once, in the background."""
    try:
        done = await bot.service.rebuild_stats(only_missing=True)
    except Exception:
        log.exception("could not rebuild missing statistics")
        return
    if done:
        log.info("statistics rebuilt for %d finished game(s)", done)


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, GameBot)
    await bot.add_cog(Stats(bot))
    bot.spawn(_backfill_stats(bot))  # cancelled at close like the bot's other background work
