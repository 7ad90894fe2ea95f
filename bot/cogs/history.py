"""Reading a game after the fact: ``/mt history`` (a page of moves, or with ``file:True`` the
finished game as a JSON file), ``replay`` and ``review``, the history's page buttons and the
end-of-match DM's review button.

The commands join ``/mt`` while the cog is loaded (:mod:`bot.ui.mt`). They only look: they
answer privately and work for anyone in the server, seated or not — spectators see what the
channel saw (the table, the moves), never a hand. Each takes a game number, so a finished game
can still be read after the channel moved on. ``/mt review`` is the exception: it is the
caller's own review of a finished match they played (issue 49, :mod:`bot.ui.review`).
"""

from __future__ import annotations

import logging
import re
from typing import Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.digits import ID
from bot.drawing import draw_replay
from bot.i18n import language_of, tr
from bot.service import GameStatus, GameSummary, errors
from bot.service import history as story
from bot.ui import components, limits, mt
from bot.ui import review as reviews
from bot.ui.alt_text import describe_replay, picture_file
from bot.ui.host import GameBot
from bot.ui.interactions import Interaction, bot_of, guarded, locale_of, reply
from bot.ui.matchend import ReviewButton
from bot.ui.mt import GameCog
from bot.ui.pictures import computer_seats
from bot.ui.refusals import Refusal
from bot.workers import WorkerFailed
from renderers import TableOptions

log = logging.getLogger(__name__)


class HistoryPage(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"mt:(?P<game>{ID}):hist:(?P<page>{ID}):(?P<dir>older|newer)",
):
    """Older / Newer on a history answer: shows page ``page`` of game ``game``."""

    place: ClassVar[str] = "answer"

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
        await components.clicked(interaction, self)


def history_view(game_id: int, page: int, pages: int, locale: str | None) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(HistoryPage(game_id, max(1, page - 1), "older", locale, off=page <= 1))
    view.add_item(HistoryPage(game_id, min(pages, page + 1), "newer", locale, off=page >= pages))
    return view


#: History lines per page (a page stays well under Discord's 2,000 characters).
HISTORY_PAGE = 20
#: Replay bounds: frames per GIF and the frame width (the table is drawn 1400 wide).
REPLAY_FRAMES = 60
REPLAY_WIDTH = 700
#: Seconds a replay GIF may take in a render worker (a 60-frame GIF is ~2 s on an idle core).
REPLAY_TIMEOUT = 60.0
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
        latest = await svc.latest_dealt_in_channel(interaction.channel_id)
        if latest is not None:
            return await svc.game(latest)
        if here is not None:
            return here
        if interaction.guild_id is not None:  # a match played in a thread opened from here
            done = await svc.finished_in_channel(interaction.guild_id, interaction.channel_id)
            if done is not None:
                return done
    raise Refusal("error.no-game-here")


# ---------------------------------------------------------------------- history


def history_lines(entries: list[story.Entry], locale: str | None) -> list[tuple[int | None, str]]:
    """(round, line) per entry, in the reader's language; names are escaped for markdown."""
    esc = limits.shown
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
    return text[: limits.CONTENT - 10], number, pages


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
            **limits.fit(
                "history page",
                content=text,
                view=view,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        )
    else:
        await reply(
            interaction,
            text,
            view=view or discord.utils.MISSING,
            allowed_mentions=discord.AllowedMentions.none(),
        )


async def _page_clicked(interaction: Interaction, item: HistoryPage) -> None:
    async with guarded(interaction, defer_first="update"):  # the page clicked is updated
        await show_history(interaction, item.game_id, item.page, edit=True)


async def send_export(interaction: Interaction, game_id: int) -> None:
    """``/mt history file:True``: the finished game as a JSON file (rules, names, every event;
    :func:`bot.service.history.export`), refused when over the interaction's upload limit."""
    bot, locale = bot_of(interaction), locale_of(interaction)
    record = await bot.service.game_record(game_id)
    body = story.export_json(story.export(record, exported_at=bot.now())).encode()
    if len(body) > interaction.filesize_limit - UPLOAD_MARGIN:
        raise Refusal("error.replay-too-big")
    await reply(
        interaction,
        tr("export.done", locale, game=game_id),
        file=picture_file(
            body, f"mexican-train-{game_id}.json", tr("alt.export", locale, game=game_id)
        ),
    )


# ---------------------------------------------------------------------- the commands


class History(GameCog):
    """``/mt`` history (and its export), replay and review."""

    @mt.command(name="history", description="The moves of a game, a page at a time, or as a file")
    @app_commands.guild_only()
    @app_commands.describe(
        game="Game number (default: this channel's game)",
        page="Page number (default: the newest)",
        file="A finished game as a file (rules, names, every move)",
    )
    async def history(
        self,
        interaction: Interaction,
        game: app_commands.Range[int, 1] | None = None,
        page: app_commands.Range[int, 1, 10_000] | None = None,
        file: bool = False,
    ) -> None:
        async with guarded(interaction):
            if file and page is not None:  # the file holds every page: say so, send nothing
                raise Refusal("error.history-file-page")
            found = await find_game(interaction, game)
            if file:
                await send_export(interaction, found.id)
            else:
                await show_history(interaction, found.id, page)

    @mt.command(name="replay", description="A round replayed as an animated picture")
    @app_commands.guild_only()
    @app_commands.describe(
        game="Game number (default: this channel's game)",
        round="Round number (default: the latest)",
    )
    async def replay(
        self,
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
                gif = await bot.pictures.run(
                    draw_replay,
                    views,
                    options,
                    REPLAY_FRAMES,
                    REPLAY_WIDTH,
                    budget,
                    timeout=REPLAY_TIMEOUT,
                )
            except WorkerFailed as exc:
                log.warning("game %s: replay not drawn: %s", found.id, exc)
                raise Refusal("error.replay-failed") from None
            if not gif:
                raise Refusal("error.replay-too-big")
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
            said = describe_replay(views, found.id, frames, found.players, locale)
            await reply(interaction, "", embed=embed, file=picture_file(gif, "replay.gif", said))

    @mt.command(
        name="review",
        description="Your review of a finished match: where a move was clearly better",
    )
    @app_commands.guild_only()
    @app_commands.describe(game="Game number (default: this channel's latest game)")
    async def review(
        self, interaction: Interaction, game: app_commands.Range[int, 1] | None = None
    ) -> None:
        async with guarded(interaction):
            found = await find_game(interaction, game)
            await reviews.show_review(interaction, found.id)


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, GameBot)
    await bot.add_cog(History(bot))
    components.listen(bot, HistoryPage, _page_clicked)
    components.listen(bot, ReviewButton, reviews.review_clicked)


async def teardown(bot: commands.Bot) -> None:
    components.unlisten(bot, HistoryPage, ReviewButton)
