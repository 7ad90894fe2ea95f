"""The deliverer: pays what committed moves still owe the players (issue 37).

Every move's transaction records what it owes (:mod:`bot.service.outbox`): a post telling its
events in the game's channel, and the ping of the player now to move. The announcer pays that
at once and clears it (:func:`bot.ui.route.settle`). What is left was not delivered — the
process died between the commit and the post, or a send failed with a 5xx or a timeout — and
this loop delivers it: at start-up (before computer players resume), whenever a send failed,
and when a debt falls due (a grace after its commit, then a doubling backoff).

One debt is delivered by one process: it is leased (:meth:`OutboxStore.claim`) like the
scheduler's work, and only by the process that runs the game's server; under the game's
posting lock, so it never races the live path. It is delivered by the same announcer steps
as a live move (:func:`~bot.ui.announcer.announce`: computers that were still to move play
first, then one post, one ping), its words rebuilt from the event log. Twice is avoided by
design: each post and turn DM carries a nonce Discord enforces, and before posting the
channel's recent messages are read for a post of this game's version (a post made by an
interaction's followup carries no nonce).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import os
import secrets
import socket
import time
from collections.abc import Sequence
from datetime import timedelta

import discord

from bot.i18n import tr
from bot.service import GameStatus, GameSummary, Outcome
from bot.service.errors import unreachable
from bot.service.outbox import Owed, backoff
from bot.service.turn import PlayedOut
from bot.ui import announcer, dmturn, notices
from bot.ui.hooks import is_own_post
from bot.ui.host import GameBot
from bot.ui.interactions import channel_locale
from bot.ui.matchend import tell_the_end
from bot.ui.route import DM_TRIES, Route, gone, passing, settle

log = logging.getLogger(__name__)

#: A debt is leased this long while it is delivered (a post and a DM take seconds).
LEASE = timedelta(seconds=60)
#: How many recent channel messages are read for a post already made.
LOOK_BACK = 20
#: At most this long between looks at the outbox when nothing wakes the loop.
MAX_SLEEP = 60.0


class Deliverer:
    """Delivers the outbox's debts for ``bot`` (see the module's docstring)."""

    def __init__(self, bot: GameBot, *, owner: str | None = None) -> None:
        self.bot = bot
        self.owner = owner or f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        self._wake = asyncio.Event()
        self._lock = asyncio.Lock()
        #: Debts this deliverer took in hand (for tests and the curious).
        self.paid = 0

    def wake(self) -> None:
        self._wake.set()

    async def drain(self, *, all_due: bool = False, limit: int = 100) -> int:
        """Deliver what is due (``all_due``: every debt, whatever its due time: a single
        process starting, with nothing of its own in flight); the number handled."""
        async with self._lock:
            now = self.bot.now()
            rows = await self.bot.service.outbox.due(now, limit, all_due=all_due)
            for row in rows:
                await self.pay(row)
            return len(rows)

    async def pay(self, row: Owed) -> None:
        """Deliver one game's debt, or plan its retry."""
        bot = self.bot
        service = bot.service
        try:
            guild_id, _ = await service.where(row.game_id)
        except Exception:  # the game is gone: its debt went with it (ON DELETE CASCADE)
            return
        if not bot.config.runs_guild(guild_id):
            return
        if not await service.outbox.claim(row, self.owner, bot.now(), LEASE):
            return
        async with bot.game_lock(row.game_id):
            now_owed = await service.outbox.owed(row.game_id)
            if now_owed is None or now_owed.version != row.version:
                return  # paid meanwhile, or a newer move owes more (and is its own debt)
            self.paid += 1
            try:
                await self._deliver(now_owed)
            except Exception as exc:
                if unreachable(exc) is None and not passing(exc):
                    log.exception("game %s: could not deliver what it owes", row.game_id)
                else:
                    log.warning("game %s: delivery failed (%s); retrying", row.game_id, exc)
            left = await service.outbox.owed(row.game_id)
            if left is not None and left.version == row.version:
                await service.outbox.retry_later(
                    row.game_id, row.version, bot.now() + backoff(row.attempts)
                )

    async def _deliver(self, row: Owed) -> None:
        bot = self.bot
        game = await bot.service.game(row.game_id)
        # A ping owed by a commit made by nobody (a computer, a turn with no choice) to the
        # user whose change began that cycle: they were answering, and were told with their
        # answer (issue 50). A DM that failed and is retried (attempts) is still owed.
        told = row.ping_user is not None and row.attempts == 0
        if told and row.ping_user == await bot.service.outbox.looking(row.game_id):
            row = dataclasses.replace(row, ping_user=None)
        if row.post_owed and not await self.already_posted(game):
            out = await bot.service.owed_outcome(row.game_id, row.from_seq)
            if out is not None:
                # The announcer's own turn cycle: computers still to move first, one post,
                # one ping; it clears what it delivered.
                nxt = game.turn
                mover = nxt.user_id if row.ping_user is None and nxt is not None else None
                await announcer.announce(
                    bot, [out], None, game_id=row.game_id, actor_id=mover, redelivery=True
                )
                return
        # The post is in the channel: only the ping may still be owed.
        await self.ping_again(game, row)

    async def ping_again(self, game: GameSummary, row: Owed) -> None:
        """The turn ping alone (a DM that failed, or a crash after the post): for the player
        still to move; after :data:`DM_TRIES` failed DMs, the mention instead. At a match's
        end, the news of it to those not yet told."""
        bot = self.bot
        route = Route(bot, None)
        route.redelivery = True  # an end DM by followup may have gone before a crash
        nxt = game.turn
        if (
            row.ping_user is not None
            and game.status is GameStatus.ACTIVE
            and nxt is not None
            and nxt.user_id == row.ping_user
        ):
            last = Outcome(game, next_player=nxt)
            ping = await bot.turns.ping(last, route.actor_id, bot.now())
            if ping is not None and ping.dm and row.attempts >= DM_TRIES:
                await self.mention_instead(game, row.ping_user, ping.quiet_until is None)
            elif ping is not None and ping.dm:
                news = await bot.turns.news(game.id, ping)
                played = PlayedOut((last,), ping, news=news)
                await dmturn.tell_next_player(bot, route, played, new_turn=True)
        if row.end_users and game.status is GameStatus.FINISHED:
            # The final post is in the channel; who was not yet told how the match ended is.
            ended = await bot.service.owed_outcome(game.id, row.from_seq)
            if ended is not None:
                told = await bot.turns.told([ended], None, bot.now(), ping=False)
                await tell_the_end(bot, route, told)
        route.undelivered.discard("post")
        await settle(bot, route, game)

    async def mention_instead(self, game: GameSummary, user_id: int, loud: bool) -> None:
        """The ping a player's DM could not carry, as a mention in the game's channel (silent
        in their quiet hours)."""
        locale = channel_locale(None, client=self.bot, guild_id=game.guild_id)
        text = tr("dm.failed.channel", locale, mention=f"<@{user_id}>", game=game.id)
        await notices.post(self.bot, game.channel_id, text, ping=loud)

    async def already_posted(self, game: GameSummary) -> bool:
        """Whether the channel's recent messages hold this game's post for its version: the
        turn buttons name it (``mt:<game>:<version>:``; in a card's rows too, below a round's
        end riding in it), a finished game's Rematch names the game. False when the channel
        cannot be read (the nonce still guards the post)."""
        marks = (f"mt:{game.id}:{game.version}:", f"mt:{game.id}:rematch")
        channel = self.bot.get_partial_messageable(game.channel_id)
        try:
            async for message in channel.history(limit=LOOK_BACK):
                if not is_own_post(self.bot, message):  # (its webhook's posts are its own)
                    continue
                if any(i.startswith(marks) for i in custom_ids(message.components)):
                    return True
        except discord.HTTPException as exc:
            log.info("game %s: could not read the channel (%s)", game.id, exc)
            gone(self.bot, game.channel_id, exc)
        return False

    async def run(self, *, all_due_first: bool) -> None:
        """Forever: deliver what is due, then sleep until the next debt falls due, a failed
        send wakes the loop, or :data:`MAX_SLEEP`. A database outage is said once."""
        all_due = all_due_first
        down = False
        while True:
            self._wake.clear()
            delay = MAX_SLEEP
            started = time.monotonic()
            try:
                await self.drain(all_due=all_due)
                all_due = False
                nxt = await self.bot.service.outbox.next_due()
                if nxt is not None:
                    delay = min(MAX_SLEEP, max(0.0, (nxt - self.bot.now()).total_seconds()))
                if down:  # the bot's one outage line (bot.store.outage.Outage)
                    self.bot.outage.recovered("outbox", started)
                down = False
            except Exception as exc:
                reason = unreachable(exc)
                if reason is None:
                    log.exception("outbox: delivery failed")
                else:
                    self.bot.outage.failed(reason, "outbox", started)
                    if not down:
                        log.info("outbox: waiting for the game database; retrying")
                down = reason is not None
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), max(delay, 1.0))

    async def release(self) -> None:
        """A clean stop: give back the leases held, so another process delivers at once."""
        with contextlib.suppress(Exception):
            await self.bot.service.outbox.release(self.owner)


def custom_ids(items: Sequence[object]) -> list[str]:
    """Every ``custom_id`` of a message's components, nested ones too (a card's container
    holds its action rows, which hold the buttons)."""
    found: list[str] = []
    for item in items:
        custom_id = getattr(item, "custom_id", None)
        if isinstance(custom_id, str):
            found.append(custom_id)
        found += custom_ids(getattr(item, "children", None) or ())
    return found
