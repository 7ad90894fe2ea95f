"""The bot's door to pictures: :class:`Pictures` draws them in the render pool, and
:func:`table_text` is what a post carries instead when a picture cannot be made.

Every table post and hand DM needs a picture, tens of milliseconds of Pillow each. The bot
holds one :class:`Pictures` (``bot.pictures``): a :class:`~bot.drawing.RenderPool` of worker
processes, started in ``setup_hook`` before any interaction is taken and closed by the
SIGTERM drain (see ``docs/rendering.md``). Callers hand it plain data (the engine's view, the
players, the language) and await PNG bytes; the event loop only pickles the view and waits.

When a picture fails (its worker died twice, it overran the timeout, the renderer raised, the
pool is closing) :meth:`Pictures.table` and :meth:`Pictures.hand` return ``None`` and the
move still posts: its lines, and the table as text (:func:`table_text`). A channel's table is
submitted under the channel's id: if a newer table of the same channel arrives while the
older one still waits for a worker, the older one is never drawn and its caller gets
:class:`~bot.workers.Superseded` (post the move's lines without a stale picture).

Hidden hands never reach a picture by construction: the table is drawn from the spectator's
view (``GameService.table_view``), which holds other hands only under the open-hands rule, and
a hand picture is only ever made from the viewer's own ``seat_view`` for a DM or an ephemeral.
"""

from __future__ import annotations

import io
import logging
import time
from collections.abc import Hashable, Sequence
from typing import Any

import discord

from bot.drawing import (
    Picture,
    RenderPool,
    cut_names,
    draw_hand,
    draw_round_end,
    draw_table,
    hand_options,
    hand_picture,
    hand_picture_key,
    table_picture,
)
from bot.drawing import table_options as drawn_table_options
from bot.engine import SeatView, TrainView
from bot.i18n import language_of, tr
from bot.ops.metrics import Metrics
from bot.service import GameSummary, Player
from bot.ui.limits import ATTACHMENT_DESCRIPTION, in_code
from bot.workers import Superseded, WorkerFailed
from renderers import TableOptions
from renderers.pieces import plural
from renderers.round_end import RoundEndOptions

__all__ = [
    "Picture",
    "Pictures",
    "Superseded",
    "computer_seats",
    "hand_options",
    "hand_png",
    "picture_file",
    "round_end_options",
    "round_end_png",
    "short_names",
    "table_options",
    "table_png",
    "table_text",
]

log = logging.getLogger(__name__)

#: An embed field holds at most 1024 characters; the text table is clipped below that.
TEXT_LIMIT = 1000


def computer_seats(players: Sequence[Player]) -> tuple[bool, ...]:
    """Which seats a computer plays, in seat order, for the picture's robot badges."""
    flags = [False] * len(players)
    for p in players:
        flags[p.seat] = p.is_computer
    return tuple(flags)


def table_options(players: Sequence[Player], language: str | None) -> TableOptions:
    """The table picture's options: robot badges and labels in ``language`` (a catalog
    language or a Discord locale)."""
    return drawn_table_options(computer_seats(players), language)


def picture_file(data: bytes, filename: str, description: str) -> discord.File:
    """The picture as an attachment that says what it shows (its alt text, clipped to
    Discord's limit): every picture the bot sends goes through here."""
    words = " ".join(description.split())
    if len(words) > ATTACHMENT_DESCRIPTION:
        words = words[: ATTACHMENT_DESCRIPTION - 1] + "…"
    return discord.File(io.BytesIO(data), filename=filename, description=words)


def short_names(names: Sequence[str]) -> tuple[str, ...]:
    """The names as a turn DM writes them, cut as the pictures cut them, here and now: only
    for a DM whose hand picture could not be drawn (the worker cuts them with the picture)."""
    return cut_names(names)


def round_end_options(players: Sequence[Player], language: str | None) -> RoundEndOptions:
    """The round-end picture's options: robot badges and labels in ``language``."""
    return RoundEndOptions(is_computer=computer_seats(players), language=language_of(language))


def round_end_png(view: SeatView, players: Sequence[Player] = (), language: str = "en") -> bytes:
    """A round's end drawn here and now, blocking (tests): what the pool's workers draw for
    the same inputs, byte for byte."""
    return draw_round_end(view, round_end_options(players, language))


def table_png(view: SeatView, players: Sequence[Player] = (), language: str = "en") -> bytes:
    """The table picture drawn here and now, blocking (the terminal game, tests): what the
    pool's workers draw for the same inputs, byte for byte."""
    return draw_table(view, table_options(players, language))


def hand_png(
    view: SeatView,
    show_plan: bool = True,
    language: str = "en",
    tiles: str = "pips",
    *,
    pick: bool = False,
) -> bytes:
    """One seat's hand picture drawn here and now, blocking; see :func:`table_png` (``pick``:
    as a turn DM shows it, see :func:`hand_options`)."""
    return draw_hand(view, hand_options(view, show_plan, language, tiles, pick))


class Pictures:
    """The bot's pictures, drawn by a :class:`~bot.drawing.RenderPool` of ``workers``
    processes (None: one per CPU, at most 4; 0: a thread of this process)."""

    def __init__(
        self, workers: int | None = None, *, metrics: Metrics | None = None, **pool_options: Any
    ) -> None:
        self.pool = RenderPool(workers, **pool_options)
        #: Where each picture's time, and each fallback to text, is counted (``/metrics``).
        self.metrics = metrics

    def _timed(self, kind: str, started: float) -> None:
        if self.metrics is not None:
            self.metrics.picture(kind, time.perf_counter() - started)

    def _fell_back(self, kind: str) -> None:
        if self.metrics is not None:
            self.metrics.picture_fallback(kind)

    async def start(self) -> None:
        """Start the workers and wait until each has drawn once (start-up, before the bot
        takes interactions)."""
        await self.pool.start()

    async def close(self, grace: float = 5.0) -> None:
        """Let queued and running pictures finish for up to ``grace`` seconds, then stop the
        workers; pictures asked for after this are posted as text."""
        await self.pool.close(grace)

    @property
    def busy(self) -> int:
        """Pictures queued or being drawn now."""
        return self.pool.busy

    async def table(
        self,
        view: SeatView,
        players: Sequence[Player],
        language: str | None,
        *,
        channel: Hashable = None,
    ) -> Picture | None:
        """The table PNG with its alt text, or None if it could not be made (post
        :func:`table_text`).

        With ``channel``, raises :class:`Superseded` when a newer table of that channel
        replaced this one before a worker took it: the newer post shows the table."""
        started = time.perf_counter()
        robots, lang = computer_seats(players), language_of(language)
        try:
            drawn: Picture = await self.pool.run(
                table_picture, view, robots, lang, key=channel, urgent=True
            )
        except WorkerFailed as exc:
            log.warning("table picture not drawn, posting text: %s", exc)
            self._fell_back("table")
            return None
        self._timed("table", started)
        return drawn

    async def hand(
        self,
        view: SeatView,
        show_plan: bool,
        language: str | None,
        tiles: str = "pips",
        pick: bool = False,
    ) -> Picture | None:
        """The hand PNG with its alt text and the names cut for a DM (an unchanged hand is
        not redrawn), or None if it could not be made (the hand's text says it all);
        ``tiles`` is the player's tile mode."""
        started = time.perf_counter()
        args = (view, show_plan, language_of(language), tiles, pick)
        try:
            drawn: Picture = await self.pool.cached(hand_picture_key(*args), hand_picture, *args)
        except WorkerFailed as exc:
            log.warning("hand picture not drawn, sending text: %s", exc)
            self._fell_back("hand")
            return None
        self._timed("hand", started)
        return drawn

    async def table_attached(
        self,
        embed: discord.Embed,
        view: SeatView,
        players: Sequence[Player],
        language: str | None,
        *,
        channel: Hashable = None,
    ) -> list[discord.File]:
        """The table for ``embed``: its picture, described in words, as the embed's image; or,
        when no picture could be made, the table as text in a field (the message still goes).
        Raises :class:`Superseded` like :meth:`table` (with ``channel`` only)."""
        drawn = await self.table(view, players, language, channel=channel)
        if drawn is None:
            embed.add_field(name="\u200b", value=table_text(view, players, language))
            return []
        embed.set_image(url="attachment://table.png")
        return [picture_file(drawn.png, "table.png", drawn.alt)]

    async def post_table(
        self, embed: discord.Embed, view: SeatView, game: GameSummary, language: str | None
    ) -> list[discord.File]:
        """The table as it stands (``view``, the spectator's) for a game post's ``embed``, as
        :meth:`table_attached` makes it (keyed by the game's channel, so a backlog draws only
        the latest); nothing when a newer post of this channel will show the table."""
        try:
            return await self.table_attached(
                embed, view, game.players, language, channel=game.channel_id
            )
        except Superseded:  # a newer table of this channel is coming: the lines alone
            return []

    async def hand_attached(
        self,
        view: SeatView,
        show_plan: bool,
        language: str | None,
        tiles: str = "pips",
        *,
        pick: bool = False,
    ) -> discord.File | None:
        """The hand picture described in words, or None if it could not be made (the hand's
        text says it all); ``pick``: see :func:`hand_options`."""
        drawn = await self.hand(view, show_plan, language, tiles, pick)
        return None if drawn is None else picture_file(drawn.png, "hand.png", drawn.alt)

    async def round_end(
        self, view: SeatView, players: Sequence[Player], language: str | None
    ) -> bytes | None:
        """The round-end PNG from the spectator's view of an ended round (every hand is
        public then), or None if it could not be made (the post's text says it all). Never
        superseded: each round's end is posted once, and people wait for it."""
        options = round_end_options(players, language)
        started = time.perf_counter()
        try:
            png: bytes = await self.pool.run(draw_round_end, view, options, urgent=True)
        except WorkerFailed as exc:
            log.warning("round-end picture not drawn, posting text: %s", exc)
            self._fell_back("round_end")
            return None
        self._timed("round_end", started)
        return png

    async def run(self, func: Any, *args: Any, timeout: float | None = None) -> bytes:
        """Any other picture (``bot.drawing.draw_replay``, ``draw_chart``) in a worker;
        raises :class:`~bot.workers.WorkerFailed` when it cannot be made."""
        kind = getattr(func, "__name__", "picture").removeprefix("draw_")
        started = time.perf_counter()
        try:
            result: bytes = await self.pool.run(func, *args, timeout=timeout)
        except WorkerFailed:
            self._fell_back(kind)
            raise
        self._timed(kind, started)
        return result


def table_lines(
    view: SeatView,
    players: Sequence[Player],
    language: str | None,
    *,
    laid: bool = False,
    me: int | None = None,
) -> list[str]:
    """The table in lines, in the picture's own words, drawn from the view it is given (the
    spectator's, so no hidden hand): the round, engine and boneyard; one line per train (its
    open end, the owner's tiles in hand, the marker); the open doubles to cover; whose turn
    it is. With ``laid`` each train's tiles follow its line (the terminal game, which has no
    picture beside it), and ``me`` marks that seat's own train."""
    lang = language_of(language)
    lines = [
        tr(
            "pic.round-engine",
            lang,
            round=view.round_no + 1,
            rounds=view.rounds_total,
            engine=view.engine,
            max=view.rules.max_pip,
        )
        + f" · {view.boneyard_count} "
        + tr("pic.boneyard", lang)
    ]
    robots = computer_seats(players) if len(players) == len(view.names) else ()
    names = []
    for train in view.trains:
        if train.is_mexican:
            names.append(tr("pic.mexican", lang))
        else:
            robot = " 🤖" if robots and robots[train.owner] else ""
            you = f" ({tr('pic.you', lang)})" if train.owner == me else ""
            names.append(f"@{train.owner + 1} {view.names[train.owner]}{robot}{you}")
    width = min(30, max(len(n) for n in names))
    for train, name in zip(view.trains, names, strict=True):
        notes = [f"→ {train.end:>2}"]
        if not train.is_mexican:
            notes.append(plural("pic.tiles", view.hand_counts[train.owner], lang))
            if train.marked:
                notes.append(tr("pic.marker", lang))
        pointer = "▶" if train.owner == view.current and not train.is_mexican else " "
        line = f"{pointer} {name[:width]:<{width}} {' · '.join(notes)}"
        if laid:
            line += f"  |  {laid_tiles(train, view.engine.high)}"
        lines.append(line)
    opened = view.open_doubles
    if opened and view.result is None:
        doubles = [f"{o.tiles[-1] if o.tiles else view.engine} ({names[view.trains.index(o)]})"
                   for o in opened]  # fmt: skip
        lines.append(tr("pic.open-doubles", lang, list=" → ".join(doubles)))
    if view.current is not None and view.result is None:
        lines.append(tr("pic.to-play", lang, name=view.names[view.current]))
    return lines


#: The most tiles of one train written out in full; a longer train shows its start and end.
LONG_TRAIN = 9


def laid_tiles(train: TrainView, engine: int) -> str:
    """The train's tiles as laid, each turned to match the one before (``12-9 9-4 4-7``);
    a train of more than :data:`LONG_TRAIN` tiles shows that many: its first tile, ``(+N)``
    for the N tiles left out, and its last ones (a 10-tile train once read ``(+3)`` with 8
    shown)."""
    tiles, end = [], engine
    for tile in train.tiles:
        if tile.high == end:
            tiles.append(f"{tile.high}-{tile.low}")
            end = tile.low
        else:
            tiles.append(f"{tile.low}-{tile.high}")
            end = tile.high
    if len(tiles) > LONG_TRAIN:
        last = LONG_TRAIN - 1
        tiles = [tiles[0], f"(+{len(tiles) - LONG_TRAIN})", *tiles[-last:]]
    return " ".join(tiles) if tiles else "—"


def table_text(view: SeatView, players: Sequence[Player], language: str | None) -> str:
    """:func:`table_lines` as a monospaced block that fits an embed field, for a post whose
    picture could not be made."""
    # A code block shows names as written; only a backtick could end it (in_code).
    body = "\n".join(in_code(line) for line in table_lines(view, players, language))
    if len(body) > TEXT_LIMIT - 8:
        body = body[: TEXT_LIMIT - 9] + "…"
    return f"```\n{body}\n```"
