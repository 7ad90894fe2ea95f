"""The league on Discord (issue 48): each table's game opened in its own thread, and the
tables in words for ``/mt league`` and ``/mt-admin league``.

A table's game is opened as ``/mt new thread:True`` opens one (:mod:`bot.cogs.lobby`): a
lobby card in the season's channel, hosted by the table's first player, with the season's
rules and the league's deadline; the thread made from the card; the other players seated;
computer players (Normal) to make three when fewer signed up; the first round dealt. Its
absent players' turns are played by the computer, and after the season's vacation allowance
of missed turns in a row the computer keeps the seat (``replace``). The game is kept on its
table as soon as it exists, so a restart never opens a table twice.
"""

from __future__ import annotations

import logging
from datetime import timedelta

import discord

from bot.i18n import tr
from bot.service import GameOptions, GameStatus, GameSummary, ServiceError
from bot.service.league import TABLE_MIN, LeagueTable
from bot.service.seasons import RatedChoice, SeasonRow, house_rules_of
from bot.service.timing import Policy
from bot.ui import announcer
from bot.ui.host import GameBot
from bot.ui.interactions import channel_locale
from bot.ui.limits import shown

log = logging.getLogger(__name__)


def table_line(t: LeagueTable, locale: str | None) -> str:
    people = ", ".join(f"<@{u}>" for u, _ in t.players) or "—"
    game = "" if t.game_id is None else " " + tr("league.game", locale, game=t.game_id)
    return tr("league.table", locale, table=t.table_no, division=t.division, players=people) + game


def tables_text(season: SeasonRow, tables: list[LeagueTable], signed: list[tuple[int, str]],
                locale: str | None) -> str:  # fmt: skip
    """The league of a season: its tables, or who signed up while none is formed."""
    head = "**" + tr("league.title", locale, name=shown(season.name)) + "**"
    if not tables:
        names = ", ".join(shown(n) for _, n in signed) or "—"
        return "\n".join([head, tr("league.signed", locale, n=len(signed), players=names)])
    return "\n".join([head, *(table_line(t, locale) for t in tables)])


async def open_tables(bot: GameBot, season: SeasonRow) -> bool:
    """Form the tables if the admin has not, then open every table's game not yet open;
    whether all are open. A table that could not be opened (its channel busy, Discord
    refusing the thread) is logged and tried again later (:class:`bot.ui.seasons.SeasonLoop`)."""
    svc = bot.service.seasons.league
    if season.league == "signup":
        await svc.form_tables(season)
    failed = False
    for table in await svc.tables(season):
        if table.game_id is not None or not table.players:
            continue
        try:
            await _open_table(bot, season, table)
        except (ServiceError, discord.HTTPException) as exc:  # it passes: the channel busy…
            log.warning("season %s: table %s not opened yet: %s", season.id, table.table_no, exc)
            failed = True
        except Exception:
            log.exception("season %s: table %s not opened", season.id, table.table_no)
            failed = True
    if not failed:
        await svc.all_opened(season)
    return not failed


async def _open_table(bot: GameBot, season: SeasonRow, table: LeagueTable) -> int:
    now, locale = bot.now(), channel_locale(None, client=bot, guild_id=season.guild_id)
    host_id, host_name = table.players[0]
    deadline = None if season.deadline_s is None else timedelta(seconds=season.deadline_s)
    out = await bot.service.create_lobby(
        guild_id=season.guild_id, channel_id=season.channel_id, user_id=host_id,
        display_name=host_name, now=now, preset_name=season.preset,
        house_rules=house_rules_of(season), options=GameOptions(turn_deadline=deadline),
        is_manager=True, rated=RatedChoice(True, season, season.preset, house_rules_of(season)),
    )  # fmt: skip
    game = out.game
    await bot.service.seasons.league.opened(season, table.table_no, game.id)
    await bot.schedule.set_game_schedule(
        game.id, policy=Policy.REPLACE, replace_after=max(1, season.vacation)
    )
    try:
        return await _seat_and_deal(bot, season, table, game, locale)
    except Exception:
        status = (await bot.service.game(game.id)).status
        if status is GameStatus.ACTIVE:  # dealt: its posts are the outbox's to deliver
            log.exception("season %s: table %s dealt, not told", season.id, table.table_no)
            return game.id
        # No lobby may be left to block the channel: the table is opened again later.
        await bot.service.seasons.league.opened(season, table.table_no, None)
        if status is GameStatus.LOBBY:
            await bot.service.end(game.id, host_id, now, is_manager=True)
        raise


async def _seat_and_deal(
    bot: GameBot, season: SeasonRow, table: LeagueTable, game: GameSummary, locale: str
) -> int:
    now, (host_id, _) = bot.now(), table.players[0]
    channel = bot.get_channel(season.channel_id) or await bot.fetch_channel(season.channel_id)
    assert isinstance(channel, discord.TextChannel)
    head = tr("league.card", locale, name=shown(season.name), table=table.table_no,
              division=table.division)  # fmt: skip
    card = await announcer.post_lobby(bot, channel, game, locale, ended_by=host_id, content=head)
    game = await announcer.open_thread(bot, card, game, host_id, locale)
    async with bot.game_lock(game.id):
        for uid, name in table.players[1:]:
            await bot.service.join(game.id, uid, name, now)
        for _ in range(TABLE_MIN - len(table.players)):
            await bot.service.add_computer(game.id, host_id, now, is_manager=True,
                                           stem=tr("computer.stem", locale))  # fmt: skip
        out = await bot.service.start(game.id, host_id, now, is_manager=True, computer_moves=0)
        await announcer.refresh_lobby(bot, out.game, None)
        await announcer.announce(bot, [out], None)
    return game.id
