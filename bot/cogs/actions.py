"""The flows behind the commands and buttons: call the service, then tell everyone.

One function per thing a person does (open a lobby, press a lobby button, make a move, ask
for their hand). Each runs inside :func:`~bot.cogs.common.guarded` (defer first, one error
funnel) and, for a game, under that game's posting lock, so the channel shows moves in the
order they landed even when two clicks race. After a change:

* the channel gets ONE new message per move: the sentences, the table picture (from the
  spectator's view) in an embed, and the next player's mention, deadline and turn buttons;
* players whose hand changed get it by DM, unless they switched hand DMs off or their DMs
  are closed — then the bot remembers (user settings), never retries, and says once to use
  ``/hand``;
* computer players then move one at a time, each with its own message.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable, Sequence

import discord

from bot.app import MexicanTrainBot
from bot.cogs import components, render
from bot.cogs.common import (
    Interaction,
    Refusal,
    bot_of,
    channel_locale,
    guarded,
    is_manager,
    locale_of,
    reply,
    role_ids,
)
from bot.cogs.language import remember_client_language
from bot.cogs.pictures import hand_png, table_png
from bot.engine import MEXICAN, PASS, Move, Play, SeatView, Tile, parse_move
from bot.engine.ai import Level
from bot.i18n import tr
from bot.ops.logs import note_game
from bot.service import GameOptions, GameSummary, Outcome, Player, errors
from bot.store import GameStatus

log = logging.getLogger(__name__)

#: The permissions the bot needs where a game is played, and why (for the host).
NEEDED = ("view_channel", "send_messages", "embed_links", "attach_files")


# ---------------------------------------------------------------------- permissions


def missing_permissions(perms: discord.Permissions) -> list[str]:
    return [name for name in NEEDED if not getattr(perms, name)]


def channel_permissions(channel: object) -> discord.Permissions | None:
    """The bot's permissions in a guild channel (None when unknown, e.g. not cached)."""
    if isinstance(channel, discord.abc.GuildChannel):
        return channel.permissions_for(channel.guild.me)
    return None


def permission_names(missing: Sequence[str], locale: str | None) -> str:
    return ", ".join(tr(f"perm.{name}", locale) for name in missing)


# ---------------------------------------------------------------------- lobby


async def open_lobby(
    interaction: Interaction,
    *,
    preset: str | None,
    house_rules: dict[str, object],
    options: GameOptions,
    on_open: Callable[[GameSummary], Awaitable[None]] | None = None,
) -> None:
    """``/mt new``: check the channel, open the lobby, post its message. ``on_open`` keeps a
    feature's options for the new game before the host is told it is open."""
    bot = bot_of(interaction)
    locale = locale_of(interaction)
    async with guarded(interaction):
        channel = interaction.channel
        if interaction.guild is None or not isinstance(channel, discord.abc.Messageable):
            raise Refusal("error.guild-only")
        missing = missing_permissions(interaction.app_permissions)
        if missing:
            raise Refusal("error.missing-perms", perms=permission_names(missing, locale))
        await remember_client_language(bot, interaction.user.id, locale)
        out = await bot.service.create_lobby(
            guild_id=interaction.guild.id,
            channel_id=interaction.channel_id or 0,
            user_id=interaction.user.id,
            display_name=interaction.user.display_name,
            now=bot.now(),
            preset_name=preset,
            house_rules=house_rules,
            options=options,
            is_manager=is_manager(interaction),
            role_ids=role_ids(interaction),
        )
        game = out.game
        note_game(game.id)
        public = channel_locale(interaction)
        try:
            message = await channel.send(
                embed=lobby_embed(game, public), view=lobby_controls(game, public)
            )
        except discord.HTTPException as exc:
            # No lobby message means nobody can join: do not leave a ghost game behind.
            await bot.service.end(game.id, interaction.user.id, bot.now(), is_manager=True)
            raise Refusal("error.cannot-post", detail=exc.text or str(exc.status)) from None
        await bot.service.record_message(
            game.id, "lobby", message.channel.id, message.id, bot.now()
        )
        if on_open is not None:
            await on_open(game)
        await reply(interaction, tr("lobby.opened", locale, game=game.id))


def lobby_embed(game: GameSummary, locale: str | None) -> discord.Embed:
    status = {
        GameStatus.LOBBY: "lobby.waiting",
        GameStatus.ACTIVE: "lobby.started",
        GameStatus.FINISHED: "lobby.finished",
        GameStatus.ABANDONED: "lobby.cancelled",
    }[game.status]
    embed = discord.Embed(
        title=tr("lobby.title", locale, game=game.id),
        description=render.rules_text(game, locale),
        colour=discord.Colour.dark_green(),
    )
    low, high = game.rules.player_range
    embed.add_field(
        name=tr("lobby.seats", locale, count=len(game.players), low=low, high=high),
        value=render.seats_text(game, locale),
        inline=False,
    )
    embed.set_footer(text=tr(status, locale))
    return embed


def lobby_controls(game: GameSummary, locale: str | None) -> discord.ui.View:
    """The lobby's buttons and selects, with a way to take out each computer player seated."""
    computers = [(p.seat, p.name) for p in game.players if p.is_computer]
    return components.lobby_view(game.id, locale, computers)


async def refresh_lobby(interaction: Interaction | None, game: GameSummary) -> None:
    """Edit the lobby message to show the seats now (buttons go once the lobby closes)."""
    bot = _bot(interaction)
    row = (await bot.service.messages(game.id)).get("lobby")
    if row is None:
        return
    locale = channel_locale(interaction)
    view = lobby_controls(game, locale) if game.status is GameStatus.LOBBY else None
    message = bot.get_partial_messageable(row.channel_id).get_partial_message(row.message_id)
    try:
        await message.edit(embed=lobby_embed(game, locale), view=view)
    except discord.HTTPException:
        log.warning("game %s: could not update the lobby message", game.id, exc_info=True)


async def lobby_action(
    interaction: Interaction,
    game_id: int | None,
    action: str,
    *,
    level: str | None = None,
    seat: int | None = None,
    name: str | None = None,
) -> None:
    """Join, leave, start, cancel, add or remove a computer: from a lobby button or select, or
    a ``/mt`` command. ``seat`` (0-based) and ``name`` say which computer player to remove,
    as the lobby message showed it."""
    bot = _bot(interaction)
    locale = locale_of(interaction)
    user = interaction.user
    async with guarded(interaction):
        if game_id is None:
            game_id = (await game_here(interaction)).id
        svc, now, manager = bot.service, bot.now(), is_manager(interaction)
        async with bot.game_lock(game_id):
            if action == "join":
                await remember_client_language(bot, user.id, locale)
                out = await svc.join(game_id, user.id, user.display_name, now)
            elif action == "leave":
                out = await svc.leave(game_id, user.id, now, computer_moves=0)
            elif action == "start":
                out = await svc.start(game_id, user.id, now, is_manager=manager, computer_moves=0)
            elif action == "cancel":
                out = await svc.end(game_id, user.id, now, is_manager=manager)
            elif action == "uncpu":
                out = await svc.remove_computer(
                    game_id,
                    user.id,
                    -1 if seat is None else seat,
                    now,
                    is_manager=manager,
                    name=name,
                )
            else:
                out = await svc.add_computer(
                    game_id, user.id, now, level=Level(level or "normal"), is_manager=manager
                )
            await refresh_lobby(interaction, out.game)
            notes = [tr(f"lobby.did.{action}", locale, game=game_id)]
            if out.steps or out.rounds_started or out.game.status is not GameStatus.LOBBY:
                notes.append(await publish(bot, [out], interaction) or "")
                notes.append(await send_hands(bot, out.game, out.hands_changed, interaction) or "")
            await reply(interaction, "\n".join(n for n in notes if n))
            if out.computer_pending:
                await run_computers(bot, game_id, interaction)


# ---------------------------------------------------------------------- finding the game


async def game_here(interaction: Interaction) -> GameSummary:
    """The unfinished game in this channel, or a refusal saying there is none."""
    bot = _bot(interaction)
    if interaction.channel_id is None:
        raise Refusal("error.no-game-here")
    game = await bot.service.game_in_channel(interaction.channel_id)
    if game is None:
        raise Refusal("error.no-game-here")
    note_game(game.id)
    return game


async def my_game(interaction: Interaction) -> GameSummary:
    """This channel's game, or in a DM the user's most recently active game."""
    bot = _bot(interaction)
    if interaction.guild is None:
        games = await bot.service.games_for_user(interaction.user.id)
        if not games:
            raise Refusal("error.no-game-mine")
        note_game(games[0].id)
        return games[0]
    return await game_here(interaction)


# ---------------------------------------------------------------------- moves


async def turn_button(interaction: Interaction, game_id: int, version: int, action: str) -> None:
    """A turn button: only the player to move may use Play/Draw/Pass; My hand is anyone's own."""
    bot = _bot(interaction)
    locale = locale_of(interaction)
    async with guarded(interaction):
        if action == "hand":
            await show_hand(interaction, game_id)
            return
        game = await bot.service.game(game_id)
        if game.status is not GameStatus.ACTIVE or game.turn is None:
            raise errors.WrongPhase("the game is over", code="game-over")
        if game.turn.user_id != interaction.user.id:
            raise Refusal("error.turn-of", name=game.turn.name)
        if game.version != version:
            raise errors.TableChanged()
        if action == "play":
            view = await bot.service.seat_view(game_id, interaction.user.id)
            options = move_options(view, locale)
            await interaction.followup.send(
                tr("play.pick", locale),
                view=components.move_select_view(game_id, version, options, locale),
                ephemeral=True,
            )
            return
        await make_move(interaction, game_id, action, expected_version=version)


def move_options(view: SeatView, locale: str | None) -> list[discord.SelectOption]:
    """The legal moves as select options (at most 25, Discord's limit)."""
    options: list[discord.SelectOption] = []
    hand = len(view.hand or ())
    knock_rule = view.rules.knock
    for move in view.legal:
        if isinstance(move, Play):
            where = render.train_label(view.names, move.train, view.seat, locale)
            options.append(discord.SelectOption(label=f"{move.tile} → {where}", value=str(move)))
            if knock_rule and hand == 2:
                options.append(
                    discord.SelectOption(
                        label=f"{move.tile} → {where} + {tr('button.knock', locale)}",
                        value=f"{move}|knock",
                    )
                )
        else:
            options.append(
                discord.SelectOption(label=tr(f"button.{move}", locale), value=str(move))
            )
    return options[:25]


async def picked_move(interaction: Interaction, game_id: int, version: int, value: str) -> None:
    async with guarded(interaction):
        notation, _, flag = value.partition("|")
        await make_move(
            interaction, game_id, notation, expected_version=version, knock=flag == "knock"
        )


async def make_move(
    interaction: Interaction,
    game_id: int,
    move: str | Move,
    *,
    expected_version: int | None = None,
    knock: bool = False,
) -> None:
    """Apply one move for the interaction's user, publish it, confirm it privately.

    A draw that fits nothing is followed at once by the forced pass (the rules leave no
    choice), and both are told in one message.
    """
    bot = _bot(interaction)
    svc, uid, locale = bot.service, interaction.user.id, locale_of(interaction)
    async with bot.game_lock(game_id):
        if move == "draw":
            out = await svc.draw(
                game_id, uid, bot.now(), expected_version=expected_version, computer_moves=0
            )
            outs = [out]
            note = await _after_draw(interaction, out, outs)
        elif move == "pass":
            out = await svc.pass_turn(
                game_id, uid, bot.now(), expected_version=expected_version, computer_moves=0
            )
            outs, note = [out], None
        elif move == "knock":
            outs, note = [await svc.knock(game_id, uid, bot.now())], None
        else:
            out = await svc.move(
                game_id,
                uid,
                move,
                bot.now(),
                expected_version=expected_version,
                knock=knock,
                computer_moves=0,
            )
            outs, note = [out], None
        problem = await publish(bot, outs, interaction)
        last = outs[-1]
        changed = {p.seat: p for o in outs for p in o.hands_changed}
        dm_note = await send_hands(bot, last.game, list(changed.values()), interaction)
        names = [p.name for p in last.game.players]
        mine = [
            line
            for o in outs
            for s in o.steps
            if s.player.user_id == uid
            for line in render.step_lines(names, s, locale)
        ]
        text = "✅ " + (note or "\n".join(mine[:3]) or tr("word.done", locale))
        await reply(interaction, "\n".join(t for t in (text, problem, dm_note) if t))
        if last.computer_pending:
            await run_computers(bot, game_id, interaction)


async def _after_draw(interaction: Interaction, out: Outcome, outs: list[Outcome]) -> str | None:
    """Tell the drawer where the tile fits, or pass for them when it fits nowhere."""
    bot = _bot(interaction)
    uid, locale = interaction.user.id, locale_of(interaction)
    applied = out.steps[0].applied if out.steps else None
    if applied is None or not applied.drawn:
        return None
    tile = applied.drawn[-1]
    view = await bot.service.seat_view(out.game_id, uid)
    if applied.must_play_drawn:
        trains = render.plays_by_tile(view).get(tile, [])
        where = ", ".join(render.train_label(view.names, t, view.seat, locale) for t in trains)
        return tr("draw.fits", locale, tile=str(tile), where=where or "?")
    if view.my_turn and tuple(view.legal) == (PASS,):
        passed = await bot.service.pass_turn(out.game_id, uid, bot.now(), computer_moves=0)
        outs.append(passed)
        return tr("draw.passed", locale, tile=str(tile))
    return tr("draw.drew", locale, tile=str(tile))


async def run_computers(
    bot: MexicanTrainBot, game_id: int, interaction: Interaction | None = None
) -> None:
    """Computer players move one at a time, each posted like anyone's move."""
    for _ in range(10_000):  # a bound, never reached: a round always ends
        out = await bot.service.advance_computers(game_id, bot.now(), max_moves=1)
        if not out.steps:
            return
        await publish(bot, [out], interaction)
        await send_hands(bot, out.game, out.hands_changed, interaction)
        if not out.computer_pending:
            return


# ---------------------------------------------------------------------- the table message


async def publish(
    bot: MexicanTrainBot, outs: Sequence[Outcome], interaction: Interaction | None
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
    lines = [line for o in outs for line in render.outcome_lines(o, locale)]
    embed = discord.Embed(
        title=tr(
            "table.title",
            locale,
            game=game.id,
            round=(game.round_no or 0) + 1,
            rounds=game.rules.rounds_total,
        ),
        description=render.clip(lines) or None,
        colour=discord.Colour.dark_green(),
    )
    if any(o.rounds_ended for o in outs):
        round_scores = await bot.service.round_scores(game.id)
        totals = [sum(r[p.seat] for r in round_scores) for p in game.players]
        embed.add_field(
            name=tr("table.scores", locale),
            value=render.scores_table(game.players, round_scores, totals, locale),
            inline=False,
        )
    if last.match_over is not None:
        winners = ", ".join(p.name for p in last.match_over.winners)
        embed.add_field(
            name=tr("table.final", locale),
            value=render.standings_text(last.match_over.standings, locale)
            + "\n\n"
            + tr("match.winner", locale, names=winners),
            inline=False,
        )
    files: list[discord.File] = []
    if game.round_no is not None and game.status is not GameStatus.LOBBY:
        view = await bot.service.table_view(game.id)
        png = await asyncio.to_thread(table_png, view, game.players, locale)
        files.append(discord.File(io.BytesIO(png), filename="table.png"))
        embed.set_image(url="attachment://table.png")
    content, view_ = turn_line(game, last.next_player, locale), None
    if last.next_player is not None and not last.next_player.is_computer:
        view_ = components.turn_view(game.id, game.version, locale, knock=False)
    elif last.match_over is not None:
        from bot.cogs.extras import rematch_view

        view_ = rematch_view(game.id, locale)
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


def turn_line(game: GameSummary, nxt: Player | None, locale: str | None) -> str:
    if nxt is None or game.status is not GameStatus.ACTIVE:
        return ""
    who = f"<@{nxt.user_id}>" if nxt.user_id is not None else f"**{nxt.name}**"
    text = tr("turn.next", locale, mention=who)
    if game.deadline_at is not None and not nxt.is_computer:
        text += " " + tr("turn.deadline", locale, when=render.timestamp(game.deadline_at))
    return text


# ---------------------------------------------------------------------- hands


async def send_hands(
    bot: MexicanTrainBot,
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
    bot: MexicanTrainBot, game: GameSummary, player: Player, interaction: Interaction | None
) -> str | None:
    uid = player.user_id
    assert uid is not None
    settings = await bot.service.user_settings(uid)
    if not settings.hand_dms or not settings.dms_open:
        return None  # switched off, or known closed: never retry a closed DM (Discord counts 403s)
    view = await bot.service.seat_view(game.id, uid)
    png = await asyncio.to_thread(hand_png, view, game.options.hints, settings.language)
    text = render.hand_text(view, game, settings.language)[:1990]
    try:
        dm = await bot.create_dm(discord.Object(uid))
        await dm.send(text, file=discord.File(io.BytesIO(png), filename="hand.png"))
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
    bot: MexicanTrainBot, game: GameSummary, uid: int, interaction: Interaction | None
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


async def show_hand(interaction: Interaction, game_id: int | None = None) -> None:
    """``/hand`` and the My hand button: always ephemeral, picture + text."""
    bot = _bot(interaction)
    locale = locale_of(interaction)
    game = await bot.service.game(game_id) if game_id is not None else await my_game(interaction)
    view = await bot.service.seat_view(game.id, interaction.user.id)
    png = await asyncio.to_thread(hand_png, view, game.options.hints, locale)
    await interaction.followup.send(
        render.hand_text(view, game, locale)[:1990],
        file=discord.File(io.BytesIO(png), filename="hand.png"),
        ephemeral=True,
    )


# ---------------------------------------------------------------------- /play helpers


def parse_tile(text: str, max_pip: int) -> Tile:
    return Tile.parse(text.strip(), max_pip)


def choose_train(view: SeatView, tile: Tile, train: str | None) -> str:
    """The move's text: the train given, or the only train the tile legally fits."""
    if train:
        return f"{tile} {train.strip()}"
    trains = render.plays_by_tile(view).get(tile, [])
    if len(trains) == 1:
        return f"{tile} {render.train_ref(trains[0])}"
    if not trains:
        # Let the service say exactly why (not your turn, no fit, must satisfy a double).
        return f"{tile} {render.train_ref(view.seat if view.seat is not None else MEXICAN)}"
    raise Refusal("error.which-train", tile=str(tile))


def check_notation(text: str, view: SeatView) -> Move:
    return parse_move(text, seat=view.seat, players=view.players, max_pip=view.rules.max_pip)


def _bot(interaction: Interaction | None) -> MexicanTrainBot:
    assert interaction is not None
    return bot_of(interaction)
