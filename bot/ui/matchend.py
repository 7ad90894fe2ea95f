"""The end of a match, told to every human who played it.

The final post in the channel pings nobody: a player who was not looking learned nothing,
their last notification a turn long played ("It's your turn and nothing fits: draw.") and
never that they came 3rd. So at the match's end each human hears of it ONCE, the way they
asked to hear of their turns (``/mt me ping:``): a DM where one can be delivered — their
place, the winner, the final sheet and a link to the result — else a mention in one short
post of the game's channel naming everyone who is told that way, with their place (the
final post above it has the sheet). In their quiet hours the DM comes without a sound and
the mention names them without a ping. A DM found closed is remembered, as for a turn, and
that player is mentioned instead. It is part of what the match's last move owes (the outbox,
issue 37): delivered once, across crashes and Discord's passing failures.

The DM rides on the player's latest interaction in their DM with the bot (their last move
from a turn DM) while its token lives (issue 47): a followup of it is a new message in that
DM, off the bot's global limit; else it is the bot's own DM (``POST /channels/{dm}/messages``,
the global limit). The bot's DM carries a nonce Discord enforces; a followup takes none, so
a redelivery by the outbox (after a crash, or a failure that passes) first reads the DM's
recent messages for this game's end DM (its Review button) and, found, crosses the player
off instead of telling them twice. So a match's end costs the global limit nothing for the
players who moved from their DMs in its last quarter hour, a DM for each of the others, and
one post for those told by mention.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Sequence
from typing import Any, ClassVar

import discord

from bot.digits import ID
from bot.i18n import tr, tr_count
from bot.service import GameSummary, MatchEnd, Standing
from bot.service.outbox import pinged
from bot.service.roundend import RoundReport
from bot.service.timing import TurnPing
from bot.service.turn import PlayedOut
from bot.ui import dmlater, ratings
from bot.ui.components import clicked, leaves
from bot.ui.hooks import is_own_post
from bot.ui.host import GameBot
from bot.ui.interactions import Interaction, channel_locale, replaces_thinking
from bot.ui.limits import CONTENT, fit, shown
from bot.ui.matchfacts import facts_line
from bot.ui.roundend import result_link, scores_text, sheet_embeds, size
from bot.ui.route import DM_TRIES, PASSING, Route, dm_channel, passing, send_dm

log = logging.getLogger(__name__)

#: How many of a player's recent DMs a redelivery reads for the end DM already sent.
LOOK_BACK = 20


def ordinal(place: int, lang: str | None) -> str:
    """A place as a reader says it: "1st", "3rd" ("1er", "3e")."""
    key = {1: "end.first", 2: "end.second", 3: "end.third"}.get(place, "end.nth")
    return tr(key, lang, n=place)


def end_nonce(game_id: int, user_id: int) -> str:
    """The nonce of the DM telling ``user_id`` how the match ended. Discord checks a nonce per
    author, and the bot writes every DM: so it names the player, hashed to fit in 25
    characters (a user id alone has up to 20 digits)."""
    digest = hashlib.blake2b(f"{game_id}:{user_id}".encode(), digest_size=11).hexdigest()
    return f"mte{digest}"


def end_mentions_nonce(game_id: int, user_ids: tuple[int, ...]) -> str:
    """The nonce of the post mentioning these players, told of the match's end in the
    channel: it names them (a later post for another player, whose DM kept failing, must not
    be answered with the first one)."""
    named = ",".join(str(u) for u in sorted(user_ids))
    digest = hashlib.blake2b(f"{game_id}:{named}".encode(), digest_size=11).hexdigest()
    return f"mtm{digest}"


def end_dm(
    game: GameSummary,
    report: RoundReport,
    mine: Standing,
    link: str,
    lang: str | None,
    rating: str = "",
) -> str:
    """One player's DM at the match's end: their place (or that they won) and total, the
    final standings with the sheet, the winner (unless it is the reader alone), and the link
    to the result; within a DM's 2,000 characters (the sheet gives way first, then the
    standings' last lines)."""
    total = tr_count("re.pts", mine.total, lang)
    channel = f"<#{game.channel_id}>"
    if mine.won:
        head = tr("end.dm.won", lang, game=game.id, channel=channel, total=total)
    else:
        place, players = ordinal(mine.place, lang), len(report.standings)
        head = tr(
            "end.dm", lang, game=game.id, channel=channel, place=place, players=players, total=total
        )
    if rating:  # issue 48: "Your rating: +23 → 1,412."
        head = f"{head}\n{rating}"
    figures = facts_line(game, report, lang)  # issue 47: how long, how many turns, …
    if figures:
        head = f"{head}\n{figures}"
    tail = tr("end.link", lang, link=link)
    room = CONTENT - size(head) - size(tail) - 4
    sheet = scores_text(game.id, report, lang)
    # The first line already says the game is over: the sheet's own head need not again.
    over = tr("re.over-scores", lang, game=game.id)
    if sheet.startswith(over):
        sheet = tr("end.standings", lang) + sheet[len(over) :]
    # The sole winner's first line says "you won": the sheet's last line, "Bob won the match",
    # would tell them again, of themselves, in the third person. A shared win keeps it: it
    # names whom they share it with.
    named = tr("match.winner", lang, names=shown(mine.player.name))
    if mine.won and len(report.winners) == 1 and sheet.endswith("\n" + named):
        sheet = sheet[: -len(named) - 1]
    if size(sheet) > room:
        kept: list[str] = []
        for line in sheet.splitlines():
            if size("\n".join([*kept, line])) > room:
                break
            kept.append(line)
        sheet = "\n".join(kept)
    return "\n\n".join(t for t in (head, sheet, tail) if t)


def mentions_post(
    game_id: int, told: Sequence[tuple[Standing, TurnPing]], locale: str | None
) -> tuple[str, discord.AllowedMentions]:
    """The one channel post for the players told by mention: each with their place; those
    in their quiet hours are named without a ping."""
    places = " · ".join(
        tr("end.place", locale, mention=f"<@{ping.user_id}>", place=ordinal(s.place, locale))
        for s, ping in told
    )
    loud = [discord.Object(p.user_id) for _, p in told if p.quiet_until is None]
    allowed = discord.AllowedMentions(users=loud, roles=False, everyone=False)
    return tr("end.mentions", locale, game=game_id, places=places), allowed


def who_hears_the_end(
    game: GameSummary, end: MatchEnd, owed: Sequence[int]
) -> tuple[tuple[Standing, ...], tuple[int, ...]]:
    """Who is told of the match's end, in the standings' order, by the one ping rule
    (:func:`bot.service.outbox.pinged`, which wrote the debt with the match's last move): the
    humans of the standings still owed it (``owed``: the outbox's); and those owed it who are
    no longer in the standings as a human (nothing to tell them, crossed off)."""
    heard = pinged(game.status, [s.player for s in end.standings], None, None).end
    to_tell = tuple(
        s for s in end.standings if s.player.user_id in heard and s.player.user_id in owed
    )
    return to_tell, tuple(u for u in owed if u not in heard)


async def tell_the_end(bot: GameBot, route: Route, played: PlayedOut) -> None:
    """Tell every human of the game that its match is over, once each (see the module's
    docstring). Call it before the game's posts are forgotten: the link is to its last.

    Who is still to be told is the outbox's (issue 37): the match's last move wrote it with
    the move, and each player is crossed off once told, so a crash between two DMs, or before
    the first, tells the rest at the restart (the deliverer calls this again) and nobody twice;
    each DM and the mentions' post carry a nonce Discord enforces, for a crash between a send
    and its crossing off. A DM that failed for a reason that passes (a 5xx, a timeout) stays
    owed and is retried; after :data:`~bot.ui.route.DM_TRIES` failed tries, the mention.

    What it tells came with the turn's result (``played``: the final report, and each
    player's ping by the one ping rule), so this asks the service only what the outbox owes."""
    game, end = played.last.game, played.last.match_over
    if end is None:
        return
    debt = await bot.service.outbox.owed(game.id)
    if debt is None or not debt.end_users:
        return  # told already
    report = played.final
    if report is None:  # ended before any round was over: nothing to tell
        await bot.service.outbox.told_end(game.id, debt.end_users)
        return
    pings = {p.user_id: p for p in played.end}
    link = await result_link(bot, game)
    to_tell, gone = who_hears_the_end(game, end, debt.end_users)
    if gone:  # no longer in the standings as a human: nothing to tell them, never retried
        await bot.service.outbox.told_end(game.id, gone)
    by_mention: list[tuple[Standing, TurnPing]] = []
    for s in to_tell:
        uid = s.player.user_id
        ping = pings.get(uid) if uid is not None else None
        if uid is None or ping is None:
            continue  # no ping asked for them (a front end without a schedule)
        if ping.dm and ping.settings is not None and debt.attempts < DM_TRIES:
            told = await _dm(bot, route, game, report, s, ping, link)
            if told is None:
                continue  # failed for a reason that passes: still owed, retried
            if told:
                await bot.service.outbox.told_end(game.id, (uid,))
                continue
        by_mention.append((s, ping))
    if not by_mention:
        return
    locale = channel_locale(route.interaction, client=bot, guild_id=game.guild_id)
    text, allowed = mentions_post(game.id, by_mention, locale)
    named = tuple(p.user_id for _, p in by_mention)
    try:
        await bot.get_partial_messageable(game.channel_id).send(
            content=text, allowed_mentions=allowed, nonce=end_mentions_nonce(game.id, named)
        )
    except discord.HTTPException as exc:
        log.warning("game %s: could not tell the end by mention: %s", game.id, exc)
        if passing(exc):
            route.undelivered.add("end")
            return
    except PASSING as exc:
        log.warning("game %s: could not tell the end by mention: %s", game.id, exc)
        route.undelivered.add("end")
        return
    await bot.service.outbox.told_end(game.id, named)


async def _dm(
    bot: GameBot,
    route: Route,
    game: GameSummary,
    report: RoundReport,
    mine: Standing,
    ping: TurnPing,
    link: str,
) -> bool | None:
    """The end by DM; False when it will not be delivered (closed DMs: remembered, and the
    player is mentioned instead); None when it failed for a reason that passes (retried).

    A followup of the player's latest click in their DM, where its token lives (free: a new
    message in that DM, off the global limit); else the bot's own DM, with its nonce. A
    followup takes no nonce, so a redelivery (after a crash, or a failure that passes) reads
    the DM's recent messages first, and an end DM of this game found there is the news told."""
    assert ping.settings is not None
    lang = ping.settings.language
    changes = await bot.service.rating_changes(game.id)  # issue 48
    rating = ratings.mine_line(changes, ping.user_id, lang)
    text = end_dm(game, report, mine, link, lang, rating)
    fields: dict[str, Any] = {
        "embeds": sheet_embeds(report, text, lang),  # a big table's sheet: beside the text
        "silent": ping.quiet_until is not None,
        "allowed_mentions": discord.AllowedMentions.none(),
        "view": review_view(game.id, lang),  # issue 49: their review, privately
    }
    try:
        if route.redelivery and await _told_already(bot, route, game.id, ping):
            return True
        if await _follow_up(bot, ping.user_id, text, fields):
            return True
        await send_dm(
            bot,
            ping.user_id,
            text,
            known=ping.settings.dm_channel_id,
            nonce=end_nonce(game.id, ping.user_id),
            route=route,
            **fields,
        )
    except discord.Forbidden as exc:
        if exc.code in dmlater.REFUSED:
            await bot.service.update_user_settings(ping.user_id, bot.now(), dms_open=False)
        else:
            log.warning("game %s: end DM to %s refused: %s", game.id, ping.user_id, exc)
        return False
    except (discord.HTTPException, *PASSING) as exc:
        log.warning("game %s: end DM to %s failed: %s", game.id, ping.user_id, exc)
        if passing(exc):
            route.undelivered.add("end")
            return None
        return False
    return True


async def _follow_up(bot: GameBot, user_id: int, text: str, fields: dict[str, Any]) -> bool:
    """The end DM as a followup of the player's live DM interaction, once it was answered (a
    first followup after "thinking…" would replace it); False when there is none or its
    token was refused (nothing was made: the bot's own DM goes instead). A failure that
    passes is raised (the followup may have landed: the retry reads the DM first)."""
    click = bot.posts.dm_click(user_id, bot.now())
    if click is None or not click.response.is_done() or replaces_thinking(click):
        return False
    try:
        await click.followup.send(wait=True, **fit("DM", content=text, **fields))
    except discord.HTTPException as exc:
        bot.posts.drop_dm_click(click)
        if passing(exc):
            raise
        log.info("interaction %s: no followup for the end DM (%s)", click.id, exc.code)
        return False
    except PASSING:
        bot.posts.drop_dm_click(click)
        raise
    return True


async def _told_already(bot: GameBot, route: Route, game_id: int, ping: TurnPing) -> bool:
    """Whether the player's DM already shows this game's end DM (its Review button), sent
    before a crash or by a followup whose answer was lost: then it is not sent again."""
    assert ping.settings is not None
    review = f"mt:{game_id}:review"
    channel = await dm_channel(bot, ping.user_id, ping.settings.dm_channel_id, route=route)
    try:
        async for message in channel.history(limit=LOOK_BACK):
            if not is_own_post(bot, message):
                continue
            if any(getattr(c, "custom_id", None) == review for c in leaves(message.components)):
                return True
    except discord.HTTPException as exc:
        if exc.status >= 500:
            raise
        log.info("could not read %s's DM (%s): sending the end DM", ping.user_id, exc)
    return False


class ReviewButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"mt:(?P<game>{ID}):review"
):
    """Review my match, on the end-of-match DM: the clicker's own review, privately."""

    place: ClassVar[str] = "player"

    def __init__(self, game_id: int, locale: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=tr("button.review", locale),
                style=discord.ButtonStyle.secondary,
                emoji="🔍",
                custom_id=f"mt:{game_id}:review",
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ReviewButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: Interaction) -> None:
        await clicked(interaction, self)


def review_view(game_id: int, locale: str | None) -> discord.ui.View:
    """The end-of-match DM's button: the reader's own review (issue 49, ``bot/ui/review.py``)."""
    view = discord.ui.View(timeout=None)
    view.add_item(ReviewButton(game_id, locale))
    return view
