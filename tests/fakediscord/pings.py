"""Who a new message notifies, as Discord decides it: the fake's record of pings.

A message pings a person when it is new (edits never notify), public (ephemeral answers do
not), not sent with the "silent" flag (``SUPPRESS_NOTIFICATIONS``), and either lands in that
person's DMs or mentions them (``<@id>`` in its content) while its ``allowed_mentions`` let
user mentions through (no ``allowed_mentions`` at all: Discord parses every mention). Role,
@everyone and reply pings are not modelled. ``FakeDiscord.pings`` lists them in order;
``fake.pings_for(user)`` gives one person's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .models import JSON, SUPPRESS_NOTIFICATIONS, FakeMessage

if TYPE_CHECKING:
    from .server import FakeDiscord

MENTION = re.compile(r"<@!?(\d+)>")


@dataclass(frozen=True)
class Ping:
    """One notification: ``how`` is ``"dm"`` or ``"mention"``."""

    user_id: int
    message_id: int
    channel_id: int
    how: str


def notified(fake: FakeDiscord, message: FakeMessage, body: JSON) -> list[Ping]:
    """The pings a message the bot just created sends (``body``: what the bot sent)."""
    flags = message.flags | int(body.get("flags") or 0)
    if flags & SUPPRESS_NOTIFICATIONS or message.visible_to is not None:
        return []
    channel = fake.channels.get(message.channel_id)
    if channel is None:
        return []
    if channel.recipient is not None:
        return [Ping(channel.recipient.id, message.id, channel.id, "dm")]
    mentioned = [int(found) for found in MENTION.findall(message.content)]
    allowed = body.get("allowed_mentions")
    if allowed is not None:
        listed = {int(u) for u in allowed.get("users") or []}
        parse_all = "users" in (allowed.get("parse") or [])
        mentioned = [u for u in mentioned if parse_all or u in listed]
    pinged = dict.fromkeys(u for u in mentioned if u in fake.users and u != message.author.id)
    return [Ping(user_id, message.id, channel.id, "mention") for user_id in pinged]
