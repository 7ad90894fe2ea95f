"""Public threads in the fake Discord: made from a message or on their own, posted in,
archived and locked, and announced on the gateway the way discord.py needs to know them.

Discord's rules, as its Threads topic and channel resource state them: a thread made from a
message shares the message's id and starts with a THREAD_STARTER_MESSAGE (type 21); one made
without a message leaves a "started a thread" message (type 18) in the parent. Threads take
their permissions from the parent, with Send Messages in Threads in place of Send Messages;
making one needs Create Public Threads. Archiving, renaming or changing the auto-archive time
needs Manage Threads or being the thread's creator; locking needs Manage Threads; unarchiving
an unlocked thread only the right to talk in it. A message sent to an archived thread that is
not locked unarchives it; in a locked thread only Manage Threads may post, and nobody edits
messages of an archived thread. The gateway carries THREAD_CREATE (with ``newly_created``) and
THREAD_UPDATE, and GUILD_CREATE lists the active threads, so ``bot.get_channel(thread_id)``
works after a restart; like Discord, discord.py drops a thread from its cache once archived
(``fetch_channel`` still finds it). Private threads are not modelled: asking for one fails
the test (``fake.check()``).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord
from aiohttp import web

from .clock import snowflake_time
from .models import (
    JSON,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    FakeChannel,
    FakeFile,
    FakeMessage,
    FakeUser,
)
from .server import ApiError, Call, json_response

if TYPE_CHECKING:
    from .server import FakeDiscord

PUBLIC_THREAD, PRIVATE_THREAD = 11, 12
THREAD_CREATED, THREAD_STARTER_MESSAGE = 18, 21  # message types
ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)  # minutes
#: Discord's cap on active threads in one server.
MAX_ACTIVE_THREADS = 1000
CREATE_PUBLIC_THREADS = discord.Permissions(create_public_threads=True).value
MANAGE_THREADS = discord.Permissions(manage_threads=True).value
ATTACH_FILES = discord.Permissions(attach_files=True).value
EMBED_LINKS = discord.Permissions(embed_links=True).value


@dataclass(eq=False)
class FakeThread(FakeChannel):
    """A public thread: a channel whose permissions are its parent's (it shares the parent's
    overwrites), with an owner and archive/lock state."""

    parent: FakeChannel | None = field(default=None, repr=False)
    owner_id: int = 0
    kind: int = PUBLIC_THREAD
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    #: Both on Discord's time (the fake's clock): made when its id was, archived or
    #: unarchived when the fake's clock said.
    archive_timestamp: str = ""
    created_timestamp: str = ""
    rate_limit_per_user: int = 0
    #: The message it was started from (None: started on its own).
    starter: FakeMessage | None = field(default=None, repr=False)
    member_ids: set[int] = field(default_factory=set, repr=False)
    #: When it was last unarchived (Discord time): idleness counts from the latest of this,
    #: its making and its newest message.
    reopened: datetime.datetime | None = field(default=None, repr=False)

    @property
    def is_thread(self) -> bool:
        return True

    def __post_init__(self) -> None:
        made = snowflake_time(self.id).isoformat()  # the id carries the fake's clock
        self.created_timestamp = self.created_timestamp or made
        self.archive_timestamp = self.archive_timestamp or made

    def set_permissions(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("threads have no overwrites of their own: set them on the parent")

    def to_payload(self) -> JSON:
        assert self.parent is not None
        counted = [
            m
            for m in self.fake.messages.in_channel(self.id)
            if not m.deleted and m.visible_to is None and m.type != THREAD_STARTER_MESSAGE
        ]
        payload: JSON = {
            "id": str(self.id),
            "type": self.kind,
            "guild_id": str(self.guild_id),
            "parent_id": str(self.parent.id),
            "owner_id": str(self.owner_id),
            "name": self.name,
            "last_message_id": str(counted[-1].id) if counted else None,
            "message_count": len(counted),
            "total_message_sent": len(counted),
            "member_count": len(self.member_ids),
            "rate_limit_per_user": self.rate_limit_per_user,
            "flags": 0,
            "thread_metadata": {
                "archived": self.archived,
                "auto_archive_duration": self.auto_archive_duration,
                "archive_timestamp": self.archive_timestamp,
                "locked": self.locked,
                "create_timestamp": self.created_timestamp,
            },
        }
        bot_id = self.fake.bot_user.id
        if bot_id in self.member_ids:
            payload["member"] = {
                "id": str(self.id),
                "user_id": str(bot_id),
                "join_timestamp": self.created_timestamp,
                "flags": 0,
            }
        return payload


def threads_of(
    fake: FakeDiscord, parent: FakeChannel, *, archived: bool | None = None
) -> list[FakeChannel]:
    return [
        t
        for t in fake.channels.values()
        if isinstance(t, FakeThread)
        and t.parent is parent
        and (archived is None or t.archived == archived)
    ]


def start_thread(
    fake: FakeDiscord,
    parent: FakeChannel,
    name: str,
    *,
    owner: FakeUser,
    message: FakeMessage | None = None,
) -> FakeThread:
    """A person (``owner``) opens a thread: no permission checks, as the test says so."""
    if parent.is_dm or parent.is_thread:
        raise ValueError("threads are made in a server's text channel")
    if message is not None and message.thread is not None:
        raise ValueError("that message already has a thread")
    return fake.threads.create(parent, name, owner, source=message)


class Threads:
    """The thread routes and the checks the server's message routes make in a thread."""

    def __init__(self, fake: FakeDiscord) -> None:
        #: How much of its ``auto_archive_duration`` an idle thread waits before Discord
        #: archives it: 1.0 as asked; Discord may archive earlier than asked in a busy
        #: channel (a test sets e.g. 0.25 to play that).
        self.archive_after = 1.0
        self.fake = fake

    def add_routes(self) -> None:
        add = self.fake.routes.add
        add("POST", "/channels/{channel_id}/messages/{message_id}/threads", self._from_message)
        add("POST", "/channels/{channel_id}/threads", self._without_message)
        add("PATCH", "/channels/{channel_id}", self._modify)
        add("PUT", "/channels/{channel_id}/thread-members/@me", self._join)
        add("GET", "/channels/{channel_id}/threads/archived/public", self._archived_public)
        add("GET", "/guilds/{guild_id}/threads/active", self._active)

    # ------------------------------------------------------------------ making one

    def create(
        self,
        parent: FakeChannel,
        name: str,
        owner: FakeUser,
        *,
        source: FakeMessage | None,
        auto_archive_duration: int = 1440,
        rate_limit_per_user: int = 0,
    ) -> FakeThread:
        fake = self.fake
        thread = FakeThread(
            fake,
            source.id if source is not None else fake.ids.next(),  # Discord reuses the id
            name,
            parent.guild_id,
            overwrites=parent.overwrites,  # the same dict: the parent's permissions
            parent=parent,
            owner_id=owner.id,
            auto_archive_duration=auto_archive_duration,
            rate_limit_per_user=rate_limit_per_user,
            starter=source,
            member_ids={owner.id},
            created_timestamp=fake.clock().isoformat(),  # not its id's time: a message's
            archive_timestamp=fake.clock().isoformat(),
        )
        fake.channels[thread.id] = thread
        fake.gateway.broadcast("THREAD_CREATE", {**thread.to_payload(), "newly_created": True})
        reference = {"channel_id": str(parent.id), "guild_id": str(parent.guild_id)}
        if source is not None:
            source.thread = thread
            starter = self._system_message(thread, THREAD_STARTER_MESSAGE, source.author, "")
            starter.message_reference = {**reference, "message_id": str(source.id)}
            starter.referenced = source
        else:
            notice = self._system_message(parent, THREAD_CREATED, owner, name)
            notice.message_reference = {**reference, "channel_id": str(thread.id)}
        return thread

    def _system_message(
        self, channel: FakeChannel, kind: int, author: FakeUser, content: str
    ) -> FakeMessage:
        fake = self.fake
        message = FakeMessage(
            id=fake.ids.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author,
            content=content,
            type=kind,
        )
        fake.messages[message.id] = message
        fake._publish("MESSAGE_CREATE", message)
        return message

    @staticmethod
    def _check_name(name: object) -> str:
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            raise ApiError(400, 50035, "Invalid Form Body: name must be 1-100 characters")
        return name

    def _unarchived(self, guild_id: int) -> list[FakeThread]:
        """The server's threads that are not archived."""
        return [
            c
            for c in self.fake.channels.values()
            if isinstance(c, FakeThread) and c.guild_id == guild_id and not c.archived
        ]

    def _params(self, body: JSON) -> tuple[str, int, int]:
        name = self._check_name(body.get("name"))
        archive = body.get("auto_archive_duration") or 1440
        if archive not in ARCHIVE_DURATIONS:
            raise ApiError(400, 50035, f"Invalid Form Body: auto_archive_duration {archive}")
        slowmode = body.get("rate_limit_per_user") or 0
        if not 0 <= int(slowmode) <= 21600:
            raise ApiError(400, 50035, "Invalid Form Body: rate_limit_per_user")
        return name, int(archive), int(slowmode)

    def _may_create(self, parent: FakeChannel) -> None:
        fake = self.fake
        if parent.is_dm or parent.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        perms = fake.permissions_for(fake.bot_user, parent)
        if not perms & VIEW_CHANNEL:
            raise ApiError(403, 50001, "Missing Access")
        if not perms & CREATE_PUBLIC_THREADS:
            raise ApiError(403, 50013, "Missing Permissions")
        if len(self._unarchived(parent.guild_id)) >= MAX_ACTIVE_THREADS:
            raise ApiError(400, 160006, "Maximum number of active threads reached")

    async def _from_message(self, call: Call) -> web.Response:
        fake = self.fake
        parent = fake._get_channel_or_404(call.params["channel_id"])
        message = fake._get_message_or_404(parent, call.params["message_id"])
        name, archive, slowmode = self._params(call.body or {})
        self._may_create(parent)
        if message.thread is not None:
            raise ApiError(400, 160004, "A thread has already been created for this message")
        thread = self.create(
            parent, name, fake.bot_user, source=message,
            auto_archive_duration=archive, rate_limit_per_user=slowmode,
        )  # fmt: skip
        return json_response(thread.to_payload(), status=201)

    async def _without_message(self, call: Call) -> web.Response:
        fake = self.fake
        parent = fake._get_channel_or_404(call.params["channel_id"])
        body = call.body or {}
        kind = body.get("type", PRIVATE_THREAD)  # Discord's default, for old clients
        if kind != PUBLIC_THREAD:
            fake.unknown_routes.append(f"thread type {kind} (the fake models public threads)")
            fake.notify_all()
            raise ApiError(400, 50035, f"Invalid Form Body: thread type {kind} not modelled")
        name, archive, slowmode = self._params(body)
        self._may_create(parent)
        thread = self.create(
            parent, name, fake.bot_user, source=None,
            auto_archive_duration=archive, rate_limit_per_user=slowmode,
        )  # fmt: skip
        return json_response(thread.to_payload(), status=201)

    # ------------------------------------------------------------------ changing one

    def _thread_or_404(self, channel_id: str) -> FakeThread:
        channel = self.fake._get_channel_or_404(channel_id)
        if not isinstance(channel, FakeThread):
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        return channel

    def changed(self, thread: FakeThread) -> None:
        self.fake.gateway.broadcast("THREAD_UPDATE", thread.to_payload())

    async def _modify(self, call: Call) -> web.Response:
        fake = self.fake
        channel = fake._get_channel_or_404(call.params["channel_id"])
        if not isinstance(channel, FakeThread):
            # Editing a text channel is real Discord, but nothing here models it yet.
            fake.unknown_routes.append(f"PATCH /channels/{channel.id} (not a thread: not modelled)")
            fake.notify_all()
            raise ApiError(400, 0, "the fake models thread edits only")
        thread, body = channel, call.body or {}
        perms = fake.permissions_for(fake.bot_user, thread)
        if not perms & VIEW_CHANNEL:
            raise ApiError(403, 50001, "Missing Access")
        manage = bool(perms & MANAGE_THREADS)
        creator = thread.owner_id == fake.bot_user.id
        unarchive = body.get("archived") is False
        if thread.archived and not unarchive:
            raise ApiError(400, 50083, "Thread is archived")
        # What a field needs is asked of a change only (discord.py sends the whole state).
        changes = {
            key for key, now in (
                ("name", thread.name), ("archived", thread.archived), ("locked", thread.locked),
                ("auto_archive_duration", thread.auto_archive_duration),
                ("rate_limit_per_user", thread.rate_limit_per_user),
            )
            if key in body and body[key] != now
        }  # fmt: skip
        needs_manage = bool(changes & {"locked", "rate_limit_per_user"})
        creator_or_manage = body.get("archived") is True and "archived" in changes
        creator_or_manage |= bool(changes & {"name", "auto_archive_duration"})
        if unarchive and thread.archived:
            if body.get("locked", thread.locked):
                needs_manage = True
            elif not perms & SEND_MESSAGES_IN_THREADS:
                raise ApiError(403, 50013, "Missing Permissions")
        if (needs_manage and not manage) or (creator_or_manage and not (manage or creator)):
            raise ApiError(403, 50013, "Missing Permissions")
        if "name" in body:
            thread.name = self._check_name(body["name"])
        if "auto_archive_duration" in body:
            if body["auto_archive_duration"] not in ARCHIVE_DURATIONS:
                raise ApiError(400, 50035, "Invalid Form Body: auto_archive_duration")
            thread.auto_archive_duration = int(body["auto_archive_duration"])
        if "rate_limit_per_user" in body:
            thread.rate_limit_per_user = int(body["rate_limit_per_user"] or 0)
        if "locked" in body:
            thread.locked = bool(body["locked"])
        if "archived" in body and bool(body["archived"]) != thread.archived:
            thread.archived = bool(body["archived"])
            thread.archive_timestamp = self.fake.clock().isoformat()
            if not thread.archived:
                thread.reopened = fake.clock()
        self.changed(thread)
        return json_response(thread.to_payload())

    async def _join(self, call: Call) -> web.Response:
        thread = self._thread_or_404(call.params["channel_id"])
        if thread.archived:
            raise ApiError(400, 50083, "Thread is archived")
        thread.member_ids.add(self.fake.bot_user.id)
        return web.Response(status=204)

    async def _archived_public(self, call: Call) -> web.Response:
        parent = self.fake._get_channel_or_404(call.params["channel_id"])
        found = sorted(
            threads_of(self.fake, parent, archived=True),
            key=lambda t: t.archive_timestamp if isinstance(t, FakeThread) else "",
            reverse=True,
        )
        limit = int(call.query.get("limit", "50"))
        threads = [t.to_payload() for t in found[:limit]]
        return json_response({"threads": threads, "members": [], "has_more": len(found) > limit})

    async def _active(self, call: Call) -> web.Response:
        guild_id = int(call.params["guild_id"]) if call.params["guild_id"].isdigit() else 0
        if guild_id not in self.fake.guilds:
            raise ApiError(404, 10004, "Unknown Guild")
        threads = self.guild_threads(guild_id)
        members = [t["member"] for t in threads if "member" in t]
        return json_response({"threads": threads, "members": members})

    # ------------------------------------------------------------------ hooks for the server

    def guild_threads(self, guild_id: int) -> list[JSON]:
        """The server's active threads, as GUILD_CREATE lists them."""
        return [c.to_payload() for c in self._unarchived(guild_id)]

    def check_post(self, thread: FakeChannel, files: list[FakeFile]) -> bool:
        """The bot posts in ``thread``: refuse like Discord, unarchive an unlocked archived
        thread; returns whether embeds may be shown."""
        assert isinstance(thread, FakeThread)
        fake = self.fake
        perms = fake.permissions_for(fake.bot_user, thread)
        if not perms & VIEW_CHANNEL:
            raise ApiError(403, 50001, "Missing Access")
        if not perms & SEND_MESSAGES_IN_THREADS:
            raise ApiError(403, 50013, "Missing Permissions")
        if files and not perms & ATTACH_FILES:
            raise ApiError(403, 50013, "Missing Permissions")
        if thread.locked and not perms & MANAGE_THREADS:
            raise ApiError(400, 160005, "Thread is locked")
        if thread.archived:
            if thread.locked:
                raise ApiError(400, 50083, "Thread is archived")
            self.unarchive_for_post(thread)
        return bool(perms & EMBED_LINKS)

    def check_followup(self, thread: FakeChannel) -> None:
        """An interaction's followup lands in ``thread`` (an interaction's answers are not
        checked against the channel's permissions): an archived thread is unarchived by it,
        or refuses it when locked (400/50083), as for any message sent there."""
        assert isinstance(thread, FakeThread)
        if thread.archived:
            if thread.locked:
                raise ApiError(400, 50083, "Thread is archived")
            self.unarchive_for_post(thread)

    def unarchive_for_post(self, thread: FakeChannel) -> None:
        """A message (the bot's, or a webhook's) unarchives an unlocked archived thread."""
        assert isinstance(thread, FakeThread)
        thread.archived = False
        thread.archive_timestamp = self.fake.clock().isoformat()
        thread.reopened = self.fake.clock()
        self.changed(thread)

    def check_edit(self, thread: FakeChannel) -> None:
        """The bot edits a message in ``thread``."""
        assert isinstance(thread, FakeThread)
        if thread.archived:
            raise ApiError(400, 50083, "Thread is archived")
        perms = self.fake.permissions_for(self.fake.bot_user, thread)
        if thread.locked and not perms & MANAGE_THREADS:
            raise ApiError(400, 160005, "Thread is locked")

    def last_activity(self, thread: FakeThread) -> datetime.datetime:
        """When the thread was last active: made, last posted in, or last unarchived."""
        moments = [snowflake_time(thread.id)]
        messages = self.fake.messages.in_channel(thread.id)
        if messages:
            moments.append(snowflake_time(messages[-1].id))
        if thread.reopened is not None:
            moments.append(thread.reopened)
        return max(moments)

    def archive_idle(self) -> list[FakeThread]:
        """Archive every unarchived thread idle for its auto-archive time (times
        ``archive_after``), as Discord does on its own, with a THREAD_UPDATE each."""
        now = self.fake.clock()
        archived = []
        for guild_id in self.fake.guilds:
            for thread in self._unarchived(guild_id):
                idle = (now - self.last_activity(thread)).total_seconds()
                if idle >= thread.auto_archive_duration * 60 * self.archive_after:
                    thread.archived = True
                    thread.archive_timestamp = now.isoformat()
                    self.changed(thread)
                    archived.append(thread)
        return archived

    def check_usable(self, thread: FakeChannel) -> None:
        """A person acts in ``thread``: Discord's client offers no commands or buttons in an
        archived thread (a test asking for one is wrong, like clicking a disabled button)."""
        if isinstance(thread, FakeThread) and thread.archived:
            raise PermissionError(f"thread {thread.name!r} is archived: no commands, no clicks")
