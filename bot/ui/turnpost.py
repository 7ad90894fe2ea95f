"""A turn's post, from its first send to its last edit: step 3 of the announcer's cycle.

A move's public post is followed in this one module (issue 51): :class:`TurnPost` chooses
what goes out (ONE turn post for everything since the last present human's turn, a round's
end riding in it: :mod:`bot.ui.roundcard`; or the live post of the same turn grown by a draw,
or that draw held for the next post where growing would cost a request), which path each
post and edit takes, and quietens the post before.

The paths, cheapest first (Discord exempts an interaction's own endpoints from the bot's
global limit of 50 requests a second; docs/discord.md):

- a **followup of the actor's interaction** (free; its token edits it later, also free, for
  15 minutes), where the interaction was made in the game's channel and its token lives;
- the bot's **channel webhook** (:mod:`bot.ui.hooks`: off the global limit, its own bucket;
  the bot token cannot edit its posts, the webhook can, at any age), for a post with the
  game's controls (a turn's; the match end's, issue 47), which the deliverer can find;
- the **bot's own message** (the global limit), one card (Components V2) with the table.

An edit rides on the click's own answer where the click was on that post, else a live token
that made the post or was clicked on it, else the webhook that posted it, else the bot token.
The book of live posts and their tokens is :mod:`bot.ui.posts` (memory); the actor's answer
and the outbox's side are :mod:`bot.ui.route`'s; the words :mod:`bot.ui.messages`'.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from typing import Any

import discord
from discord.utils import MISSING

from bot.engine import SeatView
from bot.i18n import tr
from bot.service import GameStatus, GameSummary, Outcome, RoundEnd
from bot.service.timing import TurnPing
from bot.service.turn import PlayedOut
from bot.ui import components, messages
from bot.ui.components import quiet_card, table_card
from bot.ui.dmturn import since_your_turn
from bot.ui.host import GameBot
from bot.ui.interactions import cannot_post, channel_locale
from bot.ui.limits import CONTENT, fit
from bot.ui.messages import turn_line
from bot.ui.posts import Editor, Post, click_editor, editor_of
from bot.ui.roundcard import fits, merged, round_card
from bot.ui.roundend import round_end_posts
from bot.ui.route import DEAD_TOKEN, PASSING, Route, gone, note_failure, post_nonce, token_alive

log = logging.getLogger(__name__)

#: A message that names people without pinging them (they are told another way).
PING_NOBODY = discord.AllowedMentions.none()
#: Discord's "Cannot edit a message authored by another user" (a post of the webhook).
NOT_AUTHOR = 50005
#: Discord's "Unknown Webhook" (an interaction's token is a webhook too).
UNKNOWN_WEBHOOK = 10015


class TurnPost:
    """A turn's post, from its first send to its last edit (see the module's docstring).

    The live post is read once (:meth:`live`) and kept as this one sends, grows and quietens."""

    def __init__(self, bot: GameBot, route: Route, game_id: int) -> None:
        self.bot, self.route, self.game_id = bot, route, game_id
        self._live: Post | None = None
        self._read = False
        #: The click's own answer, when the actor clicked a post: the free way to edit it.
        i = route.interaction
        self._click = click_editor(i) if i is not None else None

    async def live(self) -> Post | None:
        """The game's live post as this announcement knows it (read once)."""
        if not self._read:
            self._live = await self.bot.posts.latest_table(self.bot.service, self.game_id)
            self._read = True
        return self._live

    def _note(self, post: Post, editor: Editor | None = None) -> None:
        self.bot.posts.note_table(self.game_id, post, editor)  # recorded in a batch
        self._live, self._read = post, True

    async def tell(
        self,
        played: PlayedOut,
        *,
        head: Sequence[str] = (),
        colour: discord.Colour | None = None,
    ) -> str | None:
        """The turn post with the round's end in it (else the round ends' posts, then the turn
        post; or the live post grown, or held), the post before it quietened; returns a
        problem to tell the actor."""
        bot, route = self.bot, self.route
        outs, ping, table = played.outs, played.ping, played.table
        last = outs[-1]
        game = last.game
        locale = channel_locale(route.interaction, client=bot, guild_id=game.guild_id)
        problem = cannot_post(bot, game, route.interaction, locale)
        if problem is not None:
            return problem
        # The moves in order, cut after each round's end: those parts get a post of their
        # own. A draw held back (:meth:`_hold`) is told first, with what followed it.
        held = await self._held_lines(outs, locale, head=head)
        parts: list[tuple[list[str], RoundEnd | None]] = [([*head, *held], None)]
        for o in outs:
            for i, (lines, end) in enumerate(messages.outcome_parts(o, locale)):
                if i == 0:
                    parts[-1] = (parts[-1][0] + lines, end)
                else:
                    parts.append((lines, end))
        posts, ends = [], []
        if any(end is not None for _, end in parts):
            ends = await round_end_posts(bot, played, parts, locale, colour)
            posts = [TablePost(None, embed, files, view) for embed, files, view in ends]
        open_lines = parts[-1][0] if parts[-1][1] is None else []
        nxt = last.next_player
        turn = turn_of(last) if ping is not None else None
        # The same turn may go on (a draw): then its post grows instead of a new one.
        if turn is not None and not posts:
            # A move's lines may wait for the next move; an undo's (``head``) never.
            if not head and await self._hold(turn, open_lines):
                route.held = True  # the outbox keeps where it starts (:meth:`_held_lines`)
                return None
            if await self._grow(game, table, turn, open_lines, locale):
                return None
        if game.status is GameStatus.ACTIVE or (open_lines and last.match_over is None):
            embed = game_embed(game, open_lines, locale, round_no=game.round_no, colour=colour)
            buttons = None
            if turn is not None:
                buttons = components.turn_view(game.id, game.version, locale, knock=False)
            content = turn_line(game, nxt, locale)
            if ping is not None and ping.mention and not ping.dm and not ping.here:
                # The mention is their one notification: it tells them what changed too.
                # What is left of one message once the turn line is in, less a margin for
                # the newline and the mention's own words.
                room = CONTENT - 100 - len(content)
                since = since_your_turn(played.news, locale, room)
                content = "\n".join(t for t in (content, since) if t)
            post = TablePost(content or None, embed, True, buttons)
            rides = merged(ends, embed) if ends else None  # the round's end rides in it
            if rides is not None:
                post, posts = dataclasses.replace(post, ends=rides[0], end_files=rides[1]), []
            posts.append(post)
        for i, post in enumerate(posts):
            told = (turn, tuple(open_lines)) if i == len(posts) - 1 and turn is not None else None
            nonce = post_nonce(game, i)
            problem = await self._send(game, table, post, locale, mentions_for(ping), told, nonce)
            if problem is not None:
                return problem
        return None

    # ------------------------------------------------------------------ sending

    async def _send(
        self,
        game: GameSummary,
        table: SeatView | None,
        post: TablePost,
        locale: str,
        mentions: discord.AllowedMentions,
        turn: tuple[tuple[object, ...], tuple[str, ...]] | None,
        nonce: str | None = None,
    ) -> str | None:
        """Send one game post (with the table picture if it shows the table), then quieten the
        one before it and remember this one as the live post (with ``turn``: the turn it is
        for and its lines, so a draw can grow it)."""
        bot, route = self.bot, self.route
        files = [] if isinstance(post.picture, bool) else post.picture
        if post.picture is True and table is not None:
            files = await bot.pictures.post_table(post.embed, table, game, locale)
        files = [*post.end_files, *files]

        def layout(controls: discord.ui.View | None) -> discord.ui.LayoutView | None:
            if not post.ends:
                return table_card(post.content, post.embed, files, controls)
            return round_card(post.ends, post.end_files, post.content, post.embed, files, controls)

        # One card where the path takes one (the bot's own message); the webhook, a post with
        # controls the deliverer finds after a crash (a turn's, the Rematch: no nonce there).
        one, hooked = layout(post.view) if turn is not None else None, post.view is not None
        try:
            at = game.channel_id
            message, editor = await self._post(post, files, mentions, at, nonce, hooked, one)
        except (discord.HTTPException, *PASSING) as exc:
            log.warning("game %s: could not post the table: %s", game.id, exc)
            note_failure(route, "post", exc)
            gone(bot, game.channel_id, exc)
            detail = exc.text or str(exc.status) if isinstance(exc, discord.HTTPException) else ""
            return tr("error.cannot-post", locale, detail=detail or type(exc).__name__)
        await self._quieten(hooked_post=editor is not None and not editor.free)
        is_card = message.flags.components_v2
        quiet = layout(None) if is_card else None
        told, lines = turn if turn is not None else (None, None)
        buttons = post.view is not None  # a draw's edit keeps the round's end and pictures:
        kept = tuple(a for a in message.attachments if post.ends and a.filename != "table.png")
        where = (message.channel.id, message.id, buttons, told, lines)
        new = Post(*where, card=is_card, quiet=quiet, head=post.ends, kept=kept)
        self._note(new, editor)
        return None

    async def _post(
        self,
        post: TablePost,
        files: Sequence[discord.File],
        mentions: discord.AllowedMentions,
        channel_id: int,
        nonce: str | None,
        hooked: bool,
        card: discord.ui.LayoutView | None,
    ) -> tuple[discord.Message, Editor | None]:
        """A public post in ``channel_id``: a followup of the interaction when it rides
        (free; the token that sent it can edit it later, also free); else, for a post with
        controls (``hooked``: a turn's, the match end's), through the bot's channel webhook
        where it has one (off the global limit, editable through it: :mod:`bot.ui.hooks`);
        else a channel message, sent with ``nonce`` (Discord returns the message already sent
        with it instead of posting twice: a retry after a crash; a webhook takes no nonce,
        and the deliverer looks for the post in the channel first); ``card``: the same as one
        card, for the bot's own message only (Execute Webhook takes no files with V2:
        docs/discord.md). Raises :class:`discord.HTTPException` when Discord refuses."""
        route, i = self.route, self.route.interaction
        payload = fit(
            "game post",
            content=post.content,
            embeds=[*post.ends, post.embed],
            files=list(files),
            view=post.view or MISSING,
            allowed_mentions=mentions,
        )
        if i is not None and await route.follows_up(channel_id):
            try:
                sent = await i.followup.send(
                    wait=True, **{**payload, "content": payload["content"] or MISSING}
                )
                return sent, editor_of(sent, i)
            except discord.HTTPException as exc:
                if exc.code not in DEAD_TOKEN:
                    raise
                log.info("interaction %s: token refused (%s), posting instead", i.id, exc.code)
                for file in files:
                    file.reset(seek=True)
        if hooked:
            via_hook = await self.bot.hooks.send(channel_id, payload)
            if via_hook is not None:
                return via_hook
        channel = self.bot.get_channel(channel_id)
        target = (
            channel
            if isinstance(channel, discord.abc.Messageable)
            else self.bot.get_partial_messageable(channel_id)
        )
        if card is not None:
            payload = fit("game post", view=card, files=list(files), allowed_mentions=mentions)
        if nonce is not None:
            payload["nonce"] = nonce
        message = await target.send(**payload)
        return message, None

    # ------------------------------------------------------------------ a draw: grow or hold

    async def _hold(self, turn: tuple[object, ...], lines: Sequence[str]) -> bool:
        """A move that leaves its player to move (a draw whose tile fits, a double), where
        growing the live post of that turn would cost a request (:meth:`edits_free` says no:
        a move from the DM, a token expired): the channel hears of it with the move that
        follows, in one post, instead of an edit now; the player's own answer told them.
        True when held; False when there is no such post or the edit is free."""
        latest = await self.live()
        if latest is None or not latest.live or latest.turn != turn or latest.lines is None:
            return False
        if self.edits_free(latest.message_id):
            return False  # free: the post grows at once
        self.bot.posts.hold(self.game_id, lines)
        return True

    async def _held_lines(
        self, outs: Sequence[Outcome], locale: str, *, head: Sequence[str]
    ) -> list[str]:
        """The lines held for the post being made now, told after a restart too (issue 34).

        From the book's memory; else, when this process did not make the live post (it
        restarted since: the book does not know that post's turn), from the event log: the
        outbox keeps, durably, the seq of the first event held (``held_from``, written as the
        draw's announcement is settled: :func:`bot.ui.route.settle`), and the lines are
        rebuilt from there up to the new post's own first move, in the words the live path
        used (the deliverer's :func:`bot.service.outbox.owed_outcome` and
        :func:`bot.ui.messages.outcome_parts`). A seq rather than the words: nothing
        rendered is stored (the outbox's rule), and an undo of the draw meanwhile leaves it
        out. None with ``head`` (an undo: a held draw was taken back with it)."""
        service = self.bot.service
        lines = self.bot.posts.take_held(self.game_id)
        if lines or head:
            return list(lines)
        latest = await self.live()
        if latest is not None and latest.turn is not None:
            return []  # this process made the live post: what it held is in memory
        row = await service.outbox.owed(self.game_id)
        if row is None or row.held_from is None:
            return []
        out = await service.owed_outcome(self.game_id, row.held_from)
        if out is None:
            return []
        first = next((s.seq for o in outs for s in o.steps), None)
        steps = tuple(s for s in out.steps if first is None or s.seq < first)
        if not steps:
            return []
        told = dataclasses.replace(
            out, steps=steps, rounds_ended=(), rounds_started=(), facts=(), match_over=None
        )
        return messages.outcome_parts(told, locale)[-1][0]

    async def _grow(
        self,
        game: GameSummary,
        table: SeatView | None,
        turn: tuple[object, ...],
        lines: Sequence[str],
        locale: str,
    ) -> bool:
        """Add ``lines`` to the live post of this same turn (text, fresh picture and buttons)
        by an edit; False when there is no such post or Discord refused the edit."""
        latest = await self.live()
        if latest is None or not latest.live or latest.turn != turn or latest.lines is None:
            return False
        if latest.card:  # a new table in a card's edit is a file in a V2 edit, which Discord's
            return False  # pages leave unclear: a new post says it either way (docs/discord.md)
        told = (*latest.lines, *lines)
        embed = game_embed(game, told, locale, round_no=game.round_no)
        embeds = [*latest.head, embed]  # a round's end in the post stays, its picture too
        if latest.head and not fits(embeds):
            return False
        pictures = self.bot.pictures
        files = [] if table is None else await pictures.post_table(embed, table, game, locale)
        try:
            await self.edit(
                latest.channel_id,
                latest.message_id,
                content=turn_line(game, game.turn, locale) or None,
                embeds=embeds,
                attachments=[*latest.kept, *files],
                view=components.turn_view(game.id, game.version, locale, knock=False),
                allowed_mentions=PING_NOBODY,
            )
        except discord.HTTPException as exc:
            log.info("game %s: could not add to the turn post: %s", game.id, exc)
            return False
        self._note(dataclasses.replace(latest, lines=told))
        return True

    # ------------------------------------------------------------------ the post before

    async def _quieten(self, *, hooked_post: bool) -> None:
        """Take the move controls off the game's previous post, keeping its text and pictures
        (a round's end in it too), so only the newest post has them (issue 47.2: at any age).
        Nothing is deleted; an edit Discord refuses (a deleted message, 30046) is logged and
        left: an old post's buttons act on the table as it is now. Made where it is off the bot's
        global limit — a token that can edit it (a followup's, a click's) or the webhook that
        posted it — whatever the post's age (docs/discord.md); with the bot token only where
        the new post went through the webhook (``hooked_post``: the move spent nothing on its
        post; a followup whose token expired), never on a move whose post was itself paid."""
        game_id = self.game_id
        previous = await self.live()
        if previous is None or not previous.live:
            return
        # A card loses its rows by its layout without them (kept when sent, or read from the
        # clicked message), a classic post by an empty view (a webhook edit ignores
        # ``view=None``'s ``[]``); a post of unknown kind (read after a restart) is left.
        mine, now = self._click, self.bot.now()
        hooked = self.bot.posts.editor(game_id, previous.message_id, now, webhook=True)
        on_it = mine if mine is not None and mine.message_id == previous.message_id else hooked
        seen = on_it.message if on_it is not None else None  # a click's: read what it is
        card = seen.flags.components_v2 if seen is not None else previous.card
        quiet: discord.ui.View | discord.ui.LayoutView | None = discord.ui.View()
        if card is None or card:
            quiet = (quiet_card(seen) or previous.quiet) if card else None
        free = hooked is not None or self.edits_free(previous.message_id)
        if quiet is not None and (free or hooked_post):
            try:
                await self.edit(previous.channel_id, previous.message_id, view=quiet)
            except discord.HTTPException as exc:
                log.info(
                    "game %s: could not quieten message %s: %s", game_id, previous.message_id, exc
                )
        self._note(dataclasses.replace(previous, live=False))

    # ------------------------------------------------------------------ editing

    def edits_free(self, message_id: int) -> bool:
        """Whether an edit of ``message_id`` would ride on a token (the acting click's own
        message, or a live token that made it or was clicked on it), as :meth:`edit` tries
        first: no request against the bot's global limit."""
        i, mine = self.route.interaction, self._click
        if mine is not None and mine.message_id == message_id and token_alive(i):  # type: ignore[arg-type]
            return True
        return self.bot.posts.editor(self.game_id, message_id, self.bot.now()) is not None

    async def edit(self, channel_id: int, message_id: int, **fields: Any) -> discord.Message | None:
        """Edit one of the game's posts, free where a token can: the acting click's own
        message, else a live token that made it or was clicked on it, else the webhook that
        posted it; else with the bot token. Raises :class:`discord.HTTPException` when
        Discord refuses."""
        fields = fit("game post edit", **fields)
        book, game_id = self.bot.posts, self.game_id
        i, mine = self.route.interaction, self._click
        if mine is not None and mine.message_id == message_id and token_alive(i):  # type: ignore[arg-type]
            editor: Editor | None = mine
        else:
            editor = book.editor(game_id, message_id, self.bot.now(), webhook=True)
        if editor is not None:
            try:
                edited: discord.Message | None = await editor.edit(**fields)
                return edited
            except discord.HTTPException as exc:
                if exc.code not in DEAD_TOKEN:
                    raise
                book.drop_editor(game_id, editor)
                if not editor.free:  # the webhook is gone: the bot token cannot edit its post
                    self.bot.hooks.gone(channel_id, editor.hook_id)
                    raise
                log.info("game %s: token refused an edit (%s), editing directly", game_id, exc)
                _rewind(fields)
        partial = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            return await partial.edit(**fields)
        except discord.Forbidden as exc:
            if exc.code != NOT_AUTHOR:
                raise
            refused = exc
        # The webhook's post, and the process forgot its editor (a restart): find the
        # webhook again and edit through it (one refused request per post per restart, and
        # only where an edit must be made: nothing is stored to know it sooner).
        hooked = await self.bot.hooks.editor_for(channel_id, message_id)
        if hooked is None:
            raise refused
        book.note_editor(game_id, hooked)
        _rewind(fields)
        try:
            return await hooked.edit(**fields)  # type: ignore[no-any-return]
        except discord.NotFound as exc:
            if exc.code == UNKNOWN_WEBHOOK:
                book.drop_editor(game_id, hooked)
                self.bot.hooks.forget(channel_id)
            raise


def _rewind(fields: dict[str, Any]) -> None:  # files read by a refused request: from the start
    for file in fields.get("attachments") or ():
        if isinstance(file, discord.File):
            file.reset(seek=True)


def turn_of(last: Outcome) -> tuple[object, ...] | None:
    """The turn now being played, as a turn post knows it: (round, seat, turn start)."""
    game, nxt = last.game, last.next_player
    if game.status is not GameStatus.ACTIVE or nxt is None:
        return None
    return (game.round_no, nxt.seat, game.turn_since)


@dataclasses.dataclass(frozen=True, slots=True)
class TablePost:
    """One post of a game: its text, its embed, its picture (True: the table as it stands,
    drawn when sent; else the files it carries) and its buttons; ``ends`` and ``end_files``:
    the round's end riding in it, before the embed and the picture (:mod:`bot.ui.roundcard`)."""

    content: str | None
    embed: discord.Embed
    picture: bool | list[discord.File]
    view: discord.ui.View | None
    ends: tuple[discord.Embed, ...] = ()
    end_files: list[discord.File] = dataclasses.field(default_factory=list)


def mentions_for(ping: TurnPing | None) -> discord.AllowedMentions:
    """Who the turn post pings: the player to move, if a mention is how they hear of their
    turn and it is not their quiet time; else nobody (the mention still reads as a name)."""
    if ping is None or not ping.mention or ping.quiet_until is not None:
        return PING_NOBODY
    who = [discord.Object(ping.user_id)]
    return discord.AllowedMentions(users=who, roles=False, everyone=False)


def game_embed(
    game: GameSummary,
    lines: Sequence[str],
    locale: str | None,
    *,
    round_no: int | None,
    colour: discord.Colour | None = None,
) -> discord.Embed:
    """The turn post's embed: the game, the round, and the lines it tells."""
    rounds, now = game.rules.rounds_total, (round_no or 0) + 1
    return discord.Embed(
        title=tr("table.title", locale, game=game.id, round=now, rounds=rounds),
        description=messages.clip(lines) or None,
        colour=colour or discord.Colour.dark_green(),
    )
