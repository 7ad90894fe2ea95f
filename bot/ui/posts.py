"""The bot's memory of each game's live post: the latest turn post, the one that carries the
turn buttons, and the free ways to edit it (what to do with them is the turn post's:
:mod:`bot.ui.turnpost`).

When a new turn post goes out, the one before it is edited quiet (its buttons removed, its
picture kept) where a token makes that free; a draw that leaves the same player to move grows
the live post by an edit, or is held for the next post where that edit would not be free. An
edit made with the bot token counts against Discord's global limit; one made with an
interaction's token does not. So besides where the post is, the book keeps, in memory only,
the interaction tokens that can still edit it for 15 minutes: the token of the followup that
created it, and that of a click on it acknowledged without a new message (the Play button).
Tokens are secrets that die within 15 minutes: they never go to the database. The post itself
survives a restart through the ``messages`` table (kind ``table``): the book records each new
table post there, in batches (one small transaction per :data:`FLUSH_DELAY`, not one per
move: a transaction per move for it would cost more than the move's own), and flushes what
is left when the bot closes; ``/mt mygames`` and ``/mt nudge`` link to it meanwhile
(:meth:`PostBook.known`, where it is newer than the database's row).

The book also keeps each player's latest interaction acknowledged in their DM with the bot
(:meth:`PostBook.dm_click`, memory only): while its token lives, a followup on it is a free
new message in that DM, which the match's end DM takes (:mod:`bot.ui.matchend`).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import datetime as dt
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord

from bot.service import GameService
from bot.service.errors import log_failure, unreachable

log = logging.getLogger(__name__)

#: Seconds between the first unrecorded table post and the write that records it.
FLUSH_DELAY = 2.0

#: Writes table posts to the database: rows of (game, kind, channel, message).
Recorder = Callable[[list[tuple[int, str, int, int]]], Awaitable[None]]

#: How long before Discord's 15 minutes a token is no longer trusted (a request takes time).
TOKEN_MARGIN = dt.timedelta(minutes=1)
#: Past this many players' DM clicks kept, those whose tokens died are let go.
DM_CLICKS_KEPT = 1000


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
    #: A card (Components V2), whose edits are whole layouts (None: not known, a post read
    #: from the database after a restart); ``quiet``: that card without its controls.
    card: bool | None = None
    quiet: discord.ui.LayoutView | None = dataclasses.field(default=None, compare=False)
    #: A round's end riding in the post (issue 47): its embeds, and its pictures as
    #: attachments, which an edit that grows the post keeps (bot.ui.roundcard).
    head: tuple[discord.Embed, ...] = dataclasses.field(default=(), compare=False)
    kept: tuple[discord.Attachment, ...] = dataclasses.field(default=(), compare=False)


@dataclasses.dataclass(frozen=True, slots=True)
class Editor:
    """A way to edit one message with an interaction's token (free of the global limit)
    until ``expires``: ``edit(**fields)`` takes ``discord.Message.edit``'s keywords."""

    message_id: int
    expires: dt.datetime
    edit: Callable[..., Awaitable[Any]]
    #: False for the bot's channel webhook (bot.ui.hooks): off the global limit too, but its
    #: bucket is shared by every game of the channel and its threads, so it is used where an
    #: edit must be made (the bot token cannot edit a webhook's post) and to take an old
    #: post's controls off (one edit a move), never to grow a post by a draw.
    free: bool = True
    #: The channel webhook's id, for its editor (None: an interaction's token).
    hook_id: int | None = None
    #: The message clicked, for a click's editor: what it is (a card?) is read from it.
    message: discord.Message | None = None


def editor_of(message: discord.WebhookMessage, interaction: discord.Interaction[Any]) -> Editor:
    """The free way to edit a followup: with the token that sent it."""
    return Editor(message.id, interaction.expires_at, message.edit)


def click_editor(interaction: discord.Interaction[Any]) -> Editor | None:
    """The free way to edit the message a button was clicked on, when the click was
    acknowledged without a message of its own (then the token's "original" IS that message)."""
    message = interaction.message
    deferred_update = discord.InteractionResponseType.deferred_message_update
    if message is None or interaction.response.type is not deferred_update:
        return None
    edit = interaction.edit_original_response
    return Editor(message.id, interaction.expires_at, edit, message=message)


class PostBook:
    """The latest table post of each game, and the tokens that can still edit it; with
    ``record``, new table posts are written to the database in batches."""

    #: Seconds a new table post waits to be recorded (tests shorten it).
    flush_delay = FLUSH_DELAY

    def __init__(self, record: Recorder | None = None) -> None:
        self._tables: dict[int, Post] = {}
        self._editors: dict[int, list[Editor]] = {}
        self._held: dict[int, tuple[str, ...]] = {}
        self._record = record
        #: New table posts not written yet: game -> (channel, message).
        self._unrecorded: dict[int, tuple[int, int]] = {}
        self._flush: asyncio.Task[None] | None = None
        #: Whether the last flush met a database outage (said once, at its first failure).
        self._flush_down = False
        #: Each player's latest interaction acknowledged in their DM with the bot.
        self._dm_clicks: dict[int, discord.Interaction[Any]] = {}

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

    def note_table(self, game_id: int, post: Post, editor: Editor | None = None) -> None:
        """The game's newest table post (a new one is written to the database in the next
        batch), with the token that made it, if any. Tokens for older posts are dropped."""
        known = self._tables.get(game_id)
        if known is not None and known.message_id != post.message_id:
            self._editors.pop(game_id, None)
        if known is None or known.message_id != post.message_id:
            self._note_unrecorded(game_id, post)
        self._tables[game_id] = post
        if editor is not None:
            self.note_editor(game_id, editor)

    def note_editor(self, game_id: int, editor: Editor) -> None:
        """One more token that can edit a message of this game (newest first; a click on an
        old post must not push out the tokens of the live one, so a few are kept). The
        webhook's editor (not ``free``) is never pushed out by clicks: it does not expire, and
        without it the webhook's post could only be edited after a refused request."""
        older = self._editors.get(game_id, ())
        kept = [e for e in older if e.free][:3]
        same = not editor.free  # a webhook's editor found again replaces the one it had
        hooked = [
            e for e in older if not e.free and not (same and e.message_id == editor.message_id)
        ]
        self._editors[game_id] = [editor, *kept, *hooked]

    def editor(
        self, game_id: int, message_id: int, now: dt.datetime, *, webhook: bool = False
    ) -> Editor | None:
        """A token that can still edit ``message_id`` for free, if one is alive (``webhook``:
        or the bot's channel webhook, for an edit that must be made)."""
        for e in self._editors.get(game_id, ()):
            alive = e.message_id == message_id and now < e.expires - TOKEN_MARGIN
            if alive and (e.free or webhook):
                return e
        return None

    def drop_editor(self, game_id: int, editor: Editor) -> None:
        """A token Discord no longer takes (expired early, message gone)."""
        self._editors[game_id] = [e for e in self._editors.get(game_id, ()) if e is not editor]

    def hold(self, game_id: int, lines: Sequence[str]) -> None:
        """A draw's lines held for the game's next post (:meth:`TurnPost._hold
        <bot.ui.turnpost.TurnPost>`: growing the live post would have cost a request)."""
        self._held[game_id] = (*self._held.get(game_id, ()), *lines)

    def take_held(self, game_id: int) -> tuple[str, ...]:
        """The held lines, for the post being made now (in memory only; after a restart the
        turn post rebuilds them from the log)."""
        return self._held.pop(game_id, ())

    def forget(self, game_id: int) -> None:
        """A finished game's tokens go. Its last post (the result) is kept: ``/hand`` links
        to it after the match, and the database may not have it yet (table posts are written
        in batches)."""
        self._editors.pop(game_id, None)
        self._held.pop(game_id, None)

    def note_dm_click(self, interaction: discord.Interaction[Any]) -> None:
        """An interaction acknowledged in a DM with the bot (no server: the bot is installed
        in servers only, so its DM): while its token lives, a followup on it is a new message
        in that DM, off the global limit (the end-of-match DM, :mod:`bot.ui.matchend`)."""
        if interaction.guild_id is not None or interaction.channel_id is None:
            return
        self._dm_clicks[interaction.user.id] = interaction
        if len(self._dm_clicks) > DM_CLICKS_KEPT:
            now = dt.datetime.now(dt.UTC)
            for user_id, i in list(self._dm_clicks.items()):
                if i.expires_at <= now:
                    del self._dm_clicks[user_id]

    def dm_click(self, user_id: int, now: dt.datetime) -> discord.Interaction[Any] | None:
        """The player's latest DM interaction while its token lives (less the margin)."""
        i = self._dm_clicks.get(user_id)
        return i if i is not None and now < i.expires_at - TOKEN_MARGIN else None

    def drop_dm_click(self, interaction: discord.Interaction[Any]) -> None:
        """A DM interaction Discord no longer takes a followup on (or one not to try again)."""
        if self._dm_clicks.get(interaction.user.id) is interaction:
            del self._dm_clicks[interaction.user.id]

    # ------------------------------------------------------------------ recording

    def _note_unrecorded(self, game_id: int, post: Post) -> None:
        if self._record is None:
            return
        self._unrecorded[game_id] = (post.channel_id, post.message_id)
        if self._flush is None or self._flush.done():
            self._flush = asyncio.get_running_loop().create_task(self._flush_later())

    def known(self, game_id: int) -> Post | None:
        """The game's latest table post as this process knows it (memory only): newer than
        the database's row while a batch waits or is being written."""
        return self._tables.get(game_id)

    def unrecorded(self, game_id: int) -> tuple[int, int] | None:
        """The game's newest table post, (channel, message), while it is not written yet:
        what the next flush writes (readers who want the latest post use :meth:`known`)."""
        return self._unrecorded.get(game_id)

    async def _flush_later(self) -> None:
        # A post noted while a write is under way starts no task of its own (this one is
        # running): it is written by the next pass, unless the write failed (then the
        # flush at close takes it, as it takes the failed rows).
        while await self._flush_after_delay() and self._unrecorded:
            pass

    async def _flush_after_delay(self) -> bool:
        await asyncio.sleep(self.flush_delay)
        return await self.flush()

    async def flush(self) -> bool:
        """Write the new table posts noted since the last write, in one transaction; False
        when the write failed (the rows are kept)."""
        if not self._unrecorded or self._record is None:
            return True
        # The rows stay in ``_unrecorded`` until the write has committed: a reader between
        # (a reminder's link, /mt mygames) finds the post there, as the database does not
        # have it yet.
        rows = dict(self._unrecorded)
        try:
            await self._record([(g, "table", c, m) for g, (c, m) in rows.items()])
        except BaseException as exc:
            # Kept for the next flush (the one at close, when a stop cancelled this one
            # mid-write), with newer posts noted meanwhile.
            if not isinstance(exc, Exception):
                raise
            if unreachable(exc) is not None and self._flush_down:
                return False  # the outage was said at its first failed flush
            self._flush_down = unreachable(exc) is not None
            # An outage is said once, as an ERROR, by bot.ui.host.Outage; here it is a warning.
            level = logging.WARNING if self._flush_down else logging.ERROR
            log_failure(log, level, "could not record %d table messages", exc, len(rows))
            return False
        else:
            self._flush_down = False
            for game_id, written in rows.items():
                if self._unrecorded.get(game_id) == written:  # a newer post waits its turn
                    del self._unrecorded[game_id]
            return True

    async def close(self) -> None:
        """Stop the pending batch and write what is left (the bot is closing; the database
        is still open)."""
        if self._flush is not None and not self._flush.done():
            self._flush.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._flush
        await self.flush()
