"""The permissions the bot asks for, each with the feature that needs it: one list, read by
the invite link (``bot.run.invite_url``), by ``/mt new`` (which names what is missing before
anything is written), by the check before a game's post, and by docs/admin.md's table
(``tests/ui/test_permissions.py`` holds the four to this list).

Only what a feature uses is here. Not asked for, and why: Manage Threads (the bot archives
only the threads it opened, which their creator may do; a failed archive is only logged),
Manage Messages (it edits and deletes only its own messages), Add Reactions, Use External
Emojis and Mention Everyone (it uses none of them: its pictures are attachments, its pings
name users).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import discord

#: Where a permission is needed: in every game's channel (a game cannot start without it),
#: for games in threads only, or optional (asked for, never required).
Where = Literal["game", "thread", "optional"]


@dataclass(frozen=True)
class Need:
    """One permission: its name in :class:`discord.Permissions`, where it is needed, whether
    a post fails outright without it (checked before each game's post), and the feature that
    needs it, in the admin's words (docs/admin.md)."""

    name: str
    where: Where
    posts: bool
    feature: str


PERMISSIONS: tuple[Need, ...] = (
    Need("view_channel", "game", True, "see the game's channel at all"),
    Need("send_messages", "game", True, "the lobby card, the turn posts, reminders, results"),
    Need(
        "embed_links",
        "game",
        True,
        "the lobby card and the other posts shown as embeds (round ends, catch-up, history)",
    ),
    Need("attach_files", "game", True, "the pictures of the table and of the round's end"),
    Need(
        "read_message_history",
        "game",
        False,
        "after a crash, reading the channel's last messages to see whether a turn post "
        "already went out (without it Discord returns no messages, not an error, and a "
        "post could go out twice)",
    ),
    Need("create_public_threads", "thread", False, "`/mt new thread:True`: the game's own thread"),
    Need("send_messages_in_threads", "thread", False, "every post of a game in its thread"),
    Need(
        "manage_webhooks",
        "optional",
        False,
        "turn posts of moves made from DMs (and the match's end post after one) through the "
        "bot's own webhook, outside its global request budget",
    ),
)

#: Needed in every game's channel: ``/mt new`` refuses, naming them, without one.
NEEDED = tuple(n.name for n in PERMISSIONS if n.where == "game")
#: Those without which a post in the channel fails: checked before a game's post.
POST_NEEDED = tuple(n.name for n in PERMISSIONS if n.where == "game" and n.posts)
#: Needed, beside :data:`NEEDED`, to run a game in a thread the bot opens.
THREAD_NEEDED = tuple(n.name for n in PERMISSIONS if n.where == "thread")
#: Asked for in the invite link, never required (bot.ui.hooks).
RECOMMENDED = tuple(n.name for n in PERMISSIONS if n.where == "optional")


def invite_permissions() -> discord.Permissions:
    """Everything in :data:`PERMISSIONS`: what the invite link asks for."""
    return discord.Permissions(**dict.fromkeys((n.name for n in PERMISSIONS), True))
