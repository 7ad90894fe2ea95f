"""Plain messages about a game, outside a turn's post: a line in its channel (a reminder, a
warning, a player's closed DMs said once) and a DM (a reminder, a notice).

Neither carries the table nor owes the outbox anything: a failure is logged, a channel found
gone ends its game (:func:`bot.ui.route.gone`), and closed DMs are remembered, never retried
(a DM Discord refused as sent too fast is sent again later: :mod:`bot.ui.dmlater`).
"""

from __future__ import annotations

import logging

import discord

from bot.ui import dmlater
from bot.ui.host import GameBot
from bot.ui.limits import fit
from bot.ui.route import gone, send_dm

log = logging.getLogger(__name__)


async def post(bot: GameBot, channel_id: int, text: str, *, ping: bool = True) -> None:
    """A plain message in a game's channel (reminders, warnings); ``ping`` mentions people."""
    mentions = discord.AllowedMentions(users=ping, roles=False, everyone=False)
    try:
        channel = bot.get_partial_messageable(channel_id)
        await channel.send(**fit("channel post", content=text, allowed_mentions=mentions))
    except discord.HTTPException as exc:
        log.warning("could not post in channel %s: %s", channel_id, exc)
        gone(bot, channel_id, exc)


async def dm(bot: GameBot, user_id: int, text: str, *, nonce: str | None = None) -> bool:
    """DM a player; False (and remembered, never retried) when their DMs are closed.
    ``nonce``: a DM sent again with the same one within Discord's few minutes is answered
    with the first (docs/outbox.md)."""
    try:
        if nonce is None:
            await send_dm(bot, user_id, text)
        else:
            await send_dm(bot, user_id, text, nonce=nonce)
    except discord.Forbidden as exc:
        if exc.code == dmlater.TOO_FAST:  # not refused: sent later (dmlater)
            dmlater.dm_later(bot, user_id, text)
            return True
        if exc.code in dmlater.REFUSED:
            await bot.service.update_user_settings(user_id, bot.now(), dms_open=False)
        else:
            log.warning("DM to %s refused: %s", user_id, exc)
        return False
    except discord.HTTPException as exc:
        log.warning("DM to %s failed: %s", user_id, exc)
        return False
    return True
