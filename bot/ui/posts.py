"""The bot's memory of its own game messages: the latest table post of each game, and each
player's hand message of the round.

The announcer needs both to keep the channel and the DMs readable: when a new turn post goes
out, the previous one is edited quiet (its buttons removed, its picture kept); a player's hand
is one DM per round, edited in place. Both must survive a restart, so the memory here is a
cache over the ``messages`` table (kind ``table``; kind ``hand:<round>:<user>``). The table
post is written in batches by the scheduler cog (``mt_table_posted``), which also flushes it
when the bot closes; a hand message is written once, when it is created (once per player per
round).
"""

from __future__ import annotations

import dataclasses
from datetime import datetime

from bot.service import GameService


@dataclasses.dataclass(frozen=True, slots=True)
class Post:
    """One message of the bot: where it is, and whether it may still carry live buttons."""

    channel_id: int
    message_id: int
    #: False once the bot knows the message has no buttons (nothing to quieten).
    live: bool = True
    #: The turn a turn post is for, (round, seat, turn start), and the lines it tells: a
    #: move that leaves the same player to play (a draw) is added to it by an edit. Unknown
    #: after a restart (then a new post goes out).
    turn: tuple[object, ...] | None = None
    lines: tuple[str, ...] | None = None


def hand_kind(round_no: int, user_id: int) -> str:
    """The ``messages`` kind of a player's hand message of one round."""
    return f"hand:{round_no}:{user_id}"


class PostBook:
    """The latest table post per game and the hand messages of the rounds being played."""

    def __init__(self) -> None:
        self._tables: dict[int, Post] = {}
        self._hands: dict[tuple[int, int, int], Post] = {}

    async def latest_table(self, service: GameService, game_id: int) -> Post | None:
        """The game's latest table post (from the database after a restart)."""
        post = self._tables.get(game_id)
        if post is not None:
            return post
        row = (await service.messages(game_id)).get("table")
        if row is None:
            return None
        post = Post(row.channel_id, row.message_id)
        self._tables[game_id] = post
        return post

    def note_table(self, game_id: int, post: Post) -> None:
        """The game's newest table post (the scheduler cog writes it to the database)."""
        self._tables[game_id] = post

    async def hand(
        self, service: GameService, game_id: int, round_no: int, user_id: int
    ) -> Post | None:
        """The player's hand message of this round, if one was sent."""
        key = (game_id, round_no, user_id)
        post = self._hands.get(key)
        if post is not None:
            return post
        row = (await service.messages(game_id)).get(hand_kind(round_no, user_id))
        if row is None:
            return None
        post = Post(row.channel_id, row.message_id)
        self._hands[key] = post
        return post

    async def note_hand(
        self,
        service: GameService,
        game_id: int,
        round_no: int,
        user_id: int,
        post: Post,
        now: datetime,
    ) -> None:
        """Remember a new hand message at once (one write per player per round), dropping
        the player's earlier rounds from memory."""
        for key in [k for k in self._hands if k[0] == game_id and k[2] == user_id]:
            del self._hands[key]
        self._hands[(game_id, round_no, user_id)] = post
        await service.record_message(
            game_id, hand_kind(round_no, user_id), post.channel_id, post.message_id, now
        )

    def forget(self, game_id: int) -> None:
        """A finished game's messages stay in the database; memory lets its hands go. Its
        last post (the result) is kept: ``/hand`` links to it after the match, and the
        database may not have it yet (table posts are written in batches)."""
        for key in [k for k in self._hands if k[0] == game_id]:
            del self._hands[key]
