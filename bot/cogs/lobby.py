"""``/mt``: open a game and run it — lobby, status, scores, history, admin, settings.

Thin adapters: each subcommand parses its options, calls :class:`~bot.service.GameService`
through :mod:`bot.cogs.actions`, and answers. Lobby commands do exactly what the lobby
buttons do. Answers meant for one person (status, scores, history, settings) are ephemeral;
the channel only ever gets lobby and table messages.
"""

from __future__ import annotations

import asyncio
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import MexicanTrainBot
from bot.cogs import actions, components, render, timing
from bot.cogs.common import Interaction, Refusal, bot_of, guarded, is_manager, locale_of, reply
from bot.cogs.hints import hint_text
from bot.cogs.language import server_language, set_server_language
from bot.engine import PRESETS
from bot.i18n import tr
from bot.service import GameOptions
from bot.store import GameStatus

_PRESET_CHOICES = [app_commands.Choice(name=name, value=name) for name in PRESETS]
_DOUBLE_CHOICES = [
    app_commands.Choice(name=n, value=v)
    for n, v in (
        ("satisfy the double (standard)", "satisfy"),
        ("any open train (001)", "any-open-train"),
        ("chain doubles (002)", "chain"),
    )
]
_SCORING_CHOICES = [
    app_commands.Choice(name="pips (standard)", value="pips"),
    app_commands.Choice(name="Fundex: blanks score 25", value="fundex-blanks"),
]
_ENGINE_CHOICES = [
    app_commands.Choice(name="set aside before the deal (standard)", value="set-aside"),
    app_commands.Choice(name="highest double starts", value="highest-double"),
    app_commands.Choice(name="draw until found", value="draw-until-found"),
]
_FIRST_CHOICES = [
    app_commands.Choice(name="host, then rotate (standard)", value="rotate"),
    app_commands.Choice(name="highest tile of the engine's suit", value="highest-tile"),
]
_LANGUAGES = [
    app_commands.Choice(name="English", value="en"),
    app_commands.Choice(name="Français", value="fr"),
]
#: A server's language for channel messages; "auto" goes back to its Discord locale.
_SERVER_LANGUAGES = [
    *_LANGUAGES,
    app_commands.Choice(name="server's Discord language", value="auto"),
]


class Lobby(commands.GroupCog, group_name="mt", group_description="Mexican Train games"):
    def __init__(self, bot: MexicanTrainBot) -> None:
        self.bot = bot
        super().__init__()

    # ------------------------------------------------------------------ lobby

    @app_commands.command(name="new", description="Open a Mexican Train lobby in this channel")
    @app_commands.guild_only()
    @app_commands.describe(
        preset="Named rules (default: the server's default)",
        rounds="How many rounds (default: all, N-N down to 0-0)",
        starting_double="The first round's engine double",
        knock="Knock rule: announce your last tile or draw a penalty",
        open_hands="Everyone's hand is visible",
        fast_start="First turn: play as many tiles as you can on your own train",
        double_rule="What follows a double",
        scoring="How hands left are scored",
        engine="How the round's centre double reaches the table",
        first_player="Who starts each round",
        mexican_first_turn="May the Mexican Train be started on your first turn",
        deadline_hours="Hours each player has for a turn (default: the server's, else none)",
        hints="Show where tiles fit in hand DMs",
        on_timeout="When a player's time runs out (default: the server's, else computer)",
        replace_after="replace: missed turns in a row before a computer takes the seat (3)",
        remind_hours="Remind the player this many hours before the deadline (default: half-way)",
    )
    @app_commands.choices(deadline_hours=timing.DEADLINE_CHOICES)
    @app_commands.choices(
        on_timeout=timing.POLICY_CHOICES,
        preset=_PRESET_CHOICES,
        double_rule=_DOUBLE_CHOICES,
        scoring=_SCORING_CHOICES,
        engine=_ENGINE_CHOICES,
        first_player=_FIRST_CHOICES,
    )
    async def new(
        self,
        interaction: Interaction,
        preset: str | None = None,
        rounds: app_commands.Range[int, 1, 19] | None = None,
        starting_double: app_commands.Range[int, 0, 18] | None = None,
        knock: bool | None = None,
        open_hands: bool | None = None,
        fast_start: bool | None = None,
        double_rule: str | None = None,
        scoring: str | None = None,
        engine: str | None = None,
        first_player: str | None = None,
        mexican_first_turn: bool | None = None,
        deadline_hours: int | None = None,
        hints: bool = True,
        on_timeout: str | None = None,
        replace_after: app_commands.Range[int, 1, 10] | None = None,
        remind_hours: app_commands.Range[int, 1, 71] | None = None,
    ) -> None:
        house: dict[str, object] = {
            key: value
            for key, value in (
                ("rounds", rounds),
                ("starting_double", starting_double),
                ("knock", knock),
                ("open_hands", open_hands),
                ("first_turn", None if fast_start is None else
                 ("fast-start" if fast_start else "single")),
                ("double_rule", double_rule),
                ("scoring", scoring),
                ("engine_placement", engine),
                ("first_player", first_player),
                ("mexican_train_on_first_turn", mexican_first_turn),
            )
            if value is not None
        }  # fmt: skip
        options = GameOptions(
            turn_deadline=await timing.resolve_deadline(interaction, deadline_hours), hints=hints
        )
        await actions.open_lobby(
            interaction,
            preset=preset,
            house_rules=house,
            options=options,
            on_open=timing.game_options_saver(
                interaction,
                policy=on_timeout,
                replace_after=replace_after,
                remind_hours=remind_hours,
            ),
        )

    @app_commands.command(name="join", description="Join the game in this channel")
    @app_commands.guild_only()
    async def join(self, interaction: Interaction) -> None:
        await actions.lobby_action(interaction, None, "join")

    @app_commands.command(name="leave", description="Leave the game (a computer takes your seat)")
    @app_commands.guild_only()
    async def leave(self, interaction: Interaction) -> None:
        await actions.lobby_action(interaction, None, "leave")

    @app_commands.command(name="start", description="Deal the first round (host)")
    @app_commands.guild_only()
    async def start(self, interaction: Interaction) -> None:
        await actions.lobby_action(interaction, None, "start")

    @app_commands.command(name="cancel", description="Cancel the lobby (host)")
    @app_commands.guild_only()
    async def cancel(self, interaction: Interaction) -> None:
        await actions.lobby_action(interaction, None, "cancel")

    @app_commands.command(name="computer", description="Add a computer player (host)")
    @app_commands.guild_only()
    @app_commands.choices(
        level=[app_commands.Choice(name=lv.title(), value=lv) for lv in components.LEVELS]
    )
    async def computer(self, interaction: Interaction, level: str = "normal") -> None:
        await actions.lobby_action(interaction, None, "cpu", level=level)

    # ------------------------------------------------------------------ looking

    @app_commands.command(name="status", description="Who is playing, whose turn, the deadline")
    @app_commands.guild_only()
    async def status(self, interaction: Interaction) -> None:
        locale = locale_of(interaction)
        async with guarded(interaction):
            game = await actions.game_here(interaction)
            lines = [
                tr("status.head", locale, game=game.id, status=tr(f"status.{game.status}", locale)),
                render.seats_text(game, locale),
            ]
            if game.status is GameStatus.ACTIVE and game.turn is not None:
                lines.append(
                    tr(
                        "status.round",
                        locale,
                        round=(game.round_no or 0) + 1,
                        rounds=game.rules.rounds_total,
                    )
                )
                lines.append(actions.turn_line(game, game.turn, locale))
                view = await self.bot.service.table_view(game.id)
                counts = ", ".join(
                    f"{n}: {c}" for n, c in zip(view.names, view.hand_counts, strict=True)
                )
                lines.append(tr("status.counts", locale, counts=counts, bone=view.boneyard_count))
            lines += await timing.status_lines(interaction, game)
            await reply(interaction, "\n".join(lines))

    @app_commands.command(name="scores", description="Scores by round and the match so far")
    @app_commands.guild_only()
    async def scores(self, interaction: Interaction) -> None:
        locale = locale_of(interaction)
        async with guarded(interaction):
            game = await actions.game_here(interaction)
            svc = self.bot.service
            rounds = await svc.round_scores(game.id)
            standings = await svc.standings(game.id)
            if not standings:
                raise Refusal("error.no-scores")
            totals = [0] * len(game.players)
            for s in standings:
                totals[s.player.seat] = s.total
            await reply(
                interaction,
                render.scores_table(game.players, rounds, totals, locale)
                + render.standings_text(standings, locale),
            )

    @app_commands.command(name="hint", description="Your best move, privately (Hard's advice)")
    @app_commands.guild_only()
    async def hint(self, interaction: Interaction) -> None:
        locale = locale_of(interaction)
        async with guarded(interaction):
            game = await actions.game_here(interaction)
            if not game.options.hints:
                raise Refusal("hint.off")
            view = await self.bot.service.seat_view(game.id, interaction.user.id)
            if not view.my_turn:
                turn = view.current
                name = view.names[turn] if turn is not None else "—"
                raise Refusal("hint.not-your-turn", name=name)
            await reply(interaction, await asyncio.to_thread(hint_text, view, locale))

    @app_commands.command(name="rules", description="The rules this game is played by")
    @app_commands.guild_only()
    async def rules(self, interaction: Interaction) -> None:
        async with guarded(interaction):
            game = await actions.game_here(interaction)
            await reply(interaction, render.rules_text(game, locale_of(interaction)))

    # ------------------------------------------------------------------ admin

    @app_commands.command(name="end", description="End the game now (host or Manage Server)")
    @app_commands.guild_only()
    async def end(self, interaction: Interaction) -> None:
        bot = self.bot
        async with guarded(interaction):
            game = await actions.game_here(interaction)
            async with bot.game_lock(game.id):
                out = await bot.service.end(
                    game.id, interaction.user.id, bot.now(), is_manager=is_manager(interaction)
                )
                await actions.refresh_lobby(interaction, out.game)
                problem = None
                if game.status is GameStatus.ACTIVE:
                    problem = await actions.publish(bot, [out], interaction)
            text = tr("lobby.did.end", locale_of(interaction), game=game.id)
            await reply(interaction, text + (f"\n{problem}" if problem else ""))

    @app_commands.command(name="kick", description="Remove a player; a computer takes the seat")
    @app_commands.guild_only()
    async def kick(self, interaction: Interaction, player: discord.User) -> None:
        bot = self.bot
        async with guarded(interaction):
            game = await actions.game_here(interaction)
            async with bot.game_lock(game.id):
                out = await bot.service.kick(
                    game.id,
                    interaction.user.id,
                    player.id,
                    bot.now(),
                    is_manager=is_manager(interaction),
                    computer_moves=0,
                )
                await actions.refresh_lobby(interaction, out.game)
                problem = None
                if out.game.status is not GameStatus.LOBBY:
                    problem = await actions.publish(bot, [out], interaction)
                text = tr("lobby.did.kick", locale_of(interaction), name=player.display_name)
                await reply(interaction, text + (f"\n{problem}" if problem else ""))
                if out.computer_pending:
                    await actions.run_computers(bot, game.id, interaction)

    @app_commands.command(name="settings", description="Server defaults (Manage Server only)")
    @app_commands.guild_only()
    @app_commands.describe(
        preset="Default preset for new games",
        knock="Default: knock rule",
        open_hands="Default: open hands",
        fast_start="Default: fast start",
        allow_channel="Allow games in this channel (once any is set, only those)",
        disallow_channel="Stop allowing games in this channel",
        all_channels="Allow games in every channel again",
        host_role="Only members with this role (or Manage Server) may open games",
        no_host_role="Anyone may open games",
        language="The language of the bot's messages in this server's channels",
        deadline_hours="Default turn deadline for new games",
        on_timeout="Default: what happens when a player's time runs out",
        stall_days="Warn, then close, games nobody moved in this many days (0: never; 14)",
    )
    @app_commands.choices(
        preset=_PRESET_CHOICES, language=_SERVER_LANGUAGES, on_timeout=timing.POLICY_CHOICES
    )
    @app_commands.choices(deadline_hours=timing.DEADLINE_CHOICES)
    async def settings(
        self,
        interaction: Interaction,
        preset: str | None = None,
        knock: bool | None = None,
        open_hands: bool | None = None,
        fast_start: bool | None = None,
        allow_channel: discord.TextChannel | None = None,
        disallow_channel: discord.TextChannel | None = None,
        all_channels: bool = False,
        host_role: discord.Role | None = None,
        no_host_role: bool = False,
        language: str | None = None,
        deadline_hours: int | None = None,
        on_timeout: str | None = None,
        stall_days: app_commands.Range[int, 0, 365] | None = None,
    ) -> None:
        bot, locale = self.bot, locale_of(interaction)
        async with guarded(interaction):
            guild = interaction.guild
            assert guild is not None
            svc = bot.service
            current = await svc.guild_settings(guild.id)
            house: dict[str, Any] | None = None
            if knock is not None or open_hands is not None or fast_start is not None:
                house = dict(current.house_rules)
                if knock is not None:
                    house["knock"] = knock
                if open_hands is not None:
                    house["open_hands"] = open_hands
                if fast_start is not None:
                    house["first_turn"] = "fast-start" if fast_start else "single"
            channels: list[int] | None = None
            if all_channels:
                channels = []
            elif allow_channel is not None or disallow_channel is not None:
                channels = list(current.allowed_channels)
                if allow_channel is not None and allow_channel.id not in channels:
                    channels.append(allow_channel.id)
                if disallow_channel is not None:
                    channels = [c for c in channels if c != disallow_channel.id]
            new = await svc.update_guild_settings(
                guild.id,
                bot.now(),
                is_manager=is_manager(interaction),
                preset_name=preset,
                house_rules=house,
                allowed_channels=channels,
                host_role_id=None if host_role is None else host_role.id,
                clear_host_role=no_host_role,
            )
            if language is not None:
                chosen = None if language == "auto" else language
                await set_server_language(bot, svc.store, guild.id, chosen, bot.now())
            where = ", ".join(f"<#{c}>" for c in new.allowed_channels) or tr("word.all", locale)
            role = f"<@&{new.host_role_id}>" if new.host_role_id else tr("word.anyone", locale)
            house_text = ", ".join(f"{k}={v}" for k, v in sorted(new.house_rules.items())) or "—"
            timing_text = await timing.settings_text(
                interaction,
                is_manager=is_manager(interaction),
                deadline_hours=deadline_hours,
                policy=on_timeout,
                stall_days=stall_days,
            )
            await reply(
                interaction,
                tr(
                    "settings.now",
                    locale,
                    preset=new.preset,
                    house=house_text,
                    channels=where,
                    role=role,
                )
                + "\n"
                + tr(
                    "settings.language",
                    locale,
                    language=_server_language_name(bot, guild.id, locale),
                )
                + "\n"
                + timing_text,
            )

    @app_commands.command(
        name="me", description="Your own settings: hand DMs, language, time zone, reminders"
    )
    @app_commands.describe(
        dms="Send me my hand by DM",
        language="The language of my DMs",
        time_zone="Your time zone, e.g. Europe/Paris (for quiet hours)",
        quiet_start="Quiet hours start (hour 0-23 in your time zone): no reminders until...",
        quiet_end="...quiet hours end (hour 0-23); equal to the start: no quiet hours",
        reminder_dms="Send my turn reminders by DM instead of a mention in the channel",
        reminders="Remind me when it's my turn and I haven't played",
    )
    @app_commands.choices(language=_LANGUAGES)
    @app_commands.autocomplete(time_zone=timing.time_zone_autocomplete)
    async def me(
        self,
        interaction: Interaction,
        dms: bool | None = None,
        language: str | None = None,
        time_zone: str | None = None,
        quiet_start: app_commands.Range[int, 0, 23] | None = None,
        quiet_end: app_commands.Range[int, 0, 23] | None = None,
        reminder_dms: bool | None = None,
        reminders: bool | None = None,
    ) -> None:
        bot, locale = self.bot, locale_of(interaction)
        async with guarded(interaction):
            settings = await bot.service.update_user_settings(
                interaction.user.id,
                bot.now(),
                hand_dms=dms,
                # Switching DMs on is the player saying "I opened them": try again.
                dms_open=True if dms else None,
                language=language,
            )
            timing_text = await timing.me_text(
                interaction,
                time_zone=time_zone,
                quiet_start=quiet_start,
                quiet_end=quiet_end,
                reminder_dms=reminder_dms,
                reminders=reminders,
            )
            await reply(
                interaction,
                tr(
                    "me.now",
                    locale,
                    dms=tr("word.on" if settings.hand_dms else "word.off", locale),
                    language=tr(f"language.{settings.language}", locale),
                )
                + "\n"
                + timing_text,
            )

    @app_commands.command(name="sync", description="Push the slash commands (bot owner only)")
    async def sync(self, interaction: Interaction) -> None:
        bot = bot_of(interaction)
        async with guarded(interaction):
            if not await bot.is_owner(interaction.user):
                raise Refusal("error.owner-only")
            done = await bot.sync_commands()
            await reply(interaction, tr("sync.done", locale_of(interaction), what=", ".join(done)))


def _server_language_name(bot: MexicanTrainBot, guild_id: int, locale: str | None) -> str:
    chosen = server_language(bot, guild_id)
    return tr("language.auto" if chosen is None else f"language.{chosen}", locale)


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, MexicanTrainBot)
    # Registered here, i.e. in setup_hook: buttons posted before a restart answer again.
    bot.add_dynamic_items(*components.DYNAMIC_ITEMS)
    await bot.add_cog(Lobby(bot))


async def teardown(bot: commands.Bot) -> None:
    bot.remove_dynamic_items(*components.DYNAMIC_ITEMS)
