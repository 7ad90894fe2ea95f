"""The fake's gateway: the websocket discord.py keeps open for events.

It says HELLO, acknowledges heartbeats, answers IDENTIFY with READY and a GUILD_CREATE for
each server of the connection's shard (``(guild_id >> 22) % shard_count``; DMs go to shard 0,
like Discord), and RESUME with the events the session missed plus RESUMED. Sessions outlive their
connection so an op 7 RECONNECT (``FakeDiscord.force_reconnect``) can be resumed, and
frames leave through one queue per connection so the bot sees them in dispatch order
(a CHANNEL_UPDATE before the interaction that relies on it). Plain JSON text frames are
fine even though discord.py asks for zlib-stream.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from aiohttp import WSMsgType, web

from .models import JSON

if TYPE_CHECKING:
    from .models import FakeGuild, FakeRole, FakeUser
    from .server import FakeDiscord

HEARTBEAT_INTERVAL_MS = 41250


class Connection:
    """One websocket; frames go through a queue so their order is the order of dispatch."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.writer = asyncio.create_task(self._write())

    def send(self, frame: JSON) -> None:
        self.queue.put_nowait(json.dumps(frame))

    async def _write(self) -> None:
        while (frame := await self.queue.get()) is not None:
            if self.ws.closed:
                return
            try:
                await self.ws.send_str(frame)
            except ConnectionError:
                return

    async def close(self) -> None:
        self.queue.put_nowait(None)
        await asyncio.gather(self.writer, return_exceptions=True)


#: Gateway intents (Discord's bits) that decide which message events a session receives.
GUILD_MESSAGES = 1 << 9
#: WEBHOOKS_UPDATE comes only to a bot that asked for Guild Webhooks.
GUILD_WEBHOOKS = 1 << 5
DIRECT_MESSAGES = 1 << 12
#: A session that sent no intents (an old client) gets every event.
ALL_INTENTS = (1 << 26) - 1


@dataclass(eq=False)
class GatewaySession:
    """A gateway session: survives a dropped connection so RESUME can replay what it missed."""

    id: str
    identify: JSON
    conn: Connection | None
    seq: int = 0
    missed: list[JSON] = field(default_factory=list)
    resumes: int = 0
    #: Keep events while disconnected (a RESUME will want them); False once it is replaced.
    missed_ok: bool = True
    #: IDENTIFY's ``shard``: (shard id, shard count); (0, 1) unsharded.
    shard: tuple[int, int] = (0, 1)

    def wants(self, event: str, guild_id: int | None) -> bool:
        """Whether the intents this session identified with ask for ``event`` (Discord sends
        message events only to a bot that asked for them: Guild Messages, Direct Messages;
        webhook updates only with Guild Webhooks)."""
        intents = int(self.identify.get("intents", ALL_INTENTS))
        if event == "WEBHOOKS_UPDATE":
            return bool(intents & GUILD_WEBHOOKS)
        if not event.startswith("MESSAGE_"):
            return True
        wanted = GUILD_MESSAGES if guild_id is not None else DIRECT_MESSAGES
        return bool(intents & wanted)

    def carries(self, guild_id: int | None) -> bool:
        """Whether Discord sends this server's events here (None: DMs, shard 0's)."""
        shard_id, count = self.shard
        if guild_id is None:
            return shard_id == 0
        return (guild_id >> 22) % max(1, count) == shard_id

    @property
    def has_guild(self) -> bool:
        """Whether this session carries the first server (the one most tests use)."""
        return self.carries(self.identify_guild)

    identify_guild: int | None = None

    def dispatch(self, event: str, data: JSON) -> None:
        self.seq += 1
        frame = {"op": 0, "t": event, "s": self.seq, "d": data}
        if self.conn is None:
            self.missed.append(frame)
        else:
            self.conn.send(frame)


class Gateway:
    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.sessions: dict[str, GatewaySession] = {}
        self.active: GatewaySession | None = None  # the newest bot; interactions go there
        self.connections: set[Connection] = set()

    def live_session(self, guild_id: int | None = -1) -> GatewaySession:
        """The newest connected session carrying ``guild_id`` (None: DMs; default: the first
        server, i.e. ``active``), where an interaction there is pushed."""
        if guild_id == -1:
            session = self.active
            if session is None or session.conn is None:
                raise RuntimeError("no bot is connected to the fake Discord gateway")
            return session
        for candidate in reversed(list(self.sessions.values())):
            if candidate.conn is not None and candidate.carries(guild_id):
                return candidate
        raise RuntimeError(f"no bot is connected for the shard of server {guild_id}")

    def broadcast(self, event: str, data: JSON) -> None:
        """Dispatch to the sessions of the shard carrying the event's server (DMs: shard 0).
        A session whose connection dropped keeps the events for its RESUME."""
        raw = data.get("guild_id")
        guild_id = int(raw) if raw is not None else None
        if guild_id is None and event.startswith("CHANNEL_"):
            guild_id = self.fake.guild_id
        for session in self.sessions.values():
            if not session.wants(event, guild_id):
                continue
            if session.carries(guild_id) and (session.conn is not None or session.missed_ok):
                session.dispatch(event, data)

    async def close(self) -> None:
        for conn in list(self.connections):
            await conn.ws.close()
            await conn.close()

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        conn = Connection(ws)
        self.connections.add(conn)
        conn.send({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
        session: GatewaySession | None = None
        try:
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op, data = frame.get("op"), frame.get("d")
                if op == 1:
                    conn.send({"op": 11})
                elif op == 2:
                    session = self._identify(conn, data)
                elif op == 6:
                    session = self._resume(conn, data)
                elif op == 8 and session is not None:
                    self._send_member_chunk(session, data)
                elif op not in (3, 4):  # presence and voice updates need no answer
                    self.fake.unknown_routes.append(f"gateway op {op}")
                self.fake.notify()
        finally:
            if session is not None and session.conn is conn:
                session.conn = None
            self.connections.discard(conn)
            await conn.close()
            self.fake.notify()
        return ws

    def _identify(self, conn: Connection, data: JSON) -> GatewaySession:
        fake = self.fake
        shard = data.get("shard") or [0, 1]
        session = GatewaySession(
            id=secrets.token_hex(16),
            identify=data,
            conn=conn,
            shard=(int(shard[0]), int(shard[1])),
            identify_guild=fake.guild_id,
        )
        # An older session of the same shard is replaced: it no longer collects events.
        for old in self.sessions.values():
            if old.shard == session.shard and old.conn is None:
                old.missed_ok = False
        self.sessions[session.id] = session
        if session.has_guild:
            self.active = session
        # Sharding: Discord gives a server to shard (guild_id >> 22) % shard_count only.
        guilds = [g for g in fake.guilds.values() if session.carries(g.id)]
        ready = {
            "v": 10,
            "user": fake.bot_user.to_payload(),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "resume_gateway_url": fake.gateway_url,  # must stay on loopback too
            "shard": list(session.shard),
            "application": {"id": str(fake.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "user_settings": {},
            "session_type": "normal",
            "geo_ordered_rtc_regions": [],
        }
        session.dispatch("READY", ready)
        for guild in guilds:
            session.dispatch("GUILD_CREATE", guild_payload(fake, guild))
        return session

    def _resume(self, conn: Connection, data: JSON) -> GatewaySession | None:
        session = self.sessions.get(str(data.get("session_id")))
        if session is None:
            conn.send({"op": 9, "d": False})  # invalid session: the client identifies again
            return None
        session.conn = conn
        session.resumes += 1
        if session.has_guild:
            self.active = session
        for frame in session.missed:
            conn.send(frame)
        session.missed.clear()
        session.dispatch("RESUMED", {})
        return session

    def _send_member_chunk(self, session: GatewaySession, data: JSON) -> None:
        fake = self.fake
        guild_id = int(data.get("guild_id") or fake.guild_id)
        chunk: JSON = {
            "guild_id": str(guild_id),
            "members": [_member(fake, u, guild_id) for u in fake.users.values()],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
            "presences": [],
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        session.dispatch("GUILD_MEMBERS_CHUNK", chunk)


def guild_roles(fake: FakeDiscord, guild: FakeGuild) -> list[FakeRole]:
    """The server's roles: the first server has every role made; the others @everyone."""
    return list(fake.roles.values()) if guild.id == fake.guild_id else [guild.everyone]


def _member(fake: FakeDiscord, user: FakeUser, guild_id: int) -> JSON:
    member = user.member_payload()
    if guild_id != fake.guild_id:
        member["roles"] = []
    return member


def guild_payload(
    fake: FakeDiscord, guild: FakeGuild | None = None, *, with_lists: bool = True
) -> JSON:
    """The server as GUILD_CREATE carries it (``with_lists=False``: as GET /guilds/{id})."""
    guild = guild or fake.guilds[fake.guild_id]
    payload: JSON = {
        "id": str(guild.id),
        "name": guild.name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(fake.owner.id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "premium_progress_bar_enabled": False,
        "preferred_locale": "en-US",
        "application_id": None,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "vanity_url_code": None,
        "roles": [r.to_payload() for r in guild_roles(fake, guild)],
        "emojis": [],
        "stickers": [],
        "features": [],
    }
    if with_lists:
        members = list(fake.users.values())
        payload |= {
            "joined_at": "2024-01-01T00:00:00+00:00",
            "large": False,
            "unavailable": False,
            "member_count": len(members),
            # The bot's own member must be here: guild.me and permissions_for need it.
            "members": [_member(fake, u, guild.id) for u in members],
            "channels": [
                c.to_payload()
                for c in fake.channels.values()
                if c.guild_id == guild.id and not c.is_thread
            ],
            "voice_states": [],
            "threads": fake.threads.guild_threads(guild.id),  # the active ones
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }
    return payload
