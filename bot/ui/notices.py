"""Plain messages about a game, outside a turn's post: a line in its channel (a reminder, a
warning, a player's closed DMs said once) and a DM (a reminder, a notice).

Neither carries the table nor owes the outbox anything: a failure is logged, a channel found
gone ends its game (:func:`bot.ui.route.gone`), and closed DMs are remembered, never retried
(a DM Discord refused as sent too fast is sent again later: :mod:`bot.ui.dmlater`).
"""

from __future__ import annotations

import logging

import discord

from bot.i18n import tr
from bot.service import GameSummary
from bot.ui import dmlater
from bot.ui.host import GameBot
from bot.ui.interactions import Interaction, channel_locale, locale_of
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


async def dms_closed(
    bot: GameBot, game: GameSummary, uid: int, interaction: Interaction | None, *, left: bool
) -> str | None:
    """Say once that the hand will not come by DM: privately if they are the one acting
    (returned, for their answer), else with a short mention in the channel — the ping they
    would have had by DM. ``left``: Discord said they share no server with the bot (50278):
    the channel hears they left, and what the host may do with their seat."""
    if interaction is not None and interaction.user.id == uid:
        return tr("dm.left.you" if left else "dm.closed.you", locale_of(interaction))
    locale = channel_locale(interaction, client=bot, guild_id=game.guild_id)
    key = "dm.left.channel" if left else "dm.closed.channel"
    await post(bot, game.channel_id, tr(key, locale, mention=f"<@{uid}>"))
    return None
