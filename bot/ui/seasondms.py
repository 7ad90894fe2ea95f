"""Each league player's own result at a season's end, by DM (issue 48): their division, whether
they move up, down or stay, and their final rating, in their language.

Sent after the season's end post (:func:`bot.ui.seasons.post_end`) to the players the one
ping rule says hear of it (``SeasonEnd.heard.end``: every league player), as each one's
settings allow (``TurnPing.dm``: DMs on and not known closed, a ping that takes a DM); in
their quiet hours it comes without a sound. A DM found closed (50007, 50278) is remembered,
as for a turn. Each DM carries a nonce named from the season and the player, so a restart
before the post's debt is cleared does not send it twice; a DM that fails for a reason that
passes is not retried (the post and ``/mt season`` still say the result).
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence

import discord

from bot.i18n import tr
from bot.service.league import LeagueMove
from bot.service.seasons import SeasonEnd
from bot.service.timing import TurnPing
from bot.ui import dmlater
from bot.ui.host import GameBot
from bot.ui.limits import shown
from bot.ui.ratings import number
from bot.ui.route import PASSING, send_dm

log = logging.getLogger(__name__)


def result_nonce(season_id: int, user_id: int) -> str:
    """The nonce of ``user_id``'s DM at the season's end (a user id has up to 20 digits:
    hashed to fit Discord's 25 characters)."""
    digest = hashlib.blake2b(f"{season_id}:{user_id}".encode(), digest_size=11).hexdigest()
    return f"mtr{digest}"


def result_text(end: SeasonEnd, move: LeagueMove, lang: str | None) -> str:
    """One league player's DM: the season is over, their move, their final rating."""
    if move.after < move.before:
        result = tr("season.dm.up", lang, before=move.before, after=move.after)
    elif move.after > move.before:
        result = tr("season.dm.down", lang, before=move.before, after=move.after)
    else:
        result = tr("season.dm.stay", lang, division=move.after)
    rating = end.ratings.get(move.user_id)
    final = (tr("season.dm.unrated", lang) if rating is None
             else tr("season.dm.rating", lang, rating=number(rating, lang)))  # fmt: skip
    head = tr("season.dm", lang, name=shown(end.season.name), channel=f"<#{end.season.channel_id}>")
    return f"{head}\n{result} {final}"


async def tell_results(bot: GameBot, end: SeasonEnd, pings: Sequence[TurnPing]) -> int:
    """DM each league player of ``pings`` their result, as their settings allow; how many
    were sent."""
    moves = {m.user_id: m for m in end.moves}
    sent = 0
    for ping in pings:
        move = moves.get(ping.user_id)
        if move is None or not ping.dm or ping.settings is None:
            continue  # DMs off or known closed: the post and /mt season tell them
        lang = ping.settings.language
        try:
            await send_dm(
                bot,
                ping.user_id,
                result_text(end, move, lang),
                known=ping.settings.dm_channel_id,
                silent=ping.quiet_until is not None,
                allowed_mentions=discord.AllowedMentions.none(),
                nonce=result_nonce(end.season.id, ping.user_id),
            )
        except discord.Forbidden as exc:
            if exc.code in dmlater.REFUSED:
                await bot.service.update_user_settings(ping.user_id, bot.now(), dms_open=False)
            else:
                log.warning("season %s: result DM to %s refused: %s", end.season.id,
                            ping.user_id, exc)  # fmt: skip
            continue
        except (discord.HTTPException, *PASSING) as exc:
            log.warning("season %s: result DM to %s failed: %s", end.season.id, ping.user_id, exc)
            continue
        sent += 1
    return sent
