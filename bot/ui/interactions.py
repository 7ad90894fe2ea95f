"""What every command and button shares: the one error funnel, deferral, short replies, and
finding the game and the permissions an interaction is about.

Every interaction goes through :func:`guarded`: it defers (Discord drops an interaction not
answered within 3 s, and everything here touches the database or renders), runs the body, and
turns any refusal — :class:`ServiceError`, the engine's ``IllegalMove``/``MoveError``, a bad
tile — into a short ephemeral sentence in the reader's language through
:func:`bot.ui.refusals.error_text`.
A database outage is answered "unreachable, nothing changed, try again shortly" and logged
once per outage (:class:`bot.ui.host.Outage`); a player's bad input is a refusal, never an ERROR
line. An unexpected exception is logged and answered with a generic apology, never a silent
"This interaction failed".
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Sequence
from typing import Any, Literal

import discord
from discord import app_commands

from bot.engine import IllegalMove, MoveError, TileError
from bot.i18n import language_of, tr
from bot.ops.metrics import note_game, track
from bot.service import GameSummary, ServiceError
from bot.service.errors import GameNotFound, unreachable, unsure
from bot.service.queries import Look
from bot.ui import limits
from bot.ui.host import SHED_AFTER, GameBot
from bot.ui.permissions import NEEDED, POST_NEEDED, THREAD_NEEDED
from bot.ui.refusals import STALE_COMMAND, Refusal, RefusedCheck, error_text, outcome_of, unwrapped

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]


#: Where ``/hand`` and ``/mt`` may be used: a server, or the bot's own DM (a player's game is
#: found there, :func:`my_game`); never a group DM, where the bot is not and cannot answer.
IN_DMS = app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)


def bot_of(interaction: Interaction) -> GameBot:
    client = interaction.client
    assert isinstance(client, GameBot)
    return client


def locale_of(interaction: Interaction) -> str:
    """The reader's language for an answer only they see."""
    return str(interaction.locale)


def channel_locale(
    interaction: Interaction | None,
    *,
    client: discord.Client | None = None,
    guild_id: int | None = None,
) -> str:
    """The language for messages the whole channel reads: the server's chosen language
    (``/mt-admin settings language:``, kept on the bot), else the server's Discord locale, else
    English."""
    if interaction is not None:
        client = client or interaction.client
        guild_id = guild_id if guild_id is not None else interaction.guild_id
    if isinstance(client, GameBot) and guild_id is not None and guild_id in client.languages:
        return client.languages[guild_id]
    guild_locale = None
    if interaction is not None and interaction.guild_locale is not None:
        guild_locale = str(interaction.guild_locale)
    elif client is not None and guild_id is not None:
        guild = client.get_guild(guild_id)
        if guild is not None:
            guild_locale = str(guild.preferred_locale)
    return language_of(guild_locale)


def is_manager(interaction: Interaction) -> bool:
    """Manage Server in this channel (resolved by Discord for the member who acted)."""
    return bool(interaction.guild is not None and interaction.permissions.manage_guild)


def role_ids(interaction: Interaction) -> list[int]:
    user = interaction.user
    return [r.id for r in user.roles] if isinstance(user, discord.Member) else []


async def defer(interaction: Interaction) -> None:
    """Acknowledge at once, privately: the answer that follows is only for this user."""
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)


def age_of(interaction: Interaction) -> float:
    """Seconds the interaction has waited in this bot: since its gateway event reached the
    bot, on the bot's monotonic clock (:class:`bot.ui.host.Arrivals`). Not its id's time
    against the host's clock: that difference carries the clock's offset, and a host 2 s fast
    would make every interaction look late. 0 for an interaction whose arrival the bot did
    not see."""
    client = interaction.client
    if isinstance(client, GameBot):
        waited = client.arrivals.waited(interaction.id)
        if waited is not None:
            return waited
    return 0.0


def acknowledged(interaction: Interaction) -> None:
    """Count how close the acknowledgement came to Discord's 3 s (``/metrics``), and let the
    work waiting on it go on (:data:`bot.ui.host.ACKS_FIRST`)."""
    client = interaction.client
    metrics = getattr(client, "metrics", None)
    if metrics is not None:
        metrics.acknowledged(age_of(interaction))
    let_go(interaction)


def let_go(interaction: Interaction) -> None:
    """The interaction has its first answer, or never will: the work waiting for it to be
    acknowledged goes on (:meth:`bot.ui.host.Arrivals.acknowledged`)."""
    client = interaction.client
    if isinstance(client, GameBot):
        client.arrivals.acknowledged(interaction.id)


async def shed(interaction: Interaction) -> bool:
    """Answer "busy, try again in a moment" to an interaction that waited too long for its
    handler (see :data:`bot.ui.host.SHED_AFTER`); True if it was, and its work must not run."""
    client = interaction.client
    limit = client.shed_after if isinstance(client, GameBot) else SHED_AFTER
    if interaction.response.is_done() or age_of(interaction) <= limit:
        return False
    # No log line of its own: the interaction's line says ``outcome=refused:busy`` (one
    # warning per shed interaction would add to an overloaded bot's work).
    await reply(interaction, tr("error.busy", locale_of(interaction)))
    acknowledged(interaction)
    return True


async def reply(interaction: Interaction, text: str, **kwargs: Any) -> None:
    """An ephemeral answer, whether or not the interaction was already acknowledged, fitted
    to Discord's limits (:func:`bot.ui.limits.fit`)."""
    fitted = limits.fit("reply", content=text, **kwargs)
    if interaction.response.is_done():
        await answer(interaction, **fitted)
    else:
        await interaction.response.send_message(ephemeral=True, **fitted)


#: ``interaction.extras`` key: the "thinking…" original response was replaced by an answer.
ANSWERED = "mt_answered"


def replaces_thinking(interaction: Interaction) -> bool:
    """Whether the next answer replaces the "thinking…" the interaction was deferred with: it
    was deferred that way (type 5) and nothing has answered it yet."""
    deferred = discord.InteractionResponseType.deferred_channel_message
    return interaction.response.type is deferred and not interaction.extras.get(ANSWERED)


def answered(interaction: Interaction) -> None:
    """Note that the deferral's original response now holds an answer (later ones add)."""
    interaction.extras[ANSWERED] = True


def retract(interaction: Interaction) -> None:
    """The answer given is taken back: the next one replaces it in the original response
    (``/mt new``'s "is open", when the card that followed it was refused)."""
    interaction.extras.pop(ANSWERED, None)


async def answer(interaction: Interaction, **fields: Any) -> None:
    """A private answer to an acknowledged interaction, the documented way: the first answer
    after a "thinking…" deferral edits the original response; any later one, or one after a
    click's silent acknowledgement, is an ephemeral followup. (Discord still lets a followup
    replace the "thinking…" message, but keeps that for old apps only: docs/discord.md.)
    ``fields`` are ``followup.send``'s, already fitted."""
    fields.pop("ephemeral", None)
    if not replaces_thinking(interaction):
        await interaction.followup.send(ephemeral=True, **fields)
        return
    files = list(fields.pop("files", None) or [])
    file = fields.pop("file", discord.utils.MISSING)
    if file is not discord.utils.MISSING and file is not None:
        files.append(file)
    if files:
        fields["attachments"] = files
    answered(interaction)
    await interaction.edit_original_response(**fields)


async def answer_error(interaction: Interaction, error: BaseException, what: str = "") -> None:
    """The funnel's exit: one short ephemeral sentence; unexpected errors are logged, a
    database outage once per outage, refusals not at all (they are in the interaction's
    own log line)."""
    error = refusal_of(interaction, error, what)
    if not isinstance(error, ServiceError | IllegalMove | MoveError | TileError | Refusal):
        log.error("interaction %s failed", interaction.id, exc_info=error)
    try:
        await reply(interaction, error_text(error, locale_of(interaction)))
    except discord.HTTPException:
        log.warning("could not tell the user about an error (interaction %s)", interaction.id)


async def answer_tree_error(interaction: Interaction, error: BaseException) -> None:
    """The command tree's ``on_error``: what failed before a command's own funnel (its
    option check, a command the bot does not know as sent), answered and logged once like
    any interaction."""
    with track(interaction) as record:
        record.outcome = outcome_of(error)
        try:
            await answer_error(interaction, error, record.command)
        finally:  # answered (or never will be)
            let_go(interaction)


def refusal_of(interaction: Interaction, error: BaseException, what: str = "") -> BaseException:
    """The refusal an error stands for, when it is not a bug: a failed check, a command the
    bot does not know as sent, a database outage (noted in the bot's ``outage``, with the
    command ``what`` that met it)."""
    error = unwrapped(error)
    if isinstance(error, RefusedCheck):
        return error.refusal
    no_game = isinstance(error, Refusal) and error.key == "error.no-game-here"
    if no_game and interaction.guild_id is None:  # "open one with /mt new": not in a DM
        return Refusal("error.dm-not-here")
    if isinstance(error, STALE_COMMAND):
        log.warning("interaction %s: %s", interaction.id, error)
        return Refusal("error.stale-command")
    if isinstance(error, app_commands.CheckFailure):
        return Refusal("error.not-allowed")
    reason = unreachable(error)
    if reason is not None:
        client = interaction.client
        if isinstance(client, GameBot):
            client.outage.failed(reason, what, interaction.extras.get(BEGAN))
        return Refusal("error.database-unsure" if unsure(error) else "error.database-down")
    return error


@contextlib.asynccontextmanager
async def guarded(
    interaction: Interaction, *, defer_first: bool | Literal["update"] = True
) -> AsyncIterator[None]:
    """Defer, run the body, and send any refusal through the funnel. Every interaction passes
    here, so this is also where each is logged once and counted (:func:`bot.ops.metrics.track`).

    ``defer_first``: True acknowledges with a private "thinking…"; ``"update"`` acknowledges a
    click without a message of its own (its answer edits the message clicked, or follows);
    False leaves the first answer to the body. Either acknowledgement is counted against
    Discord's 3 s, and a late one is answered "busy" instead (:func:`shed`)."""
    with track(interaction) as record:
        late = False
        if defer_first:
            try:
                late = await shed(interaction)
                if not late:
                    if defer_first == "update":
                        await interaction.response.defer()
                    else:
                        await defer(interaction)
                    acknowledged(interaction)
                    client = interaction.client
                    if isinstance(client, GameBot):  # its token may tell the match's end
                        client.posts.note_dm_click(interaction)
                        await client.arrivals.acknowledgements_first()
            except Exception as error:
                # Discord refused the acknowledgement (too late, a token gone): nothing can
                # answer this interaction any more, so its body must not run (it could change
                # a game nobody is told of). One ERROR line; then the handler's task ends as
                # cancelled, which discord.py and asyncio end quietly — a second "generator
                # didn't yield" error would only repeat this one.
                record.outcome = outcome_of(error)
                log.error("interaction %s could not be acknowledged: %s", interaction.id, error)
                raise asyncio.CancelledError from error
        if late:
            record.outcome = "refused:busy"
            # Answered: the body stops at its first wait, before it reads or writes anything
            # (every write is awaited, and a cancelled one rolls back).
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(0):
                    yield
            return
        # The body waited only for the acknowledgements of interactions that came before its
        # own (above, bounded), never for other games' posts (the turn post's work waits for
        # a work slot in the announcer), so the actor's own answer comes next.
        began = interaction.extras[BEGAN] = time.monotonic()
        try:
            yield
        except Exception as error:  # the funnel: every failure becomes one sentence
            record.outcome = outcome_of(error)
            await answer_error(interaction, error, record.command)
        else:
            outage = bot_of(interaction).outage
            if outage.since is not None:  # an outage is open: does this one end it?
                outage.recovered(record.command, began)
        finally:  # a body that gave the first answer itself (defer_first False) has given it
            let_go(interaction)


#: ``interaction.extras`` key: when its body began (``time.monotonic``), for the outage's log.
BEGAN = "mt_began"


def mention(user_id: int | None, name: str) -> str:
    return f"<@{user_id}>" if user_id is not None else f"**{name}**"


def on_off(value: bool, locale: str | None) -> str:
    return tr("word.on" if value else "word.off", locale)


# ---------------------------------------------------------------------- finding the game


def server_of(interaction: Interaction) -> int:
    """The server a command about a server (its settings, statistics, leaderboard) is used
    in; in a DM, a refusal that says where it works and what does work in a DM."""
    if interaction.guild_id is None:
        raise Refusal("error.server-command")
    return interaction.guild_id


async def game_here(interaction: Interaction) -> GameSummary:
    """The unfinished game in this channel, or a refusal saying there is none."""
    bot = bot_of(interaction)
    if interaction.channel_id is None:
        raise Refusal("error.no-game-here")
    game = await bot.service.game_in_channel(interaction.channel_id)
    if game is None:
        raise Refusal("error.no-game-here")
    note_game(game.id)
    interaction.extras[SEEN] = game
    return game


async def seat_here(interaction: Interaction) -> Look:
    """The unfinished game in this channel with the user's seat's view of it, in one read (a
    move command's look-up: :class:`~bot.service.queries.Look`), or a refusal saying there is
    no game here."""
    bot = bot_of(interaction)
    if interaction.channel_id is None:
        raise Refusal("error.no-game-here")
    look = await bot.service.look_here(interaction.channel_id, interaction.user.id)
    if look is None:
        raise Refusal("error.no-game-here")
    note_game(look.game.id)
    interaction.extras[SEEN] = look.game
    return look


def looked(interaction: Interaction, game_id: int) -> Look | None:
    """What :func:`check_place` read for this click's game, kept on the interaction (its
    ``extras``, discord.py's place for such data), so the handler does not read it again."""
    look = interaction.extras.get(LOOK)
    return look if isinstance(look, Look) and look.game.id == game_id else None


async def my_game(interaction: Interaction) -> GameSummary:
    """This channel's game, or in a DM the user's most recently active game."""
    bot = bot_of(interaction)
    if interaction.guild is None:
        games = await bot.service.games_for_user(interaction.user.id)
        if not games:
            raise Refusal("error.no-game-mine")
        note_game(games[0].id)
        return games[0]
    return await game_here(interaction)


#: Where a persistent control may act on its game: ``channel`` — only in the game's own
#: server and channel (the lobby, turn and Rematch controls, posted there); ``answer`` — on an
#: answer only the clicker sees, in the game's server (history pages: ``/mt history game:N``
#: reads any game of the server, from any channel); ``player`` — in the game's own channel,
#: or in a DM by a player seated in the game (Catch me up, on turn posts and turn DMs);
#: ``move`` — only in the game's own server and channel, checked by the move itself in its
#: one read of the game (the move list after Play: ``Turns.take(made_in=)``), so the pick
#: makes no read of its own first.
PLACES = ("channel", "answer", "player", "move")

#: The key of the game a click's place check read, in ``Interaction.extras`` (:func:`looked`).
LOOK = "mt.look"
#: The key of the game a typed command's look-up read (``bot.cogs.play.seen_version``).
SEEN = "mt.seen"


async def check_place(
    interaction: Interaction, game_id: int, place: str, *, seat: bool = False
) -> None:
    """Refuse a click whose game is not where the control may act (see :data:`PLACES`).

    A control's ``custom_id`` names its game and a client can send any ``custom_id``, so no
    click is trusted to come from the game's own message: a game of another server is
    refused as unknown (nothing about it is told), a game of another channel as elsewhere.
    Raises before anything is read or changed beyond the game's place. The game read (with
    the clicker's seat's view, ``seat``: a turn control's) is kept for the handler
    (:func:`looked`): a click reads its game once."""
    if place == "move":
        return  # the move checks it (made_in), in the read it makes anyway
    service = bot_of(interaction).service
    if place == "player" and interaction.guild_id is None:
        # A DM: only a player of the game may ask about it there (a client can send any id).
        try:
            dm_look: Look | None = await service.look(game_id)
        except GameNotFound:
            dm_look = None
        if dm_look is None or dm_look.game.player(interaction.user.id) is None:
            raise Refusal("error.not-your-game", game=game_id)
        interaction.extras[LOOK] = dm_look
        return
    uid = interaction.user.id if seat and interaction.guild_id is not None else None
    look = await service.look(game_id, uid, guild_id=interaction.guild_id)
    guild_id, channel_id = look.game.guild_id, look.game.channel_id
    interaction.extras[LOOK] = look
    if guild_id != interaction.guild_id:
        raise Refusal("error.no-such-game", game=game_id)
    message = interaction.message
    on_answer = message is not None and message.flags.ephemeral
    if place == "answer" and on_answer:
        return
    if channel_id != interaction.channel_id and not await _beside_the_thread(interaction, game_id):
        raise Refusal("error.other-channel", game=game_id)
    if place == "answer":  # its own channel, but not on an answer: not a history page
        raise Refusal("error.not-allowed")


async def _beside_the_thread(interaction: Interaction, game_id: int) -> bool:
    """Whether the click is in the channel the game's thread was opened from: a game played
    in a thread keeps its lobby card (Join, Start) and, once over, its result (Rematch)
    there."""
    card = (await bot_of(interaction).service.messages(game_id)).get("lobby")
    return card is not None and card.channel_id == interaction.channel_id


# ---------------------------------------------------------------------- permissions


def missing_permissions(
    perms: discord.Permissions, needed: Sequence[str] = POST_NEEDED
) -> list[str]:
    """Which of ``needed`` (bot.ui.permissions: by default those a post fails without) the
    bot lacks."""
    return [name for name in needed if not getattr(perms, name)]


def channel_permissions(channel: object) -> discord.Permissions | None:
    """The bot's permissions in a guild channel (None when unknown, e.g. not cached)."""
    if isinstance(channel, discord.abc.GuildChannel):
        return channel.permissions_for(channel.guild.me)
    return None


def permission_names(missing: Sequence[str], locale: str | None) -> str:
    return ", ".join(tr(f"perm.{name}", locale) for name in missing)


def check_thread_permissions(interaction: Interaction) -> None:
    """Refuse, naming what is missing, when the bot may not open a game's thread here."""
    missing = missing_permissions(interaction.app_permissions, THREAD_NEEDED)
    if missing:
        raise Refusal("error.thread-perms", perms=permission_names(missing, locale_of(interaction)))


def lobby_channel(interaction: Interaction) -> tuple[discord.Guild, discord.abc.Messageable]:
    """The server and channel a new lobby (``/mt new``, Rematch) is posted in, checked first:
    a server channel where the bot has every permission a game needs; else a Refusal that
    names what is missing, before anything is written."""
    channel = interaction.channel
    if interaction.guild is None or not isinstance(channel, discord.abc.Messageable):
        raise Refusal("error.guild-only")
    missing = missing_permissions(interaction.app_permissions, NEEDED)
    if missing:
        raise Refusal(
            "error.missing-perms", perms=permission_names(missing, locale_of(interaction))
        )
    return interaction.guild, channel


def cannot_post(
    bot: discord.Client, game: GameSummary, interaction: Interaction | None, locale: str
) -> str | None:
    """Why the bot may not post in the game's channel (missing permissions), if it may not."""
    perms = channel_permissions(bot.get_channel(game.channel_id))
    missing = missing_permissions(perms) if perms is not None else []
    if not missing:
        return None
    log.warning("game %s: cannot post in channel %s: missing %s", game.id, game.channel_id, missing)
    return tr(
        "error.post-missing",
        locale_of(interaction) if interaction else locale,
        perms=permission_names(missing, locale),
    )
