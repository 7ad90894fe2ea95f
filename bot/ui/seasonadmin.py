"""``/mt-admin season`` and ``/mt-admin league`` (issue 48): what a server admin does with
seasons and the league. The commands are declared in :mod:`bot.cogs.admin` (the admin
group's one home); their work is here, over :mod:`bot.service.seasons`.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from typing import Any

import discord
from discord import app_commands

from bot.i18n import tr
from bot.service.seasons import LEAGUE_DEADLINE, VACATION
from bot.ui import league, seasons
from bot.ui.host import GameBot
from bot.ui.interactions import (
    Interaction,
    bot_of,
    check_thread_permissions,
    is_manager,
    lobby_channel,
    locale_of,
    reply,
    server_of,
)
from bot.ui.limits import shown
from bot.ui.refusals import Refusal, quote_input

LEAGUE_ADMIN_CHOICES = [
    app_commands.Choice(name=a, value=a) for a in ("show", "form", "move", "start")
]


def _manager(interaction: Interaction) -> int:
    guild_id = server_of(interaction)
    if not is_manager(interaction):
        raise Refusal("error.not-manager")
    return guild_id


def parse_day(text: str | None, default: date) -> datetime:
    """``2026-12-01`` (a day, UTC midnight); refused with what was typed."""
    if text is None or not text.strip():
        return datetime.combine(default, time(), UTC)
    try:
        day = date.fromisoformat(text.strip())
    except ValueError:
        raise Refusal("season.bad-date", value=quote_input(text)) from None
    return datetime.combine(day, time(), UTC)


async def season_flow(
    interaction: Interaction,
    *,
    name: str | None,
    start: str | None,
    end: str | None,
    rules: str | None,
    house: dict[str, Any],
    deadline_hours: int | None,
    vacation: int | None,
    end_now: bool,
) -> None:
    """Open a season (``name`` and ``end`` given: it runs to the end of that day, UTC), or end
    the open one now (``end_now``)."""
    bot, locale = bot_of(interaction), locale_of(interaction)
    guild_id = _manager(interaction)
    svc, now = bot.service.seasons, bot.now()
    if end_now:
        current = await svc.current(guild_id)
        if current is None or current.status != "open":
            raise Refusal("season.none")
        ended = await svc.end(current.id, now, early=True)
        if ended is not None:
            await seasons.post_end(bot, ended)
        await reply(interaction, tr("season.ended-now", locale, name=shown(current.name)))
        return
    if name is None or end is None:
        raise Refusal("season.need", option="name, end")
    # Its league's games open in threads of this channel: a thread cannot hold them.
    if isinstance(interaction.channel, discord.Thread):
        raise Refusal("season.in-thread")
    lobby_channel(interaction)  # every permission a game needs here,
    check_thread_permissions(interaction)  # and the threads'; else named, nothing written
    starts = parse_day(start, now.date())
    if starts <= now:
        starts = now  # today (or a day gone): from now on
    season = await svc.open(
        guild_id=guild_id, channel_id=interaction.channel_id or 0, name=name, starts_at=starts,
        ends_at=parse_day(end, now.date()) + timedelta(days=1), preset=rules or "standard",
        house_rules=house,
        deadline=LEAGUE_DEADLINE if deadline_hours is None else timedelta(hours=deadline_hours),
        vacation=VACATION if vacation is None else vacation, now=now,
    )  # fmt: skip
    bot.schedule.look_sooner.set()  # its start and end are the loop's to fire
    hours = "—" if season.deadline_s is None else str(season.deadline_s // 3600)
    await reply(
        interaction,
        tr("season.opened", locale, name=shown(season.name), preset=seasons.rules_name(season),
           dates=seasons.dates(season), hours=hours, vacation=season.vacation),
        allowed_mentions=discord.AllowedMentions.none(),
    )  # fmt: skip


async def league_flow(
    interaction: Interaction, action: str, player: discord.abc.User | None, table: int | None
) -> None:
    """``show`` the tables, ``form`` them (again), ``move`` a player to a table, or ``start``
    the league now: open every table's game."""
    bot, locale = bot_of(interaction), locale_of(interaction)
    guild_id = _manager(interaction)
    svc = bot.service.seasons
    season = await svc.current(guild_id)
    if season is None or season.status != "open":
        raise Refusal("season.none")
    if action == "form":
        await svc.league.form_tables(season)
    elif action == "move":
        if player is None or table is None:
            raise Refusal("season.need", option="player, table")
        await svc.league.move(guild_id, player.id, table)
    elif action == "start":
        season = await svc.current(guild_id) or season
        before = {t.table_no for t in await svc.league.tables(season) if t.game_id is not None}
        await league.open_tables(bot, season)
        now_open = [t for t in await svc.league.tables(season) if t.game_id is not None]
        head = tr(
            "league.started", locale, n=len([t for t in now_open if t.table_no not in before])
        )
        await reply(interaction, head + "\n" + await _tables(bot, guild_id, locale),
                    allowed_mentions=discord.AllowedMentions.none())  # fmt: skip
        return
    await reply(interaction, await _tables(bot, guild_id, locale),
                allowed_mentions=discord.AllowedMentions.none())  # fmt: skip


async def _tables(bot: GameBot, guild_id: int, locale: str | None) -> str:
    svc = bot.service.seasons
    season = await svc.current(guild_id)
    assert season is not None
    signed = await svc.league.signed(season)
    return league.tables_text(season, await svc.league.tables(season), signed, locale)
