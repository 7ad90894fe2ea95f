"""The announcer's side of the outbox (issue 37): which failures a retry can mend, the nonces
that make a retry safe, and clearing what was delivered.

A committed move's debt (the post, the ping) is in the database from its own transaction
(:mod:`bot.service.outbox`). The announcer pays it at once and clears it here
(:func:`settle`); what failed for a reason that passes (Discord's 5xx, a timeout, a dropped
connection) is left for :mod:`bot.ui.deliver` to retry with backoff. A refusal that will not
pass (missing permissions, a 4xx) is not retried: the actor was told, and retrying would only
spend invalid requests.

Every post and turn DM carries a ``nonce`` derived from the debt (the game, its version, the
post's place), sent with ``enforce_nonce``: Discord answers a second send with the same nonce,
within a few minutes, with the message already sent instead of a new one. So a retry after a
crash between Discord's answer and the clearing posts nothing twice.
"""

from __future__ import annotations

import hashlib
import logging

import aiohttp
import discord

from bot.service import GameSummary
from bot.ui.host import GameBot
from bot.ui.limits import NONCE
from bot.ui.route import Route

log = logging.getLogger(__name__)

#: Failures that pass: worth a retry by the outbox.
PASSING = (TimeoutError, aiohttp.ClientError)
#: A DM (a turn's, a match's end) that failed this many times (5xx, timeouts) gives way to a
#: mention in the game's channel.
DM_TRIES = 4


def passing(exc: BaseException) -> bool:
    """Whether a failed send may succeed later: a Discord 5xx, a timeout, a lost connection."""
    if isinstance(exc, discord.HTTPException):
        return exc.status >= 500
    return isinstance(exc, PASSING)


def note_failure(route: Route, part: str, exc: BaseException) -> None:
    """Remember that ``part`` (``post``, ``ping``) of this announcement is still owed, when the
    failure is one that passes."""
    if passing(exc):
        route.undelivered.add(part)


def post_nonce(game: GameSummary, index: int) -> str:
    """The nonce of the ``index``-th post owed for the game as it stands (Discord keeps at
    most :data:`~bot.ui.limits.NONCE` characters)."""
    return f"mt{game.id}.{game.version}.{index}"[:NONCE]


def dm_nonce(game: GameSummary) -> str:
    """The nonce of the turn DM owed for the game as it stands."""
    return f"mt{game.id}.{game.version}.dm"[:NONCE]


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


async def settle(bot: GameBot, route: Route, game: GameSummary) -> None:
    """Clear from the outbox what this announcement delivered for ``game`` (as it stands);
    what is still owed stays, and the deliverer is woken to retry it. A database that does
    not answer leaves the debt too: the deliverer finds the post already in the channel."""
    post, ping = "post" not in route.undelivered, "ping" not in route.undelivered
    try:
        await bot.service.outbox.delivered(
            game.id, game.version, post=post, ping=ping, held=route.held
        )
    except Exception as exc:  # the store's outage is logged once by its own poll
        log.info("game %s: could not clear the outbox (%s); the deliverer will", game.id, exc)
    if not (post and ping) or "end" in route.undelivered:
        bot.dispatch("mt_owed", game.id)
