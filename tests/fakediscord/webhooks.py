"""Channel webhooks in the fake Discord: made and listed by the bot, executed with their own
token, edited and deleted through it, and gone (10015) once deleted or once their channel is.

Discord's rules, as its Webhook resource and Rate Limits pages state them
(https://docs.discord.com/developers/resources/webhook,
https://docs.discord.com/developers/topics/rate-limits):

- Create Webhook (``POST /channels/{id}/webhooks``) and Get Channel Webhooks (``GET``) need
  Manage Webhooks; they are requests with the bot token, so they count against its global
  limit like any other. A webhook lives on a text channel, not on a thread (a post goes into
  a thread with ``thread_id``). A name may not contain "clyde" or "discord" and is 1-80
  characters; a channel holds at most 15 webhooks (error 30007).
- A webhook the application created carries its ``application_id``; the list shows the token
  of such a webhook to that application only (what Discord does; the page only says the token
  is "returned for Incoming Webhooks").
- Execute Webhook (``POST /webhooks/{id}/{token}``) is authorised by the token in its path,
  not by the bot's: discord.py sends no Authorization header, and "if no authorization header
  is provided, then the limit is applied to the IP address". So it is outside the bot's
  global budget, inside the IP's, and in a bucket per webhook (``ratelimit.py``). ``wait=true``
  returns the message, else 204. ``thread_id`` posts in a thread of the webhook's channel and
  unarchives it (a locked one refuses). "Application-owned webhooks can always send
  components"; another webhook's components are dropped unless ``with_components`` is set,
  and even then it may not send interactive ones. ``flags``: "only SUPPRESS_EMBEDS,
  SUPPRESS_NOTIFICATIONS and IS_COMPONENTS_V2 can be set" (kept; a V2 post holds only
  components, and an edit may set V2 for good: ``flags.py``); ``username`` is a webhook name,
  1-80 characters (``limits.py``).
- The message has ``webhook_id``, ``application_id`` (for an application's webhook) and the
  webhook as its author; the bot token cannot edit it (50005: another author's message), the
  webhook's token can (Edit/Delete/Get Webhook Message), as long as the message is the
  webhook's.
- A deleted webhook, or one whose channel was deleted, answers 404/10015 "Unknown Webhook";
  a wrong token 401/50027 "Invalid Webhook Token".
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import discord
from aiohttp import web

from . import flags
from .models import JSON, VIEW_CHANNEL, FakeChannel, FakeMessage, FakeUser, _walk_components
from .refusals import TWO_FACTOR_REQUIRED
from .server import ApiError, Call, json_response

if TYPE_CHECKING:
    from .server import FakeDiscord

MANAGE_WEBHOOKS = discord.Permissions(manage_webhooks=True).value
#: Discord's cap on webhooks in one channel.
MAX_PER_CHANNEL = 15
INCOMING, APPLICATION_OWNED = 1, 3
#: Component types a person can use (buttons, selects): interactive.
INTERACTIVE = {2, 3, 5, 6, 7, 8}


@dataclass(eq=False)
class FakeWebhook:
    """A channel webhook: who made it (``application_id`` when an application did)."""

    id: int
    token: str
    channel: FakeChannel
    name: str
    creator: FakeUser
    application_id: int | None
    #: The author its messages show: the webhook's own name and id.
    author: FakeUser = field(repr=False)
    deleted: bool = False
    executions: int = 0

    def to_payload(self, *, with_token: bool) -> JSON:
        payload: JSON = {
            "id": str(self.id),
            "type": INCOMING,
            "guild_id": str(self.channel.guild_id),
            "channel_id": str(self.channel.id),
            "user": self.creator.to_payload(),
            "name": self.name,
            "avatar": None,
            "application_id": str(self.application_id) if self.application_id else None,
        }
        if with_token:
            payload["token"] = self.token
        return payload


class Webhooks:
    """The fake's channel webhooks: state, routes and the test-facing helpers."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.hooks: dict[int, FakeWebhook] = {}
        #: Servers that require 2FA for moderation while the bot's owner has none
        #: (:meth:`require_2fa`).
        self.owner_lacks_2fa: set[int] = set()

    def add_routes(self) -> None:
        add = self.fake.routes.add
        add("POST", "/channels/{channel_id}/webhooks", self._create)
        add("GET", "/channels/{channel_id}/webhooks", self._list)
        add("DELETE", "/webhooks/{webhook_id}", self._delete_route)

    # ------------------------------------------------------------------ test-facing

    def make(self, channel: FakeChannel, name: str, *, by: FakeUser | None = None) -> FakeWebhook:
        """Someone (``by``, a person: not application-owned; else the bot) makes a webhook."""
        fake = self.fake
        creator = by or fake.bot_user
        hook_id = fake.ids.next()
        hook = FakeWebhook(
            hook_id,
            secrets.token_urlsafe(48),
            channel,
            name,
            creator,
            fake.application_id if creator is fake.bot_user else None,
            FakeUser(fake, hook_id, name, bot=True),
        )
        self.hooks[hook_id] = hook
        fake.gateway.broadcast(
            "WEBHOOKS_UPDATE",
            {"guild_id": str(channel.guild_id), "channel_id": str(channel.id)},
        )
        return hook

    def require_2fa(self, guild_id: int) -> None:
        """The server requires 2FA for moderation actions and the bot's owner has none:
        creating a webhook there answers 403/60003 "Two factor is required for this
        operation" even with Manage Webhooks (Manage Webhooks is one of the permissions that
        "require the owner account to use two-factor authentication when used on a guild
        that has server-wide 2FA enabled",
        https://docs.discord.com/developers/topics/permissions#permissions-bitwise-permission-flags)."""
        self.owner_lacks_2fa.add(guild_id)

    def delete(self, hook: FakeWebhook) -> None:
        """An admin deletes the webhook (Server Settings → Integrations): 10015 since."""
        hook.deleted = True
        self.hooks.pop(hook.id, None)
        self.fake.gateway.broadcast(
            "WEBHOOKS_UPDATE",
            {"guild_id": str(hook.channel.guild_id), "channel_id": str(hook.channel.id)},
        )
        self.fake.notify_all()

    def of(self, channel: FakeChannel) -> list[FakeWebhook]:
        return [h for h in self.hooks.values() if h.channel is channel and not h.deleted]

    def channel_of(self, params: dict[str, str]) -> FakeChannel | None:
        """The channel a webhook route's call touched (for the fake's waiters)."""
        raw = params.get("webhook_id", "")
        hook = self.hooks.get(int(raw)) if raw.isdigit() else None
        return hook.channel if hook is not None else None

    def is_channel_hook(self, params: dict[str, str]) -> bool:
        """Whether a ``/webhooks/{id}/{token}`` call is for a channel webhook (not an
        interaction's token, whose "webhook" id is the application's)."""
        return params.get("webhook_id") != str(self.fake.application_id)

    # ------------------------------------------------------------------ bot-token routes

    def _managed_channel(self, call: Call) -> FakeChannel:
        fake = self.fake
        channel = fake._get_channel_or_404(call.params["channel_id"])
        if channel.is_dm or channel.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        perms = fake.permissions_for(fake.bot_user, channel)
        if not perms & VIEW_CHANNEL:
            raise ApiError(403, 50001, "Missing Access")
        if not perms & MANAGE_WEBHOOKS:
            raise ApiError(403, 50013, "Missing Permissions")
        return channel

    async def _create(self, call: Call) -> web.Response:
        channel = self._managed_channel(call)
        name = str((call.body or {}).get("name") or "")
        lowered = name.lower()
        if not 1 <= len(name) <= 80 or "clyde" in lowered or "discord" in lowered:
            raise ApiError(400, 50035, "Invalid Form Body: name")
        if channel.guild_id in self.owner_lacks_2fa:
            raise TWO_FACTOR_REQUIRED
        if len(self.of(channel)) >= MAX_PER_CHANNEL:
            raise ApiError(400, 30007, "Maximum number of webhooks reached (15)")
        hook = self.make(channel, name)
        return json_response(hook.to_payload(with_token=True))

    async def _list(self, call: Call) -> web.Response:
        channel = self._managed_channel(call)
        app = self.fake.application_id
        return json_response(
            [h.to_payload(with_token=h.application_id == app) for h in self.of(channel)]
        )

    async def _delete_route(self, call: Call) -> web.Response:
        hook = self._hook(call.params["webhook_id"])
        perms = self.fake.permissions_for(self.fake.bot_user, hook.channel)
        if not perms & MANAGE_WEBHOOKS:
            raise ApiError(403, 50013, "Missing Permissions")
        self.delete(hook)
        return web.Response(status=204)

    # ------------------------------------------------------------------ token routes

    def _hook(self, raw_id: str, token: str | None = None) -> FakeWebhook:
        hook = self.hooks.get(int(raw_id)) if raw_id.isdigit() else None
        if hook is None or hook.deleted or hook.channel.id in self.fake.deleted_channels:
            raise ApiError(404, 10015, "Unknown Webhook")
        if token is not None and not secrets.compare_digest(token, hook.token):
            raise ApiError(401, 50027, "Invalid Webhook Token")
        return hook

    def _target(self, hook: FakeWebhook, call: Call) -> FakeChannel:
        """The channel or thread a token route acts in (``thread_id``: a thread of the
        webhook's channel)."""
        raw = call.query.get("thread_id")
        if raw is None:
            return hook.channel
        thread = self.fake.channels.get(int(raw)) if raw.isdigit() else None
        if thread is None or getattr(thread, "parent", None) is not hook.channel:
            raise ApiError(404, 10003, "Unknown Channel")
        return thread

    async def execute(self, call: Call) -> web.Response:
        fake = self.fake
        hook = self._hook(call.params["webhook_id"], call.params["webhook_token"])
        target = self._target(hook, call)
        if target.is_thread:
            archived_before = getattr(target, "archived", False)
            if archived_before and getattr(target, "locked", False):
                raise ApiError(400, 50083, "Thread is archived")
            if archived_before:  # "The thread will automatically be unarchived."
                fake.threads.unarchive_for_post(target)
        body = respected(hook, call)
        message = FakeMessage(
            id=fake.ids.next(),
            channel_id=target.id,
            guild_id=target.guild_id,
            author=hook.author,
            flags=flags.settable(body, flags.EXECUTE_WEBHOOK),  # V2 included
            webhook_id=hook.id,
            application_id=hook.application_id,
        )
        fake._apply(message, body, call.files, creating=True)
        fake.messages[message.id] = message
        hook.executions += 1
        fake._publish("MESSAGE_CREATE", message)
        if not call.flag("wait"):
            return web.Response(status=204)
        return json_response(message.to_payload())

    def _message(self, hook: FakeWebhook, call: Call) -> FakeMessage:
        raw = call.params["message_id"]
        message = self.fake.messages.get(int(raw)) if raw.isdigit() else None
        target = self._target(hook, call)
        if (
            message is None
            or message.deleted
            or message.webhook_id != hook.id
            or message.channel_id != target.id
        ):
            raise ApiError(404, 10008, "Unknown Message")
        return message

    async def get_message(self, call: Call) -> web.Response:
        hook = self._hook(call.params["webhook_id"], call.params["webhook_token"])
        return json_response(self._message(hook, call).to_payload())

    async def edit_message(self, call: Call) -> web.Response:
        fake = self.fake
        hook = self._hook(call.params["webhook_id"], call.params["webhook_token"])
        message = self._message(hook, call)
        channel = fake.channels.get(message.channel_id)
        if channel is not None and channel.is_thread:
            fake.threads.check_edit(channel)
        if message.id in fake.edit_refusals:
            raise fake.edit_refusals[message.id]
        fake._check_old_edit(message)
        body = respected(hook, call)
        fake._edit_flags(message, body)
        fake._apply(message, body, call.files, creating=False)
        fake._mark_edited(message)
        return json_response(message.to_payload())

    async def delete_message(self, call: Call) -> web.Response:
        hook = self._hook(call.params["webhook_id"], call.params["webhook_token"])
        message = self._message(hook, call)
        message.deleted = True
        self.fake._publish("MESSAGE_DELETE", message)
        return web.Response(status=204)


def respected(hook: FakeWebhook, call: Call) -> JSON:
    """The body of an execution or an edit as Discord takes it: Execute Webhook's and Edit
    Webhook Message's query string, ``with_components``: "whether to respect the
    ``components`` field of the request. When enabled, allows application-owned webhooks to
    use all components and non-owned webhooks to use non-interactive components (defaults
    to false)". Read strictly: without it the field is ignored, whoever owns the webhook
    (the footnote's "application-owned webhooks can always send components" says what they
    may send, not that the flag is not needed), so an edit with ``components: []`` and no
    ``with_components`` takes no controls off (discord.py sets it only for a truthy view). A
    V2 message whose components are ignored holds nothing: refused. A webhook the
    application does not own may not send interactive components at all."""
    body = dict(call.body or {})
    components = body.get("components") or []
    if not call.flag("with_components"):
        body.pop("components", None)
        if int(body.get("flags") or 0) & flags.COMPONENTS_V2 and components:
            raise ApiError(400, 50035, "Invalid Form Body: components (with_components not set)")
    elif hook.application_id is None and any(
        c.get("type") in INTERACTIVE for c in _walk_components(components)
    ):
        raise ApiError(400, 50035, "Invalid Form Body: components (interactive, not app-owned)")
    return body
