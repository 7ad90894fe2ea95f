"""Seasons on Discord (issue 48): the season's end post (a picture of its top players and
the league's moves), the standings in words, ``/mt new``'s rated or casual choice, and the
season work the scheduler's loop runs (:class:`SeasonLoop`: a league opened at the season's
start, the season ended at its end, its end post owed until it is posted).

The end post is owed from the transaction that ended the season (``seasons.post_owed``) and
sent with a nonce named from the season (as every post the bot owes: Discord answers a
second send with the first message), then the debt is cleared: a crash in between posts it
once at the restart, the outbox's pattern (``docs/outbox.md``).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime

import discord

from bot.drawing import draw_season_post
from bot.i18n import language_of, tr
from bot.service.seasons import (
    RatedChoice,
    SeasonEnd,
    SeasonRow,
    SeasonWork,
    StandingRow,
    house_rules_of,
)
from bot.service.timing import RETRY_AFTER
from bot.ui import league, messages, seasondms
from bot.ui.host import GameBot
from bot.ui.interactions import channel_locale
from bot.ui.limits import fit, shown
from bot.ui.pictures import picture_file
from bot.ui.ratings import number
from bot.workers import WorkerFailed

log = logging.getLogger(__name__)

#: Discord lets a message's ``allowed_mentions`` name 100 users at most.
MENTIONS_MAX = 100


def signed(n: int, locale: str | None) -> str:
    return ("+" if n > 0 else "-" if n < 0 else "±") + number(abs(n), locale)


def standing_line(place: int, s: StandingRow, locale: str | None) -> str:
    return tr("season.line", locale, place=place, mention=f"<@{s.user_id}>",
              rating=number(s.rating, locale), change=signed(s.change, locale),
              games=s.games)  # fmt: skip


def rules_name(season: SeasonRow) -> str:
    """The rules of the season's rated games: the preset, and its house rules on top
    ("quick, knock=True")."""
    house = house_rules_of(season)
    return ", ".join([season.preset, *(f"{k}={v}" for k, v in sorted(house.items()))])


def dates(season: SeasonRow) -> str:
    return tr("season.dates", None, start=messages.timestamp(season.starts_at),
              end=messages.timestamp(season.ends_at))  # fmt: skip


def standings_text(season: SeasonRow | None, rows: Sequence[StandingRow], locale: str | None,
                   now: datetime) -> str:  # fmt: skip
    """``/mt season``: the season, its dates and rules, and its standings."""
    if season is None:
        return tr("season.none", locale)
    state = "season.running" if season.status == "open" and season.starts_at <= now else (
        "season.coming" if season.status == "open" else "season.ended")  # fmt: skip
    head = [
        "**" + tr("season.title", locale, name=shown(season.name)) + "**",
        tr(state, locale, start=messages.timestamp(season.starts_at),
           end=messages.timestamp(season.ends_at)),
        tr("season.rules", locale, preset=rules_name(season)),
    ]  # fmt: skip
    if not rows:
        return "\n".join([*head, tr("season.empty", locale)])
    ratings = [r.rating for r in rows]
    lines = [standing_line(ratings.index(r.rating) + 1, r, locale) for r in rows]
    return "\n".join([*head, *lines])


def end_text(end: SeasonEnd, locale: str | None) -> str:
    """The season's end post in words (the picture shows the same top players)."""
    lines = ["🏆 **" + tr("season.over", locale, name=shown(end.season.name)) + "**"]
    if end.standings:
        ratings = [s.rating for s in end.standings]
        lines += [standing_line(ratings.index(s.rating) + 1, s, locale) for s in end.standings]
    else:
        lines.append(tr("season.empty", locale))
    ups = [m for m in end.moves if m.after < m.before]
    downs = [m for m in end.moves if m.after > m.before]
    if ups:
        lines.append(
            tr(
                "league.up",
                locale,
                players=", ".join(
                    tr("league.to", locale, mention=f"<@{m.user_id}>", division=m.after)
                    for m in ups
                ),
            )
        )
    if downs:
        lines.append(
            tr(
                "league.down",
                locale,
                players=", ".join(
                    tr("league.to", locale, mention=f"<@{m.user_id}>", division=m.after)
                    for m in downs
                ),
            )
        )
    lines.append(tr("season.carry", locale))
    return "\n".join(lines)


async def picture(bot: GameBot, end: SeasonEnd, locale: str | None) -> discord.File | None:
    """The top players as a picture, described in words (None: it could not be drawn)."""
    names = {m.user_id: m.name for m in end.moves}
    rows = []
    ratings = [s.rating for s in end.standings]
    for s in end.standings:
        name = names.get(s.user_id) or await _name(bot, s.user_id)
        detail = tr("pic.season.detail", locale, change=signed(s.change, locale), games=s.games)
        rows.append((ratings.index(s.rating) + 1, name, number(s.rating, locale), detail))
    try:
        png = await bot.pictures.run(draw_season_post, end.season.name, rows, language_of(locale))
    except WorkerFailed as exc:
        log.warning("season %s: picture not drawn: %s", end.season.id, exc)
        return None
    said = "; ".join(f"{p}. {n} {r}" for p, n, r, _ in rows) or tr("season.empty", locale)
    alt = tr("alt.season", locale, name=end.season.name, players=said)
    return picture_file(png, "season.png", alt)


async def _name(bot: GameBot, user_id: int) -> str:
    user = bot.get_user(user_id)
    if user is None:
        try:
            user = await bot.fetch_user(user_id)
        except discord.HTTPException:
            return "?"
    return user.display_name


async def post_end(bot: GameBot, end: SeasonEnd) -> None:
    """Post a season's end (once: the nonce), pinging the players it names; then tell each
    league player their own result by DM (:mod:`bot.ui.seasondms`); then clear its debt.

    Who hears is the one ping rule's (:attr:`SeasonEnd.heard`); how, each player's settings
    (:meth:`~bot.service.timing.SchedulePlayers.turn_ping`): a player in their quiet hours
    is named without a ping, as at a match's end. A crash before the debt is cleared posts
    and DMs again at the restart, each with the nonce of its first send."""
    season = end.season
    locale = channel_locale(None, client=bot, guild_id=season.guild_id)
    file = await picture(bot, end, locale)
    channel = bot.get_partial_messageable(season.channel_id)
    heard = end.heard
    now = bot.now()
    pings = {u: await bot.schedule.turn_ping(u, now, turn=False)
             for u in dict.fromkeys((*heard.named, *heard.end))}  # fmt: skip
    loud = [discord.Object(u) for u in heard.named if pings[u].quiet_until is None]
    allowed = discord.AllowedMentions(users=loud[:MENTIONS_MAX], roles=False, everyone=False)
    try:
        await channel.send(
            **fit("season end", content=end_text(end, locale),
                  files=[file] if file is not None else [], allowed_mentions=allowed),
            nonce=f"mts{season.id}",
        )  # fmt: skip
    except discord.HTTPException as exc:
        if isinstance(exc, discord.DiscordServerError):
            raise  # it passes: still owed, tried at the next look
        log.warning("season %s: end post refused: %s", season.id, exc)
    await seasondms.tell_results(bot, end, [pings[u] for u in heard.end])
    await bot.service.seasons.posted(season.id)


class SeasonLoop:
    """The seasons' due work, run by the scheduler's loop beside the games' rows. Work that
    failed (a table's channel busy, Discord down for the end post) is held back
    :data:`RETRY_AFTER` before it is tried again, so the loop never spins on it."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self.held_until: datetime | None = None

    async def next_due(self) -> datetime | None:
        due = await self.bot.service.seasons.next_due()
        if due is not None and self.held_until is not None and due < self.held_until:
            return self.held_until
        return due

    async def run_due(self, now: datetime) -> int:
        if self.held_until is not None and now < self.held_until:
            return 0
        self.held_until = None
        done = 0
        for work in await self.bot.service.seasons.due(now):
            try:
                ok = await self.one(work, now)
            except Exception:
                log.exception("season %s: %s failed; tried again later", work.season.id, work.kind)
                ok = False
            if not ok:
                self.held_until = now + RETRY_AFTER
            done += 1
        return done

    async def one(self, work: SeasonWork, now: datetime) -> bool:
        """Do one piece of work; False when some of it is left for later."""
        svc = self.bot.service.seasons
        if work.kind == "open":
            return await league.open_tables(self.bot, work.season)
        end = (await svc.end(work.season.id, now) if work.kind == "end"
               else await svc.end_of(work.season))  # fmt: skip
        if end is not None:
            await post_end(self.bot, end)
        return True


def rated_note(choice: RatedChoice, locale: str | None) -> str:
    """What ``/mt new`` adds to its answer: the game is rated in the season, or casual."""
    if choice.season is None:
        return "" if choice.rated else tr("season.casual", locale)
    key = "season.rated" if choice.rated else "season.casual"
    return tr(key, locale, name=shown(choice.season.name))
