"""The announcer: the one place that turns what the service did into Discord messages.

Cogs, the scheduler cog and start-up hand it an :class:`~bot.service.Outcome` (or an undo, a
new lobby) and it posts, edits and DMs; nothing else in the bot writes to a channel about a
game. Its rules:

* the channel gets ONE turn post per human turn (:func:`announce`): computer players move
  first (:func:`run_computers`), and so do away players (``/mt away``: their turns are played
  for them here, as the scheduler would), then one post tells every move since the last
  present human's turn, a line each, with the table picture (from the spectator's view) in
  an embed and the next player's mention, deadline and turn buttons. A round's end gets a
  post of its own (its moves and the scores; the match's end adds the final standings and a
  Rematch button);
* the post before goes quiet (:func:`quieten`): edited without its buttons, picture kept;
  nothing is deleted. Which post was the latest survives a restart (:mod:`bot.ui.posts`);
* a player's hand is ONE DM per round, edited in place when the hand changes or their turn
  comes, plus a short new DM when their turn comes (:func:`send_hands`), unless they switched
  hand DMs off or their DMs are closed — then the bot remembers (user settings), never
  retries, and says once to use ``/hand``;
* the lobby card is posted (:func:`post_lobby`), kept up to date (:func:`refresh_lobby`) and
  closed (:func:`close_lobby`) here too.

Callers hold the game's posting lock (:meth:`~bot.ui.host.GameBot.game_lock`) around a change
and its announcement, so the channel shows moves in the order they landed. A function that
returns ``str | None`` returns a problem to tell the acting user privately (e.g. the bot may
not post in the channel), never raises for a Discord failure after the move was made.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import logging
from collections.abc import Sequence

import discord
from discord.utils import MISSING

from bot.i18n import tr
from bot.service import GameSummary, Outcome, Player, RoundEnd
from bot.service.undo import Undone
from bot.store import GameStatus
from bot.ui import components, limits, messages
from bot.ui.host import GameBot
from bot.ui.interactions import (
    Interaction,
    Refusal,
    channel_locale,
    channel_permissions,
    locale_of,
    missing_permissions,
    permission_names,
)
from bot.ui.messages import turn_line
from bot.ui.pictures import Superseded, table_text
from bot.ui.posts import Post
from bot.ui.turns import catch_up

log = logging.getLogger(__name__)

#: Mentions a game message may ping: people, never roles or everyone.
PING_PEOPLE = discord.AllowedMentions(users=True, roles=False, everyone=False)


# ---------------------------------------------------------------------- turns


async def run_computers(bot: GameBot, game_id: int, interaction: Interaction | None = None) -> None:
    """Computer players move until a human is to play, then one post tells it all (start-up
    resumes games with this)."""
    await announce(bot, [], interaction, game_id=game_id)


async def announce(
    bot: GameBot,
    outs: Sequence[Outcome],
    interaction: Interaction | None,
    *,
    game_id: int | None = None,
    head: Sequence[str] = (),
    colour: discord.Colour | None = None,
) -> str | None:
    """Tell the channel and the players what ``outs`` did; returns a problem for the actor.

    When the last outcome leaves a computer player or an away player to move, they move
    first (one commit each: :func:`~bot.ui.turns.catch_up`), so the channel gets ONE turn
    post for everything since the last present human's turn: a line per move (``head``
    lines first, e.g. an undo), the table as it stands, and the mention of the player to
    move with their deadline and the turn buttons. A round that ended on the way gets a
    post of its own before it (its moves, the scores; the match's end adds the final
    standings and Rematch). The previous post goes quiet. Then hands: see
    :func:`send_hands` (an away player's hand message is edited like anyone's, but no turn
    DM: their turn was played).
    """
    outs = list(outs)
    gid = game_id if game_id is not None else outs[-1].game_id
    outs += await catch_up(bot, gid, outs)
    if not outs:
        return None
    problem = await publish(bot, outs, interaction, head=head, colour=colour)
    turn = outs[-1].next_player
    changed = {p.seat: p for o in outs for p in o.hands_changed}
    note = await send_hands(bot, outs[-1].game, list(changed.values()), interaction, turn=turn)
    return "\n".join(t for t in (problem, note) if t) or None


async def publish(
    bot: GameBot,
    outs: Sequence[Outcome],
    interaction: Interaction | None,
    *,
    head: Sequence[str] = (),
    colour: discord.Colour | None = None,
) -> str | None:
    """Post these outcomes (round ends on their own, then the turn post) and quieten the
    previous post; returns a problem to tell the actor."""
    last = outs[-1]
    game = last.game
    locale = channel_locale(interaction, client=bot, guild_id=game.guild_id)
    channel = bot.get_channel(game.channel_id)
    perms = channel_permissions(channel)
    if perms is not None:
        missing = missing_permissions(perms)
        if missing:
            log.warning(
                "game %s: cannot post in channel %s: missing %s", game.id, game.channel_id, missing
            )
            return tr(
                "error.post-missing",
                locale_of(interaction) if interaction else locale,
                perms=permission_names(missing, locale),
            )
    target: discord.abc.Messageable = (
        channel
        if isinstance(channel, discord.abc.Messageable)
        else bot.get_partial_messageable(game.channel_id)
    )
    # The moves in order, cut after each round's end: those parts get a post of their own.
    parts: list[tuple[list[str], RoundEnd | None]] = [(list(head), None)]
    for o in outs:
        for i, (lines, end) in enumerate(messages.outcome_parts(o, locale)):
            if i == 0:
                parts[-1] = (parts[-1][0] + lines, end)
            else:
                parts.append((lines, end))
    ended = [r.round_no for o in outs for r in o.rounds_ended]
    round_scores = await bot.service.round_scores(game.id) if ended else ()
    posts: list[tuple[str | None, discord.Embed, bool, discord.ui.View | None]] = []
    for lines, end in parts:
        if end is None:
            continue
        scores = round_scores[: end.round_no + 1]
        embed = _embed(game, lines, locale, round_no=end.round_no, colour=colour)
        totals = [sum(r[p.seat] for r in scores) for p in game.players]
        embed.add_field(
            name=tr("table.scores", locale),
            value=messages.scores_table(game.players, scores, totals, locale),
            inline=False,
        )
        if last.match_over is not None and end.round_no == max(ended):
            winners = ", ".join(p.name for p in last.match_over.winners)
            embed.add_field(
                name=tr("table.final", locale),
                value=messages.standings_text(last.match_over.standings, locale)
                + "\n\n"
                + tr("match.winner", locale, names=winners),
                inline=False,
            )
            posts.append((None, embed, True, components.rematch_view(game.id, locale)))
        else:
            posts.append((None, embed, False, None))
    open_lines = parts[-1][0] if parts[-1][1] is None else []
    nxt = last.next_player
    turn = None
    if game.status is GameStatus.ACTIVE and nxt is not None and not nxt.is_computer:
        turn = (game.round_no, nxt.seat, game.turn_since)
        if not posts and await _add_to_turn_post(bot, game, turn, open_lines, locale):
            return None  # the same turn goes on (a draw): its post grows, no new one
    if game.status is GameStatus.ACTIVE or (open_lines and last.match_over is None):
        embed = _embed(game, open_lines, locale, round_no=game.round_no, colour=colour)
        view_ = None
        if turn is not None:
            view_ = components.turn_view(game.id, game.version, locale, knock=False)
        posts.append((turn_line(game, nxt, locale) or None, embed, True, view_))
    problem = None
    for i, (content, embed, picture, view_) in enumerate(posts):
        mine = (turn, tuple(open_lines)) if i == len(posts) - 1 and turn is not None else None
        problem = await _post(bot, target, game, content, embed, picture, view_, locale, mine)
        if problem is not None:
            break
    return problem


async def _add_to_turn_post(
    bot: GameBot, game: GameSummary, turn: tuple[object, ...], lines: Sequence[str], locale: str
) -> bool:
    """Add ``lines`` to the live post of this same turn (text, fresh picture and buttons) by
    an edit; False when there is no such post or Discord refused the edit."""
    latest = await bot.posts.latest_table(bot.service, game.id)
    if latest is None or not latest.live or latest.turn != turn or latest.lines is None:
        return False
    told = (*latest.lines, *lines)
    embed = _embed(game, told, locale, round_no=game.round_no)
    files = await _table_picture(bot, game, embed, locale)
    message = bot.get_partial_messageable(latest.channel_id).get_partial_message(latest.message_id)
    try:
        await message.edit(
            **limits.fit(
                "turn post edit",
                content=turn_line(game, game.turn, locale) or None,
                embed=embed,
                attachments=files,
                view=components.turn_view(game.id, game.version, locale, knock=False),
                allowed_mentions=PING_PEOPLE,
            )
        )
    except discord.HTTPException as exc:
        log.info("game %s: could not add to the turn post: %s", game.id, exc)
        return False
    bot.posts.note_table(game.id, dataclasses.replace(latest, lines=told))
    return True


async def _table_picture(
    bot: GameBot, game: GameSummary, embed: discord.Embed, locale: str
) -> list[discord.File]:
    """The table as it stands for ``embed``: its picture from the render pool (keyed by the
    channel, so a backlog draws only the latest), or the table as text when no picture
    could be made, or nothing when a newer post of this channel will show the table."""
    view = await bot.service.table_view(game.id)
    try:
        png = await bot.pictures.table(view, game.players, locale, channel=game.channel_id)
    except Superseded:  # a newer table of this channel is coming: the lines alone
        return []
    if png is None:  # no picture could be made: the table as text, the move still posts
        embed.add_field(name="\u200b", value=table_text(view, game.players, locale))
        return []
    embed.set_image(url="attachment://table.png")
    return [discord.File(io.BytesIO(png), filename="table.png")]


def _embed(
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


async def _post(
    bot: GameBot,
    target: discord.abc.Messageable,
    game: GameSummary,
    content: str | None,
    embed: discord.Embed,
    picture: bool,
    view_: discord.ui.View | None,
    locale: str,
    turn: tuple[tuple[object, ...], tuple[str, ...]] | None = None,
) -> str | None:
    """Send one game post (with the table picture if ``picture``), then quieten the one
    before it and remember this one as the latest (with ``turn``: the turn it is for and
    its lines)."""
    files: list[discord.File] = []
    if picture and game.round_no is not None and game.status is not GameStatus.LOBBY:
        files = await _table_picture(bot, game, embed, locale)
    try:
        message = await target.send(
            **limits.fit(
                "table post",
                content=content,
                embed=embed,
                files=files,
                view=view_ or discord.utils.MISSING,
                allowed_mentions=PING_PEOPLE,
            )
        )
    except discord.HTTPException as exc:
        log.warning("game %s: could not post the table: %s", game.id, exc)
        return tr("error.cannot-post", locale, detail=exc.text or str(exc.status))
    await quieten(bot, game.id)
    post = Post(message.channel.id, message.id, live=view_ is not None)
    if turn is not None:
        post = dataclasses.replace(post, turn=turn[0], lines=turn[1])
    bot.posts.note_table(game.id, post)
    # Listeners (the scheduler) note the latest table message, batched: a transaction per
    # move for it would cost more than the move's own.
    bot.dispatch("mt_table_posted", game, message)
    return None


async def quieten(bot: GameBot, game_id: int) -> None:
    """Take the buttons off the game's latest post, keeping its text and picture, so the
    channel reads as a history and only the newest post has controls. Nothing is deleted
    (the bot may lack Manage Messages); an edit Discord refuses (a deleted message, the
    edit limit on old messages) is logged and left: its old buttons still answer "the table
    changed"."""
    previous = await bot.posts.latest_table(bot.service, game_id)
    if previous is None or not previous.live:
        return
    message = bot.get_partial_messageable(previous.channel_id).get_partial_message(
        previous.message_id
    )
    try:
        await message.edit(view=None)
    except discord.HTTPException as exc:
        log.info("game %s: could not quieten message %s: %s", game_id, previous.message_id, exc)
    bot.posts.note_table(game_id, dataclasses.replace(previous, live=False))


# ---------------------------------------------------------------------- hands


async def send_hands(
    bot: GameBot,
    game: GameSummary,
    players: Sequence[Player],
    interaction: Interaction | None,
    *,
    turn: Player | None = None,
) -> str | None:
    """Keep each player's hand message of the round up to date, and tell the player whose
    turn it now is; returns a note for the acting user if their DMs were refused.

    A player has ONE hand message per round, sent at the deal and then edited in place
    (text and picture) when their hand changes or their turn comes. When their turn comes
    they also get a short new DM — the notification — unless they are the one acting now
    (they are looking) or the hand message itself was just sent. Players who switched hand
    DMs off (``/mt me dms:False``) get none; a closed DM is remembered and never retried.
    """
    if game.status is not GameStatus.ACTIVE or game.round_no is None:
        if game.status is not GameStatus.ACTIVE:
            bot.posts.forget(game.id)
        return None  # after the match, the final message says it all
    acting = interaction.user.id if interaction is not None else None
    who = {p.seat: p for p in players if p.user_id is not None and not p.is_computer}
    if turn is not None and turn.user_id is not None and not turn.is_computer:
        who.setdefault(turn.seat, turn)
    notify = turn.seat if turn is not None and turn.user_id != acting else None
    notes = await asyncio.gather(
        *(_send_hand(bot, game, p, interaction, notify=p.seat == notify) for p in who.values())
    )
    return next((n for n in notes if n), None)


async def _send_hand(
    bot: GameBot,
    game: GameSummary,
    player: Player,
    interaction: Interaction | None,
    *,
    notify: bool,
) -> str | None:
    uid = player.user_id
    assert uid is not None and game.round_no is not None
    settings = await bot.service.user_settings(uid)
    if not settings.hand_dms or not settings.dms_open:
        return None  # switched off, or known closed: never retry a closed DM (Discord counts 403s)
    lang = settings.language
    view = await bot.service.seat_view(game.id, uid)
    png = await bot.pictures.hand(view, game.options.hints, lang, settings.tiles)
    text = messages.hand_text(view, game, lang)[:1990]
    known = await bot.posts.hand(bot.service, game.id, game.round_no, uid)
    try:
        dm = await bot.create_dm(discord.Object(uid))
        sent = None
        if known is not None:
            try:
                await dm.get_partial_message(known.message_id).edit(
                    **limits.fit(
                        "hand DM edit",
                        content=text,
                        attachments=[discord.File(io.BytesIO(png), "hand.png")] if png else [],
                    )
                )
                sent = known
            except discord.NotFound:
                log.info("game %s: hand message of %s is gone: sending a new one", game.id, uid)
            except discord.HTTPException as exc:
                if isinstance(exc, discord.Forbidden) and exc.code == 50007:
                    raise
                log.info("game %s: could not edit the hand of %s: %s", game.id, uid, exc)
        if sent is None:
            # The round's hand message is news only when it is their turn: else it arrives
            # silently (no push notification), and the turn DM is the notification.
            message = await dm.send(
                **limits.fit(
                    "hand DM",
                    content=text,
                    file=discord.File(io.BytesIO(png), filename="hand.png") if png else MISSING,
                    silent=not notify,
                )
            )
            sent = Post(dm.id, message.id)
            await bot.posts.note_hand(bot.service, game.id, game.round_no, uid, sent, bot.now())
            notify = False  # a new hand message is itself the news
        if notify:
            turn_dm = await _turn_text(bot, game, sent, lang)
            await dm.send(**limits.fit("turn DM", content=turn_dm, allowed_mentions=PING_PEOPLE))
    except discord.Forbidden as exc:
        if exc.code != 50007:
            log.warning("game %s: DM to %s refused: %s", game.id, uid, exc)
            return None
        await bot.service.update_user_settings(uid, bot.now(), dms_open=False)
        return await _dms_closed_notice(bot, game, uid, interaction)
    except discord.HTTPException as exc:
        log.warning("game %s: DM to %s failed: %s", game.id, uid, exc)
    return None


async def _turn_text(bot: GameBot, game: GameSummary, hand: Post, lang: str) -> str:
    """The short DM that says it is your turn, with links to the table and your hand."""
    base = f"https://discord.com/channels/{game.guild_id}/{game.channel_id}"
    table = await bot.posts.latest_table(bot.service, game.id)
    text = tr(
        "dm.turn",
        lang,
        game=game.id,
        channel=f"<#{game.channel_id}>",
        table=f"{base}/{table.message_id}" if table is not None else base,
        hand=f"https://discord.com/channels/@me/{hand.channel_id}/{hand.message_id}",
    )
    if game.deadline_at is not None:
        text += " " + tr("turn.deadline", lang, when=messages.timestamp(game.deadline_at))
    return text


async def _dms_closed_notice(
    bot: GameBot, game: GameSummary, uid: int, interaction: Interaction | None
) -> str | None:
    """Say once that the hand will not come by DM: privately if they are the one acting
    (returned, for their answer), else with a short mention in the channel."""
    if interaction is not None and interaction.user.id == uid:
        return tr("dm.closed.you", locale_of(interaction))
    locale = channel_locale(interaction, client=bot, guild_id=game.guild_id)
    channel = bot.get_partial_messageable(game.channel_id)
    try:
        text = tr("dm.closed.channel", locale, mention=f"<@{uid}>")
        await channel.send(**limits.fit("DMs closed", content=text, allowed_mentions=PING_PEOPLE))
    except discord.HTTPException:
        log.warning("game %s: could not tell %s that their DMs are closed", game.id, uid)
    return None


# ---------------------------------------------------------------------- the lobby card


async def post_lobby(
    bot: GameBot,
    channel: discord.abc.Messageable,
    game: GameSummary,
    locale: str | None,
    *,
    ended_by: int,
    content: str | None = None,
) -> discord.Message:
    """Post a new lobby's card and remember it as the game's lobby message. If Discord refuses
    the post, nobody could join: the game is ended (``ended_by`` acting) and the refusal says
    why."""
    try:
        message = await channel.send(
            **limits.fit(
                "lobby card",
                content=content,
                embed=lobby_embed(game, locale),
                view=lobby_controls(game, locale),
                allowed_mentions=PING_PEOPLE,
            )
        )
    except discord.HTTPException as exc:
        # No lobby message means nobody can join: do not leave a ghost game behind.
        await bot.service.end(game.id, ended_by, bot.now(), is_manager=True)
        raise Refusal("error.cannot-post", detail=exc.text or str(exc.status)) from None
    await bot.service.record_message(game.id, "lobby", message.channel.id, message.id, bot.now())
    return message


def lobby_embed(game: GameSummary, locale: str | None) -> discord.Embed:
    status = {
        GameStatus.LOBBY: "lobby.waiting",
        GameStatus.ACTIVE: "lobby.started",
        GameStatus.FINISHED: "lobby.finished",
        GameStatus.ABANDONED: "lobby.cancelled",
    }[game.status]
    embed = discord.Embed(
        title=tr("lobby.title", locale, game=game.id),
        description=messages.rules_text(game, locale),
        colour=discord.Colour.dark_green(),
    )
    low, high = game.rules.player_range
    embed.add_field(
        name=tr("lobby.seats", locale, count=len(game.players), low=low, high=high),
        value=messages.seats_text(game, locale),
        inline=False,
    )
    embed.set_footer(text=tr(status, locale))
    return embed


def lobby_controls(game: GameSummary, locale: str | None) -> discord.ui.View:
    """The lobby's buttons and selects, with a way to take out each computer player seated."""
    computers = [(p.seat, p.name) for p in game.players if p.is_computer]
    return components.lobby_view(game.id, locale, computers)


async def refresh_lobby(
    bot: GameBot, game: GameSummary, interaction: Interaction | None = None
) -> None:
    """Edit the lobby message to show the seats now (buttons go once the lobby closes)."""
    row = (await bot.service.messages(game.id)).get("lobby")
    if row is None:
        return
    locale = channel_locale(interaction, client=bot, guild_id=game.guild_id)
    view = lobby_controls(game, locale) if game.status is GameStatus.LOBBY else None
    message = bot.get_partial_messageable(row.channel_id).get_partial_message(row.message_id)
    try:
        await message.edit(**limits.fit("lobby edit", embed=lobby_embed(game, locale), view=view))
    except discord.HTTPException:
        log.warning("game %s: could not update the lobby message", game.id, exc_info=True)


async def close_lobby(bot: GameBot, game: GameSummary, locale: str | None) -> None:
    """Show a lobby that will never start as closed, without its buttons."""
    row = (await bot.service.messages(game.id)).get("lobby")
    if row is None:
        return
    message = bot.get_partial_messageable(row.channel_id).get_partial_message(row.message_id)
    try:
        await message.edit(**limits.fit("lobby close", embed=lobby_embed(game, locale), view=None))
    except discord.HTTPException:
        log.warning("game %s: could not close the lobby message", game.id, exc_info=True)


# ---------------------------------------------------------------------- undo


async def post_undo(bot: GameBot, interaction: Interaction, out: Undone) -> str | None:
    """Tell the channel, with the table as it is again and the turn buttons (the computer
    players that now move first join the same post); hands as after any move."""
    game = out.game
    locale = channel_locale(interaction, client=bot, guild_id=game.guild_id)
    host = interaction.user.display_name
    lines = [
        tr("undo.channel", locale, host=host, name=out.player.name, moves=", ".join(out.moves))
    ]
    if out.computer_moves:
        lines.append(messages.count_text("undo.computers", out.computer_moves, locale))
    back = Outcome(
        game,
        next_player=out.next_player,
        hands_changed=out.hands_changed,
        computer_pending=out.computer_pending,
    )
    return await announce(bot, [back], interaction, head=lines, colour=discord.Colour.orange())


# ---------------------------------------------------------------------- plain messages


async def post(bot: GameBot, channel_id: int, text: str, *, ping: bool = True) -> None:
    """A plain message in a game's channel (reminders, warnings); ``ping`` mentions people."""
    mentions = discord.AllowedMentions(users=ping, roles=False, everyone=False)
    try:
        channel = bot.get_partial_messageable(channel_id)
        await channel.send(**limits.fit("channel post", content=text, allowed_mentions=mentions))
    except discord.HTTPException as exc:
        log.warning("could not post in channel %s: %s", channel_id, exc)


async def dm(bot: GameBot, user_id: int, text: str) -> bool:
    """DM a player; False (and remembered, never retried) when their DMs are closed."""
    try:
        channel = await bot.create_dm(discord.Object(user_id))
        await channel.send(**limits.fit("DM", content=text))
    except discord.Forbidden as exc:
        if exc.code == 50007:
            await bot.service.update_user_settings(user_id, bot.now(), dms_open=False)
        else:
            log.warning("DM to %s refused: %s", user_id, exc)
        return False
    except discord.HTTPException as exc:
        log.warning("DM to %s failed: %s", user_id, exc)
        return False
    return True
