"""The fake's gateway: the websocket discord.py keeps open for events.

It says HELLO, acknowledges heartbeats, answers IDENTIFY with READY and one GUILD_CREATE,
and RESUME with the events the session missed plus RESUMED. Sessions outlive their
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


@dataclass(eq=False)
class GatewaySession:
    """A gateway session: survives a dropped connection so RESUME can replay what it missed."""

    id: str
    identify: JSON
    conn: Connection | None
    seq: int = 0
    missed: list[JSON] = field(default_factory=list)
    resumes: int = 0
    #: False for a shard that does not carry the guild: it gets READY and nothing else.
    has_guild: bool = True

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

    def live_session(self) -> GatewaySession:
        session = self.active
        if session is None or session.conn is None:
            raise RuntimeError("no bot is connected to the fake Discord gateway")
        return session

    def broadcast(self, event: str, data: JSON) -> None:
        for session in self.sessions.values():
            if session.has_guild and (session.conn is not None or session is self.active):
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
        # Sharding: Discord gives a guild to shard (guild_id >> 22) % shard_count only.
        shard_id, shard_count = data.get("shard") or [0, 1]
        has_guild = (fake.guild_id >> 22) % max(1, shard_count) == shard_id
        session = GatewaySession(
            id=secrets.token_hex(16), identify=data, conn=conn, has_guild=has_guild
        )
        self.sessions[session.id] = session
        if has_guild:
            self.active = session
        ready = {
            "v": 10,
            "user": fake.bot_user.to_payload(),
            "guilds": [{"id": str(fake.guild_id), "unavailable": True}] if has_guild else [],
            "session_id": session.id,
            "resume_gateway_url": fake.gateway_url,  # must stay on loopback too
            "shard": data.get("shard") or [0, 1],
            "application": {"id": str(fake.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "user_settings": {},
            "session_type": "normal",
            "geo_ordered_rtc_regions": [],
        }
        session.dispatch("READY", ready)
        if has_guild:
            session.dispatch("GUILD_CREATE", guild_payload(fake))
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
        chunk: JSON = {
            "guild_id": str(fake.guild_id),
            "members": [u.member_payload() for u in fake.users.values()],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
            "presences": [],
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        session.dispatch("GUILD_MEMBERS_CHUNK", chunk)


def guild_payload(fake: FakeDiscord, *, with_lists: bool = True) -> JSON:
    """The guild as GUILD_CREATE carries it (``with_lists=False``: as GET /guilds/{id})."""
    payload: JSON = {
        "id": str(fake.guild_id),
        "name": fake.guild_name,
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
        "roles": [r.to_payload() for r in fake.roles.values()],
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
            "members": [u.member_payload() for u in members],
            "channels": [c.to_payload() for c in fake.channels.values() if not c.is_dm],
            "voice_states": [],
            "threads": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }
    return payload
