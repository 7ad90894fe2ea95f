"""DMs Discord turns away for now: "You are opening direct messages too fast" (403, code
40003) says later, not never — unlike 50007 (the player closed their DMs) and 50278 (they
share no server with the bot: they left), which are final.

Such a DM is sent again after a pause (``GameBot.dm_retry_delays``: a minute, growing to an hour),
keeping what it meant: a turn's DM is rebuilt at each try (the hand as it is then) and sent
only while it is still that player's same turn — once they have moved, or the game is over,
the news is stale and is not sent; if Discord still refuses after the last try, the player
gets the mention in the game's channel instead, the ping they would have had. A plain DM (a
reminder, a notice) is sent again as it was; after the last try it is logged as lost.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import discord

from bot.i18n import tr
from bot.service import GameSummary
from bot.service.timing import TurnPing
from bot.ui.host import GameBot
from bot.ui.interactions import channel_locale
from bot.ui.route import send_dm

log = logging.getLogger(__name__)

#: Discord's code for opening DMs too fast.
TOO_FAST = 40003
#: Discord's final refusals of a DM: the player closed their DMs (50007), or shares no server
#: with the bot any more (50278, "no mutual guilds": they left). Remembered, never retried.
DMS_CLOSED = 50007
NO_MUTUAL_GUILDS = 50278
REFUSED = (DMS_CLOSED, NO_MUTUAL_GUILDS)


#: ``send(bot, game, ping)``: the turn's DM, built afresh; ``post(bot, channel_id, text)``: a
#: message in the game's channel (the announcer's, handed in: it calls this module).
SendTurn = Callable[[GameBot, GameSummary, TurnPing], Awaitable[None]]
Post = Callable[[GameBot, int, str], Awaitable[None]]


def turn_dm_later(
    bot: GameBot, game: GameSummary, ping: TurnPing, send: SendTurn, post: Post
) -> None:
    """Send the turn's DM later (see the module's docstring)."""
    bot.spawn(_turn_dm(bot, game, ping, send, post))


def dm_later(bot: GameBot, user_id: int, text: str) -> None:
    """Send a plain DM later, as it is."""
    bot.spawn(_plain_dm(bot, user_id, text))


async def _still_their_turn(bot: GameBot, game: GameSummary, user_id: int) -> bool:
    now = await bot.service.game(game.id)
    turn = now.turn
    return (
        now.status.unfinished
        and turn is not None
        and turn.user_id == user_id
        and now.turn_since == game.turn_since
        and now.round_no == game.round_no
    )


async def _turn_dm(
    bot: GameBot, game: GameSummary, ping: TurnPing, send: SendTurn, post: Post
) -> None:
    for delay in bot.dm_retry_delays:
        await asyncio.sleep(delay)
        try:
            if not await _still_their_turn(bot, game, ping.user_id):
                log.info("game %s: turn DM to %s no longer needed", game.id, ping.user_id)
                return
            async with bot.game_lock(game.id):
                await send(bot, game, ping)
            log.info("game %s: turn DM to %s sent after a pause", game.id, ping.user_id)
            return
        except discord.Forbidden as exc:
            if exc.code != TOO_FAST:
                log.warning("game %s: turn DM to %s refused: %s", game.id, ping.user_id, exc)
                break
        except Exception:
            log.exception("game %s: turn DM to %s failed", game.id, ping.user_id)
            break
    try:
        if await _still_their_turn(bot, game, ping.user_id):
            lang = channel_locale(None, client=bot, guild_id=game.guild_id)
            text = tr("dm.later.turn", lang, mention=f"<@{ping.user_id}>", game=game.id)
            await post(bot, game.channel_id, text)
    except Exception:
        log.exception("game %s: could not tell %s of their turn", game.id, ping.user_id)


async def _plain_dm(bot: GameBot, user_id: int, text: str) -> None:
    for delay in bot.dm_retry_delays:
        await asyncio.sleep(delay)
        try:
            await send_dm(bot, user_id, text)
            return
        except discord.Forbidden as exc:
            if exc.code != TOO_FAST:
                break
        except discord.HTTPException:
            break
    log.warning("a DM to %s was not delivered: Discord kept refusing it", user_id)
