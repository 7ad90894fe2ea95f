"""A fake Discord on 127.0.0.1: REST routes and a gateway websocket for discord.py.

``FakeDiscord`` holds one guild, its users, channels and messages, and serves the unmodified
discord.py client: start-up, IDENTIFY/RESUME on the gateway, command sync, interaction
callbacks, followups, channel messages and DMs. It records every request, refuses what
Discord would refuse (late or double answers, missing permissions, closed DMs, injected
429s) with Discord's own status codes, and fails the test loudly when the bot calls a
route it does not know (``strict``). Tests act on it through ``FakeUser`` (models.py) and
the helpers in ``interactions.py``; ``harness.py`` points discord.py at it.
"""

from __future__ import annotations

import asyncio
import datetime
import json
import logging
import re
import secrets
import socket
import time
import traceback
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar

import discord
import yarl
from aiohttp import BodyPartReader, web
from discord.gateway import DiscordWebSocket
from discord.http import Route

from . import flags
from .clock import Clock, DiscordClock, snowflake_time
from .gateway import Gateway, GatewaySession, guild_payload, guild_roles
from .limits import FormError
from .limits import check as check_limits
from .models import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    DEFAULT_EVERYONE,
    EPHEMERAL,
    IMPLIED_BY_SEND,
    JSON,
    LOADING,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    FakeAttachment,
    FakeChannel,
    FakeFile,
    FakeGuild,
    FakeMessage,
    FakeRole,
    FakeUser,
    Snowflakes,
)
from .pings import Ping, notified
from .ratelimit import GLOBAL_PER_SECOND, RateLimiter, Storm, Violation

if TYPE_CHECKING:
    from .refusals import Refusal

log = logging.getLogger(__name__)

T = TypeVar("T")

API_PREFIX = "/api/v10"
POLL_INTERVAL = 0.01
ATTACH_FILES = discord.Permissions(attach_files=True).value
EMBED_LINKS = discord.Permissions(embed_links=True).value
READ_MESSAGE_HISTORY = discord.Permissions(read_message_history=True).value
#: Get Channel Messages' most messages in one answer.
MESSAGES_PER_PAGE = 100
# What a DM allows a bot: no roles, no overwrites.
DM_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    add_reactions=True,
    use_external_emojis=True,
).value
# Which answers each interaction type accepts (Discord's table, minus activities).
ALLOWED_CALLBACKS = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}


class ApiError(Exception):
    """A refusal in Discord's shape: HTTP status plus a JSON error code (and, for an invalid
    form body, Discord's ``errors`` tree naming each refused field)."""

    def __init__(self, status: int, code: int, message: str, errors: JSON | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status, self.code, self.message = status, code, message
        self.errors = errors


#: How long Discord keeps a nonce for ``enforce_nonce`` ("the past few minutes").
NONCE_WINDOW = 5 * 60.0


def json_response(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    # discord.py only decodes JSON when Content-Type is exactly "application/json";
    # aiohttp's json_response would add "; charset=utf-8".
    all_headers = {"Content-Type": "application/json", **(headers or {})}
    return web.Response(body=json.dumps(data).encode(), status=status, headers=all_headers)


def error_response(error: ApiError) -> web.Response:
    body: JSON = {"message": error.message, "code": error.code}
    if error.errors is not None:
        body["errors"] = error.errors
    return json_response(body, status=error.status)


@dataclass(eq=False)
class RecordedRequest:
    """One REST call the bot made, as the fake saw it (files kept as bytes)."""

    method: str
    path: str
    route: str | None
    query: dict[str, str]
    body: Any
    files: list[FakeFile]
    at: float
    status: int = 0
    error_code: int | None = None


@dataclass(eq=False)
class Rejection:
    """An answer to an interaction that the fake refused, and why."""

    route: str
    status: int
    code: int
    message: str


@dataclass(eq=False)
class InteractionRecord:
    """Server-side life of one interaction: the first answer, the messages, refusals."""

    id: int
    token: str
    type: int
    user: FakeUser
    channel: FakeChannel
    payload: JSON
    name: str
    created: float
    #: When Discord made it, on the fake's clock: its token lives 15 minutes from here.
    issued: datetime.datetime = field(default_factory=lambda: datetime.datetime.now(datetime.UTC))
    source: FakeMessage | None = None
    callback_type: int | None = None
    callback_data: JSON | None = None
    callback_files: list[FakeFile] = field(default_factory=list)
    original: FakeMessage | None = None
    followups: list[FakeMessage] = field(default_factory=list)
    choices: list[JSON] | None = None
    modal: JSON | None = None
    rejections: list[Rejection] = field(default_factory=list)
    #: Edits the clicked message had when a silent acknowledgement (type 6) answered: the
    #: answer the user reads is then a later edit of it, or a followup.
    source_edits_at_answer: int = 0
    #: When the callback was taken (``time.monotonic``, like ``created``): a benchmark splits
    #: the first answer into its legs with it (``benchmarks/bot_load.py``).
    acknowledged_at: float | None = None


@dataclass(eq=False)
class RateLimitRule:
    method: str
    route: str
    remaining: int
    retry_after: float
    is_global: bool
    hits: int = 0


Handler = Callable[["Call"], Awaitable[web.Response]]

#: What a wait can be about: a channel's messages, a user's DMs, one interaction's answers.
#: ``None`` is the catch-all: waiters on it are woken by every change and also poll.
WaitKey: TypeAlias = tuple[str, int] | None


def wait_key(thing: object) -> WaitKey:
    """The key a waiter on ``thing`` listens to: a ``FakeChannel`` (its messages), a
    ``FakeUser`` (their DMs), an interaction record or an ``Invocation`` (its answers)."""
    if isinstance(thing, FakeChannel):
        return ("channel", thing.id)
    if isinstance(thing, FakeUser):
        return ("dm", thing.id)
    record = getattr(thing, "record", thing)  # an Invocation holds its record
    if isinstance(record, InteractionRecord):
        return ("interaction", record.id)
    raise TypeError(f"cannot wait on {thing!r}: give a channel, a user or an interaction")


class MessageLog(dict[int, FakeMessage]):
    """Every message by id, in posting order, plus an index by channel.

    Reading one channel's messages used to scan every message the fake holds, which at a
    few hundred games made the harness, not the bot, the bottleneck. Deleting an entry (as
    the soak benchmark does to bound memory) removes it from the index too.
    """

    def __init__(self) -> None:
        super().__init__()
        self._by_channel: dict[int, dict[int, FakeMessage]] = {}

    def __setitem__(self, key: int, message: FakeMessage) -> None:
        super().__setitem__(key, message)
        self._by_channel.setdefault(message.channel_id, {})[key] = message

    def __delitem__(self, key: int) -> None:
        message = self[key]
        super().__delitem__(key)
        self._by_channel.get(message.channel_id, {}).pop(key, None)

    def pop(self, key: int, *default: Any) -> Any:
        if key in self:
            message = self[key]
            del self[key]
            return message
        return super().pop(key, *default)

    def clear(self) -> None:
        super().clear()
        self._by_channel.clear()

    def in_channel(self, channel_id: int) -> list[FakeMessage]:
        """The channel's messages (deleted ones included), oldest first."""
        return list(self._by_channel.get(channel_id, {}).values())


@dataclass(eq=False)
class Call:
    request: web.Request
    params: dict[str, str]
    body: Any
    files: list[FakeFile]
    record: RecordedRequest

    @property
    def query(self) -> dict[str, str]:
        return self.record.query

    def flag(self, name: str) -> bool:
        return self.query.get(name, "").lower() in ("1", "true")


class _RouteTable:
    def __init__(self) -> None:
        self.entries: list[tuple[str, str, re.Pattern[str], Handler]] = []

    def add(self, method: str, template: str, handler: Handler) -> None:
        pattern = re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", template)
        self.entries.append((method, template, re.compile(f"^{pattern}$"), handler))

    def match(self, method: str, path: str) -> tuple[str, dict[str, str], Handler] | None:
        for entry_method, template, pattern, handler in self.entries:
            if entry_method == method and (found := pattern.match(path)):
                return template, found.groupdict(), handler
        return None

    def templates(self) -> set[str]:
        return {f"{method} {template}" for method, template, _, _ in self.entries}


#: Discord's separate limit on edits of old messages (30046): older than this (seconds)...
OLD_MESSAGE_AGE = 3600
HOUR = datetime.timedelta(hours=1)
#: ...this many edits per channel in any hour. Discord does not publish the number; 5 is ours,
#: a plausible one (stated so in the README), low enough that a bot leaning on such edits hits it.
OLD_EDITS_PER_HOUR = 5


class FakeDiscord:
    """The fake server and everything it knows. Use ``async with FakeDiscord() as fake``.

    ``interaction_deadline`` is Discord's 3 s to give a first answer; tests lower it to
    exercise lateness without sleeping 3 s. ``strict`` turns unknown routes and fake-side
    crashes into a failing test (``check()``), because a silent 404 hides real bugs.
    """

    def __init__(
        self,
        *,
        interaction_deadline: float = 3.0,
        token_lifetime: float = 15 * 60,
        strict: bool = True,
        attachment_size_limit: int = 10 * 1024 * 1024,
        guild_name: str = "Mexican Train Club",
        shards: int = 1,
        rate_limits: bool = False,
        time_scale: float = 1.0,
        global_per_second: int = GLOBAL_PER_SECOND,
        clock: Clock | None = None,
    ) -> None:
        self.interaction_deadline = interaction_deadline
        #: Discord's time (clock.py): tokens expire, messages age and threads idle on it.
        #: ``time_scale`` runs it faster; ``advance()`` skips a gap between moves. Hand the
        #: same clock to the bot (``clock=fake.clock``) so both agree on what is alive.
        self.clock: Clock = clock or DiscordClock(time_scale)
        self.started = self.clock()
        #: Discord's global and per-route limits (enforced with ``rate_limits=True``; always
        #: counted): see ratelimit.py, ``budget_report()``, ``storm()``.
        self.limits = RateLimiter(
            enabled=rate_limits, time_scale=time_scale, global_per_second=global_per_second
        )
        #: The shard count ``GET /gateway/bot`` recommends (AutoShardedBot follows it); the
        #: guild goes to its shard only, and interactions to that shard's session.
        self.shards = shards
        self.token_lifetime = token_lifetime
        self.strict = strict
        self.attachment_size_limit = attachment_size_limit
        self.ids = Snowflakes(self.clock)
        #: Messages sent with ``enforce_nonce``, by nonce, with when (see _post_message);
        #: ``nonce_repeats`` counts the sends answered with the message already sent.
        self._nonces: dict[str, tuple[FakeMessage, datetime.datetime]] = {}
        self.nonce_repeats = 0
        from .refusals import Refusals  # refusals.py builds on this module

        #: Errors a test orders for the next requests to a route (``refuse``, ``fail_next``).
        self.refusals = Refusals()

        # Applications made since 2020 share their id with their bot user.
        self.application_id = self.ids.next()
        self.bot_user = FakeUser(self, self.application_id, "TrainBot", bot=True)
        self.owner = FakeUser(self, self.ids.next(), "owner")
        self.guild_id = self.ids.next()
        self.guild_name = guild_name
        self.everyone = FakeRole(self.guild_id, "@everyone", DEFAULT_EVERYONE)
        #: Every server the bot is in; the first (``guild_id``) holds the roles. More with
        #: :meth:`guild` (several shards: each server reaches only its shard).
        self.guilds: dict[int, FakeGuild] = {
            self.guild_id: FakeGuild(self.guild_id, guild_name, self.everyone)
        }
        bot_role = FakeRole(
            self.ids.next(), "TrainBot", DEFAULT_EVERYONE, position=1, managed=True,
            bot_id=self.bot_user.id,
        )  # fmt: skip
        self.roles: dict[int, FakeRole] = {r.id: r for r in (self.everyone, bot_role)}
        self.bot_user.role_ids = [bot_role.id]
        self.users: dict[int, FakeUser] = {u.id: u for u in (self.bot_user, self.owner)}
        self.channels: dict[int, FakeChannel] = {}
        self.messages = MessageLog()  # insertion order is posting order
        self.interactions: dict[int, InteractionRecord] = {}
        self._by_token: dict[str, InteractionRecord] = {}
        self.global_commands: dict[tuple[str, int], JSON] = {}
        self.guild_commands: dict[int, dict[tuple[str, int], JSON]] = {}
        self.loose_attachments: dict[int, FakeAttachment] = {}

        self.requests: list[RecordedRequest] = []
        #: Who each new message notified (pings.py): DMs, and mentions let through.
        self.pings: list[Ping] = []
        #: The same pings by user (a load run asks for one user's after every move).
        self._pings_by_user: dict[int, list[Ping]] = {}
        self.unknown_routes: list[str] = []
        self.server_errors: list[str] = []
        self.rate_limits: list[RateLimitRule] = []
        #: Message id -> the error Discord answers to an edit of it (see ``refuse_edits``).
        self.edit_refusals: dict[int, ApiError] = {}
        #: How many DM opens or DM posts still to refuse with 403/40003 ("You are opening
        #: direct messages too fast"), which Discord answers a bot starting many DMs at once.
        self.too_fast_dms = 0
        #: Channels and threads deleted (``delete_channel``, ``remove_guild``): 10003 since.
        self.deleted_channels: set[int] = set()
        #: Edits of messages older than an hour Discord takes per channel in any hour before
        #: it answers 30046 (README: the number is ours; Discord publishes none), and when
        #: each such edit was made, by channel (Discord time).
        self.old_edit_limit = OLD_EDITS_PER_HOUR
        self.old_edits: dict[int, list[datetime.datetime]] = {}
        #: Requests that lean on behaviour Discord keeps only for backwards compatibility
        #: (a followup answering a "thinking…" deferral): refused, and ``check()`` fails.
        self.refused_as_deprecated: list[str] = []
        self.gateway = Gateway(self)
        #: The bots ``running_bot`` has connected now (tests wait for them to finish work).
        self.bots: list[Any] = []

        self._waiters: dict[WaitKey, set[asyncio.Future[None]]] = {}
        #: How many times a waiter was woken (to show the harness's own cost in benchmarks).
        self.wakeups = 0
        self._runner: web.AppRunner | None = None
        self._saved_targets: tuple[str, yarl.URL] | None = None
        self.port = 0
        self.routes = _RouteTable()
        self._add_routes()
        from .threads import Threads  # threads.py builds on this module

        #: Public threads: their routes, and the checks made when posting in one.
        self.threads = Threads(self)
        self.threads.add_routes()
        from .webhooks import Webhooks

        #: Channel webhooks: their routes, tokens and messages (webhooks.py).
        self.webhooks = Webhooks(self)
        self.webhooks.add_routes()
        from .emojis import AppEmojis

        #: The application's own emojis (emojis.py): they outlive a bot's restart.
        self.emojis = AppEmojis(self)
        self.emojis.add_routes()
        self.limits.application_id = self.application_id
        self.channel("general")

    # ------------------------------------------------------------------ lifecycle

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_route("*", "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        # Bind port 0 ourselves so the OS picks a free port and we can read it back.
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        await web.SockSite(self._runner, sock).start()
        self._saved_targets = (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)
        Route.BASE = self.base_url + API_PREFIX
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)

    async def stop(self) -> None:
        if self._saved_targets is not None:
            Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = self._saved_targets
            self._saved_targets = None
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    def check(self) -> None:
        """Raise if the bot hit routes the fake does not know or the fake itself crashed."""
        problems = [f"unknown route {r}" for r in self.unknown_routes]
        problems += [f"fake Discord crashed: {e}" for e in self.server_errors]
        problems += [f"refused as Discord may: {r}" for r in self.refused_as_deprecated]
        if problems:
            raise AssertionError("fake Discord saw problems:\n" + "\n".join(problems))

    # ------------------------------------------------------------------ test-facing setup

    def user(self, name: str, *, locale: str = "en-US") -> FakeUser:
        """The guild member called ``name``, created on first use."""
        for existing in self.users.values():
            if existing.name == name:
                return existing
        created = FakeUser(self, self.ids.next(), name, locale=locale)
        self.users[created.id] = created
        return created

    def guild(self, name: str, *, shard: int | None = None) -> FakeGuild:
        """Another server the bot is in, created on first use; ``shard``: give it an id that
        Discord sends to that shard (``(id >> 22) % shards``). Every user is a member (with
        no role but @everyone; the roles of :meth:`role` belong to the first server)."""
        for existing in self.guilds.values():
            if existing.name == name:
                return existing
        guild_id = self.ids.next() if shard is None else self.ids.next_on(shard, self.shards)
        created = FakeGuild(guild_id, name, FakeRole(guild_id, "@everyone", DEFAULT_EVERYONE))
        self.guilds[guild_id] = created
        return created

    def channel(self, name: str, *, guild: FakeGuild | None = None) -> FakeChannel:
        """The text channel called ``name`` (in ``guild``, default the first server), created
        on first use."""
        guild_id = self.guild_id if guild is None else guild.id
        for existing in self.channels.values():
            if existing.name == name and existing.guild_id == guild_id and not existing.is_thread:
                return existing
        created = FakeChannel(self, self.ids.next(), name, guild_id, position=len(self.channels))
        self.channels[created.id] = created
        self.gateway.broadcast("CHANNEL_CREATE", created.to_payload())
        return created

    def advance(self, seconds: float) -> None:
        """Skip ``seconds`` of Discord time at once: the players are away (clock.py). Tokens
        older than 15 minutes then expire, messages age, idle threads archive."""
        step = getattr(self.clock, "advance", None) or getattr(self.clock, "tick", None)
        if step is None:
            raise TypeError("this fake's clock cannot be moved (give it a DiscordClock)")
        step(seconds)
        self.after_advance()

    def after_advance(self) -> None:
        """What Discord does on its own while time passes (threads.py archives idle
        threads); call it after moving a clock the test holds itself."""
        self.threads.archive_idle()

    def delete_channel(self, channel: FakeChannel) -> None:
        """Someone deletes a channel (its threads go with it) or a thread: CHANNEL_DELETE or
        THREAD_DELETE on the gateway, and every request to it afterwards answers 404/10003,
        followups of interactions made there included."""
        if channel.is_dm:
            raise ValueError("a DM channel is not deleted")
        threads = [c for c in self.channels.values() if getattr(c, "parent", None) is channel]
        for gone in (channel, *threads):
            self.channels.pop(gone.id, None)
            self.deleted_channels.add(gone.id)
        parent = getattr(channel, "parent", None)
        if parent is not None:
            data = {"id": str(channel.id), "guild_id": str(channel.guild_id), "type": 11}
            self.gateway.broadcast("THREAD_DELETE", data | {"parent_id": str(parent.id)})
        else:
            self.gateway.broadcast("CHANNEL_DELETE", channel.to_payload())
        self.notify_all()

    def remove_guild(self, guild: FakeGuild | int) -> None:
        """The bot leaves a server (kicked, or the server deleted): GUILD_DELETE without
        ``unavailable`` (which would mean an outage), then its channels answer 404/10003 and
        the server 404/10004."""
        guild_id = guild if isinstance(guild, int) else guild.id
        self.gateway.broadcast("GUILD_DELETE", {"id": str(guild_id), "guild_id": str(guild_id)})
        for channel in list(self.channels.values()):
            if channel.guild_id == guild_id:
                self.channels.pop(channel.id)
                self.deleted_channels.add(channel.id)
        self.guilds.pop(guild_id, None)
        self.notify_all()

    def close_dms(self, user: FakeUser) -> None:
        """The user turns off DMs from server members: the bot's DMs get 403/50007."""
        user.dms_open = False

    def open_dms(self, user: FakeUser) -> None:
        user.dms_open = True

    def leave_servers(self, user: FakeUser) -> None:
        """The user leaves every server the bot is in: the bot's DMs get 403/50278 ("no
        mutual guilds", https://docs.discord.com/developers/topics/opcodes-and-status-codes).
        Only the DMs model it: the member lists and their commands are left as they were."""
        user.shares_guild = False

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        if user.dm_channel is None:
            user.dm_channel = FakeChannel(self, self.ids.next(), user.name, None, recipient=user)
            self.channels[user.dm_channel.id] = user.dm_channel
        return user.dm_channel

    def channel_changed(self, channel: FakeChannel) -> None:
        if not channel.is_dm:
            self.gateway.broadcast("CHANNEL_UPDATE", channel.to_payload())

    def rate_limit(
        self, route: str, *, times: int = 1, retry_after: float = 0.05, is_global: bool = False
    ) -> RateLimitRule:
        """Answer the next ``times`` calls of ``route`` (e.g. ``"POST /channels/{channel_id}
        /messages"``) with 429 + ``Via`` + ``retry_after``, the way Discord's edge does."""
        if route not in self.routes.templates():
            raise ValueError(f"unknown route {route!r}; known: {sorted(self.routes.templates())}")
        method, template = route.split(" ", 1)
        rule = RateLimitRule(method, template, times, retry_after, is_global)
        self.rate_limits.append(rule)
        return rule

    def budget_report(self) -> dict[str, Any]:
        """Every request so far, counted as global-limited or exempt (in total and per route
        template), DM channel opens, the 429s sent by scope and the violations (requests sent
        into a bucket the fake had said was empty). Counted with or without ``rate_limits``."""
        return self.limits.report()

    @property
    def violations(self) -> list[Violation]:
        return self.limits.violations

    def storm(
        self,
        seconds: float,
        *,
        scope: str = "global",
        retry_after: float | None = None,
        routes: Iterable[str] | None = None,
    ) -> Storm:
        """A 429 storm: for ``seconds`` (Discord time, see ``time_scale``) every global-limited
        request (or each of ``routes``) gets a 429 of ``scope``; ``retry_after`` defaults to
        the time left in the storm. Interaction endpoints are spared, as they are exempt."""
        return self.limits.storm(seconds, scope=scope, retry_after=retry_after, routes=routes)

    def refuse_edits(
        self,
        message: FakeMessage,
        *,
        status: int = 400,
        code: int = 30046,
        text: str = "Maximum number of edits to messages older than 1 hour reached. "
        "Try again later.",
    ) -> None:
        """Answer every edit of ``message`` with this error (Discord's 30046 by default: the
        edit limit on messages older than an hour), leaving the message as it was."""
        self.edit_refusals[message.id] = ApiError(status, code, text)

    def fail_next(
        self, method: str, route: str, *, times: int = 1, status: int = 503, code: int = 0
    ) -> None:
        """Answer the next ``times`` requests to ``method route`` (a template, e.g.
        ``/channels/{channel_id}/messages``) with a server error, as Discord does in an
        incident; 503 is one discord.py does not retry itself."""
        self.refuse(method, route, ApiError(status, code, "Service Unavailable"), times=times)

    def refuse(
        self,
        method: str,
        route: str,
        error: ApiError,
        *,
        times: int | None = 1,
        when: Callable[[RecordedRequest], bool] | None = None,
    ) -> Refusal:
        """Answer the next ``times`` requests to ``method route`` that ``when`` accepts (None:
        every one; ``times=None``: until ``.lift()``) with ``error`` before the route runs:
        Discord's refusals that hang on state the fake does not model (refusals.py:
        ``NO_MUTUAL_GUILDS`` 50278, ``TWO_FACTOR_REQUIRED`` 60003, ``AUTOMOD_BLOCKED``
        200000)."""
        return self.refusals.add(method, route, error, times=times, when=when)

    @property
    def faults_served(self) -> int:
        """How many requests an ordered refusal answered."""
        return self.refusals.served

    @property
    def sessions(self) -> dict[str, GatewaySession]:
        return self.gateway.sessions

    @property
    def active_session(self) -> GatewaySession | None:
        """The newest bot's gateway session; interactions are pushed to it."""
        return self.gateway.active

    async def force_reconnect(self) -> None:
        """Send op 7 RECONNECT; discord.py reconnects and RESUMEs the session."""
        session = self.gateway.live_session()
        assert session.conn is not None
        session.conn.send({"op": 7, "d": None})

    def commands(self, guild: bool = False) -> dict[str, JSON]:
        """Synced slash commands by name: global, or the guild's with ``guild=True``."""
        source = self.guild_commands.get(self.guild_id, {}) if guild else self.global_commands
        return {name: cmd for (name, _kind), cmd in source.items()}

    def pings_for(self, user: FakeUser) -> list[Ping]:
        """The notifications ``user`` got, oldest first (see pings.py)."""
        return list(self._pings_by_user.get(user.id, ()))

    def requests_to(self, route: str) -> list[RecordedRequest]:
        method, template = route.split(" ", 1)
        return [r for r in self.requests if r.method == method and r.route == template]

    # ------------------------------------------------------------------ waiting

    def notify(self, *keys: WaitKey) -> None:
        """Wake the waiters on ``keys`` and the catch-all waiters (``on=None``)."""
        for key in {None, *keys}:
            self._wake(self._waiters.get(key, ()))

    def notify_all(self) -> None:
        """Wake every waiter, whatever it waits on (the fake crashed, an unknown route)."""
        for waiters in self._waiters.values():
            self._wake(waiters)

    def _wake(self, waiters: Iterable[asyncio.Future[None]]) -> None:
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)
                self.wakeups += 1

    async def wait_for(
        self,
        check: Callable[[], T | None],
        *,
        timeout: float,
        what: str,
        on: object | Iterable[object] = None,
    ) -> T:
        """Wait until ``check()`` returns something other than None/False; no sleeping.

        ``on`` names what the check reads: a channel, a user (their DMs), an interaction or
        ``Invocation``, or a list of them. The waiter is then woken only by changes to those
        (not by every change in the fake) and does not poll, so hundreds of concurrent waits
        stay cheap; the check must depend only on the fake's own state for them. Without
        ``on`` the waiter wakes on every change and polls every 10 ms, which covers checks on
        the bot's side (its cache, its error list) that the fake cannot see change.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        if on is None:
            keys: set[WaitKey] = {None}
        elif isinstance(on, list | tuple | set | frozenset):
            keys = {wait_key(thing) for thing in on}
        else:
            keys = {wait_key(on)}
        poll = POLL_INTERVAL if None in keys else None
        while True:
            value = check()
            if value is not None and value is not False:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"timed out after {timeout}s waiting for {what}")
            waiter: asyncio.Future[None] = loop.create_future()
            for key in keys:
                self._waiters.setdefault(key, set()).add(waiter)
            try:
                wait = remaining if poll is None else min(remaining, poll)
                await asyncio.wait({waiter}, timeout=wait)
            finally:
                for key in keys:
                    waiting = self._waiters.get(key)
                    if waiting is not None:
                        waiting.discard(waiter)
                        if not waiting:
                            del self._waiters[key]

    # ------------------------------------------------------------------ permissions

    def permissions_for(self, user: FakeUser, channel: FakeChannel) -> int:
        """Discord's permission algorithm: roles, then @everyone/role/member overwrites."""
        if channel.is_dm:
            return DM_PERMISSIONS
        if user.id == self.owner.id:
            return ALL_PERMISSIONS
        guild = self.guilds[channel.guild_id or self.guild_id]
        value = guild.everyone.permissions
        role_ids = user.role_ids if guild.id == self.guild_id else []
        for role_id in role_ids:
            value |= self.roles[role_id].permissions
        if value & ADMINISTRATOR:
            return ALL_PERMISSIONS
        overwrites = channel.overwrites
        if (everyone := overwrites.get(guild.id)) is not None:
            value = (value & ~everyone.deny) | everyone.allow
        allow = deny = 0
        for role_id in role_ids:
            if (o := overwrites.get(role_id)) is not None and o.kind == 0:
                allow, deny = allow | o.allow, deny | o.deny
        value = (value & ~deny) | allow
        if (member := overwrites.get(user.id)) is not None and member.kind == 1:
            value = (value & ~member.deny) | member.allow
        if not value & VIEW_CHANNEL:
            return 0
        # In a thread, Send Messages in Threads plays the part of Send Messages.
        if not value & (SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES):
            value &= ~IMPLIED_BY_SEND
        return value

    # ------------------------------------------------------------------ interactions out

    def start_interaction(
        self,
        kind: int,
        user: FakeUser,
        channel: FakeChannel,
        data: JSON,
        *,
        name: str,
        source: FakeMessage | None = None,
        message_payload: JSON | None = None,
    ) -> InteractionRecord:
        """Build an INTERACTION_CREATE the way Discord does and push it to the bot.

        ``message_payload`` replaces the source message's own payload (forged clicks only)."""
        self.threads.check_usable(channel)
        # The interaction goes to the shard carrying the channel's server (DMs: shard 0).
        session = self.gateway.live_session(channel.guild_id)
        interaction_id = self.ids.next()  # carries "now": discord.py derives expiry from it
        token = secrets.token_urlsafe(32)
        payload: JSON = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "token": token,
            "version": 1,
            "channel_id": str(channel.id),
            "locale": user.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": self.attachment_size_limit,
            "app_permissions": str(self.permissions_for(self.bot_user, channel)),
        }
        channel_payload = channel.to_payload()
        if channel.is_dm:
            payload["user"] = user.to_payload()
            payload["context"] = 1
            payload["authorizing_integration_owners"] = {"0": str(self.guild_id)}
        else:
            perms = self.permissions_for(user, channel)
            channel_payload["permissions"] = str(perms)
            guild_id = channel.guild_id
            payload["guild_id"] = str(guild_id)
            payload["guild"] = {"id": str(guild_id), "locale": "en-US", "features": []}
            payload["guild_locale"] = "en-US"
            member = user.member_payload(permissions=perms)
            if guild_id != self.guild_id:
                member["roles"] = []
            payload["member"] = member
            payload["context"] = 0
            payload["authorizing_integration_owners"] = {"0": str(guild_id)}
        payload["channel"] = channel_payload
        if source is not None:
            payload["message"] = message_payload or source.to_payload()
        record = InteractionRecord(
            id=interaction_id,
            token=token,
            type=kind,
            user=user,
            channel=channel,
            payload=payload,
            name=name,
            created=time.monotonic(),
            issued=self.clock(),
            source=source,
        )
        self.interactions[interaction_id] = record
        self._by_token[token] = record
        session.dispatch("INTERACTION_CREATE", payload)
        return record

    # ------------------------------------------------------------------ REST plumbing

    def _add_routes(self) -> None:
        r = self.routes.add
        r("GET", "/users/@me", self._get_me)
        r("GET", "/users/{user_id}", self._get_user)
        r("POST", "/users/@me/channels", self._open_dm)
        r("GET", "/oauth2/applications/@me", self._get_application)
        r("GET", "/applications/@me", self._get_application)
        r("GET", "/gateway", self._get_gateway)
        r("GET", "/gateway/bot", self._get_gateway)
        for prefix in ("/applications/{app_id}", "/applications/{app_id}/guilds/{guild_id}"):
            r("GET", prefix + "/commands", self._get_commands)
            r("PUT", prefix + "/commands", self._put_commands)
            r("POST", prefix + "/commands", self._post_command)
            r("GET", prefix + "/commands/{command_id}", self._get_command)
            r("DELETE", prefix + "/commands/{command_id}", self._delete_command)
        r("POST", "/interactions/{interaction_id}/{interaction_token}/callback", self._callback)
        webhook = "/webhooks/{webhook_id}/{webhook_token}"
        r("POST", webhook, self._followup)
        r("GET", webhook + "/messages/{message_id}", self._webhook_get)
        r("PATCH", webhook + "/messages/{message_id}", self._webhook_edit)
        r("DELETE", webhook + "/messages/{message_id}", self._webhook_delete)
        r("GET", "/channels/{channel_id}", self._get_channel)
        r("GET", "/channels/{channel_id}/messages", self._list_messages)
        r("POST", "/channels/{channel_id}/messages", self._post_message)
        r("GET", "/channels/{channel_id}/messages/{message_id}", self._get_message)
        r("PATCH", "/channels/{channel_id}/messages/{message_id}", self._edit_message)
        r("DELETE", "/channels/{channel_id}/messages/{message_id}", self._delete_message)
        r("POST", "/channels/{channel_id}/typing", self._no_content)
        reaction = "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me"
        r("PUT", reaction, self._no_content)
        r("DELETE", reaction, self._no_content)
        r("GET", "/guilds/{guild_id}", self._get_guild)
        r("GET", "/guilds/{guild_id}/channels", self._get_guild_channels)
        r("GET", "/guilds/{guild_id}/roles", self._get_roles)
        r("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member)

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = request.path
        if request.method == "GET" and path.startswith("/attachments/"):
            return self._serve_attachment(path)
        matched = None
        if path.startswith(API_PREFIX):
            matched = self.routes.match(request.method, path[len(API_PREFIX) :])
        if matched is None:
            # Read the body anyway so the client is not left writing into a closed socket.
            await request.read()
            self.unknown_routes.append(f"{request.method} {path}")
            log.error("fake Discord: unknown route %s %s", request.method, path)
            self.notify_all()
            return json_response({"message": "404: Not Found", "code": 0}, status=404)
        template, params, handler = matched
        body, files = await _read_body(request)
        record = RecordedRequest(
            request.method,
            path[len(API_PREFIX) :],
            template,
            dict(request.query),
            body,
            files,
            time.monotonic(),
        )
        self.requests.append(record)
        admission = self.limits.admit(request, request.method, template, params)
        try:
            limited = admission.refusal or self._take_rate_limit(request.method, template)
            if limited is not None:
                response = limited
            elif (fault := self.refusals.take(record)) is not None:
                raise fault
            else:
                route = f"{request.method} {template}"
                checked = flags.as_edited(body, self._edited_message(route, params, body))
                _check_form(route, checked, files)  # Discord's limits
                self.emojis.check_components(checked)  # only the app's own custom emojis
                response = await handler(Call(request, params, body, files, record))
        except ApiError as error:
            record.error_code = error.code
            self._note_rejection(template, params, error)
            response = error_response(error)
        except Exception:
            # A crash in the fake is a bug in the test harness; say so loudly. A 400 (not
            # 500) keeps discord.py from retrying for 25 seconds first.
            self.server_errors.append(f"{request.method} {path}\n{traceback.format_exc()}")
            log.exception("fake Discord crashed on %s %s", request.method, path)
            response = json_response({"message": "fake Discord crashed", "code": 0}, status=400)
            self.notify_all()
        admission.decorate(response)
        record.status = response.status
        self.notify(*self._touched(params))
        return response

    def _edited_message(self, route: str, params: dict[str, str], body: Any) -> FakeMessage | None:
        """The message an edit route (or an UPDATE_MESSAGE answer) would change, if known: its
        flags decide how the body is checked (a V2 message's edit is a layout)."""
        raw = params.get("message_id", "")
        if route == "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}":
            if raw == "@original":
                record = self._find_by_token(params["webhook_token"])
                return record.original if record is not None else None
        elif route == "PATCH /channels/{channel_id}/messages/{message_id}":
            pass
        elif route.endswith("/callback") and isinstance(body, dict) and body.get("type") == 7:
            record = self.interactions.get(int(params["interaction_id"]))
            return record.source if record is not None else None
        else:
            return None
        return self.messages.get(int(raw)) if raw.isdigit() else None

    def _touched(self, params: dict[str, str]) -> list[WaitKey]:
        """What a call to a route with these parameters may have changed, as wait keys."""
        channels: list[FakeChannel] = []
        keys: list[WaitKey] = []
        record = None
        if params.get("interaction_id", "").isdigit():
            record = self.interactions.get(int(params["interaction_id"]))
        elif "webhook_token" in params:
            record = self._find_by_token(params["webhook_token"])
            hooked = self.webhooks.channel_of(params)
            if record is None and hooked is not None:
                channels.append(hooked)  # (a thread_id post wakes its thread's waiters too)
                for thread in self.channels.values():
                    if getattr(thread, "parent", None) is hooked:
                        channels.append(thread)
        if record is not None:
            keys.append(("interaction", record.id))
            channels.append(record.channel)
        if params.get("channel_id", "").isdigit():
            channel = self.channels.get(int(params["channel_id"]))
            if channel is not None:
                channels.append(channel)
        for channel in channels:
            keys.append(("channel", channel.id))
            if channel.recipient is not None:
                keys.append(("dm", channel.recipient.id))
        return keys

    def _note_rejection(self, template: str, params: dict[str, str], error: ApiError) -> None:
        record = None
        if "interaction_id" in params and params["interaction_id"].isdigit():
            record = self.interactions.get(int(params["interaction_id"]))
        elif "webhook_token" in params:
            record = self._find_by_token(params["webhook_token"])
        if record is not None:
            message = error.message
            if error.errors is not None:  # say which fields, for the test's failure message
                message += " (" + "; ".join(FormError(error.errors).fields()[:3]) + ")"
            record.rejections.append(Rejection(template, error.status, error.code, message))

    def _take_rate_limit(self, method: str, template: str) -> web.Response | None:
        for rule in self.rate_limits:
            if rule.method == method and rule.route == template and rule.remaining > 0:
                rule.remaining -= 1
                rule.hits += 1
                self.limits.count_refusal(
                    f"{method} {template}", "global" if rule.is_global else "user"
                )
                body = {
                    "message": "You are being rate limited.",
                    "retry_after": rule.retry_after,
                    "global": rule.is_global,
                }
                headers = {
                    # discord.py treats a 429 without Via as a Cloudflare ban, not a limit.
                    "Via": "1.1 google",
                    "Retry-After": str(max(1, round(rule.retry_after))),
                    "X-RateLimit-Scope": "global" if rule.is_global else "user",
                }
                return json_response(body, status=429, headers=headers)
        return None

    def _serve_attachment(self, path: str) -> web.Response:
        parts = path.split("/")
        if len(parts) >= 4 and parts[3].isdigit():
            attachment = self._find_attachment(int(parts[3]))
            if attachment is not None:
                return web.Response(
                    body=attachment.file.data,
                    headers={"Content-Type": attachment.file.content_type},
                )
        return web.Response(status=404)

    def _find_attachment(self, attachment_id: int) -> FakeAttachment | None:
        if attachment_id in self.loose_attachments:
            return self.loose_attachments[attachment_id]
        for message in self.messages.values():
            for attachment in message.attachments:
                if attachment.id == attachment_id:
                    return attachment
        return None

    def new_attachment(self, file: FakeFile) -> FakeAttachment:
        attachment_id = self.ids.next()
        url = f"{self.base_url}/attachments/{attachment_id}/{attachment_id}/{file.filename}"
        return FakeAttachment(attachment_id, file, url)

    # ------------------------------------------------------------------ messages

    def _get_channel_or_404(self, channel_id: str) -> FakeChannel:
        channel = self.channels.get(int(channel_id)) if channel_id.isdigit() else None
        if channel is None:
            raise ApiError(404, 10003, "Unknown Channel")
        return channel

    def _get_message_or_404(self, channel: FakeChannel, message_id: str) -> FakeMessage:
        message = self.messages.get(int(message_id)) if message_id.isdigit() else None
        if message is None or message.deleted or message.channel_id != channel.id:
            raise ApiError(404, 10008, "Unknown Message")
        if message.visible_to is not None:
            raise ApiError(404, 10008, "Unknown Message")  # ephemeral: not in the channel
        return message

    def _publish(self, event: str, message: FakeMessage) -> None:
        if message.visible_to is not None or message.loading:
            return  # ephemeral and thinking messages never reach the gateway
        if event == "MESSAGE_DELETE":
            data: JSON = {"id": str(message.id), "channel_id": str(message.channel_id)}
            if message.guild_id is not None:
                data["guild_id"] = str(message.guild_id)
        else:
            data = message.to_payload()
        self.gateway.broadcast(event, data)

    def _new_message(
        self, channel: FakeChannel, *, flags: int = 0, kind: int = 0, visible_to: int | None = None
    ) -> FakeMessage:
        return FakeMessage(
            id=self.ids.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=self.bot_user,
            flags=flags,
            type=kind,
            visible_to=visible_to,
        )

    def _apply(
        self,
        message: FakeMessage,
        body: JSON,
        files: list[FakeFile],
        *,
        creating: bool,
        can_embed: bool = True,
    ) -> None:
        """Apply a create/edit body (content, embeds, components, attachments) to a message."""
        for file in files:
            if len(file.data) > self.attachment_size_limit:
                raise ApiError(413, 40005, "Request entity too large")
        # Discord's length and count limits were checked before the route ran (limits.py).
        if "content" in body:
            message.content = body["content"] or ""
        if "embeds" in body:
            embeds = [dict(e) for e in body["embeds"] or []]
            # Without Embed Links, Discord posts the message but shows no embeds.
            message.embeds = embeds if can_embed else []
        if "components" in body:
            message.components = body["components"] or []
        if "attachments" in body and body["attachments"] is not None:
            kept: list[FakeAttachment] = []
            existing = {a.id: a for a in message.attachments}
            for entry in body["attachments"]:
                ident = int(entry["id"])
                if ident in existing:
                    kept.append(existing[ident])
                elif 0 <= ident < len(files):
                    file = files[ident]
                    if entry.get("filename"):
                        file.filename = entry["filename"]
                    if entry.get("description"):  # its length checked with the form
                        file.description = entry["description"]
                    kept.append(self.new_attachment(file))
                else:
                    raise ApiError(400, 50035, f"Invalid Form Body: no file for attachment {ident}")
            message.attachments = kept
        elif files:
            message.attachments = [*message.attachments, *map(self.new_attachment, files)]
        self._link_embed_images(message)
        if creating and not (
            message.content or message.embeds or message.attachments or message.components
        ):
            raise ApiError(400, 50006, "Cannot send an empty message")
        if creating:
            pings = notified(self, message, body)
            self.pings.extend(pings)
            for ping in pings:
                self._pings_by_user.setdefault(ping.user_id, []).append(ping)
            message.pinged = [p.user_id for p in pings]

    def _link_embed_images(self, message: FakeMessage) -> None:
        # Discord swaps "attachment://name" in embeds for the uploaded file's URL.
        by_name = {a.file.filename: a for a in message.attachments}
        for embed in message.embeds:
            for key in ("image", "thumbnail"):
                part = embed.get(key)
                if isinstance(part, dict) and str(part.get("url", "")).startswith("attachment://"):
                    attachment = by_name.get(part["url"][len("attachment://") :])
                    if attachment is not None:
                        part.update(url=attachment.url, proxy_url=attachment.url)
                        size = attachment.file.image_size()
                        if size is not None:
                            part.update(width=size[0], height=size[1])

    def _check_can_post(self, channel: FakeChannel, body: JSON, files: list[FakeFile]) -> bool:
        """Refuse like Discord; returns whether embeds may be shown."""
        if channel.is_thread:
            return self.threads.check_post(channel, files)
        if channel.is_dm:
            assert channel.recipient is not None
            if not channel.recipient.shares_guild:
                from .refusals import NO_MUTUAL_GUILDS  # refusals.py builds on this module

                raise NO_MUTUAL_GUILDS
            if not channel.recipient.dms_open:
                raise ApiError(403, 50007, "Cannot send messages to this user")
            self._check_dm_pace()
            return True
        perms = self.permissions_for(self.bot_user, channel)
        if not perms & VIEW_CHANNEL:
            raise ApiError(403, 50001, "Missing Access")
        if not perms & SEND_MESSAGES:
            raise ApiError(403, 50013, "Missing Permissions")
        if files and not perms & ATTACH_FILES:
            raise ApiError(403, 50013, "Missing Permissions")
        return bool(perms & EMBED_LINKS)

    async def _post_message(self, call: Call) -> web.Response:
        channel = self._get_channel_or_404(call.params["channel_id"])
        body = call.body or {}
        nonce = body.get("nonce")
        if nonce is not None and body.get("enforce_nonce"):
            # Discord: "If true and nonce is present, it will be checked for uniqueness in the
            # past few minutes. If another message was created by the same author with the
            # same nonce, that message will be returned and no new message will be created."
            # (docs/outbox.md cites it.) The author here is always the bot user.
            # (A nonce over 25 characters was refused with the form: limits.py.)
            seen = self._nonces.get(str(nonce))
            if seen is not None and (self.clock() - seen[1]).total_seconds() <= NONCE_WINDOW:
                self.nonce_repeats += 1
                return json_response(seen[0].to_payload())
        can_embed = self._check_can_post(channel, body, call.files)
        kind = 19 if body.get("message_reference") else 0
        message = self._new_message(
            channel, flags=flags.settable(body, flags.CREATE_MESSAGE), kind=kind
        )
        self._apply(message, body, call.files, creating=True, can_embed=can_embed)
        self.messages[message.id] = message
        if nonce is not None and body.get("enforce_nonce"):
            self._nonces[str(nonce)] = (message, self.clock())
        self._publish("MESSAGE_CREATE", message)
        return json_response(message.to_payload())

    async def _edit_message(self, call: Call) -> web.Response:
        channel = self._get_channel_or_404(call.params["channel_id"])
        message = self._get_message_or_404(channel, call.params["message_id"])
        if message.author is not self.bot_user:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        if message.id in self.edit_refusals:
            raise self.edit_refusals[message.id]
        if channel.is_thread:
            self.threads.check_edit(channel)
        self._check_old_edit(message)
        can_embed = channel.is_dm or bool(
            self.permissions_for(self.bot_user, channel) & EMBED_LINKS
        )
        self._edit_flags(message, call.body or {})
        self._apply(message, call.body or {}, call.files, creating=False, can_embed=can_embed)
        self._mark_edited(message)
        return json_response(message.to_payload())

    def _check_old_edit(self, message: FakeMessage) -> None:
        """Discord limits edits of messages older than an hour separately (30046): a channel
        gets ``old_edit_limit`` of them in any hour (Discord time), then is refused."""
        now = self.clock()
        if (now - snowflake_time(message.id)).total_seconds() <= OLD_MESSAGE_AGE:
            return
        made = [t for t in self.old_edits.get(message.channel_id, []) if now - t < HOUR]
        if len(made) >= self.old_edit_limit:
            self.old_edits[message.channel_id] = made
            raise ApiError(
                400, 30046, "Maximum number of edits to messages older than 1 hour reached."
            )
        self.old_edits[message.channel_id] = [*made, now]

    def _edit_flags(self, message: FakeMessage, body: JSON) -> None:
        """An edit's ``flags`` (flags.py: SUPPRESS_EMBEDS both ways, IS_COMPONENTS_V2 set once
        and for good, with no content or embeds left), or Discord's 400/50035."""
        try:
            flags.edit(message, body)
        except FormError as error:
            raise ApiError(400, 50035, "Invalid Form Body", errors=error.errors) from None

    def _mark_edited(self, message: FakeMessage) -> None:
        message.edited_timestamp = self.clock().isoformat()
        message.edits += 1
        self._publish("MESSAGE_UPDATE", message)

    async def _delete_message(self, call: Call) -> web.Response:
        channel = self._get_channel_or_404(call.params["channel_id"])
        message = self._get_message_or_404(channel, call.params["message_id"])
        message.deleted = True
        self._publish("MESSAGE_DELETE", message)
        return web.Response(status=204)

    async def _get_message(self, call: Call) -> web.Response:
        # Message resource, Get Channel Message: "requires the current user to have the
        # VIEW_CHANNEL and READ_MESSAGE_HISTORY permissions" (the code is not given: 50001
        # "Missing Access", as for any read of a channel it cannot see).
        channel = self._get_channel_or_404(call.params["channel_id"])
        if not channel.is_dm:
            perms = self.permissions_for(self.bot_user, channel)
            if not perms & VIEW_CHANNEL or not perms & READ_MESSAGE_HISTORY:
                raise ApiError(403, 50001, "Missing Access")
        return json_response(
            self._get_message_or_404(channel, call.params["message_id"]).to_payload()
        )

    async def _list_messages(self, call: Call) -> web.Response:
        # Discord's Message resource, Get Channel Messages: "limit: Max number of messages to
        # return (1-100)", default 50; "requires the current user to have the VIEW_CHANNEL
        # permission" (else 403/50001, as every read of a channel it cannot see); "If the
        # current user is missing the READ_MESSAGE_HISTORY permission in the channel, then no
        # messages will be returned" (an empty list, not an error).
        channel = self._get_channel_or_404(call.params["channel_id"])
        limit = _page_limit(call.query.get("limit", "50"))
        if not channel.is_dm:
            perms = self.permissions_for(self.bot_user, channel)
            if not perms & VIEW_CHANNEL:
                raise ApiError(403, 50001, "Missing Access")
            if not perms & READ_MESSAGE_HISTORY:
                return json_response([])
        found = list(reversed(channel.messages()))  # Discord lists newest first
        if "before" in call.query:
            found = [m for m in found if m.id < int(call.query["before"])]
        if "after" in call.query:
            found = [m for m in found if m.id > int(call.query["after"])]
        return json_response([m.to_payload() for m in found[:limit]])

    async def _get_channel(self, call: Call) -> web.Response:
        return json_response(self._get_channel_or_404(call.params["channel_id"]).to_payload())

    async def _no_content(self, call: Call) -> web.Response:
        self._get_channel_or_404(call.params["channel_id"])
        return web.Response(status=204)

    # ------------------------------------------------------------------ interaction answers

    def _find_by_token(self, token: str) -> InteractionRecord | None:
        return self._by_token.get(token)

    async def _callback(self, call: Call) -> web.Response:
        record = self.interactions.get(int(call.params["interaction_id"]))
        if record is None or record.token != call.params["interaction_token"]:
            raise ApiError(404, 10062, "Unknown interaction")
        if record.callback_type is not None:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        if time.monotonic() - record.created > self.interaction_deadline:
            raise ApiError(404, 10062, "Unknown interaction")
        body = call.body or {}
        kind = int(body.get("type", 0))
        data: JSON = body.get("data") or {}
        if kind not in ALLOWED_CALLBACKS.get(record.type, set()):
            raise ApiError(
                400, 50035, f"Invalid Form Body: response type {kind} for interaction {record.type}"
            )
        message: FakeMessage | None = None
        if kind == 8:
            record.choices = data.get("choices") or []
        elif kind in (4, 5):
            # A deferral keeps EPHEMERAL only (flags.py); its answer may set V2.
            given = flags.settable(data, flags.DEFERRAL if kind == 5 else flags.INTERACTION_MESSAGE)
            message = self._new_message(
                record.channel,
                flags=given | (LOADING if kind == 5 else 0),
                kind=20 if record.type == 2 else 0,
                visible_to=record.user.id if given & EPHEMERAL else None,
            )
            message.webhook_id = message.application_id = self.application_id
            message.interaction_metadata = {
                "id": str(record.id),
                "type": record.type,
                "user": record.user.to_payload(),
                "authorizing_integration_owners": {"0": str(self.guild_id)},
            }
            if kind == 4:
                self._apply(message, data, call.files, creating=True)
            self.messages[message.id] = message
            record.original = message
            self._publish("MESSAGE_CREATE", message)
        elif kind in (6, 7):
            message = record.original = record.source
            record.source_edits_at_answer = message.edits if message is not None else 0
            if kind == 7 and message is not None:
                self._edit_flags(message, data)
                self._apply(message, data, call.files, creating=False)
                self._mark_edited(message)
        elif kind == 9:
            record.modal = data
        record.callback_type, record.callback_data = kind, data
        record.callback_files = call.files
        record.acknowledged_at = time.monotonic()
        if not call.flag("with_response"):
            return web.Response(status=204)
        info: JSON = {"id": str(record.id), "type": record.type}
        result: JSON = {"interaction": info, "resource": {"type": kind}}
        if message is not None:
            info["response_message_id"] = str(message.id)
            info["response_message_loading"] = message.loading
            info["response_message_ephemeral"] = message.ephemeral
            result["resource"]["message"] = message.to_payload()
        return json_response(result)

    def _webhook_record(self, call: Call) -> InteractionRecord:
        record = self._find_by_token(call.params["webhook_token"])
        if record is None or call.params["webhook_id"] != str(self.application_id):
            raise ApiError(404, 10015, "Unknown Webhook")
        if record.channel.id in self.deleted_channels:
            raise ApiError(404, 10003, "Unknown Channel")
        if (self.clock() - record.issued).total_seconds() > self.token_lifetime:
            raise ApiError(401, 50027, "Invalid Webhook Token")
        if record.callback_type is None:
            # Until the interaction is answered there is no webhook to send through.
            raise ApiError(404, 10015, "Unknown Webhook")
        return record

    def _webhook_message(self, record: InteractionRecord, message_id: str) -> FakeMessage:
        if message_id == "@original":
            found = record.original
        else:
            candidates = [record.original, *record.followups]
            found = next((m for m in candidates if m is not None and str(m.id) == message_id), None)
        if found is None or found.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        return found

    async def _followup(self, call: Call) -> web.Response:
        if self.webhooks.is_channel_hook(call.params):
            return await self.webhooks.execute(call)
        record = self._webhook_record(call)
        body = call.body or {}
        original = record.original
        if record.callback_type == 5 and original is not None and original.loading:
            # Discord still lets the first followup replace a "thinking…" deferral, but
            # documents editing the original response (PATCH .../messages/@original) as the
            # way to answer one; the followup path is kept for old apps and may go. Refused
            # here so the bot cannot come to rely on it (docs/discord.md).
            self.refused_as_deprecated.append(f"followup answering the deferral of {record.name}")
            self.notify_all()
            raise ApiError(400, 0, "Answer a deferral by editing @original, not with a followup")
        else:
            if record.channel.is_thread:
                # "Sending a message will automatically unarchive the thread, unless the
                # thread has been locked by a moderator" (Threads topic): a followup too.
                self.threads.check_followup(record.channel)
            given = flags.settable(body, flags.INTERACTION_MESSAGE)
            message = self._new_message(
                record.channel,
                flags=given,
                visible_to=record.user.id if given & EPHEMERAL else None,
            )
            message.webhook_id = message.application_id = self.application_id
            self._apply(message, body, call.files, creating=True)
            self.messages[message.id] = message
            self._publish("MESSAGE_CREATE", message)
        record.followups.append(message)
        if not call.flag("wait"):
            return web.Response(status=204)
        return json_response(message.to_payload())

    async def _webhook_get(self, call: Call) -> web.Response:
        if self.webhooks.is_channel_hook(call.params):
            return await self.webhooks.get_message(call)
        record = self._webhook_record(call)
        return json_response(self._webhook_message(record, call.params["message_id"]).to_payload())

    async def _webhook_edit(self, call: Call) -> web.Response:
        if self.webhooks.is_channel_hook(call.params):
            return await self.webhooks.edit_message(call)
        record = self._webhook_record(call)
        message = self._webhook_message(record, call.params["message_id"])
        if message.id in self.edit_refusals:
            raise self.edit_refusals[message.id]
        was_loading = message.loading
        if record.channel.is_thread:
            # "Users cannot edit messages [...] in archived threads" (Threads topic): the
            # token's edits too, the answer to a deferral included (an edit of @original).
            self.threads.check_edit(record.channel)
        if not was_loading:
            self._check_old_edit(message)
        self._edit_flags(message, call.body or {})  # the deferral's EPHEMERAL stays
        message.flags &= ~LOADING
        self._apply(message, call.body or {}, call.files, creating=was_loading)
        if was_loading:
            # The deferral's answer: what a test reads as the first followup too.
            record.followups.append(message)
            self._publish("MESSAGE_CREATE", message)
        else:
            self._mark_edited(message)
        return json_response(message.to_payload())

    async def _webhook_delete(self, call: Call) -> web.Response:
        if self.webhooks.is_channel_hook(call.params):
            return await self.webhooks.delete_message(call)
        record = self._webhook_record(call)
        message = self._webhook_message(record, call.params["message_id"])
        message.deleted = True
        self._publish("MESSAGE_DELETE", message)
        return web.Response(status=204)

    # ------------------------------------------------------------------ start-up, users, guild

    async def _get_me(self, call: Call) -> web.Response:
        auth = call.request.headers.get("Authorization", "")
        if not auth.startswith("Bot ") or len(auth) <= 4:
            raise ApiError(401, 0, "401: Unauthorized")
        return json_response({**self.bot_user.to_payload(), "verified": True, "mfa_enabled": False})

    async def _get_user(self, call: Call) -> web.Response:
        user_id = call.params["user_id"]
        user = self.users.get(int(user_id)) if user_id.isdigit() else None
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return json_response(user.to_payload())

    async def _open_dm(self, call: Call) -> web.Response:
        recipient = int((call.body or {}).get("recipient_id", 0))
        user = self.users.get(recipient)
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        # Opening the channel works (posting into it is what closed DMs refuse), unless the
        # bot is opening DMs too fast.
        self._check_dm_pace()
        return json_response(self.dm_channel(user).to_payload())

    def _check_dm_pace(self) -> None:
        if self.too_fast_dms > 0:
            self.too_fast_dms -= 1
            raise ApiError(403, 40003, "You are opening direct messages too fast.")

    async def _get_application(self, call: Call) -> web.Response:
        return json_response(
            {
                "id": str(self.application_id),
                "name": self.bot_user.name,
                "description": "A fake application for tests",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "owner": self.owner.to_payload(),
                "team": None,
                "flags": 0,
                "summary": "",
                "bot": self.bot_user.to_payload(),
                "interactions_endpoint_url": None,
                "redirect_uris": [],
                "approximate_guild_count": 1,
            }
        )

    async def _get_gateway(self, call: Call) -> web.Response:
        return json_response(
            {
                "url": self.gateway_url,
                "shards": self.shards,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    def _check_guild(self, guild_id: str) -> FakeGuild:
        guild = self.guilds.get(int(guild_id)) if guild_id.isdigit() else None
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        return guild

    async def _get_guild(self, call: Call) -> web.Response:
        guild = self._check_guild(call.params["guild_id"])
        return json_response(guild_payload(self, guild, with_lists=False))

    async def _get_guild_channels(self, call: Call) -> web.Response:
        guild = self._check_guild(call.params["guild_id"])
        channels = [c for c in self.channels.values() if c.guild_id == guild.id and not c.is_thread]
        return json_response([c.to_payload() for c in channels])

    async def _get_roles(self, call: Call) -> web.Response:
        guild = self._check_guild(call.params["guild_id"])
        return json_response([r.to_payload() for r in guild_roles(self, guild)])

    async def _get_member(self, call: Call) -> web.Response:
        self._check_guild(call.params["guild_id"])
        user_id = call.params["user_id"]
        user = self.users.get(int(user_id)) if user_id.isdigit() else None
        if user is None:
            raise ApiError(404, 10007, "Unknown Member")
        return json_response(user.member_payload())

    # ------------------------------------------------------------------ commands

    def _command_store(self, call: Call) -> tuple[dict[tuple[str, int], JSON], int | None]:
        if call.params["app_id"] != str(self.application_id):
            raise ApiError(403, 50035, "Invalid application id")
        if "guild_id" in call.params:
            guild = self._check_guild(call.params["guild_id"])
            return self.guild_commands.setdefault(guild.id, {}), guild.id
        return self.global_commands, None

    def _register(
        self,
        store: dict[tuple[str, int], JSON],
        cmd: JSON,
        guild_id: int | None,
        known: dict[tuple[str, int], JSON],
    ) -> JSON:
        name, kind = cmd.get("name", ""), int(cmd.get("type", 1))
        if kind == 1 and (not re.fullmatch(r"[-_\w]{1,32}", name) or name != name.lower()):
            raise ApiError(400, 50035, f"Invalid Form Body: bad command name {name!r}")
        if len(cmd.get("options") or []) > 25:
            raise ApiError(400, 50035, f"Invalid Form Body: /{name} has more than 25 options")
        old = known.get((name, kind))  # a re-sync keeps the command's id, as on Discord
        echoed = {
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "nsfw": False,
            **cmd,
            "id": old["id"] if old else str(self.ids.next()),
            "application_id": str(self.application_id),
            "type": kind,
            "version": str(self.ids.next()),
        }
        if guild_id is not None:
            echoed["guild_id"] = str(guild_id)
        store[(name, kind)] = echoed
        return echoed

    async def _put_commands(self, call: Call) -> web.Response:
        store, guild_id = self._command_store(call)
        incoming = call.body or []
        if len(incoming) > 100:
            raise ApiError(400, 30032, "Maximum number of application commands reached (100)")
        previous = dict(store)
        store.clear()
        for cmd in incoming:
            self._register(store, cmd, guild_id, previous)
        return json_response(list(store.values()))

    async def _post_command(self, call: Call) -> web.Response:
        store, guild_id = self._command_store(call)
        return json_response(self._register(store, call.body or {}, guild_id, store), status=201)

    async def _get_commands(self, call: Call) -> web.Response:
        store, _ = self._command_store(call)
        return json_response(list(store.values()))

    def _command_by_id(self, call: Call) -> tuple[dict[tuple[str, int], JSON], tuple[str, int]]:
        store, _ = self._command_store(call)
        for key, cmd in store.items():
            if cmd["id"] == call.params["command_id"]:
                return store, key
        raise ApiError(404, 10063, "Unknown application command")

    async def _get_command(self, call: Call) -> web.Response:
        store, key = self._command_by_id(call)
        return json_response(store[key])

    async def _delete_command(self, call: Call) -> web.Response:
        store, key = self._command_by_id(call)
        del store[key]
        return web.Response(status=204)


def _page_limit(raw: str) -> int:
    """Get Channel Messages' ``limit`` (1-100), or Discord's 400/50035 naming it."""
    problem = None
    try:
        limit = int(raw)
    except ValueError:
        problem = ("NUMBER_TYPE_COERCE", f'Value "{raw}" is not int.')
    else:
        if limit > MESSAGES_PER_PAGE:
            problem = ("NUMBER_TYPE_MAX", "int value should be less than or equal to 100.")
        elif limit < 1:
            problem = ("NUMBER_TYPE_MIN", "int value should be greater than or equal to 1.")
    if problem is not None:
        errors = {"limit": {"_errors": [{"code": problem[0], "message": problem[1]}]}}
        raise ApiError(400, 50035, "Invalid Form Body", errors=errors)
    return limit


def _check_form(route: str, body: Any, files: list[FakeFile]) -> None:
    """Discord's 400/50035 "Invalid Form Body" for a body over one of its limits."""
    try:
        check_limits(route, body, files)
    except FormError as error:
        raise ApiError(400, 50035, "Invalid Form Body", errors=error.errors) from None


async def _read_body(request: web.Request) -> tuple[Any, list[FakeFile]]:
    """JSON, or multipart ``payload_json`` + ``files[n]`` (kept as bytes, in index order)."""
    if request.content_type.startswith("multipart/"):
        payload: Any = None
        files: dict[int, FakeFile] = {}
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if not isinstance(part, BodyPartReader):
                continue
            name = part.name or ""
            raw = await part.read()
            if name == "payload_json":
                payload = json.loads(bytes(raw))
            elif name.startswith("files[") and name.endswith("]"):
                index = int(name[len("files[") : -1])
                filename = part.filename or f"file{index}"
                files[index] = FakeFile(filename, bytes(raw))
        # Each file's description (alt text) as the payload names it, so the request log
        # keeps it even for an upload that fails.
        described = payload.get("attachments") if isinstance(payload, dict) else None
        for entry in described or []:
            file = files.get(int(entry.get("id", -1)))
            if file is not None and entry.get("description") is not None:
                file.description = str(entry["description"])
        return payload, [files[i] for i in sorted(files)]
    raw_text = await request.text()
    return (json.loads(raw_text) if raw_text else None), []
