"""The bot's channel webhooks: how a turn post that has no interaction to ride on reaches the
channel without spending the bot's global request budget.

Discord counts a bot's global limit (50 requests a second) by the bot token in the request's
Authorization header. A channel webhook is executed with its own token, in the URL, and
discord.py sends no Authorization header for it, so the post is outside the bot's global
limit (Discord applies the IP's instead, and a bucket per webhook): "If no authorization
header is provided, then the limit is applied to the IP address"
(https://docs.discord.com/developers/topics/rate-limits#global-rate-limit). A webhook the
application made is "application-owned" and "can always send components", so the turn post
keeps its Play/Draw/Pass buttons, and clicks on them reach the bot like any other
(https://docs.discord.com/developers/resources/webhook#execute-webhook). docs/discord.md
tells the rest.

Making or finding the webhook needs Manage Webhooks, which is optional: without it (or when
Discord refuses), :meth:`ChannelHooks.send` answers None and the caller posts as the bot, as
before. One webhook per parent channel (a thread's posts go through its parent's with
``thread``), named for the bot, found with one list call per channel per process (so a restart
reuses the one it made) and made only when missing. Its token is a secret: it stays in memory,
never in logs or the database; a restart finds it again with the list call.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import functools
import logging
import re
from typing import Any

import discord
from discord.utils import MISSING

from bot.ui.posts import Editor

log = logging.getLogger(__name__)

#: Discord's "Unknown Webhook": deleted (by an admin), or its channel was.
UNKNOWN_WEBHOOK = 10015
#: Discord's "Two factor is required for this operation": the server requires 2FA for
#: moderation and the bot's owner has none, so Manage Webhooks is refused there (docs/admin.md).
NEEDS_OWNER_2FA = 60003
#: A webhook's token does not expire: its editor is good for as long as the process runs.
NEVER = dt.datetime.max.replace(tzinfo=dt.UTC)


class ChannelHooks:
    """The bot's webhook in each parent channel it posts turn posts in (memory only)."""

    def __init__(self, bot: discord.Client) -> None:
        self.bot = bot
        #: Parent channel id -> its webhook, or None once finding or making one failed (the
        #: channel then gets the bot's own posts until the process restarts).
        self._hooks: dict[int, discord.Webhook | None] = {}
        self._finding: dict[int, asyncio.Lock] = {}
        #: Webhook executions made (for the curious and the tests).
        self.sent = 0
        #: Servers that refused a webhook with 60003: the bot posts as itself there until the
        #: process restarts (told once in the log; ``/mt-admin settings`` says it there).
        self.owner_2fa_needed: set[int] = set()

    def where(self, channel_id: int) -> tuple[discord.TextChannel, discord.abc.Snowflake] | None:
        """The parent text channel whose webhook posts in ``channel_id`` and the thread to
        name (MISSING for the channel itself); None when the bot cannot use one there now:
        not a cached server text channel or thread, or no Manage Webhooks."""
        place = self.bot.get_channel(channel_id)
        thread: Any = MISSING
        if isinstance(place, discord.Thread):
            thread, place = place, place.parent
        if not isinstance(place, discord.TextChannel):
            return None
        if not place.permissions_for(place.guild.me).manage_webhooks:
            return None
        if place.guild.id in self.owner_2fa_needed:
            return None
        return place, thread

    async def _hook(
        self, parent: discord.TextChannel, *, make: bool = True
    ) -> discord.Webhook | None:
        """The bot's webhook in ``parent``: found (one list call), else made (``make``); None
        when Discord refuses either (remembered: no retry in this process), or when there is
        none and ``make`` is False (not remembered: a post may still make one)."""
        if parent.id in self._hooks:
            return self._hooks[parent.id]
        lock = self._finding.setdefault(parent.id, asyncio.Lock())
        async with lock:
            if parent.id in self._hooks:
                return self._hooks[parent.id]
            hook = await self._find_or_make(parent, make=make)
            if hook is not None or make:
                self._hooks[parent.id] = hook
            return hook

    async def _find_or_make(
        self, parent: discord.TextChannel, *, make: bool
    ) -> discord.Webhook | None:
        bot = self.bot
        me = bot.user.id if bot.user is not None else None
        try:
            # Discord lists a webhook's token only to the application that made it; the bot
            # user is its maker (discord.py's Webhook has no ``application_id``).
            for hook in await parent.webhooks():
                if hook.token and hook.user is not None and hook.user.id == me:
                    return hook
            if not make:
                return None
            name = webhook_name(bot.user.name if bot.user is not None else "")
            return await parent.create_webhook(name=name[:80], reason="Mexican Train turn posts")
        except discord.HTTPException as exc:
            if exc.code == NEEDS_OWNER_2FA:
                self._owner_needs_2fa(parent.guild)
                return None
            log.info(
                "channel %s: no webhook (%s %s); posting as the bot",
                parent.id,
                exc.status,
                exc.code,
            )
            return None

    def _owner_needs_2fa(self, guild: discord.Guild) -> None:
        """Remember the server (no other channel of it asks again) and say it once, where the
        admin who runs the bot looks, with the fix."""
        if guild.id in self.owner_2fa_needed:
            return
        self.owner_2fa_needed.add(guild.id)
        log.warning(
            "server %s (%r) requires 2FA for moderation and the bot's owner has none: "
            "Discord refuses its webhook (60003), so turn posts there go as the bot; turn on "
            "2FA on the owner's Discord account and restart (docs/admin.md)",
            guild.id,
            guild.name,
        )

    def forget(self, channel_id: int) -> None:
        """The channel is gone (or its webhook was deleted): find or make one afresh.
        ``channel_id`` may be a thread's: its parent's webhook is the one forgotten."""
        place = self.bot.get_channel(channel_id)
        if isinstance(place, discord.Thread):
            channel_id = place.parent_id
        self._hooks.pop(channel_id, None)

    def gone(self, channel_id: int, hook_id: int | None) -> None:
        """An edit through webhook ``hook_id`` answered 10015: that webhook is forgotten
        (found or made afresh by the next post) if it is the one this process uses there; a
        newer one, or the memory that none can be had, stays."""
        place = self.bot.get_channel(channel_id)
        parent = place.parent_id if isinstance(place, discord.Thread) else channel_id
        known = self._hooks.get(parent)
        if known is not None and known.id == hook_id:
            self._hooks.pop(parent, None)

    def __contains__(self, channel_id: object) -> bool:
        """Whether the webhook of this parent channel is known (or known to be missing)."""
        return channel_id in self._hooks

    async def editor_for(self, channel_id: int, message_id: int) -> Editor | None:
        """The way to edit a post the bot's webhook made in ``channel_id``, found again when
        the post book has none (after a restart: editors live in memory only): the webhook
        cached, else listed once. Never made: a new webhook cannot edit the old one's posts.
        None when the bot cannot use a webhook there or has none."""
        where = self.where(channel_id)
        if where is None:
            return None
        parent, thread = where
        hook = await self._hook(parent, make=False)
        return None if hook is None else self.editor(hook, message_id, thread)

    async def send(
        self, channel_id: int, payload: dict[str, Any]
    ) -> tuple[discord.WebhookMessage, Editor] | None:
        """Post ``payload`` (``Messageable.send``'s keywords, fitted) in ``channel_id`` through
        the bot's webhook, with the way to edit the post through it; None when there is no
        webhook to use (the caller posts as the bot). A webhook deleted meanwhile (10015) is
        looked for or made once more, then given up for this process. Raises what Discord
        answers otherwise (a 5xx, a thread locked), like a post of the bot."""
        where = self.where(channel_id)
        if where is None:
            return None
        parent, thread = where
        fields = {k: v for k, v in payload.items() if k not in ("nonce", "reference")}
        me = self.bot.user
        if me is not None:
            fields.setdefault("avatar_url", me.display_avatar.url)
        for attempt in (1, 2):
            hook = await self._hook(parent)
            if hook is None:
                return None
            try:
                sent = await hook.send(wait=True, thread=thread, **fields)
            except discord.NotFound as exc:
                if exc.code != UNKNOWN_WEBHOOK:
                    raise
                log.info("channel %s: the webhook is gone (10015)", parent.id)
                self.forget(parent.id)
                for file in fields.get("files") or ():
                    file.reset(seek=True)
                if attempt == 2:
                    self._hooks[parent.id] = None
                continue
            self.sent += 1
            return sent, self.editor(hook, sent.id, thread)
        return None

    @staticmethod
    def editor(hook: discord.Webhook, message_id: int, thread: Any) -> Editor:
        """Edits of a webhook's post go through the webhook (the bot token cannot edit
        another author's message), off the bot's global limit like the post (``free=False``:
        its bucket is the channel's): where an edit must be made, and to take the previous
        post's controls off (issue 47); growing a post by a draw stays with the tokens."""
        edit = functools.partial(hook.edit_message, message_id, thread=thread)
        return Editor(message_id, NEVER, edit, free=False, hook_id=hook.id)


def webhook_name(bot_name: str) -> str:
    """The bot's name as a webhook may carry it: Discord refuses a webhook name containing
    "clyde" or "discord" (any case) and allows 1-80 characters."""
    name = re.sub("(?i)clyde|discord", "", bot_name).strip()[:80]
    return name or "Mexican Train"


def is_own_post(bot: discord.Client, message: discord.Message) -> bool:
    """Whether ``message`` is the bot's: written by the bot user (its posts, its interaction
    answers) or by a webhook the application owns (a turn post sent through its webhook)."""
    me = bot.user.id if bot.user is not None else None
    if message.author.id == me:
        return True
    return message.webhook_id is not None and message.application_id == bot.application_id
