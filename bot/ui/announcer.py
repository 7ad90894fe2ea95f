"""The announcer: the one place that turns what the service did into Discord messages.

Cogs, the scheduler cog and start-up hand it an :class:`~bot.service.Outcome` (or an undo, a
new lobby) and it posts, edits and DMs; nothing else in the bot writes to a channel about a
game. Its rules:

* the channel gets ONE new message per move (:func:`publish`): the sentences, the table
  picture (from the spectator's view) in an embed, and the next player's mention, deadline
  and turn buttons — or, once the match is over, the final standings and a Rematch button;
* players whose hand changed get it by DM (:func:`send_hands`), unless they switched hand DMs
  off or their DMs are closed — then the bot remembers (user settings), never retries, and
  says once to use ``/hand``;
* computer players then move one at a time, each with its own message (:func:`run_computers`);
* the lobby card is posted (:func:`post_lobby`), kept up to date (:func:`refresh_lobby`) and
  closed (:func:`close_lobby`) here too.

Callers hold the game's posting lock (:meth:`~bot.ui.host.GameBot.game_lock`) around a change
and its announcement, so the channel shows moves in the order they landed. A function that
returns ``str | None`` returns a problem to tell the acting user privately (e.g. the bot may
not post in the channel), never raises for a Discord failure after the move was made.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Sequence

import discord

from bot.i18n import tr
from bot.service import GameSummary, Outcome, Player
from bot.service.undo import Undone
from bot.store import GameStatus
from bot.ui import components, messages
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

log = logging.getLogger(__name__)

#: Mentions a game message may ping: people, never roles or everyone.
PING_PEOPLE = discord.AllowedMentions(users=True, roles=False, everyone=False)


# ---------------------------------------------------------------------- moves


async def run_computers(bot: GameBot, game_id: int, interaction: Interaction | None = None) -> None:
    """Computer players move one at a time, each posted like anyone's move."""
    for _ in range(10_000):  # a bound, never reached: a round always ends
        out = await bot.service.advance_computers(game_id, bot.now(), max_moves=1)
        if not out.steps:
            return
        await publish(bot, [out], interaction)
        await send_hands(bot, out.game, out.hands_changed, interaction)
        if not out.computer_pending:
            return


async def publish(
    bot: GameBot, outs: Sequence[Outcome], interaction: Interaction | None
) -> str | None:
    """Post one table message for these outcomes; returns a problem to tell the actor."""
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
    lines = [line for o in outs for line in messages.outcome_lines(o, locale)]
    embed = discord.Embed(
        title=tr(
            "table.title",
            locale,
            game=game.id,
            round=(game.round_no or 0) + 1,
            rounds=game.rules.rounds_total,
        ),
        description=messages.clip(lines) or None,
        colour=discord.Colour.dark_green(),
    )
    if any(o.rounds_ended for o in outs):
        round_scores = await bot.service.round_scores(game.id)
        totals = [sum(r[p.seat] for r in round_scores) for p in game.players]
        embed.add_field(
            name=tr("table.scores", locale),
            value=messages.scores_table(game.players, round_scores, totals, locale),
            inline=False,
        )
    if last.match_over is not None:
        winners = ", ".join(p.name for p in last.match_over.winners)
        embed.add_field(
            name=tr("table.final", locale),
            value=messages.standings_text(last.match_over.standings, locale)
            + "\n\n"
            + tr("match.winner", locale, names=winners),
            inline=False,
        )
    files: list[discord.File] = []
    if game.round_no is not None and game.status is not GameStatus.LOBBY:
        view = await bot.service.table_view(game.id)
        try:
            png = await bot.pictures.table(view, game.players, locale, channel=game.channel_id)
        except Superseded:  # a newer table of this channel is coming: post the lines only
            png = b""
        if png:
            files.append(discord.File(io.BytesIO(png), filename="table.png"))
            embed.set_image(url="attachment://table.png")
        elif png is None:  # no picture could be made: the table as text
            embed.add_field(name="\u200b", value=table_text(view, game.players, locale))
    content, view_ = turn_line(game, last.next_player, locale), None
    if last.next_player is not None and not last.next_player.is_computer:
        view_ = components.turn_view(game.id, game.version, locale, knock=False)
    elif last.match_over is not None:
        view_ = components.rematch_view(game.id, locale)
    target: discord.abc.Messageable = (
        channel
        if isinstance(channel, discord.abc.Messageable)
        else bot.get_partial_messageable(game.channel_id)
    )
    try:
        message = await target.send(
            content or None,
            embed=embed,
            files=files,
            view=view_ or discord.utils.MISSING,
            allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False),
        )
    except discord.HTTPException as exc:
        log.warning("game %s: could not post the table: %s", game.id, exc)
        return tr("error.cannot-post", locale, detail=exc.text or str(exc.status))
    # Listeners (the scheduler) note the latest table message, batched: a transaction per
    # move for it would cost more than the move's own.
    bot.dispatch("mt_table_posted", game, message)
    return None


# ---------------------------------------------------------------------- hands


async def send_hands(
    bot: GameBot,
    game: GameSummary,
    players: Sequence[Player],
    interaction: Interaction | None,
) -> str | None:
    """DM each player their hand; returns a note for the acting user if theirs was refused."""
    humans = [p for p in players if p.user_id is not None and not p.is_computer]
    if not humans or game.status is not GameStatus.ACTIVE:
        return None  # after the match, the final message says it all
    notes = await asyncio.gather(*(_send_hand(bot, game, p, interaction) for p in humans))
    return next((n for n in notes if n), None)


async def _send_hand(
    bot: GameBot, game: GameSummary, player: Player, interaction: Interaction | None
) -> str | None:
    uid = player.user_id
    assert uid is not None
    settings = await bot.service.user_settings(uid)
    if not settings.hand_dms or not settings.dms_open:
        return None  # switched off, or known closed: never retry a closed DM (Discord counts 403s)
    view = await bot.service.seat_view(game.id, uid)
    png = await bot.pictures.hand(view, game.options.hints, settings.language)
    text = messages.hand_text(view, game, settings.language)[:1990]
    try:
        dm = await bot.create_dm(discord.Object(uid))
        picture = discord.File(io.BytesIO(png), filename="hand.png") if png else None
        await dm.send(text, file=picture or discord.utils.MISSING)
    except discord.Forbidden as exc:
        if exc.code != 50007:
            log.warning("game %s: DM to %s refused: %s", game.id, uid, exc)
            return None
        await bot.service.update_user_settings(uid, bot.now(), dms_open=False)
        return await _dms_closed_notice(bot, game, uid, interaction)
    except discord.HTTPException as exc:
        log.warning("game %s: DM to %s failed: %s", game.id, uid, exc)
    return None


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
        await channel.send(
            tr("dm.closed.channel", locale, mention=f"<@{uid}>"),
            allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False),
        )
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
            content,
            embed=lobby_embed(game, locale),
            view=lobby_controls(game, locale),
            allowed_mentions=PING_PEOPLE,
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
        await message.edit(embed=lobby_embed(game, locale), view=view)
    except discord.HTTPException:
        log.warning("game %s: could not update the lobby message", game.id, exc_info=True)


async def close_lobby(bot: GameBot, game: GameSummary, locale: str | None) -> None:
    """Show a lobby that will never start as closed, without its buttons."""
    row = (await bot.service.messages(game.id)).get("lobby")
    if row is None:
        return
    message = bot.get_partial_messageable(row.channel_id).get_partial_message(row.message_id)
    try:
        await message.edit(embed=lobby_embed(game, locale), view=None)
    except discord.HTTPException:
        log.warning("game %s: could not close the lobby message", game.id, exc_info=True)


# ---------------------------------------------------------------------- undo


async def post_undo(bot: GameBot, interaction: Interaction, out: Undone) -> str | None:
    """Tell the channel, with the table as it is again and the turn buttons."""
    game = out.game
    locale = channel_locale(interaction, client=bot, guild_id=game.guild_id)
    host = interaction.user.display_name
    lines = [
        tr("undo.channel", locale, host=host, name=out.player.name, moves=", ".join(out.moves))
    ]
    if out.computer_moves:
        lines.append(tr("undo.computers", locale, count=out.computer_moves))
    embed = discord.Embed(
        title=tr(
            "table.title",
            locale,
            game=game.id,
            round=(game.round_no or 0) + 1,
            rounds=game.rules.rounds_total,
        ),
        description="\n".join(lines),
        colour=discord.Colour.orange(),
    )
    view = await bot.service.table_view(game.id)
    png = await bot.pictures.table(view, game.players, locale)
    if png:
        embed.set_image(url="attachment://table.png")
    else:
        embed.add_field(name="\u200b", value=table_text(view, game.players, locale))
    turn = None
    if out.next_player is not None and not out.next_player.is_computer:
        turn = components.turn_view(game.id, game.version, locale, knock=False)
    try:
        await bot.get_partial_messageable(game.channel_id).send(
            turn_line(game, out.next_player, locale) or None,
            embed=embed,
            files=[discord.File(io.BytesIO(png), filename="table.png")] if png else [],
            view=turn or discord.utils.MISSING,
            allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False),
        )
    except discord.HTTPException as exc:
        log.warning("game %s: could not post the undo: %s", game.id, exc)
        return tr("error.cannot-post", locale_of(interaction), detail=exc.text or str(exc.status))
    return None


# ---------------------------------------------------------------------- plain messages


async def post(bot: GameBot, channel_id: int, text: str, *, ping: bool = True) -> None:
    """A plain message in a game's channel (reminders, warnings); ``ping`` mentions people."""
    mentions = discord.AllowedMentions(users=ping, roles=False, everyone=False)
    try:
        await bot.get_partial_messageable(channel_id).send(text, allowed_mentions=mentions)
    except discord.HTTPException as exc:
        log.warning("could not post in channel %s: %s", channel_id, exc)


async def dm(bot: GameBot, user_id: int, text: str) -> bool:
    """DM a player; False (and remembered, never retried) when their DMs are closed."""
    try:
        channel = await bot.create_dm(discord.Object(user_id))
        await channel.send(text)
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
