"""The things a fake Discord server remembers: users, roles, channels, messages, files.

These are plain mutable records, shared by the server (which turns them into the JSON
payloads discord.py parses) and by tests (which read them the way a person reads a
Discord window). A message is edited in place, so a test that holds one always sees its
latest state. Nothing here does I/O; the server in ``server.py`` owns the network side.
"""

from __future__ import annotations

import datetime
import mimetypes
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    from .interactions import Invocation
    from .server import FakeDiscord

JSON = dict[str, Any]

# Message flags Discord uses and the fake gives meaning to.
EPHEMERAL = 64
#: IS_COMPONENTS_V2: the message is a layout of components (limits.py checks it).
COMPONENTS_V2 = 1 << 15
LOADING = 128
SUPPRESS_EMBEDS = 4
HAS_THREAD = 32
SUPPRESS_NOTIFICATIONS = 4096

# What @everyone may do in a fresh test guild: what a typical community server grants.
DEFAULT_EVERYONE = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    add_reactions=True,
    use_external_emojis=True,
    use_application_commands=True,
    change_nickname=True,
    connect=True,
    speak=True,
).value

ALL_PERMISSIONS = discord.Permissions.all().value
ADMINISTRATOR = discord.Permissions(administrator=True).value
VIEW_CHANNEL = discord.Permissions(view_channel=True).value
SEND_MESSAGES = discord.Permissions(send_messages=True).value
SEND_MESSAGES_IN_THREADS = discord.Permissions(send_messages_in_threads=True).value
# Without Send Messages, Discord also takes these away in that channel.
IMPLIED_BY_SEND = discord.Permissions(
    send_tts_messages=True, mention_everyone=True, embed_links=True, attach_files=True
).value


class Snowflakes:
    """Makes unique, increasing snowflake ids that carry the current time.

    discord.py reads creation times (and interaction expiry) out of ids, so they must
    encode "now" and never repeat, even when many are made in the same millisecond.
    """

    def __init__(self, clock: Callable[[], datetime.datetime] | None = None) -> None:
        self._last = 0
        #: Discord's time (the fake's clock): ids carry it, so a message's age and an
        #: interaction's expiry are read on the same clock the fake judges them by.
        self.clock = clock

    def next(self) -> int:
        now = self.clock().timestamp() if self.clock is not None else time.time()
        now_ms = int(now * 1000) - discord.utils.DISCORD_EPOCH
        candidate = (now_ms << 22) | (1 << 17)
        self._last = max(candidate, self._last + 1)
        return self._last

    def next_on(self, shard: int, shards: int) -> int:
        """An id Discord would route to ``shard`` of ``shards`` (``(id >> 22) % shards``): the
        next id, its time moved on by at most ``shards - 1`` milliseconds."""
        stamp = self.next() >> 22
        stamp += (shard - stamp) % max(1, shards)
        self._last = max(self._last, (stamp << 22) | (1 << 17))
        return self._last


def as_permission_value(value: discord.Permissions | int | None, **flags: bool) -> int:
    """Accepts ``discord.Permissions``, a raw int or keyword flags, like discord.py does."""
    if isinstance(value, discord.Permissions):
        base = value.value
    elif value is None:
        base = 0
    else:
        base = int(value)
    return base | discord.Permissions(**flags).value


@dataclass(eq=False)
class FakeFile:
    """A file as the bot uploaded it: the bytes are kept so tests can decode them."""

    filename: str
    data: bytes
    description: str | None = None

    @property
    def content_type(self) -> str:
        for magic, kind in _IMAGE_MAGIC:
            if self.data.startswith(magic):
                return kind
        guessed, _ = mimetypes.guess_type(self.filename)
        return guessed or "application/octet-stream"

    @property
    def is_image(self) -> bool:
        return self.content_type.startswith("image/")

    def image_size(self) -> tuple[int, int] | None:
        # PNG keeps width and height at fixed offsets in its IHDR chunk; enough for the
        # width/height fields discord.py shows on an Attachment.
        if self.data.startswith(b"\x89PNG\r\n\x1a\n") and len(self.data) >= 24:
            return int.from_bytes(self.data[16:20], "big"), int.from_bytes(self.data[20:24], "big")
        return None


_IMAGE_MAGIC = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF8", "image/gif"),
    (b"RIFF", "image/webp"),
)


@dataclass(eq=False)
class FakeAttachment:
    id: int
    file: FakeFile
    url: str

    def to_payload(self) -> JSON:
        payload: JSON = {
            "id": str(self.id),
            "filename": self.file.filename,
            "size": len(self.file.data),
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.file.content_type,
        }
        if self.file.description is not None:
            payload["description"] = self.file.description
        size = self.file.image_size()
        if size is not None:
            payload["width"], payload["height"] = size
        return payload


@dataclass(eq=False)
class FakeRole:
    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False
    bot_id: int | None = None

    def to_payload(self) -> JSON:
        payload: JSON = {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": self.managed,
            "mentionable": False,
            "icon": None,
            "unicode_emoji": None,
            "flags": 0,
        }
        if self.bot_id is not None:
            payload["tags"] = {"bot_id": str(self.bot_id)}
        return payload


@dataclass(eq=False)
class FakeGuild:
    """A server the bot is in: its id (which decides its shard), name and @everyone role."""

    id: int
    name: str
    everyone: FakeRole

    def shard(self, shards: int) -> int:
        return (self.id >> 22) % max(1, shards)


@dataclass(eq=False)
class FakeUser:
    """A Discord account. Test code acts through it: ``await alice.slash("play", ...)``."""

    fake: FakeDiscord = field(repr=False)
    id: int
    name: str
    bot: bool = False
    locale: str = "en-US"
    dms_open: bool = True
    #: False once they left every server the bot is in (FakeDiscord.leave_servers).
    shares_guild: bool = True
    role_ids: list[int] = field(default_factory=list)
    dm_channel: FakeChannel | None = field(default=None, repr=False)
    #: The server nickname (what ``display_name`` shows first), set as Discord lets a member
    #: write it: any text up to 32 characters, markdown and mentions included.
    nick: str | None = None

    def to_payload(self) -> JSON:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": None if self.bot else self.name.title(),
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }

    def member_payload(self, *, permissions: int | None = None) -> JSON:
        payload: JSON = {
            "user": self.to_payload(),
            "roles": [str(r) for r in self.role_ids],
            "joined_at": "2024-01-01T00:00:00+00:00",
            "nick": self.nick,
            "avatar": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if permissions is not None:
            payload["permissions"] = str(permissions)
        return payload

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    # What a person can do. The work is in interactions.py; these read like a story.

    async def slash(
        self, command: str, *, channel: FakeChannel | None = None, **options: Any
    ) -> Invocation:
        """Run ``/command`` (space-separated path for groups) with typed options."""
        from .interactions import run_slash

        return await run_slash(self, command, channel, options)

    async def autocomplete(
        self,
        command: str,
        *,
        focused: str,
        channel: FakeChannel | None = None,
        timeout: float | None = None,
        **options: Any,
    ) -> list[JSON]:
        """Type into option ``focused`` and return the choices the bot offers."""
        from .interactions import DEFAULT_TIMEOUT, run_autocomplete

        wait = DEFAULT_TIMEOUT if timeout is None else timeout
        return await run_autocomplete(self, command, channel, focused, options, wait)

    async def click(
        self, message: FakeMessage, *, label: str | None = None, custom_id: str | None = None
    ) -> Invocation:
        from .interactions import run_click

        return await run_click(self, message, label=label, custom_id=custom_id)

    async def select(
        self, message: FakeMessage, *, values: list[str], custom_id: str | None = None
    ) -> Invocation:
        from .interactions import run_select

        return await run_select(self, message, values=values, custom_id=custom_id)

    async def forge_click(
        self, message: FakeMessage, *, custom_id: str, values: list[str] | None = None
    ) -> Invocation:
        """Click on ``message`` as a modified client could: any ``custom_id`` (a select's
        when ``values`` are given), whether or not the message carries it. For security
        tests: the bot must not trust a custom_id."""
        from .interactions import run_forged

        return await run_forged(self, message, custom_id=custom_id, values=values)

    async def forge_slash(
        self, command: str, *, channel: FakeChannel | None = None, **options: Any
    ) -> Invocation:
        """Run ``/command`` as a modified client could: option values sent as given, with no
        check of their choices, lengths, ranges or types (the option's declared type is
        still named). For hostile-input tests: the bot must check what it is sent."""
        from .interactions import run_slash

        return await run_slash(self, command, channel, options, forged=True)

    def dms(self) -> list[FakeMessage]:
        """Messages the bot sent this user by direct message, oldest first."""
        if self.dm_channel is None:
            return []
        return self.dm_channel.messages(visible_to=self)


@dataclass(eq=False)
class Overwrite:
    target_id: int
    kind: int  # 0 = role, 1 = member, as in Discord's payload
    allow: int = 0
    deny: int = 0

    def to_payload(self) -> JSON:
        return {
            "id": str(self.target_id),
            "type": self.kind,
            "allow": str(self.allow),
            "deny": str(self.deny),
        }


@dataclass(eq=False)
class FakeChannel:
    """A guild text channel or a DM channel, with the messages posted in it."""

    fake: FakeDiscord = field(repr=False)
    id: int
    name: str
    guild_id: int | None
    position: int = 0
    recipient: FakeUser | None = field(default=None, repr=False)
    overwrites: dict[int, Overwrite] = field(default_factory=dict, repr=False)

    @property
    def is_dm(self) -> bool:
        return self.guild_id is None

    @property
    def is_thread(self) -> bool:
        """Threads (threads.py) are channels too; this one is a text channel or a DM."""
        return False

    def to_payload(self) -> JSON:
        if self.recipient is not None:
            return {
                "id": str(self.id),
                "type": 1,
                "last_message_id": None,
                "recipients": [self.recipient.to_payload()],
                "flags": 0,
            }
        return {
            "id": str(self.id),
            "type": 0,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [o.to_payload() for o in self.overwrites.values()],
            "topic": None,
            "nsfw": False,
            "parent_id": None,
            "rate_limit_per_user": 0,
            "last_message_id": None,
            "flags": 0,
        }

    def set_permissions(
        self,
        target: FakeUser | FakeRole,
        *,
        allow: discord.Permissions | int | None = None,
        deny: discord.Permissions | int | None = None,
    ) -> None:
        """Set a channel overwrite; connected bots get a CHANNEL_UPDATE, as on Discord.

        ``games.set_permissions(fake.bot_user, deny=discord.Permissions(send_messages=True))``
        """
        kind = 0 if isinstance(target, FakeRole) else 1
        self.overwrites[target.id] = Overwrite(
            target.id, kind, as_permission_value(allow), as_permission_value(deny)
        )
        self.fake.channel_changed(self)

    def start_thread(
        self, name: str, *, by: FakeUser, message: FakeMessage | None = None
    ) -> FakeChannel:
        """A person opens a public thread here (from ``message``, or on its own); connected
        bots get THREAD_CREATE. Returns the thread (a ``FakeThread``, threads.py)."""
        from .threads import start_thread

        return start_thread(self.fake, self, name, owner=by, message=message)

    def threads(self, *, archived: bool | None = None) -> list[FakeChannel]:
        """This channel's threads, oldest first (``archived``: only those, or only active)."""
        from .threads import threads_of

        return threads_of(self.fake, self, archived=archived)

    def messages(self, *, visible_to: FakeUser | None = None) -> list[FakeMessage]:
        """Messages still in the channel, oldest first, as ``visible_to`` would see them.

        With no viewer, only public messages; ephemeral ones show only to their user.
        """
        viewer = None if visible_to is None else visible_to.id
        return [
            m
            for m in self.fake.messages.in_channel(self.id)
            if not m.deleted and (m.visible_to is None or m.visible_to == viewer)
        ]

    def last_message(self, *, visible_to: FakeUser | None = None) -> FakeMessage | None:
        found = self.messages(visible_to=visible_to)
        return found[-1] if found else None

    def last_image(self, *, visible_to: FakeUser | None = None) -> bytes | None:
        """Bytes of the newest image attached in this channel (embed images included:
        an embed shows ``attachment://name`` files, which are attachments too)."""
        for message in reversed(self.messages(visible_to=visible_to)):
            for file in reversed(message.files):
                if file.is_image:
                    return file.data
        return None


@dataclass(eq=False)
class FakeMessage:
    """A message as Discord stores it; ``visible_to`` is set for ephemeral messages."""

    id: int
    channel_id: int
    guild_id: int | None
    author: FakeUser
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    visible_to: int | None = None
    webhook_id: int | None = None
    #: The application whose webhook sent it (a channel webhook's; None for a person's).
    application_id: int | None = None
    interaction_metadata: JSON | None = None
    #: When it was sent, on Discord's time: the time its id carries (both on the fake's clock,
    #: as a message's ``timestamp`` and its snowflake agree on Discord).
    timestamp: str = ""
    edited_timestamp: str | None = None
    deleted: bool = False
    edits: int = 0
    #: Who this message notified when it was posted (a DM's recipient; people its mentions
    #: pinged, as ``allowed_mentions`` let them), unless it was sent silently. Edits never
    #: notify anyone.
    pinged: list[int] = field(default_factory=list)
    #: The thread started from this message, if any (threads.py).
    thread: FakeChannel | None = field(default=None, repr=False)
    #: A system message's reference (a thread's starter message, "started a thread").
    message_reference: JSON | None = None
    referenced: FakeMessage | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if not self.timestamp:
            self.timestamp = discord.utils.snowflake_time(self.id).isoformat()

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def card(self) -> bool:
        """Whether it is a Components V2 message (``IS_COMPONENTS_V2``): one card."""
        return bool(self.flags & COMPONENTS_V2)

    @property
    def text(self) -> str:
        """What a reader reads as its words: the ``content``, or a card's Text Displays one
        after the other (a V2 message has no content)."""
        if not self.card:
            return self.content
        shown = [c for c in _walk_components(self.components) if c.get("type") == 10]
        return "\n".join(str(c.get("content") or "") for c in shown)

    @property
    def told(self) -> str:
        """What a game post tells of the moves: a classic post's first embed's description,
        or a card's whole text (its moves are among its Text Displays)."""
        if self.card:
            return self.text
        return str(self.embeds[0].get("description") or "") if self.embeds else ""

    @property
    def titles(self) -> list[str]:
        """Its embeds' titles, or a card's heading (its first Text Display's first line,
        without the Markdown ``#`` marks)."""
        if not self.card:
            return [str(e.get("title") or "") for e in self.embeds]
        first = self.text.split("\n", 1)[0]
        return [first.lstrip("#").strip()] if first.startswith("#") else []

    @property
    def alt_texts(self) -> list[str]:
        """The descriptions its pictures carry: a card's media gallery items', else the
        attachments' own (what a screen reader says)."""
        if self.card:
            items = [
                i for c in _walk_components(self.components) if c.get("type") == 12
                for i in c.get("items") or ()
            ]  # fmt: skip
            return [str(i.get("description") or "") for i in items]
        return [a.file.description or "" for a in self.attachments]

    @property
    def loading(self) -> bool:
        """True while the message is a deferral's "Bot is thinking..." placeholder."""
        return bool(self.flags & LOADING)

    @property
    def files(self) -> list[FakeFile]:
        return [a.file for a in self.attachments]

    def images(self) -> list[bytes]:
        return [f.data for f in self.files if f.is_image]

    @property
    def buttons(self) -> list[JSON]:
        return [c for c in _walk_components(self.components) if c.get("type") == 2]

    @property
    def selects(self) -> list[JSON]:
        return [c for c in _walk_components(self.components) if c.get("type") in (3, 5, 6, 7, 8)]

    def button(self, label: str | None = None, *, custom_id: str | None = None) -> JSON:
        for button in self.buttons:
            if (label is None or button.get("label") == label) and (
                custom_id is None or button.get("custom_id") == custom_id
            ):
                return button
        labels = [b.get("label") for b in self.buttons]
        raise LookupError(f"no button label={label!r} custom_id={custom_id!r}; has {labels}")

    @property
    def button_labels(self) -> list[str | None]:
        return [b.get("label") for b in self.buttons]

    def to_payload(self) -> JSON:
        payload: JSON = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.to_payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.to_payload() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            payload["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            payload["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            payload["application_id"] = str(self.application_id)
        if self.interaction_metadata is not None:
            payload["interaction_metadata"] = self.interaction_metadata
        if self.thread is not None:
            payload["thread"] = self.thread.to_payload()
            payload["flags"] = self.flags | HAS_THREAD
        if self.message_reference is not None:
            payload["message_reference"] = self.message_reference
        if self.referenced is not None:
            payload["referenced_message"] = self.referenced.to_payload()
        return payload


def _walk_components(components: list[JSON]) -> list[JSON]:
    """Flatten action rows (and components-v2 containers) into their leaf components."""
    found: list[JSON] = []
    for component in components:
        children = component.get("components")
        if isinstance(children, list):
            found.extend(_walk_components(children))
        accessory = component.get("accessory")
        if isinstance(accessory, dict):
            found.append(accessory)
        if not isinstance(children, list):
            found.append(component)
    return found
