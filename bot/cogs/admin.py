"""``/mt`` for hosts, and each player's own settings: ``end``, ``kick``, ``undo``, ``me`` (a
player's settings); and ``/mt-admin``, shown only to Manage Server: ``settings`` (server
defaults), ``season`` and ``league`` (issue 48: :mod:`bot.ui.seasonadmin`), and ``sync`` (the
bot's owner).

The ``/mt`` commands join ``/mt`` while the cog is loaded (:mod:`bot.ui.mt`). A change to a
game goes through the service under the game's posting lock and is told by
:mod:`bot.ui.announcer`; the settings answers are only for the person who asked.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import tr
from bot.service import GameStatus
from bot.service.timing import Policy
from bot.ui import announcer, messages, mt
from bot.ui.choices import (
    AUTOPLAY_CHOICES,
    DEADLINE_CHOICES,
    LANGUAGE_CHOICES,
    PING_CHOICES,
    POLICY_CHOICES,
    PRESET_CHOICES,
    REMIND_AFTER_CHOICES,
    SERVER_LANGUAGE_CHOICES,
    TILE_CHOICES,
    ChoiceText,
    DateText,
    ZoneText,
    time_zone_autocomplete,
)
from bot.ui.facts import undone_words
from bot.ui.host import GameBot
from bot.ui.houserules import DEFAULT_DESCRIPTIONS, rules_from_options
from bot.ui.interactions import (
    Interaction,
    bot_of,
    game_here,
    guarded,
    is_manager,
    locale_of,
    on_off,
    reply,
    server_of,
)
from bot.ui.language import remember_client_language, server_language, set_server_language
from bot.ui.limits import shown
from bot.ui.mewords import me_text, remind_choice
from bot.ui.mt import ADMIN_GROUP, GameCog
from bot.ui.refusals import Refusal
from bot.ui.seasonadmin import LEAGUE_ADMIN_CHOICES, league_flow, season_flow


class Admin(GameCog):
    """``/mt`` end, kick, undo and me; ``/mt-admin`` settings and sync."""

    #: The server admin's commands, a top-level group of their own: Discord hides a command
    #: from members without its ``default_member_permissions`` (the server may change who
    #: sees it in Server Settings → Integrations) but cannot hide one subcommand of ``/mt``.
    #: Each command still checks its caller when it runs (Manage Server; the bot's owner).
    #: In servers only: a server's settings have no meaning in a DM.
    admin = app_commands.Group(
        name=ADMIN_GROUP,
        description="Server settings and command sync (Manage Server)",
        default_permissions=discord.Permissions(manage_guild=True),
        guild_only=True,
    )

    @mt.command(name="end", description="End the game now (host or Manage Server)")
    @app_commands.guild_only()
    async def end(self, interaction: Interaction) -> None:
        bot = bot_of(interaction)
        async with guarded(interaction):
            game = await game_here(interaction)
            async with bot.game_lock(game.id):
                out = await bot.service.end(
                    game.id, interaction.user.id, bot.now(), is_manager=is_manager(interaction)
                )
                await announcer.refresh_lobby(bot, out.game, interaction)
                text = tr("lobby.did.end", locale_of(interaction), game=game.id)
                if game.status is GameStatus.ACTIVE:
                    await announcer.publish(bot, [out], interaction, answer=text)
                else:
                    await reply(interaction, text)

    @mt.command(name="kick", description="Remove a player; a computer takes the seat")
    @app_commands.guild_only()
    async def kick(self, interaction: Interaction, player: discord.User) -> None:
        bot = bot_of(interaction)
        async with guarded(interaction):
            game = await game_here(interaction)
            async with bot.game_lock(game.id):
                out = await bot.service.kick(
                    game.id,
                    interaction.user.id,
                    player.id,
                    bot.now(),
                    is_manager=is_manager(interaction),
                    computer_moves=0,
                )
                await announcer.refresh_lobby(bot, out.game, interaction)
                name = shown(player.display_name)
                text = tr("lobby.did.kick", locale_of(interaction), name=name)
                if out.game.status is GameStatus.LOBBY:
                    await reply(interaction, text)
                else:
                    # The computer now in the seat moves first if it is its turn: one post.
                    await announcer.announce(bot, [out], interaction, answer=text)

    @admin.command(name="settings", description="Server defaults (Manage Server only)")
    @app_commands.guild_only()
    @app_commands.describe(
        preset="Default preset for new games",
        **DEFAULT_DESCRIPTIONS,
        allow_channel="Allow games in this channel (once any is set, only those)",
        disallow_channel="Stop allowing games in this channel",
        all_channels="Allow games in every channel again",
        host_role="Only members with this role (or Manage Server) may open games",
        no_host_role="Anyone may open games",
        language="The language of the bot's messages in this server's channels",
        deadline_hours="Default turn deadline for new games",
        on_timeout="Default: what happens when a player's time runs out",
        stall_days="Warn, then close, games nobody moved in this many days (0: never; 14)",
        threads="New games open in their own thread of the channel",
    )
    @app_commands.choices(
        preset=PRESET_CHOICES, language=SERVER_LANGUAGE_CHOICES, on_timeout=POLICY_CHOICES
    )
    @app_commands.choices(deadline_hours=DEADLINE_CHOICES)
    async def settings(
        self,
        interaction: Interaction,
        preset: ChoiceText | None = None,
        knock: bool | None = None,
        open_hands: bool | None = None,
        fast_start: bool | None = None,
        allow_channel: discord.TextChannel | None = None,
        disallow_channel: discord.TextChannel | None = None,
        all_channels: bool = False,
        host_role: discord.Role | None = None,
        no_host_role: bool = False,
        language: ChoiceText | None = None,
        deadline_hours: int | None = None,
        on_timeout: ChoiceText | None = None,
        stall_days: app_commands.Range[int, 0, 365] | None = None,
        threads: bool | None = None,
    ) -> None:
        bot, locale = bot_of(interaction), locale_of(interaction)
        async with guarded(interaction):
            server_of(interaction)  # in a DM: where to use it
            guild = interaction.guild
            assert guild is not None  # a server's interaction carries its server
            svc = bot.service
            current = await svc.guild_settings(guild.id)
            house: dict[str, Any] | None = None
            changed = rules_from_options(knock=knock, open_hands=open_hands, fast_start=fast_start)
            if changed:
                house = {**current.house_rules, **changed}
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
                threads=threads,
            )
            if language is not None:
                chosen = None if language == "auto" else language
                await set_server_language(bot, svc, guild.id, chosen, bot.now())
            where = ", ".join(f"<#{c}>" for c in new.allowed_channels) or tr("word.all", locale)
            role = f"<@&{new.host_role_id}>" if new.host_role_id else tr("word.anyone", locale)
            house_text = ", ".join(f"{k}={v}" for k, v in sorted(new.house_rules.items())) or "—"
            timing_text = await settings_text(
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
                + tr("settings.threads", locale, value=on_off(new.threads, locale))
                + "\n"
                + timing_text
                + webhooks_note(interaction),
            )

    @mt.command(
        name="me", description="Your own settings: hand DMs, language, time zone, reminders"
    )
    @app_commands.describe(
        dms="Let the bot DM me (my turn, with my hand; reminders if I ask for them)",
        ping="How I hear that it's my turn: one ping by default",
        autoplay="Play my turns that leave no choice at once (default: only-move)",
        language="The language of my DMs",
        tiles="How the tiles of my hand pictures show their numbers",
        time_zone="Your time zone, e.g. Europe/Paris (for quiet hours)",
        quiet_start="Quiet hours start (hour 0-23 in your time zone): no reminders until...",
        quiet_end="...quiet hours end (hour 0-23); equal to the start: no quiet hours",
        reminder_dms="Send my turn reminders by DM instead of a mention in the channel",
        reminders="Remind me when it's my turn and I haven't played",
        remind_after="Remind me this long into a turn without a deadline (default 12 h)",
        digest="One DM a day listing the games waiting on me, instead of a DM per turn",
        digest_hour="The hour of my day (0-23, my time zone) my daily digest comes; turns it on",
    )
    @app_commands.choices(
        language=LANGUAGE_CHOICES,
        tiles=TILE_CHOICES,
        ping=PING_CHOICES,
        autoplay=AUTOPLAY_CHOICES,
        remind_after=REMIND_AFTER_CHOICES,
    )
    @app_commands.autocomplete(time_zone=time_zone_autocomplete)
    async def me(
        self,
        interaction: Interaction,
        dms: bool | None = None,
        ping: ChoiceText | None = None,
        language: ChoiceText | None = None,
        tiles: ChoiceText | None = None,
        time_zone: ZoneText | None = None,
        quiet_start: app_commands.Range[int, 0, 23] | None = None,
        quiet_end: app_commands.Range[int, 0, 23] | None = None,
        reminder_dms: bool | None = None,
        reminders: bool | None = None,
        autoplay: ChoiceText | None = None,
        remind_after: ChoiceText | None = None,
        digest: bool | None = None,
        digest_hour: app_commands.Range[int, 0, 23] | None = None,
    ) -> None:
        bot, locale = bot_of(interaction), locale_of(interaction)
        async with guarded(interaction):
            reminders, after_s = remind_choice(reminders, remind_after)
            daily = digest or (digest is None and digest_hour is not None)
            # A first /mt me keeps the DMs in their client's language, as a first game does
            # (it wrote English, the column's default, and no game corrected it after).
            await remember_client_language(bot, interaction.user.id, locale)
            # One writer, one transaction: a refused option changes none of the others.
            settings = await bot.service.update_user_settings(
                interaction.user.id,
                bot.now(),
                hand_dms=dms,
                # Switching DMs on (for the hand, for reminders, for a daily digest) is the
                # player saying "I opened them": try again.
                dms_open=True if dms or reminder_dms or daily else None,
                language=language,
                tiles=tiles,
                ping=ping,
                autoplay=autoplay,
                time_zone=time_zone,
                reminders=reminders,
                quiet_start=quiet_start,
                quiet_end=quiet_end,
                reminder_dms=reminder_dms,
                reminder_after_s=after_s,
                digest=digest,
                digest_hour=digest_hour,
            )
            if digest is not None or digest_hour is not None or time_zone is not None:
                bot.schedule.look_sooner.set()  # the next digest may be due before its next look
            timing_text = await me_text(interaction)
            await reply(
                interaction,
                tr(
                    "me.now",
                    locale,
                    dms=tr("word.on" if settings.hand_dms else "word.off", locale),
                    language=tr(f"language.{settings.language}", locale),
                    tiles=tr(f"tiles.{settings.tiles}", locale),
                )
                + " "
                + tr("me.ping", locale, how=tr(f"ping.{settings.ping}", locale))
                + " "
                + tr("me.autoplay", locale, when=tr(f"autoplay.{settings.autoplay_mode}", locale))
                + "\n"
                + timing_text,
            )

    @admin.command(name="season", description="Open a season, or end it now (Manage Server)")
    @app_commands.guild_only()
    @app_commands.describe(
        name="The season's name", start="First day, YYYY-MM-DD (default: now)",
        end="Its last day, YYYY-MM-DD", rules="The preset rated games play",
        knock="Rated games: the knock rule", open_hands="Rated games: hands shown",
        fast_start="Rated games: the fast start",
        deadline_hours="League games: hours per turn (24)",
        vacation="League games: missed turns the computer plays before it keeps the seat (3)",
        end_now="End the open season now",
    )  # fmt: skip
    @app_commands.choices(rules=PRESET_CHOICES)
    @app_commands.choices(deadline_hours=DEADLINE_CHOICES)
    async def season(
        self, interaction: Interaction, name: ChoiceText | None = None,
        start: DateText | None = None, end: DateText | None = None,
        rules: ChoiceText | None = None, knock: bool | None = None,
        open_hands: bool | None = None, fast_start: bool | None = None,
        deadline_hours: int | None = None, vacation: app_commands.Range[int, 0, 10] | None = None,
        end_now: bool = False,
    ) -> None:  # fmt: skip
        house = rules_from_options(knock=knock, open_hands=open_hands, fast_start=fast_start)
        async with guarded(interaction):
            await season_flow(
                interaction, name=name, start=start, end=end, rules=rules, house=house,
                deadline_hours=deadline_hours, vacation=vacation, end_now=end_now,
            )  # fmt: skip

    @admin.command(name="league", description="The league's tables: show, form, move, start")
    @app_commands.guild_only()
    @app_commands.describe(action="What to do", player="move: the player", table="move: to table")
    @app_commands.choices(action=LEAGUE_ADMIN_CHOICES)
    async def league(
        self, interaction: Interaction, action: ChoiceText = "show",
        player: discord.User | None = None,
        table: app_commands.Range[int, 1, 100] | None = None,
    ) -> None:  # fmt: skip
        async with guarded(interaction):
            await league_flow(interaction, action, player, table)

    @admin.command(name="sync", description="Push the slash commands (bot owner only)")
    async def sync(self, interaction: Interaction) -> None:
        bot = bot_of(interaction)
        async with guarded(interaction):
            if not await bot.is_owner(interaction.user):
                raise Refusal("error.owner-only")
            done = await bot.sync_commands()
            await reply(interaction, tr("sync.done", locale_of(interaction), what=", ".join(done)))

    @mt.command(name="undo", description="Take back your own last turn, or (host) the last one")
    @app_commands.guild_only()
    @app_commands.describe(player="Only if it was this player's turn")
    async def undo(self, interaction: Interaction, player: discord.User | None = None) -> None:
        await undo_flow(interaction, player)


async def undo_flow(interaction: Interaction, player: discord.abc.User | None) -> None:
    bot = bot_of(interaction)
    locale = locale_of(interaction)
    async with guarded(interaction):
        game = await game_here(interaction)
        async with bot.game_lock(game.id):
            out = await bot.service.undo(
                game.id,
                interaction.user.id,
                bot.now(),
                is_manager=is_manager(interaction),
                player_user_id=None if player is None else player.id,
            )
            # One post: the undo, the computer players who now move first, the table.
            names = [p.name for p in out.game.players]
            me = out.game.player(interaction.user.id)
            mine = None if me is None else me.seat
            moves = undone_words(out.moves, out.player.seat, names, locale, mine)
            answer = tr("undo.done", locale, moves=moves)
            await announcer.post_undo(bot, interaction, out, answer)


async def settings_text(
    interaction: Interaction,
    *,
    is_manager: bool,
    deadline_hours: int | None,
    policy: str | None,
    stall_days: int | None,
) -> str:
    """Apply the server-default options of ``/mt-admin settings`` and describe them."""
    bot = bot_of(interaction)
    locale = locale_of(interaction)
    guild_id = interaction.guild_id or 0
    if deadline_hours is not None or policy is not None or stall_days is not None:
        row = await bot.schedule.update_guild_schedule(
            guild_id,
            bot.now(),
            is_manager=is_manager,
            deadline_hours=deadline_hours,
            policy=None if policy is None else Policy(policy),
            stall_days=stall_days,
        )
    else:
        row = await bot.schedule.guild_schedule(guild_id)
    deadline = (
        tr("schedule.hours", locale, hours=row.deadline_s // 3600)
        if row.deadline_s
        else tr("schedule.no-deadline", locale)
    )
    stall = (
        tr("schedule.days", locale, days=row.stall_days)
        if row.stall_days
        else tr("schedule.never", locale)
    )
    grace = tr("schedule.days", locale, days=bot.schedule.stall_grace.days)
    return tr(
        "schedule.settings",
        locale,
        deadline=deadline,
        policy=messages.policy_text(None, row.timeout_policy, locale),
        stall=stall,
        grace=grace,
    )


def webhooks_note(interaction: Interaction) -> str:
    """A line for the server's admin where they look (``/mt-admin settings``), never per move nor to
    the players: without Manage Webhooks in this channel the turns of moves made from DMs
    are the bot's own posts, about twice the rate-limited requests (docs/discord.md); with
    it, on a server that requires 2FA the owner's lack of it is refused as 60003 (the same
    posts; docs/admin.md)."""
    if not interaction.app_permissions.manage_webhooks:
        return "\n" + tr("settings.no-webhooks", locale_of(interaction))
    if interaction.guild_id in bot_of(interaction).hooks.owner_2fa_needed:
        return "\n" + tr("settings.webhooks-2fa", locale_of(interaction))
    return ""


def _server_language_name(bot: GameBot, guild_id: int, locale: str | None) -> str:
    chosen = server_language(bot, guild_id)
    return tr("language.auto" if chosen is None else f"language.{chosen}", locale)


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, GameBot)
    await bot.add_cog(Admin(bot))
