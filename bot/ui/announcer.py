"""The announcer: the one place that turns what the service did into Discord messages.

Cogs, the scheduler cog and start-up hand it an :class:`~bot.service.Outcome` (or an undo, a
new lobby) and it posts, edits and DMs; nothing else in the bot writes to a channel about a
game (plain reminders and notices: :mod:`bot.ui.notices`). :func:`announce` is the turn
cycle, top to bottom:

1. the actor's private answer, at once;
2. the rest of the turn, one call to the service (:meth:`~bot.service.turn.Turns.play_out`:
   computer players' and away players' turns, the ping, what the pinged player reads);
3. the turn's post (:class:`TurnPost`, from its first send to its last edit): ONE turn post
   for everything since the last present human's turn (a line per move, the table picture,
   the mention of the player to move and the turn buttons), a round's end a post of its own
   before it; a draw that leaves the same player to move grows the live post instead (held
   for the next move where that edit would cost a request); the post before goes quiet
   where a token makes it free (its buttons act on the table as it is when pressed);
4. the player to move hears of it ONCE, as they chose (``/mt me ping:``), with their hand
   (:func:`bot.ui.dmturn.tell_next_player`);
5. once the match is over, every human hears how it ended (:mod:`bot.ui.matchend`); then
   what the commit owed is cleared (:func:`bot.ui.route.settle`).

Every message takes the cheapest way Discord allows (:mod:`bot.ui.route`): what follows a
player's own action rides on that action's interaction — free of the bot's global limit of 50
requests a second — and only what has nothing to ride on (a DM, a move the scheduler made, an
edit of a post whose token expired) spends the budget. Pictures are drawn when someone will
look at them: the table once per post, a hand when its owner's turn comes.

Callers hold the game's posting lock (:meth:`~bot.ui.host.GameBot.game_lock`) around a change
and its announcement, so the channel shows moves in the order they landed. A function that
returns ``str | None`` returns a problem to tell the acting user privately (e.g. the bot may
not post in the channel); it never raises for a Discord failure after the move was made.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence

import discord

from bot.engine import SeatView
from bot.i18n import tr
from bot.service import GameStatus, GameSummary, Outcome, RoundEnd
from bot.service.timing import TurnPing
from bot.service.turn import PlayedOut
from bot.service.undo import Undone
from bot.ui import components, messages
from bot.ui.components import quiet_card, table_card
from bot.ui.dmturn import since_your_turn, tell_next_player
from bot.ui.facts import followers_lines, undone_words
from bot.ui.host import GameBot
from bot.ui.interactions import Interaction, cannot_post, channel_locale
from bot.ui.limits import CONTENT, shown
from bot.ui.lobbycard import (
    close_lobby,
    close_thread,
    in_thread,
    open_thread,
    post_lobby,
    refresh_lobby,
    thread_result,
)
from bot.ui.matchend import tell_the_end
from bot.ui.messages import turn_line
from bot.ui.pictures import Superseded
from bot.ui.posts import Editor, Post, click_editor, is_old
from bot.ui.roundend import round_end_post
from bot.ui.route import PASSING, Route, gone, note_failure, post_nonce, settle

log = logging.getLogger(__name__)


#: The lobby card is posted and kept up to date through the announcer too.
__all__ = ["close_lobby", "open_thread", "post_lobby", "refresh_lobby"]

#: A message that names people without pinging them (they are told another way).
PING_NOBODY = discord.AllowedMentions.none()


# ---------------------------------------------------------------------- the turn cycle


async def run_computers(bot: GameBot, game_id: int, interaction: Interaction | None = None) -> None:
    """Computer players move until a human is to play, then one post tells it all (start-up)."""
    await announce(bot, [], interaction, game_id=game_id)


async def announce(
    bot: GameBot,
    outs: Sequence[Outcome],
    interaction: Interaction | None,
    *,
    game_id: int | None = None,
    head: Sequence[str] = (),
    colour: discord.Colour | None = None,
    answer: str | None = None,
    actor_id: int | None = None,
    controls: discord.ui.View | None = None,
) -> str | None:
    """The turn cycle after a change (see the module's docstring); ``answer`` is the actor's
    private answer (with ``controls``: the mover's Undo), ``head`` lines go first in the post
    (e.g. an undo). Returns a problem to tell the actor, which is also added to ``answer``.
    ``actor_id``: who acted, without an interaction (the outbox's delivery after a crash)."""
    route = Route(bot, interaction, actor_id=actor_id)
    if answer is not None:  # 1. the actor sees their move at once, no slot waited
        await route.tell_actor(answer, view=controls)
    gid = game_id if game_id is not None else outs[-1].game_id
    # 2. computers and away players move first; the service hands back all there is to say
    played = await bot.turns.play_out(
        gid, outs, route.actor_id, bot.now(), looking=interaction is not None
    )
    if not played.outs:
        return None
    post = TurnPost(bot, route, gid)
    async with bot.working:  # 3. one of WORK_AT_ONCE slots: under a burst, posts queue here
        was = await post.live()
        problem = await post.tell(played, head=head, colour=colour)
    new_turn = was is None or was.turn != turn_of(played.last)
    note = await tell_next_player(bot, route, played, new_turn=new_turn)  # 4.
    trouble = "\n".join(t for t in (problem, note) if t) or None
    if trouble is not None and answer is not None:
        await route.tell_actor(f"{answer}\n{trouble}", view=controls)
    await after_the_match(bot, route, played)  # 5.
    await settle(bot, route, played.last.game)  # what a commit owed is paid (issue 37)
    await route.answer_owed()  # an answer Discord failed to show (issue 50)
    return trouble


async def after_the_match(bot: GameBot, route: Route, played: PlayedOut) -> None:
    """Once a game is over, every human is told how it ended (:mod:`bot.ui.matchend`: before
    memory lets its posts go, for the link to the last); a game played in a thread says its
    result where the thread was opened from before that (the DMs link there, to its
    Rematch), and the thread is archived after. The DMs stay the outbox's (owed, told once
    each); the result post was never owed, so going first changes no crash guarantee."""
    last, game = played.last, played.last.game
    if game.status is GameStatus.ACTIVE:
        return
    if last.match_over is not None:  # first: the end DMs link to it (its Rematch)
        locale = channel_locale(route.interaction, client=bot, guild_id=game.guild_id)
        rounds = game.rules.rounds_total
        standings = messages.standings_text(last.match_over.standings, locale, rounds=rounds)
        await thread_result(bot, game, standings, locale)
    await tell_the_end(bot, route, played)
    bot.posts.forget(game.id)
    if last.match_over is not None:
        await close_thread(bot, game)


async def publish(
    bot: GameBot,
    outs: Sequence[Outcome],
    interaction: Interaction | None,
    *,
    answer: str | None = None,
) -> str | None:
    """Tell the actor ``answer``, then post these outcomes as they are (``/mt end``)."""
    route = Route(bot, interaction)
    if answer is not None:
        await route.tell_actor(answer)
    played = await bot.turns.told(outs, route.actor_id, bot.now(), ping=False)
    problem = await TurnPost(bot, route, outs[-1].game_id).tell(played)
    if problem is not None and answer is not None:
        await route.tell_actor(f"{answer}\n{problem}")
    await after_the_match(bot, route, played)
    await settle(bot, route, outs[-1].game)
    await route.answer_owed()
    return problem


# ---------------------------------------------------------------------- the turn's post


class TurnPost:
    """A turn's post, from its first send to its last edit: step 3 of the cycle, in one place.

    Which posts go out (a round's end each, then the turn post), or whether the live post of
    the same turn grows instead (a draw) or is held for the next post (where that edit would
    cost a request); each goes by its :class:`~bot.ui.route.Route` (the click's own answer, a
    followup, the channel webhook or the bot's message); the post before goes quiet. The live
    post is read once (:meth:`live`) and kept as this one sends, grows and quietens."""

    def __init__(self, bot: GameBot, route: Route, game_id: int) -> None:
        self.bot, self.route, self.game_id = bot, route, game_id
        self._live: Post | None = None
        self._read = False

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
        """The round ends' posts, then the turn post (or the live post grown, or held), the
        post before it quietened; returns a problem to tell the actor."""
        bot, route = self.bot, self.route
        outs, ping, table = played.outs, played.ping, played.table
        last = outs[-1]
        game = last.game
        locale = channel_locale(route.interaction, client=bot, guild_id=game.guild_id)
        problem = cannot_post(bot, game, route.interaction, locale)
        if problem is not None:
            return problem
        # The moves in order, cut after each round's end: those parts get a post of their
        # own. A draw held back (PostBook.hold_if_paid) is told first, with what followed it.
        live = await self.live()
        held = await bot.posts.held_lines(bot.service, game.id, live, outs, locale, head=head)
        parts: list[tuple[list[str], RoundEnd | None]] = [([*head, *held], None)]
        for o in outs:
            for i, (lines, end) in enumerate(messages.outcome_parts(o, locale)):
                if i == 0:
                    parts[-1] = (parts[-1][0] + lines, end)
                else:
                    parts.append((lines, end))
        posts = await round_end_posts(bot, played, parts, locale, colour)
        open_lines = parts[-1][0] if parts[-1][1] is None else []
        nxt = last.next_player
        turn = turn_of(last) if ping is not None else None
        # The same turn may go on (a draw): then its post grows instead of a new one.
        if turn is not None and not posts:
            # A move's lines may wait for the next move; an undo's (``head``) never.
            free = route.edits_free
            if not head and bot.posts.hold_if_paid(game.id, live, turn, open_lines, free):
                route.held = True  # the outbox keeps where it starts (PostBook.held_lines)
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
            posts.append(TablePost(content or None, embed, True, buttons))
        for i, post in enumerate(posts):
            told = (turn, tuple(open_lines)) if i == len(posts) - 1 and turn is not None else None
            nonce = post_nonce(game, i)
            problem = await self._send(game, table, post, locale, mentions_for(ping), told, nonce)
            if problem is not None:
                return problem
        return None

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
            files = await table_picture(bot, game, table, post.embed, locale)
        # A turn post is one card where its path takes one (Route.post: the bot's own
        # message); a round's end keeps its classic post (several pictures, no controls).
        one = table_card(post.content, post.embed, files, post.view) if turn is not None else None
        try:
            message, editor = await route.post(
                post.content,
                embed=post.embed,
                files=files,
                view=post.view,
                mentions=mentions,
                channel_id=game.channel_id,
                nonce=nonce,
                hooked=turn is not None,
                card=one,
            )
        except (discord.HTTPException, *PASSING) as exc:
            log.warning("game %s: could not post the table: %s", game.id, exc)
            note_failure(route, "post", exc)
            gone(bot, game.channel_id, exc)
            detail = exc.text or str(exc.status) if isinstance(exc, discord.HTTPException) else ""
            return tr("error.cannot-post", locale, detail=detail or type(exc).__name__)
        await self._quieten()
        is_card = message.flags.components_v2
        quiet = table_card(post.content, post.embed, files, None) if is_card else None
        new = Post(message.channel.id, message.id, post.view is not None, card=is_card, quiet=quiet)
        if turn is not None:
            new = dataclasses.replace(new, turn=turn[0], lines=turn[1])
        self._note(new, editor)
        return None

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
        files = [] if table is None else await table_picture(self.bot, game, table, embed, locale)
        try:
            await self.route.edit(
                game.id,
                latest.channel_id,
                latest.message_id,
                content=turn_line(game, game.turn, locale) or None,
                embed=embed,
                attachments=files,
                view=components.turn_view(game.id, game.version, locale, knock=False),
                allowed_mentions=PING_NOBODY,
            )
        except discord.HTTPException as exc:
            log.info("game %s: could not add to the turn post: %s", game.id, exc)
            return False
        self._note(dataclasses.replace(latest, lines=told))
        return True

    async def _quieten(self) -> None:
        """Take the buttons off the game's previous post, keeping its text and picture, so
        the channel reads as a history and only the newest post has controls — where that is
        free (a token that can still edit it, or the channel webhook that posted it: off the
        global limit, issue 47). Nothing is deleted (the bot may lack Manage
        Messages); an edit Discord refuses (a deleted message, the edit limit on old
        messages) is logged and left. The edit is cosmetic: an old post's turn buttons act on
        the table as it is now (``bot.cogs.play.turn_button``), so it is never paid for with
        the bot's global budget (a move from a DM, a token expired) nor made on a post over
        an hour old that nobody pressed (Discord rations such edits: growth may need them)."""
        game_id, route = self.game_id, self.route
        previous = await self.live()
        if previous is None or not previous.live:
            return
        # Free: a token, or the webhook that posted it (off the global limit; issue 47). A
        # card loses its rows by its layout without them (kept when sent, or read from the
        # clicked message), a classic post by an empty view (a webhook edit ignores
        # ``view=None``'s ``[]``); a post of unknown kind (read after a restart) is left.
        i, now = route.interaction, self.bot.now()
        mine = click_editor(i) if i is not None else None
        hooked = self.bot.posts.editor(game_id, previous.message_id, now, webhook=True)
        on_it = mine if mine is not None and mine.message_id == previous.message_id else hooked
        seen = on_it.message if on_it is not None else None  # a click's: read what it is
        card = seen.flags.components_v2 if seen is not None else previous.card
        quiet: discord.ui.View | discord.ui.LayoutView | None = discord.ui.View()
        if card is None or card:
            quiet = (quiet_card(seen) or previous.quiet) if card else None
        free = route.edits_free(game_id, previous.message_id) or hooked is not None
        clicked = seen is not None  # pressed within 15 minutes: one edit, even if it is old
        if (is_old(previous.message_id, now) and not clicked) or not free or quiet is None:
            self._note(dataclasses.replace(previous, live=False))
            return
        try:
            await route.edit(game_id, previous.channel_id, previous.message_id, view=quiet)
        except discord.HTTPException as exc:
            log.info("game %s: could not quieten message %s: %s", game_id, previous.message_id, exc)
        self._note(dataclasses.replace(previous, live=False))


def turn_of(last: Outcome) -> tuple[object, ...] | None:
    """The turn now being played, as a turn post knows it: (round, seat, turn start)."""
    game, nxt = last.game, last.next_player
    if game.status is not GameStatus.ACTIVE or nxt is None:
        return None
    return (game.round_no, nxt.seat, game.turn_since)


@dataclasses.dataclass(frozen=True, slots=True)
class TablePost:
    """One post of a game: its text, its embed, its picture (True: the table as it stands,
    drawn when sent; else the files it carries) and its buttons."""

    content: str | None
    embed: discord.Embed
    picture: bool | list[discord.File]
    view: discord.ui.View | None


async def round_end_posts(
    bot: GameBot,
    played: PlayedOut,
    parts: Sequence[tuple[list[str], RoundEnd | None]],
    locale: str,
    colour: discord.Colour | None,
) -> list[TablePost]:
    """A post per round that ended: its last moves, its picture (every leftover hand, the
    points, the totals) and the scores; the match's end adds the final standings and the
    Rematch button (:mod:`bot.ui.roundend`); each round as the turn's result holds it."""
    last, reports = played.last, {r.round_no: r for r in played.rounds}
    game = last.game
    ends = [(lines, end) for lines, end in parts if end is not None]
    final = max((end.round_no for _, end in ends), default=-1)
    # A thread game's Rematch goes beside the thread, which is archived at the end.
    here = last.match_over is not None and not await in_thread(bot, game)
    posts = []
    for lines, end in ends:
        report = reports.get(end.round_no)
        embed, files = await round_end_post(
            bot, game, end.round_no, locale, lines=lines, colour=colour, report=report
        )
        rematch = here and end.round_no == final
        view = components.rematch_view(game.id, locale) if rematch else None
        posts.append(TablePost(None, embed, files, view))
    return posts


def mentions_for(ping: TurnPing | None) -> discord.AllowedMentions:
    """Who the turn post pings: the player to move, if a mention is how they hear of their
    turn and it is not their quiet time; else nobody (the mention still reads as a name)."""
    if ping is None or not ping.mention or ping.quiet_until is not None:
        return PING_NOBODY
    return discord.AllowedMentions(
        users=[discord.Object(ping.user_id)], roles=False, everyone=False
    )


async def table_picture(
    bot: GameBot, game: GameSummary, view: SeatView, embed: discord.Embed, locale: str
) -> list[discord.File]:
    """The table as it stands (``view``, the spectator's) for ``embed``: its picture from the
    render pool (keyed by the channel, so a backlog draws only the latest), or the table as
    text when no picture could be made, or nothing when a newer post of this channel will
    show the table."""
    try:
        return await bot.pictures.table_attached(
            embed, view, game.players, locale, channel=game.channel_id
        )
    except Superseded:  # a newer table of this channel is coming: the lines alone
        return []


def game_embed(
    game: GameSummary,
    lines: Sequence[str],
    locale: str | None,
    *,
    round_no: int | None,
    colour: discord.Colour | None = None,
) -> discord.Embed:
    return discord.Embed(
        title=tr(
            "table.title",
            locale,
            game=game.id,
            round=(round_no or 0) + 1,
            rounds=game.rules.rounds_total,
        ),
        description=messages.clip(lines) or None,
        colour=colour or discord.Colour.dark_green(),
    )


# ---------------------------------------------------------------------- undo


async def post_undo(bot: GameBot, interaction: Interaction, out: Undone, answer: str) -> str | None:
    """Tell the channel, with the table as it is again and the turn buttons (the computer
    players that now move first join the same post); the player to move is told as after
    any move."""
    game = out.game
    bot.posts.take_held(game.id)  # a draw not yet told was the last move: taken back too
    locale = channel_locale(interaction, client=bot, guild_id=game.guild_id)
    host = shown(interaction.user.display_name)
    moves = undone_words(out.moves, out.player.seat, [p.name for p in game.players], locale)
    own = out.player.user_id == interaction.user.id  # a player taking back their own turn
    key = "undo.channel.own" if own else "undo.channel"
    lines = [tr(key, locale, host=host, name=shown(out.player.name), moves=moves)]
    lines += followers_lines(out.computer_moves, out.played_for_moves, locale)
    back = Outcome(
        game,
        next_player=out.next_player,
        hands_changed=out.hands_changed,
        computer_pending=out.computer_pending,
    )
    return await announce(
        bot, [back], interaction, head=lines, colour=discord.Colour.orange(), answer=answer
    )
