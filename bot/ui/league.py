"""The league on Discord (issue 48): each table's game opened in its own thread, and the
tables in words for ``/mt league`` and ``/mt-admin league``.

A table's game is opened as ``/mt new thread:True`` opens one (:mod:`bot.cogs.lobby`): a
lobby card in the season's channel, hosted by the table's first player, with the season's
rules and the league's deadline; the thread made from the card; the other players seated;
computer players (Normal) to make three when fewer signed up; the first round dealt. Its
absent players' turns are played by the computer, and after the season's vacation allowance
of missed turns in a row the computer keeps the seat (``replace``).

The lobby is linked to its table in the commit that opens it (``RatedChoice.table``), so no
crash leaves a lobby its table does not know. A try that stopped half-way (a process killed,
a step refused) is finished by a later one: a lobby left waiting is taken over once it has not
changed for :data:`RETRY_AFTER` (one process only) and carried on from the step it reached; a
lobby ended before its deal is replaced by a new one linked in its place. Only one game of a
table is ever dealt.
"""

from __future__ import annotations

import logging
from datetime import timedelta

import discord

from bot.i18n import tr
from bot.service import GameOptions, GameStatus, GameSummary, ServiceError
from bot.service.league import TABLE_MIN, LeagueTable
from bot.service.seasons import RatedChoice, SeasonRow, TableLink, house_rules_of
from bot.service.timing import RETRY_AFTER, Policy
from bot.ui import announcer
from bot.ui.host import GameBot
from bot.ui.interactions import channel_locale
from bot.ui.limits import shown
from bot.ui.refusals import Refusal

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
    """Form the tables if the admin has not, then open every table's game not yet open (or
    finish opening one left half-open); whether all are open. A table that could not be
    opened (its channel busy, Discord refusing the thread) is logged and tried again later
    (:class:`bot.ui.seasons.SeasonLoop`)."""
    svc = bot.service.seasons.league
    if season.league == "signup":
        await svc.form_tables(season)
    failed = False
    for table in await svc.tables(season):
        if not table.players:
            continue
        try:
            failed |= not await _open_table(bot, season, table)
        except (ServiceError, Refusal, discord.HTTPException) as exc:  # it passes: busy…
            log.warning("season %s: table %s not opened yet: %s", season.id, table.table_no, exc)
            failed = True
        except Exception:
            log.exception("season %s: table %s not opened", season.id, table.table_no)
            failed = True
    if not failed:
        await svc.all_opened(season)
    return not failed


async def _open_table(bot: GameBot, season: SeasonRow, table: LeagueTable) -> bool:
    """Open the table's game, or finish opening the lobby an earlier try left (its process
    died, a step failed): that lobby is linked to the table by the commit that opened it, so
    it is taken over, never left to block the channel. False: left for a later try."""
    now, locale = bot.now(), channel_locale(None, client=bot, guild_id=season.guild_id)
    host_id, host_name = table.players[0]
    game = None if table.game_id is None else await bot.service.game(table.game_id)
    if game is None or (game.status is GameStatus.ABANDONED and game.round_no is None):
        # None yet, or one ended before its deal (Discord refused its card or its thread):
        # a new lobby, linked to the table (in place of that one) in its own commit.
        deadline = None if season.deadline_s is None else timedelta(seconds=season.deadline_s)
        link = TableLink(season.id, table.table_no, None if game is None else game.id)
        rules = house_rules_of(season)
        game = (await bot.service.create_lobby(
            guild_id=season.guild_id, channel_id=season.channel_id, user_id=host_id,
            display_name=host_name, now=now, preset_name=season.preset, house_rules=rules,
            options=GameOptions(turn_deadline=deadline), is_manager=True,
            rated=RatedChoice(True, season, season.preset, rules, link),
        )).game  # fmt: skip
    elif game.status is not GameStatus.LOBBY:
        return True  # dealt: the table's game, whatever becomes of it
    elif not await bot.service.seasons.league.take_over(game, now, RETRY_AFTER):
        return False  # its opening may still be under way elsewhere: a later try
    await bot.schedule.set_game_schedule(
        game.id, policy=Policy.REPLACE, replace_after=max(1, season.vacation)
    )
    await _seat_and_deal(bot, season, table, game, locale)
    return True


async def _seat_and_deal(
    bot: GameBot, season: SeasonRow, table: LeagueTable, game: GameSummary, locale: str
) -> None:
    """The lobby's card in the season's channel, its thread, the table's players seated,
    computers to make three, the deal; each step skipped when an earlier try made it."""
    now, (host_id, _) = bot.now(), table.players[0]
    if game.channel_id == season.channel_id:  # not in its thread yet
        card = await _card(bot, season, table, game, locale)
        if card.thread is not None:  # made by a try that stopped before moving the lobby
            game = (await bot.service.move_to_thread(game.id, host_id, card.thread.id, now)).game
        else:
            game = await announcer.open_thread(bot, card, game, host_id, locale)
    async with bot.game_lock(game.id):
        game = await bot.service.game(game.id)
        seated = {p.user_id for p in game.players}
        for uid, name in table.players[1:]:
            if uid not in seated:
                await bot.service.join(game.id, uid, name, now)
        computers = sum(1 for p in game.players if p.is_computer)
        for _ in range(TABLE_MIN - len(table.players) - computers):
            await bot.service.add_computer(game.id, host_id, now, is_manager=True,
                                           stem=tr("computer.stem", locale))  # fmt: skip
        out = await bot.service.start(game.id, host_id, now, is_manager=True, computer_moves=0)
        await announcer.refresh_lobby(bot, out.game, None)
        await announcer.announce(bot, [out], None)


async def _card(
    bot: GameBot, season: SeasonRow, table: LeagueTable, game: GameSummary, locale: str
) -> discord.Message:
    """The lobby's card in the season's channel: the one an earlier try posted (with the
    thread it may have made from it), or a new one."""
    channel = bot.get_channel(season.channel_id) or await bot.fetch_channel(season.channel_id)
    assert isinstance(channel, discord.TextChannel)
    row = (await bot.service.messages(game.id)).get("lobby")
    if row is not None:
        try:
            return await channel.fetch_message(row.message_id)
        except discord.NotFound:
            pass  # deleted: a new card
    head = tr("league.card", locale, name=shown(season.name), table=table.table_no,
              division=table.division)  # fmt: skip
    host_id = table.players[0][0]
    return await announcer.post_lobby(bot, channel, game, locale, ended_by=host_id, content=head)
