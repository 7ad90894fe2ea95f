"""Beyond the table: ``/mt history``, ``export``, ``replay``, ``stats``, ``leaderboard``,
``undo``, the Rematch button, and the command translator.

The commands join the ``/mt`` group that :mod:`bot.cogs.lobby` declares (this extension loads
after it). Everything that only looks — history, export, replay, stats, leaderboard — answers
privately and works for anyone in the server, seated or not: spectators see what the channel
sees (the table, the moves, the scores), never a hand. ``/mt history``, ``export`` and
``replay`` take a game number, so a finished game can still be read after the channel moved on.

The Rematch button and the history's page buttons are ``DynamicItem``s (all they need is in
their ``custom_id``), registered at start-up like the other buttons, so they keep working
after a restart.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import MexicanTrainBot
from bot.cogs import actions, components, language
from bot.cogs.common import (
    Interaction,
    Refusal,
    bot_of,
    channel_locale,
    guarded,
    is_manager,
    locale_of,
    mention,
    reply,
)
from bot.cogs.pictures import computer_seats, table_png
from bot.cogs.translator import CatalogTranslator
from bot.engine import SeatView
from bot.i18n import language_of, tr
from bot.service import GameSummary, errors
from bot.service import history as story
from bot.service import stats as stats_service
from bot.store import GameStatus
from renderers import TableOptions
from renderers.chart import ChartGame, render_stats_chart
from renderers.png import to_png
from renderers.replay import render_replay

log = logging.getLogger(__name__)

#: History lines per page (a page stays well under Discord's 2,000 characters).
HISTORY_PAGE = 20
#: Replay bounds: frames per GIF and the frame width (the table is drawn 1400 wide).
REPLAY_FRAMES = 60
REPLAY_WIDTH = 700
#: Files are kept this far under the interaction's upload limit.
UPLOAD_MARGIN = 64 * 1024


# ---------------------------------------------------------------------- finding a game


async def find_game(interaction: Interaction, game_id: int | None) -> GameSummary:
    """Game ``game_id`` of this server, or this channel's game: the one being played, else
    the latest one finished here."""
    bot = bot_of(interaction)
    svc = bot.service
    if game_id is not None:
        try:
            game = await svc.game(game_id)
        except errors.GameNotFound:
            raise Refusal("error.no-such-game", game=game_id) from None
        if game.guild_id != interaction.guild_id:
            raise Refusal("error.no-such-game", game=game_id)
        return game
    if interaction.channel_id is not None:
        here = await svc.game_in_channel(interaction.channel_id)
        if here is not None and here.status is GameStatus.ACTIVE:
            return here
        from bot.store import stats as extras_sql

        latest = await extras_sql.latest_in_channel(svc.store, interaction.channel_id)
        if latest is not None:
            return await svc.game(latest)
        if here is not None:
            return here
    raise Refusal("error.no-game-here")


# ---------------------------------------------------------------------- spectators


def open_hands_text(view: SeatView, locale: str | None) -> str:
    """Under the open-hands house rule, every hand in notation (what anyone may see then);
    otherwise nothing: hands are private."""
    if not view.rules.open_hands:
        return ""
    esc = discord.utils.escape_markdown
    lines = [tr("table.open-hands", locale)]
    for seat, hand in enumerate(view.visible_hands):
        if hand is not None:
            tiles = " ".join(f"`{t}`" for t in sorted(hand, reverse=True)) or "—"
            lines.append(f"**{esc(view.names[seat])}**: {tiles}")
    return "\n".join(lines)


# ---------------------------------------------------------------------- history


def history_lines(entries: list[story.Entry], locale: str | None) -> list[tuple[int | None, str]]:
    """(round, line) per entry, in the reader's language; names are escaped for markdown."""
    esc = discord.utils.escape_markdown
    out: list[tuple[int | None, str]] = []
    for e in entries:
        if e.kind == "round":
            assert e.round_no is not None
            line = "__" + tr("history.round", locale, round=e.round_no + 1, engine=e.text) + "__"
        elif e.kind == "move":
            line = f"**{esc(e.name or '?')}**: `{e.text}`"
            if e.by_computer:
                line += " 🤖"
            if e.undone:
                line = f"~~{line}~~ " + tr("history.undone", locale)
        elif e.kind == "undo":
            line = (
                "*"
                + tr(
                    "history.undo",
                    locale,
                    host=esc(e.name or "?"),
                    name=esc(e.target or "?"),
                    moves=e.text,
                )
                + "*"
            )
        elif e.kind in ("leave", "kick"):
            key = "history.left" if e.kind == "leave" else "history.kick"
            line = "*" + tr(key, locale, name=esc(e.name or "?")) + "*"
        else:
            line = "*" + tr(f"history.{e.kind}", locale) + "*"
        out.append((e.round_no, line))
    return out


def history_page(
    game_id: int, lines: list[tuple[int | None, str]], page: int | None, locale: str | None
) -> tuple[str, int, int]:
    """(text, page, pages): newest page by default; a page that starts inside a round
    repeats which round it is."""
    pages = max(1, -(-len(lines) // HISTORY_PAGE))
    number = pages if page is None else max(1, min(page, pages))
    chunk = lines[(number - 1) * HISTORY_PAGE : number * HISTORY_PAGE]
    body = [line for _r, line in chunk]
    if chunk and chunk[0][0] is not None and not chunk[0][1].startswith("__"):
        body.insert(0, "__" + tr("history.round.cont", locale, round=chunk[0][0] + 1) + "__")
    head = tr("history.head", locale, game=game_id, page=number, pages=pages)
    text = head + "\n" + ("\n".join(body) if body else tr("history.empty", locale))
    return text[:1990], number, pages


class HistoryPage(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"mt:(?P<game>\d+):hist:(?P<page>\d+):(?P<dir>older|newer)",
):
    """Older / Newer on a history answer: shows page ``page`` of game ``game``."""

    def __init__(
        self,
        game_id: int,
        page: int,
        direction: str,
        locale: str | None = None,
        *,
        off: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=tr(f"history.{direction}", locale),
                style=discord.ButtonStyle.secondary,
                custom_id=f"mt:{game_id}:hist:{page}:{direction}",
                disabled=off,
            )
        )
        self.game_id, self.page = game_id, page

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HistoryPage:
        return cls(int(match["game"]), int(match["page"]), match["dir"])

    async def callback(self, interaction: Interaction) -> None:
        async with guarded(interaction, defer_first=False):
            await interaction.response.defer()  # an update of the message the button is on
            await show_history(interaction, self.game_id, self.page, edit=True)


def history_view(game_id: int, page: int, pages: int, locale: str | None) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(HistoryPage(game_id, max(1, page - 1), "older", locale, off=page <= 1))
    view.add_item(HistoryPage(game_id, min(pages, page + 1), "newer", locale, off=page >= pages))
    return view


async def show_history(
    interaction: Interaction, game_id: int, page: int | None, *, edit: bool = False
) -> None:
    bot = bot_of(interaction)
    locale = locale_of(interaction)
    record = await bot.service.game_record(game_id)
    lines = history_lines(story.history(record), locale)
    text, number, pages = history_page(game_id, lines, page, locale)
    view = history_view(game_id, number, pages, locale) if pages > 1 else None
    if edit:
        await interaction.edit_original_response(
            content=text, view=view, allowed_mentions=discord.AllowedMentions.none()
        )
    else:
        await reply(
            interaction,
            text,
            view=view or discord.utils.MISSING,
            allowed_mentions=discord.AllowedMentions.none(),
        )


# ---------------------------------------------------------------------- rematch


class RematchButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"mt:(?P<game>\d+):rematch"
):
    """On a finished game's last table message: a new lobby with the same players and rules."""

    def __init__(self, game_id: int, locale: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=tr("button.rematch", locale),
                style=discord.ButtonStyle.success,
                emoji="🔁",
                custom_id=f"mt:{game_id}:rematch",
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RematchButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: Interaction) -> None:
        await rematch_flow(interaction, self.game_id)


def rematch_view(game_id: int, locale: str | None) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(game_id, locale))
    return view


async def rematch_flow(interaction: Interaction, game_id: int) -> None:
    bot = bot_of(interaction)
    locale = locale_of(interaction)
    async with guarded(interaction):
        channel = interaction.channel
        if interaction.guild is None or not isinstance(channel, discord.abc.Messageable):
            raise Refusal("error.guild-only")
        missing = actions.missing_permissions(interaction.app_permissions)
        if missing:
            raise Refusal("error.missing-perms", perms=actions.permission_names(missing, locale))
        user = interaction.user
        out = await bot.service.rematch(game_id, user.id, user.display_name, bot.now())
        game = out.game
        public = channel_locale(interaction)
        mentions = " ".join(
            f"<@{p.user_id}>" for p in game.players if p.user_id is not None and not p.is_computer
        )
        try:
            message = await channel.send(
                tr("rematch.posted", public, old=game_id, mentions=mentions, host=mention(
                    user.id, user.display_name)),
                embed=actions.lobby_embed(game, public),
                view=actions.lobby_controls(game, public),
                allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False),
            )  # fmt: skip
        except discord.HTTPException as exc:
            await bot.service.end(game.id, user.id, bot.now(), is_manager=True)
            raise Refusal("error.cannot-post", detail=exc.text or str(exc.status)) from None
        await bot.service.record_message(
            game.id, "lobby", message.channel.id, message.id, bot.now()
        )
        await reply(interaction, tr("lobby.opened", locale, game=game.id))


# ---------------------------------------------------------------------- undo


async def undo_flow(interaction: Interaction, player: discord.abc.User | None) -> None:
    bot = bot_of(interaction)
    locale = locale_of(interaction)
    async with guarded(interaction):
        game = await actions.game_here(interaction)
        async with bot.game_lock(game.id):
            out = await bot.service.undo(
                game.id,
                interaction.user.id,
                bot.now(),
                is_manager=is_manager(interaction),
                player_user_id=None if player is None else player.id,
            )
            moves = ", ".join(out.moves)
            problem = await _post_undo(bot, interaction, out)
            await actions.send_hands(bot, out.game, out.hands_changed, interaction)
            text = tr("undo.done", locale, moves=moves)
            await reply(interaction, text + (f"\n{problem}" if problem else ""))
            if out.computer_pending:
                await actions.run_computers(bot, game.id, interaction)


async def _post_undo(bot: MexicanTrainBot, interaction: Interaction, out: Any) -> str | None:
    """Tell the channel, with the table as it is again and the turn buttons."""
    game: GameSummary = out.game
    locale = channel_locale(interaction, client=bot, guild_id=game.guild_id)
    host = interaction.user.display_name
    lines = [
        tr("undo.channel", locale, host=host, name=out.player.name, moves=", ".join(out.moves))
    ]
    if out.computer_moves:
        lines.append(tr("undo.computers", locale, count=out.computer_moves))
    embed = discord.Embed(
        title=tr(
            "table.title",
            locale,
            game=game.id,
            round=(game.round_no or 0) + 1,
            rounds=game.rules.rounds_total,
        ),
        description="\n".join(lines),
        colour=discord.Colour.orange(),
    )
    view = await bot.service.table_view(game.id)
    png = await asyncio.to_thread(table_png, view, game.players, locale)
    embed.set_image(url="attachment://table.png")
    turn = None
    if out.next_player is not None and not out.next_player.is_computer:
        turn = components.turn_view(game.id, game.version, locale, knock=False)
    try:
        await bot.get_partial_messageable(game.channel_id).send(
            actions.turn_line(game, out.next_player, locale) or None,
            embed=embed,
            file=discord.File(io.BytesIO(png), filename="table.png"),
            view=turn or discord.utils.MISSING,
            allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False),
        )
    except discord.HTTPException as exc:
        log.warning("game %s: could not post the undo: %s", game.id, exc)
        return tr("error.cannot-post", locale_of(interaction), detail=exc.text or str(exc.status))
    return None


# ---------------------------------------------------------------------- stats


def _rate(value: float | None) -> str:
    return "—" if value is None else f"{value:.0%}"


def stats_text(summary: stats_service.PlayerSummary, name: str, locale: str | None) -> str:
    if not summary.games:
        return tr("stats.none", locale, name=name)
    lines = [
        "**" + tr("stats.title", locale, name=name) + "**",
        tr("stats.games", locale, games=summary.games, wins=summary.wins,
           rate=_rate(summary.win_rate)),
        tr("stats.rounds", locale, rounds=summary.rounds, won=summary.rounds_won),
        tr("stats.average", locale, avg=f"{summary.average_round or 0:.1f}"),
        tr("stats.best", locale, best=summary.best_total),
        tr("stats.double-blank", locale, count=summary.double_blank),
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


def leaderboard_text(people: list[stats_service.PlayerSummary], locale: str | None) -> str:
    if not people:
        return tr("leaderboard.empty", locale)
    lines = ["**" + tr("leaderboard.title", locale) + "**"]
    for place, p in enumerate(people, start=1):
        lines.append(
            tr(
                "leaderboard.line",
                locale,
                place=place,
                mention=f"<@{p.user_id}>",
                wins=p.wins,
                games=p.games,
                rate=_rate(p.win_rate),
                avg=f"{p.average_round or 0:.1f}",
            )
        )
    return "\n".join(lines)


# ---------------------------------------------------------------------- the commands


def build_commands() -> list[app_commands.Command[Any, ..., Any]]:
    """Fresh command objects for one bot (tests start several bots in one process)."""

    @app_commands.command(
        name="history", description="The moves of a game, in notation, a page at a time"
    )
    @app_commands.guild_only()
    @app_commands.describe(
        game="Game number (default: this channel's game)",
        page="Page number (default: the newest)",
    )
    async def history(
        interaction: Interaction,
        game: app_commands.Range[int, 1] | None = None,
        page: app_commands.Range[int, 1, 10_000] | None = None,
    ) -> None:
        async with guarded(interaction):
            found = await find_game(interaction, game)
            await show_history(interaction, found.id, page)

    @app_commands.command(
        name="export", description="A finished game as a file (rules, names, every move)"
    )
    @app_commands.guild_only()
    @app_commands.describe(game="Game number (default: this channel's game)")
    async def export(
        interaction: Interaction, game: app_commands.Range[int, 1] | None = None
    ) -> None:
        bot, locale = bot_of(interaction), locale_of(interaction)
        async with guarded(interaction):
            found = await find_game(interaction, game)
            record = await bot.service.game_record(found.id)
            data = story.export_json(story.export(record, exported_at=bot.now()))
            body = data.encode()
            if len(body) > interaction.filesize_limit - UPLOAD_MARGIN:
                raise Refusal("error.replay-too-big")
            await reply(
                interaction,
                tr("export.done", locale, game=found.id),
                file=discord.File(io.BytesIO(body), filename=f"mexican-train-{found.id}.json"),
            )

    @app_commands.command(name="replay", description="A round replayed as an animated picture")
    @app_commands.guild_only()
    @app_commands.describe(
        game="Game number (default: this channel's game)",
        round="Round number (default: the latest)",
    )
    async def replay(
        interaction: Interaction,
        game: app_commands.Range[int, 1] | None = None,
        round: app_commands.Range[int, 1, 30] | None = None,
    ) -> None:
        bot, locale = bot_of(interaction), locale_of(interaction)
        async with guarded(interaction):
            found = await find_game(interaction, game)
            record = await bot.service.game_record(found.id)
            views = story.replay_views(record, None if round is None else round - 1)
            budget = max(256 * 1024, interaction.filesize_limit - UPLOAD_MARGIN)
            options = TableOptions(
                is_computer=computer_seats(found.players), language=language_of(locale)
            )
            frames = min(len(views), REPLAY_FRAMES)
            try:
                gif = await asyncio.to_thread(
                    render_replay,
                    views,
                    options,
                    max_frames=REPLAY_FRAMES,
                    width=REPLAY_WIDTH,
                    max_bytes=budget,
                )
            except ValueError:
                raise Refusal("error.replay-too-big") from None
            shown = views[-1]
            embed = discord.Embed(
                title=tr(
                    "replay.title",
                    locale,
                    game=found.id,
                    round=shown.round_no + 1,
                    rounds=shown.rounds_total,
                    frames=frames,
                )
            ).set_image(url="attachment://replay.gif")
            await reply(interaction, "", embed=embed,
                        file=discord.File(io.BytesIO(gif), filename="replay.gif"))  # fmt: skip

    @app_commands.command(name="stats", description="Statistics of a player in this server")
    @app_commands.guild_only()
    @app_commands.describe(player="The player (default: you)")
    async def stats(interaction: Interaction, player: discord.User | None = None) -> None:
        bot, locale = bot_of(interaction), locale_of(interaction)
        async with guarded(interaction):
            who = player or interaction.user
            assert interaction.guild_id is not None
            summary = await bot.service.player_stats(interaction.guild_id, who.id)
            text = stats_text(summary, who.display_name, locale)
            if not summary.games:
                await reply(interaction, text)
                return
            games = [ChartGame(gid, scores, won) for gid, scores, won in reversed(summary.recent)]
            png = await asyncio.to_thread(
                lambda: to_png(
                    render_stats_chart(who.display_name, games, language=language_of(locale))
                )
            )
            await reply(
                interaction,
                text,
                file=discord.File(io.BytesIO(png), filename="stats.png"),
                allowed_mentions=discord.AllowedMentions.none(),
            )

    @app_commands.command(name="leaderboard", description="The best players of this server")
    @app_commands.guild_only()
    async def leaderboard(interaction: Interaction) -> None:
        bot, locale = bot_of(interaction), locale_of(interaction)
        async with guarded(interaction):
            assert interaction.guild_id is not None
            people = await bot.service.leaderboard(interaction.guild_id)
            await reply(
                interaction,
                leaderboard_text(people, locale),
                allowed_mentions=discord.AllowedMentions.none(),
            )

    @app_commands.command(name="undo", description="Take back the last turn (host)")
    @app_commands.guild_only()
    @app_commands.describe(player="Only if it was this player's turn")
    async def undo(interaction: Interaction, player: discord.User | None = None) -> None:
        await undo_flow(interaction, player)

    return [history, export, replay, stats, leaderboard, undo]


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (HistoryPage, RematchButton)


async def _backfill_stats(bot: MexicanTrainBot) -> None:
    """Games that finished before statistics existed get them, once, in the background."""
    try:
        done = await bot.service.rebuild_stats(only_missing=True)
    except Exception:
        log.exception("could not rebuild missing statistics")
        return
    if done:
        log.info("statistics rebuilt for %d finished game(s)", done)


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, MexicanTrainBot)
    group = bot.tree.get_command("mt")
    if not isinstance(group, app_commands.Group):
        raise RuntimeError("bot.cogs.extras loads after bot.cogs.lobby, which declares /mt")
    for command in build_commands():
        group.add_command(command)
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await bot.tree.set_translator(CatalogTranslator())
    await language.load(bot, bot.service.store)
    bot._spawn(_backfill_stats(bot))  # cancelled at close like the bot's other background work


async def teardown(bot: commands.Bot) -> None:
    bot.remove_dynamic_items(*DYNAMIC_ITEMS)
    await bot.tree.set_translator(None)
