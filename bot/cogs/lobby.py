"""``/mt`` and the lobby: open a game, join, leave, start, cancel, computer players, the
Rematch button, and the looking commands (status, or the rules with ``rules:True``; scores; hint).

Its commands are ``/mt`` subcommands, like those of the admin, history, catch-up, stats and
schedule cogs (the group and the one cog style: :mod:`bot.ui.mt`). Lobby commands do exactly
what the lobby buttons do: both end in :func:`lobby_action`, which checks, calls the service
under the game's posting lock, and hands the outcome to :mod:`bot.ui.announcer`. Answers
meant for one person (status, scores, hint) are ephemeral; the channel only ever gets
lobby and table messages.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import timedelta

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation
from discord.ext import commands

from bot.engine.ai import Level
from bot.i18n import tr
from bot.ops.metrics import note_game
from bot.service import GameOptions, GameService, GameStatus, GameSummary, errors
from bot.service.timing import Policy
from bot.ui import announcer, components, houserules, messages, mt, pacewords, roundend, seasons
from bot.ui.choices import DEADLINE_CHOICES, POLICY_CHOICES, PRESET_CHOICES, ChoiceText
from bot.ui.components import RematchButton
from bot.ui.hints import hint_text
from bot.ui.host import GameBot
from bot.ui.houserules import HOUSE_CHOICES, NEW_DESCRIPTIONS, rules_from_options
from bot.ui.interactions import (
    Interaction,
    bot_of,
    channel_locale,
    check_thread_permissions,
    game_here,
    guarded,
    is_manager,
    lobby_channel,
    locale_of,
    mention,
    reply,
    retract,
    role_ids,
)
from bot.ui.language import remember_client_language
from bot.ui.limits import shown
from bot.ui.lobbycard import LEVELS, ComputerSelect, LobbyButton, RemoveComputerSelect
from bot.ui.mt import GameCog
from bot.ui.refusals import Refusal, quote_input
from bot.ui.translator import translate_metadata


class Lobby(GameCog):
    """``/mt`` new, join, leave, start, cancel, computer, status (and the rules), scores, hint."""

    # ------------------------------------------------------------------ lobby

    @mt.command(name="new", description="Open a Mexican Train lobby in this channel")
    @app_commands.guild_only()
    @app_commands.describe(
        preset="Named rules (default: the server's default)",
        **NEW_DESCRIPTIONS,
        deadline_hours="Hours each player has for a turn (default: the server's, else none)",
        hints="Show where tiles fit in hand DMs",
        on_timeout="When a player's time runs out (default: the server's, else computer)",
        replace_after="replace: missed turns in a row before a computer takes the seat (3)",
        remind_hours="Remind the player this many hours before the deadline (default: half-way)",
        thread="Play in a new thread of this channel (default: the server's setting)",
        rated="Rated (the season's rules) or casual (default: rated unless you set rules)",
    )
    @app_commands.choices(deadline_hours=DEADLINE_CHOICES)
    @app_commands.choices(
        on_timeout=POLICY_CHOICES,
        preset=PRESET_CHOICES,
        **HOUSE_CHOICES,
    )
    @app_commands.autocomplete(rounds=pacewords.rounds_autocomplete)
    async def new(
        self,
        interaction: Interaction,
        preset: ChoiceText | None = None,
        rounds: app_commands.Range[int, 1, 19] | None = None,
        starting_double: app_commands.Range[int, 0, 18] | None = None,
        knock: bool | None = None,
        open_hands: bool | None = None,
        fast_start: bool | None = None,
        double_rule: ChoiceText | None = None,
        scoring: ChoiceText | None = None,
        engine: ChoiceText | None = None,
        first_player: ChoiceText | None = None,
        mexican_first_turn: bool | None = None,
        deadline_hours: int | None = None,
        hints: bool = True,
        on_timeout: ChoiceText | None = None,
        replace_after: app_commands.Range[int, 1, 10] | None = None,
        remind_hours: app_commands.Range[int, 1, 71] | None = None,
        thread: bool | None = None,
        rated: bool | None = None,
    ) -> None:
        house = rules_from_options(
            rounds=rounds,
            starting_double=starting_double,
            knock=knock,
            open_hands=open_hands,
            fast_start=fast_start,
            double_rule=double_rule,
            scoring=scoring,
            engine=engine,
            first_player=first_player,
            mexican_first_turn=mexican_first_turn,
        )
        options = GameOptions(
            turn_deadline=await resolve_deadline(interaction, deadline_hours), hints=hints
        )
        await open_lobby(
            interaction,
            preset=preset,
            house_rules=house,
            options=options,
            on_open=game_options_saver(
                interaction,
                policy=on_timeout,
                replace_after=replace_after,
                remind_hours=remind_hours,
            ),
            thread=thread,
            rated=rated,
        )

    @mt.command(name="join", description="Join the game in this channel")
    @app_commands.guild_only()
    async def join(self, interaction: Interaction) -> None:
        await lobby_action(interaction, None, "join")

    @mt.command(name="leave", description="Leave the game (a computer takes your seat)")
    @app_commands.guild_only()
    async def leave(self, interaction: Interaction) -> None:
        await lobby_action(interaction, None, "leave")

    @mt.command(name="start", description="Deal the first round (host)")
    @app_commands.guild_only()
    async def start(self, interaction: Interaction) -> None:
        await lobby_action(interaction, None, "start")

    @mt.command(name="cancel", description="Cancel the lobby (host)")
    @app_commands.guild_only()
    async def cancel(self, interaction: Interaction) -> None:
        await lobby_action(interaction, None, "cancel")

    @mt.command(name="computer", description="Add a computer player (host)")
    @app_commands.guild_only()
    @app_commands.choices(level=[app_commands.Choice(name=lv.title(), value=lv) for lv in LEVELS])
    async def computer(self, interaction: Interaction, level: ChoiceText = "normal") -> None:
        await lobby_action(interaction, None, "cpu", level=level)

    # ------------------------------------------------------------------ looking

    @mt.command(name="status", description="Who is playing, whose turn, the deadline, or the rules")
    @app_commands.guild_only()
    @app_commands.describe(rules="The rules this game is played by")
    async def status(self, interaction: Interaction, rules: bool = False) -> None:
        locale = locale_of(interaction)
        async with guarded(interaction):
            game = await roundend.game_or_finished(interaction)  # a finished match too
            if rules:  # the rules in force, as the lobby card tells them (was /mt rules)
                await reply(interaction, houserules.rules_text(game, locale))
                return
            lines = [
                tr("status.head", locale, game=game.id, status=tr(f"status.{game.status}", locale)),
            ]
            if game.status is GameStatus.FINISHED:  # how it ended, not only that it did
                result = await roundend.result_lines(self.bot, game, locale)
                lines += result or [messages.seats_text(game, locale)]
            else:
                lines.append(messages.seats_text(game, locale))
            if game.status is GameStatus.ACTIVE and game.turn is not None:
                lines.append(
                    tr(
                        "status.round",
                        locale,
                        round=(game.round_no or 0) + 1,
                        rounds=game.rules.rounds_total,
                    )
                )
                lines.append(messages.turn_line(game, game.turn, locale))
                view = await self.bot.service.table_view(game.id)
                counts = ", ".join(
                    f"{shown(n)}: {c}" for n, c in zip(view.names, view.hand_counts, strict=True)
                )
                lines.append(tr("status.counts", locale, counts=counts, bone=view.boneyard_count))
            lines += await status_lines(interaction, game)
            await reply(interaction, "\n".join(lines))

    @mt.command(name="scores", description="Scores by round and the match so far")
    @app_commands.guild_only()
    async def scores(self, interaction: Interaction) -> None:
        locale = locale_of(interaction)
        async with guarded(interaction):
            # After the match, its final standings, until a new lobby opens here.
            game = await roundend.game_or_finished(interaction)
            text, embeds = await roundend.scores_answer(self.bot, game, locale)
            await reply(interaction, text, embeds=embeds)

    @mt.command(name="hint", description="Your best move, privately (Hard's advice)")
    @app_commands.guild_only()
    async def hint(self, interaction: Interaction) -> None:
        locale = locale_of(interaction)
        async with guarded(interaction):
            game = await game_here(interaction)
            if not game.options.hints:
                raise Refusal("hint.off")
            view = await self.bot.service.seat_view(game.id, interaction.user.id)
            if not view.my_turn:
                turn = view.current
                name = shown(view.names[turn]) if turn is not None else "—"
                raise Refusal("hint.not-your-turn", name=name)
            advice = await self.bot.thinker.advise(view, game_id=game.id)
            await reply(interaction, hint_text(view, locale, advice))


# ---------------------------------------------------------------------- the flows


async def open_lobby(
    interaction: Interaction,
    *,
    preset: str | None,
    house_rules: dict[str, object],
    options: GameOptions,
    on_open: Callable[[GameSummary], Awaitable[None]] | None = None,
    thread: bool | None = None,
    rated: bool | None = None,
) -> None:
    """``/mt new``: check the channel, open the lobby, tell the host, post its card as the
    command's public followup. ``on_open`` keeps a feature's options for the new game once its
    card is posted. ``thread`` (else the server's setting) opens it in a new thread, from its card;
    ``rated``: rated or casual, by the season's rules (:mod:`bot.service.seasons`)."""
    bot, locale = bot_of(interaction), locale_of(interaction)
    async with guarded(interaction):
        guild, channel = lobby_channel(interaction)
        if thread is None:
            thread = (await bot.service.guild_settings(guild.id)).threads
        in_thread = thread and not isinstance(interaction.channel, discord.Thread)
        if in_thread:
            check_thread_permissions(interaction)
        await remember_client_language(bot, interaction.user.id, locale)
        choice = await bot.service.seasons.rated_choice(
            guild.id, rated, preset, house_rules, bot.now()
        )
        preset, house_rules = choice.preset, dict(choice.house_rules)
        out = await bot.service.create_lobby(
            guild_id=guild.id,
            channel_id=interaction.channel_id or 0,
            user_id=interaction.user.id,
            display_name=interaction.user.display_name,
            now=bot.now(),
            preset_name=preset,
            house_rules=house_rules,
            options=options,
            is_manager=is_manager(interaction),
            role_ids=role_ids(interaction),
            rated=choice,  # in the commit that opens it
        )
        game = out.game
        note_game(game.id)
        public, note = channel_locale(interaction), seasons.rated_note(choice, locale)

        def told(key: str, **more: object) -> str:
            text = f"{tr(key, locale, game=game.id, **more)}\n{pacewords.length_text(game, locale)}"
            return f"{text}\n{note}" if note else text

        opened = told("lobby.opened")  # then the card, as the command's followup
        card = await announcer.post_lobby_after(bot, interaction, channel, game, public, opened)
        if in_thread:
            game = await announcer.open_thread(bot, card, game, interaction.user.id, public)
        if on_open is not None:
            await on_open(game)
        if in_thread:  # the answer names the thread
            retract(interaction)
            await reply(interaction, told("thread.opened", thread=f"<#{game.channel_id}>"))


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
    bot = bot_of(interaction)
    locale = locale_of(interaction)
    user = interaction.user
    # A click on the lobby card is acknowledged without a message of its own: the card is
    # then edited through the click's own token (free of the global limit; issue 47), the
    # answer follows privately.
    on_card = game_id is not None and interaction.message is not None
    async with guarded(interaction, defer_first="update" if on_card else True):
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
                    game_id, user.id, now, level=await level_of(svc, game_id, interaction, level),
                    is_manager=manager, stem=tr("computer.stem", channel_locale(interaction)),
                )  # fmt: skip
            answer = tr(f"lobby.did.{action}", locale, game=game_id)
            if out.steps or out.rounds_started or out.game.status is not GameStatus.LOBBY:
                # Computer players who move first join the deal's post.
                await announcer.announce(bot, [out], interaction, answer=answer)
            else:
                await reply(interaction, answer)
            # After the answer: the card's edit may ride on the click (its own message).
            await announcer.refresh_lobby(bot, out.game, interaction)


async def level_of(
    svc: GameService, game_id: int, interaction: Interaction, level: str | None
) -> Level:
    """The computer player's level from a select or an option. A value that is not a level
    (a client can send any) is refused — after the host check, so only who may add a
    computer player learns what went wrong, and nobody gets a traceback."""
    if level in LEVELS:
        return Level(level)
    game = await svc.game(game_id)
    if game.host_id != interaction.user.id and not is_manager(interaction):
        raise errors.NotHost("add computer players")
    locale = locale_of(interaction)
    names = ", ".join(tr(f"level.{lv}", locale) for lv in LEVELS)
    option = translate_metadata("level", TranslationContextLocation.parameter_name, locale)
    raise Refusal(
        "error.bad-choice", option=option or "level", value=quote_input(level), choices=names
    )


async def rematch_flow(interaction: Interaction, game_id: int) -> None:
    """Rematch: a new lobby with the same players, posted where the game was opened (a game
    played in a thread gets its rematch in a new thread from the same channel)."""
    bot = bot_of(interaction)
    locale = locale_of(interaction)
    async with guarded(interaction):
        _, channel = lobby_channel(interaction)
        channel_id = interaction.channel_id or 0
        old_card = (await bot.service.messages(game_id)).get("lobby")
        _, played_in = await bot.service.where(game_id)
        in_thread = old_card is not None and old_card.channel_id != played_in
        if old_card is not None and in_thread:
            check_thread_permissions(interaction)
            channel_id = old_card.channel_id
            found = bot.get_channel(channel_id)
            channel = (
                found
                if isinstance(found, discord.abc.Messageable)
                else bot.get_partial_messageable(channel_id)
            )
        user = interaction.user
        old = await bot.service.game(game_id)  # its rules: the rematch keeps them
        choice = await bot.service.seasons.rematch_choice(
            game_id, old.guild_id, old.rules, bot.now()
        )
        out = await bot.service.rematch(
            game_id, user.id, user.display_name, bot.now(), channel_id=channel_id, rated=choice
        )
        game = out.game
        public = channel_locale(interaction)
        mentions = " ".join(
            f"<@{p.user_id}>" for p in game.players if p.user_id is not None and not p.is_computer
        )
        any_computer = any(p.is_computer for p in game.players)
        text = tr(
            "rematch.posted",
            public,
            old=game_id,
            mentions=mentions,
            computers=tr("rematch.computers", public) if any_computer else "",
            host=mention(user.id, shown(user.display_name)),
        )
        card = await announcer.post_lobby(
            bot, channel, game, public, ended_by=user.id, content=text
        )
        answer = tr("lobby.opened", locale, game=game.id)
        if in_thread:
            game = await announcer.open_thread(bot, card, game, user.id, public)
            answer = tr("thread.opened", locale, game=game.id, thread=f"<#{game.channel_id}>")
        note = seasons.rated_note(choice, locale)
        await reply(interaction, f"{answer}\n{note}" if note else answer)


# ---------------------------------------------------------------------- clicks


async def _lobby_clicked(interaction: Interaction, item: LobbyButton) -> None:
    await lobby_action(interaction, item.game_id, item.action)


async def _computer_picked(interaction: Interaction, item: ComputerSelect) -> None:
    await lobby_action(interaction, item.game_id, "cpu", level=item.level(interaction))


async def _computer_removed(interaction: Interaction, item: RemoveComputerSelect) -> None:
    seat, name = item.choice(interaction)
    await lobby_action(interaction, item.game_id, "uncpu", seat=seat, name=name)


async def _rematch_clicked(interaction: Interaction, item: RematchButton) -> None:
    await rematch_flow(interaction, item.game_id)


# ---------------------------------------------------------------------- the schedule's options


async def resolve_deadline(interaction: Interaction, hours: int | None) -> timedelta | None:
    """``/mt new deadline_hours``: None takes the server's default; 0 is no deadline."""
    if hours is not None:
        return timedelta(hours=hours) if hours > 0 else None
    if interaction.guild_id is None:
        return None
    return await bot_of(interaction).schedule.default_deadline(interaction.guild_id)


def game_options_saver(
    interaction: Interaction,
    *,
    policy: str | None,
    replace_after: int | None,
    remind_hours: int | None,
) -> Callable[[GameSummary], Awaitable[None]]:
    """For ``/mt new``: keeps the host's choices for absent players with the new game."""
    schedule = bot_of(interaction).schedule

    async def save(game: GameSummary) -> None:
        await schedule.set_game_schedule(
            game.id,
            policy=None if policy is None else Policy(policy),
            replace_after=replace_after,
            remind_before=None if remind_hours is None else timedelta(hours=remind_hours),
        )

    return save


async def status_lines(interaction: Interaction, game: GameSummary) -> list[str]:
    """``/mt status``: what happens when time runs out, and who is away."""
    schedule = bot_of(interaction).schedule
    locale = locale_of(interaction)
    lines = []
    if game.options.turn_deadline is not None:
        row = await schedule.game_schedule(game.id)
        lines.append(
            tr(
                "schedule.status.policy",
                locale,
                policy=messages.policy_text(row, row.timeout_policy, locale),
            )
        )
    away = await schedule.away_players(game)
    if away:
        names = ", ".join(shown(p.name) for p in away)
        lines.append(tr("schedule.status.away", locale, names=names))
    return lines


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, GameBot)
    # Registered here, i.e. in setup_hook: buttons posted before a restart answer again.
    components.listen(bot, LobbyButton, _lobby_clicked)
    components.listen(bot, ComputerSelect, _computer_picked)
    components.listen(bot, RemoveComputerSelect, _computer_removed)
    components.listen(bot, RematchButton, _rematch_clicked)
    await bot.add_cog(Lobby(bot))


async def teardown(bot: commands.Bot) -> None:
    components.unlisten(bot, LobbyButton, ComputerSelect, RemoveComputerSelect, RematchButton)
