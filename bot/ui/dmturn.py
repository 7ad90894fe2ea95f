"""The player to move told of their turn, and the turn DM's own controls.

Step 4 of the announcer's cycle is here (:func:`tell_next_player`): the ping the service
decided (:meth:`bot.service.turn.Turns.ping`, by the one ping rule) given — the turn DM with
their hand (:func:`send_turn_dm`; later, if Discord says too fast: :mod:`bot.ui.dmlater`),
the hand with the actor's own answer when they move again, or nothing more where the turn
post's mention is the ping; DMs found closed are remembered and said once.

A turn DM carries the moves, so nobody has to go to the channel to play: the legal moves as a
list (a tap opens it, a tap plays), Draw and Pass when legal, Catch me up and the link to the
live turn post. A move made here takes the channel's path (:func:`bot.cogs.play.make_move`).

Each control names its game and the game's version when the DM was sent
(``mt:<game>:<version>:dm:…``, a ``DynamicItem``, so a DM sent before a restart still
answers); the move list is the channel's :class:`~bot.ui.components.MoveSelect`, sent with
``dm=True``. A DM is one turn's: what a control pressed late says, and the DM's controls
after a move, are :mod:`bot.ui.dmclick`'s. A player who moves again after a move made from
the DM (a draw whose tile they may play, a double, a new round they start, every other turn
played for them) gets their hand as it is now, once, and the moves of the table as it is
now with their own answer (:func:`move_again`, free), while the DM they pressed keeps only
Catch me up and the link (issue 47: no hand that is no more beside the moves of today). A
turn DM is one card (Components V2: the text, the hand's picture with its alt text, the
controls); its controls are replaced as rows of that card.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import discord
from discord import PartialEmoji as Emoji

from bot.digits import ID
from bot.engine import DRAW, PASS, Play, SeatView, Tile
from bot.i18n import tr, tr_count
from bot.service import GameSummary, Standing
from bot.service.digest import Digest
from bot.service.timing import TurnPing
from bot.service.turn import PlayedOut, TurnNews
from bot.ui import dmlater, messages, notices
from bot.ui.catchup import catchup_text
from bot.ui.components import CatchUpButton, MoveSelect, card, clicked, move_options
from bot.ui.host import GameBot
from bot.ui.interactions import Interaction, locale_of
from bot.ui.limits import CONTENT, SELECT_OPTIONS, shown
from bot.ui.matchend import ordinal
from bot.ui.orders import stopped_line
from bot.ui.pictures import picture_file, short_names
from bot.ui.route import PASSING, Route, dm_nonce, note_failure, send_dm

log = logging.getLogger(__name__)

DM_ACTIONS = ("draw", "pass")


class DmTurnButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"mt:(?P<game>{ID}):(?P<version>{ID}):dm:(?P<action>draw|pass)",
):
    """Draw or Pass, on a turn DM."""

    place: ClassVar[str] = "player"

    def __init__(self, game_id: int, version: int, action: str, locale: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=tr(f"button.{action}", locale),
                style=discord.ButtonStyle.secondary,
                custom_id=f"mt:{game_id}:{version}:dm:{action}",
            )
        )
        self.game_id, self.version, self.action = game_id, version, action

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DmTurnButton:
        return cls(int(match["game"]), int(match["version"]), match["action"])

    async def callback(self, interaction: Interaction) -> None:
        await clicked(interaction, self)


class DmOrderButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"mt:(?P<game>{ID}):(?P<version>{ID}):dm:(?P<how>then|queue):(?P<tiles>[0-9.-]{{3,80}})",
):
    """The turn DM's one-tap standing order (issue 46): the train plan the hand picture marks.
    ``then``: play its first tile on your train now, then keep playing the rest at your next
    turns; ``queue``: the first tile cannot go now (a double to satisfy first), so the whole
    plan is queued from your next turn. ``tiles``: the plan, joined by dots
    (``mt:<game>:<version>:dm:then:7-5.7-2.9-2``); the click checks it against the hand."""

    place: ClassVar[str] = "player"

    def __init__(self, game_id: int, version: int, how: str, tiles: str,
                 locale: str | None = None, emoji: Emoji | None = None) -> None:  # fmt: skip
        shown_tiles = tiles.split(".")
        if how == "then":
            label = tr("orders.button.then", locale, first=shown_tiles[0],
                       rest=" → ".join(shown_tiles[1:]))  # fmt: skip
        else:
            label = tr("orders.button.queue", locale, tiles=" → ".join(shown_tiles))
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=discord.ButtonStyle.success,
                custom_id=f"mt:{game_id}:{version}:dm:{how}:{tiles}",
                emoji=emoji,
            )
        )
        self.game_id, self.version, self.how, self.tiles = game_id, version, how, tiles

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DmOrderButton:
        return cls(int(match["game"]), int(match["version"]), match["how"], match["tiles"])

    async def callback(self, interaction: Interaction) -> None:
        await clicked(interaction, self)


#: The most tiles the one-tap order names (its custom id holds them: 100 characters at most).
PLAN_TILES = 9


def order_button(game: GameSummary, view: SeatView, plan: Sequence[str], lang: str | None,
                 emojis: Mapping[Tile, Emoji] | None = None) -> DmOrderButton | None:  # fmt: skip
    """The one-tap order for ``plan`` (the hand picture's train plan), if it is worth a tap:
    its first tile now and the rest after (``then``), or all of it from the next turn when
    the first cannot go now (``queue``); none for a plan of one tile that can go now (the
    move list plays it). It shows its first tile's emoji from ``emojis``, if there."""
    if view.seat is None or not plan:
        return None
    first = next((m for m in view.legal if isinstance(m, Play) and str(m.tile) == plan[0]), None)
    now = first is not None and first.train == view.seat
    if now and len(plan) < 2:
        return None
    tiles = list(plan[: PLAN_TILES if now else PLAN_TILES - 1])
    head = f"mt:{game.id}:{game.version}:dm:{'then' if now else 'queue'}:"
    while tiles and len(head) + len(".".join(tiles)) > 100:
        tiles.pop()
    if not tiles or (now and len(tiles) < 2):
        return None
    pic = emojis.get(Tile.parse(tiles[0])) if emojis else None
    how = "then" if now else "queue"
    return DmOrderButton(game.id, game.version, how, ".".join(tiles), lang, pic)


async def live_link(bot: GameBot, game: GameSummary) -> str:
    """The game's latest post (its live turn), else its channel."""
    base = f"https://discord.com/channels/{game.guild_id}/{game.channel_id}"
    latest = await bot.posts.latest_table(bot.service, game.id)
    return f"{base}/{latest.message_id}" if latest is not None else base


def dm_view(
    game: GameSummary,
    view: SeatView | None,
    link: str,
    lang: str | None,
    plan: Sequence[str] = (),
    emojis: Mapping[Tile, Emoji] | None = None,
) -> discord.ui.View:
    """A turn DM's controls: with ``view`` (the player's seat, their turn) the legal moves,
    Draw and Pass as they are legal, and the one-tap standing order of ``plan`` (the train
    plan its hand picture marks), tiles with their ``emojis``; always Catch me up and the link."""
    controls = discord.ui.View(timeout=None)
    if view is not None and view.my_turn and view.legal:
        options = move_options(view, lang, emojis)
        button = order_button(game, view, plan, lang, emojis) if plan else None
        if button is not None and button.how == "then" and 0 < len(options) < SELECT_OPTIONS:
            # The same order in the move list: its first tile, then the rest queued.
            first, *rest = button.tiles.split(".")
            value = f"{Play(Tile.parse(first), view.seat or 0)}|then:{'.'.join(rest)}"
            label, pic = button.item.label or "", button.item.emoji
            options.append(discord.SelectOption(label=label, value=value[:100], emoji=pic))
        if options:
            controls.add_item(MoveSelect(game.id, game.version, options, lang, dm=True))
        for action, move in zip(DM_ACTIONS, (DRAW, PASS), strict=True):
            if move in view.legal:
                controls.add_item(DmTurnButton(game.id, game.version, action, lang))
        if button is not None:
            controls.add_item(button)
    controls.add_item(CatchUpButton(game.id, lang))
    controls.add_item(discord.ui.Button(label=tr("button.to-table", lang), url=link))
    return controls


# ---------------------------------------------------------------------- the text, phone-sized

#: A turn DM on a phone: at most this many characters and lines as a phone shows them (a
#: line of a DM wraps at about :data:`PHONE_LINE` characters), whatever the table's size.
DM_CHARS = 1200
DM_LINES = 30
PHONE_LINE = 40
#: What the digest may take, tried in turn until the whole DM fits (in small steps: each
#: step lets one more of the digest's parts shorten or go, and keeps the moves named longer).
DIGEST_BUDGETS = (*range(1000, 400, -25), 300, 180, 0)


def phone_lines(text: str) -> int:
    """How many lines ``text`` takes on a phone: each line, wrapped at :data:`PHONE_LINE`."""
    return sum(max(1, -(-len(line) // PHONE_LINE)) for line in text.split("\n"))


def standings_line(standings: Sequence[Standing], seat: int, lang: str | None) -> str:
    """Where the reader stands: "You: 3rd · 207 pts · leader Bob 189" (empty before any
    round is over: everyone is level at 0). Names as given (already cut)."""
    mine = next((s for s in standings if s.player.seat == seat), None)
    if mine is None or all(s.total == 0 for s in standings):
        return ""
    place = ordinal(mine.place, lang)
    pts = tr_count("re.pts", mine.total, lang)
    leader = standings[0]
    if leader.player.seat == seat:
        return tr("dm.standing.lead", lang, place=place, pts=pts)
    return tr("dm.standing", lang, place=place, pts=pts, leader=shown(leader.player.name),
              total=leader.total)  # fmt: skip


def hand_lines(
    view: SeatView, game: GameSummary, lang: str | None, *, turn_said: bool = False,
    hints: bool = False, pictured: bool = False, going_on: bool = False,
) -> str:  # fmt: skip
    """The reader's tiles, then where they can play now, grouped by train ("→ your train
    (@2): `12-1` `12-6`"): a tile per line repeated every open train's owner in full.
    ``turn_said``: the text above says whose turn it is already ("You can play:", not "It's
    your turn." again); ``hints``: while waiting, where the tiles fit now, grouped alike.
    ``pictured``: beside the hand's picture and the move list (a turn DM's card), so no tile
    is named again, only where the hand is and what to do (issue 47: the hand shown once);
    ``going_on``: their turn goes on (a draw, a double): what to do, not "It's your turn"."""
    hand = sorted(view.hand or (), reverse=True)
    if pictured:
        line = tr("hand.pictured", lang, round=view.round_no + 1, rounds=view.rounds_total,
                  count=len(hand))  # fmt: skip
        if not view.my_turn:
            return line
        moves = " / ".join(messages.move_text(m, lang) for m in view.legal)
        plays = messages.plays_by_tile(view)
        key = ("hand.pick.on" if going_on else "hand.pick") if plays else "hand.no-play"
        return line + "\n" + tr(key, lang, move=moves)
    lines = [
        tr("hand.title", lang, game=game.id, round=view.round_no + 1,
           rounds=view.rounds_total, count=len(hand)),
        " ".join(f"`{t}`" for t in hand) or "—",
    ]  # fmt: skip
    by_train: dict[int, list[str]] = {}
    fitting: list[tuple[Tile, list[int]]]
    if view.my_turn:
        fitting = list(messages.plays_by_tile(view).items())
    elif hints and view.current is not None:
        fitting = [(t, messages.fits(view, t)) for t in hand]
    else:
        return "\n".join(lines)
    for tile, trains in fitting:
        for train in trains:
            by_train.setdefault(train, []).append(f"`{tile}`")
    names = [shown(n) for n in view.names]
    if not view.my_turn:
        key = "hand.waiting" if by_train else "hand.waiting-none"
        assert view.current is not None
        lines.append(tr(key, lang, name=names[view.current]))
    elif by_train:
        lines.append(tr("hand.playable.short" if turn_said else "hand.playable", lang))
    else:
        moves = " / ".join(messages.move_text(m, lang) for m in view.legal)
        lines.append(tr("hand.no-play", lang, move=moves))
    for train, tiles in by_train.items():
        where = messages.train_label(names, train, view.seat, lang)
        lines.append(tr("hand.where", lang, where=where, tiles=" ".join(tiles)))
    return "\n".join(lines)


def turn_dm_text(
    head: str,
    game: GameSummary,
    digest: Digest,
    view: SeatView,
    standings: Sequence[Standing],
    lang: str | None,
    names: Sequence[str] = (),
    *,
    pictured: bool = False,
) -> str:
    """A turn DM's text: ``head`` (whose game, by when), where the reader stands, what
    changed since their last turn, their hand and where it plays — names cut as the picture
    cuts them (``names``, cut by the render worker with the hand picture; cut here when not
    given), within :data:`DM_CHARS` characters and :data:`DM_LINES` phone lines at any
    table size (the digest gives way first: it shortens, then goes); ``pictured``: the hand's
    picture goes with it (:func:`hand_lines`)."""
    names = tuple(names) or short_names(view.names)
    view = dataclasses.replace(view, names=names)
    digest = dataclasses.replace(digest, names=names)
    cut = tuple(
        dataclasses.replace(s, player=dataclasses.replace(s.player, name=names[s.player.seat]))
        for s in standings
    )
    stand = standings_line(cut, view.seat, lang) if view.seat is not None else ""
    hand = hand_lines(view, game, lang, pictured=pictured)
    text = ""
    for budget in DIGEST_BUDGETS:
        since = catchup_text(digest, lang, budget, whose_turn=False) if budget else ""
        # After a round's end the digest gives everyone's totals ("📊 Totals: 1. Alice 0 · 2.
        # Carol 25 · 3. you 41."): the "📊 You: 3rd · 41 pts" line would say it twice.
        told = "" if any(ln.startswith("📊") for ln in since.splitlines()) else stand
        # Where they stand sits under the head, a line of it (a blank line costs a phone line).
        text = "\n\n".join(t for t in ("\n".join(t for t in (head, told) if t), since, hand) if t)
        if len(text) <= DM_CHARS and phone_lines(text) <= DM_LINES:
            return text
    return text[:DM_CHARS]


async def turn_news(
    bot: GameBot,
    game: GameSummary,
    news: TurnNews,
    lang: str | None,
    tiles: str,
    *,
    hand_only: bool = False,
) -> tuple[str, list[discord.File], tuple[str, ...], tuple[str, ...]]:
    """What a player reads when their turn comes: whose game and by when, what changed since
    their last turn (their own train first), and their hand — in words and as a picture,
    drawn now, the one moment they need it; the picture's plan, the names as cut (the move
    list cuts them alike, issue 47). ``hand_only``: just the hand (the actor sees the table)."""
    view, digest = news.view, news.digest
    assert view is not None
    # In the DM the moves are a list under the picture: its hint says to pick there.
    files, plan, names = await hand_picture(bot, game, view, lang, tiles, pick=not hand_only)
    hand = messages.hand_text(view, game, lang)
    if hand_only:
        return hand[:CONTENT], files, plan, ()
    head = tr("dm.turn", lang, game=game.id, channel=f"<#{game.channel_id}>")
    if game.deadline_at is not None:
        head += " " + tr("turn.deadline", lang, when=messages.timestamp(game.deadline_at))
    # Phone-sized at any table size, with where they stand (bot.ui.dmturn).
    assert digest is not None
    if news.stopped is not None:  # why their standing order stopped: told in this turn only
        head += "\n" + stopped_line(news.stopped.reason, news.stopped.params, lang)
    text = turn_dm_text(head, game, digest, view, news.standings, lang, names, pictured=bool(files))
    return text, files, plan, names


async def hand_picture(
    bot: GameBot, game: GameSummary, view: SeatView, lang: str | None, tiles: str, *, pick: bool
) -> tuple[list[discord.File], tuple[str, ...], tuple[str, ...]]:
    """The reader's hand drawn now, as the message's file with its alt text (none when it
    could not be drawn), the picture's train plan, and the names as the picture cut them
    (the words and the move list cut them alike, issue 47). ``pick``: its hint says to pick
    in the list under it."""
    drawn = await bot.pictures.hand(view, game.options.hints, lang, tiles, pick=pick)
    if drawn is None:
        return [], (), short_names(view.names)
    names = drawn.names or short_names(view.names)
    return [picture_file(drawn.png, "hand.png", drawn.alt)], drawn.plan, names


def since_your_turn(news: TurnNews | None, lang: str | None, budget: int) -> str:
    """What changed since the player's last turn (read with their ping), in at most
    ``budget`` characters (the catch-up digest: :mod:`bot.ui.catchup`); empty when nothing
    fits."""
    if budget <= 0 or news is None or news.digest is None:
        return ""
    return catchup_text(news.digest, lang, budget, whose_turn=False)


# ---------------------------------------------------------------------- the turn's ping


async def tell_next_player(
    bot: GameBot, route: Route, played: PlayedOut, *, new_turn: bool
) -> str | None:
    """Step 4: the player to move hears of it once — a DM (silent in their quiet hours) if
    that is their way, with their hand; the actor whose new turn it is gets it with their
    answer instead (free), and nothing more when their turn simply goes on (a draw: their
    answer said where the tile fits). A closed DM is remembered, never retried, and said
    once in the channel. Returns a note for the actor."""
    game, ping, news = played.last.game, played.ping, played.news
    if ping is None or game.round_no is None or news is None or news.view is None:
        return None
    if ping.here:
        if ping.settings is None:
            return None
        i = route.interaction
        if i is not None and i.guild_id is None:  # a move made from the DM: its moves too
            # The same turn goes on (a draw, a double) when nobody else moved in between and
            # no round ended: read off the moves, not the turn's start (two turns can start
            # in the same instant).
            steps = [s for o in played.outs for s in o.steps]
            alone = all(s.player.user_id == ping.user_id for s in steps)
            going_on = alone and not any(o.rounds_ended for o in played.outs)
            await move_again(bot, route, game, news, ping.settings.tiles, going_on=going_on)
            return None
        if not new_turn:
            return None
        lang = locale_of(route.interaction) if route.interaction is not None else None
        text, files, *_ = await turn_news(
            bot, game, news, lang, ping.settings.tiles, hand_only=True
        )
        await route.add_for_actor(text, files=files)
        return None
    if not ping.dm or ping.settings is None:
        return None
    try:
        await send_turn_dm(bot, game, ping, news, route=route)
    except discord.Forbidden as exc:
        if exc.code == dmlater.TOO_FAST:  # the same news later, if still true: never dropped
            dmlater.turn_dm_later(bot, game, ping, send_turn_dm, notices.post)
            return None
        if exc.code not in dmlater.REFUSED:
            log.warning("game %s: DM to %s refused: %s", game.id, ping.user_id, exc)
            return None
        await bot.service.update_user_settings(ping.user_id, bot.now(), dms_open=False)
        left = exc.code == dmlater.NO_MUTUAL_GUILDS
        return await notices.dms_closed(bot, game, ping.user_id, route.interaction, left=left)
    except (discord.HTTPException, *PASSING) as exc:
        log.warning("game %s: DM to %s failed: %s", game.id, ping.user_id, exc)
        note_failure(route, "ping", exc)  # a 5xx or a timeout: the outbox retries it
    return None


#: What a move again's answer may say of the turns played since the mover's move.
SINCE_MOVE = 700


async def move_again(
    bot: GameBot, route: Route, game: GameSummary, news: TurnNews, tiles: str, *, going_on: bool
) -> None:
    """The actor who moved from their DM and moves again: their answer grows by their hand as
    it is now, once (the words beside the picture name no tile; the answer above already
    named a drawn tile and where it fits), its picture with its alt text, and the moves of the
    table as it is now (free: the click's own followup, a classic message since a followup
    takes no V2 card with a file, docs/discord.md). ``going_on``: the same turn goes on (a
    draw, a double), else a new turn of theirs, which says first what happened since their
    move (the others' turns played, a round's end: the channel's post, which they do not see
    from the DM), in at most :data:`SINCE_MOVE` characters."""
    assert route.interaction is not None and news.view is not None
    lang = locale_of(route.interaction)
    files, plan, names = await hand_picture(bot, game, news.view, lang, tiles, pick=True)
    view = dataclasses.replace(news.view, names=names)
    since = ""
    if not going_on:
        digest = await bot.service.digest(game.id, route.interaction.user.id)
        digest = dataclasses.replace(digest, names=names)
        since = catchup_text(digest, lang, SINCE_MOVE, whose_turn=False)
    hand = hand_lines(view, game, lang, pictured=bool(files), going_on=going_on)
    text = "\n\n".join(t for t in (since, hand) if t)
    link = await live_link(bot, game)
    controls = dm_view(game, view, link, lang, plan, bot.tile_emojis.shown)
    await route.grow_answer(text[:CONTENT], files=files, controls=controls)


async def send_turn_dm(
    bot: GameBot,
    game: GameSummary,
    ping: TurnPing,
    news: TurnNews | None = None,
    *,
    route: Route | None = None,
) -> None:
    """The turn's DM to the player to move, with their hand (raises as ``send``); ``news``
    as the service read it with the ping, else read now (a DM sent again later); ``route``:
    the announcement it is part of, which keeps a DM channel opened for it."""
    assert ping.settings is not None
    if news is None:
        news = await bot.turns.news(game.id, ping)
    assert news is not None
    lang, tiles = ping.settings.language, ping.settings.tiles
    text, files, plan, names = await turn_news(bot, game, news, lang, tiles)
    seat_view = news.view and dataclasses.replace(news.view, names=names)
    controls = dm_view(
        game, seat_view, await live_link(bot, game), lang, plan, bot.tile_emojis.shown
    )
    # One card (issue 47): the text, the hand's picture with its alt text, the controls; a
    # DM is the bot's own message, which takes a V2 card with its file (docs/discord.md).
    view = card([text], picture=files[0] if files else None, controls=controls)
    known, silent = ping.settings.dm_channel_id, ping.quiet_until is not None
    nonce = dm_nonce(game, ping.user_id, news)  # this turn's: one DM for it (issue 50)
    await send_dm(
        bot, ping.user_id, None, known=known, kept=True, files=files, view=view, silent=silent,
        allowed_mentions=discord.AllowedMentions.none(), nonce=nonce, route=route,
    )  # fmt: skip
