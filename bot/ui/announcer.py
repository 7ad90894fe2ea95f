"""The announcer: the one place that turns what the service did into Discord messages.

Cogs, the scheduler cog and start-up hand it an :class:`~bot.service.Outcome` (or an undo, a
new lobby) and it posts, edits and DMs; nothing else in the bot writes to a channel about a
game (plain reminders and notices: :mod:`bot.ui.notices`). :func:`announce` is the turn
cycle, top to bottom:

1. the actor's private answer, at once;
2. the rest of the turn, one call to the service (:meth:`~bot.service.turn.Turns.play_out`:
   computer players' and away players' turns, the ping, what the pinged player reads);
3. the turn's post (:class:`~bot.ui.turnpost.TurnPost`, from its first send to its last
   edit, in its own module): ONE turn post
   for everything since the last present human's turn (a line per move, the table picture,
   the mention of the player to move and the turn buttons), a round's end a post of its own
   before it; a draw that leaves the same player to move grows the live post instead (held
   for the next move where that edit would cost a request); the post before goes quiet
   where a token makes it free (its buttons act on the table as it is when pressed);
4. the player to move hears of it ONCE, as they chose (``/mt me ping:``), with their hand
   (:func:`bot.ui.dmturn.tell_next_player`);
5. once the match is over, every human hears how it ended (:mod:`bot.ui.matchend`); then
   what the commit owed is cleared (:func:`bot.ui.route.settle`).

Every message takes the cheapest way Discord allows (:mod:`bot.ui.route`, and for the turn
post :mod:`bot.ui.turnpost`): what follows a
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

import logging
from collections.abc import Sequence

import discord

from bot.i18n import tr
from bot.service import GameStatus, Outcome
from bot.service.turn import PlayedOut
from bot.service.undo import Undone
from bot.ui import messages
from bot.ui.dmturn import tell_next_player
from bot.ui.facts import followers_lines, undone_words
from bot.ui.host import GameBot
from bot.ui.interactions import Interaction, channel_locale
from bot.ui.limits import shown
from bot.ui.lobbycard import (
    close_lobby,
    close_thread,
    open_thread,
    post_lobby,
    post_lobby_after,
    refresh_lobby,
    thread_result,
)
from bot.ui.matchend import tell_the_end
from bot.ui.route import Route, settle
from bot.ui.turnpost import TurnPost, turn_of

log = logging.getLogger(__name__)


#: The lobby card is posted and kept up to date through the announcer too.
__all__ = ["close_lobby", "open_thread", "post_lobby", "post_lobby_after", "refresh_lobby"]

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
    redelivery: bool = False,
) -> str | None:
    """The turn cycle after a change (see the module's docstring); ``answer`` is the actor's
    private answer (with ``controls``: the mover's Undo), ``head`` lines go first in the post
    (e.g. an undo). Returns a problem to tell the actor, which is also added to ``answer``.
    ``actor_id``: who acted, without an interaction, and ``redelivery``: the outbox's delivery
    after a crash (:attr:`~bot.ui.route.Route.redelivery`)."""
    route = Route(bot, interaction, actor_id=actor_id)
    route.redelivery = redelivery
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
