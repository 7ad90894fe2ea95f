"""The lobby card: a game's first message, posted when the lobby opens (``/mt new``'s as the
command's public followup, off the bot's global limit, issue 47; a rematch's and a league's
as the bot's message), kept up to date as
seats fill and closed when the lobby starts or ends, and the controls on it (Join, Leave,
Start, Cancel, add or take out a computer player: persistent items, their clicks handled by
the lobby cog through :func:`bot.ui.components.listen`). Part of the announcer's job (the cogs
reach these through :mod:`bot.ui.announcer`); kept apart so the turn cycle reads alone.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any, ClassVar

import discord

from bot.digits import ID, read_int
from bot.i18n import tr
from bot.service import GameStatus, GameSummary, MessageRow
from bot.ui import components, houserules, messages, pacewords, ratings
from bot.ui.host import GameBot
from bot.ui.interactions import Interaction, channel_locale, reply, retract
from bot.ui.limits import OPTION_TEXT, THREAD_NAME, fit
from bot.ui.refusals import Refusal
from bot.ui.route import DEAD_TOKEN

log = logging.getLogger(__name__)

LOBBY_ACTIONS = ("join", "leave", "start", "cancel")
LEVELS = ("easy", "normal", "hard", "expert")

#: Mentions a lobby card may ping: people (a rematch names the players), never roles.
PING_PEOPLE = discord.AllowedMentions(users=True, roles=False, everyone=False)


async def post_lobby(
    bot: GameBot,
    channel: discord.abc.Messageable,
    game: GameSummary,
    locale: str | None,
    *,
    ended_by: int,
    content: str | None = None,
    interaction: Interaction | None = None,
) -> discord.Message:
    """Post a new lobby's card and remember it as the game's lobby message. If Discord refuses
    the post, nobody could join: the game is ended (``ended_by`` acting) and the refusal says
    why.

    ``interaction``: the command that opened it (``/mt new``), already answered privately: the
    card goes as its public followup (off the bot's global limit; the bot token still edits
    it later, as any message of the bot, and a click's token edits it for free), else, its
    token refused, as the bot's own message."""
    fields = fit(
        "lobby card",
        content=content,
        embed=lobby_embed(game, locale),
        view=lobby_controls(game, locale),
        allowed_mentions=PING_PEOPLE,
    )
    try:
        message: discord.Message | None = None
        if interaction is not None and interaction.channel_id == getattr(channel, "id", None):
            message = await _follow_up(interaction, fields)
        if message is None:
            message = await channel.send(**fields)
    except discord.HTTPException as exc:
        # No lobby message means nobody can join: do not leave a ghost game behind.
        await bot.service.end(game.id, ended_by, bot.now(), is_manager=True)
        raise Refusal("error.cannot-post", detail=exc.text or str(exc.status)) from None
    await bot.service.record_message(game.id, "lobby", message.channel.id, message.id, bot.now())
    return message


async def post_lobby_after(
    bot: GameBot,
    interaction: Interaction,
    channel: discord.abc.Messageable,
    game: GameSummary,
    locale: str | None,
    answer: str,
) -> discord.Message:
    """``/mt new``: the host's private ``answer`` first (it replaces "thinking…", so the card
    can follow as the command's public followup, free of the global limit: docs/discord.md),
    then the card (:func:`post_lobby`); refused, the game is ended and the refusal replaces
    the answer (the host never reads that the lobby is open), as any failure's words do."""
    await reply(interaction, answer)
    try:
        host = interaction.user.id
        return await post_lobby(bot, channel, game, locale, ended_by=host, interaction=interaction)
    except Exception:  # the error's words replace "is open" (the funnel says them)
        retract(interaction)
        raise


async def _follow_up(interaction: Interaction, fields: dict[str, Any]) -> discord.Message | None:
    """The card as the interaction's public followup; None when its token is refused (the
    bot's own message goes instead). Another refusal (AutoMod) is raised: the same card as
    the bot's message would be refused too."""
    try:
        return await interaction.followup.send(wait=True, **fields)
    except discord.HTTPException as exc:
        if exc.code not in DEAD_TOKEN:
            raise
        log.info("interaction %s: token refused (%s), posting the card", interaction.id, exc.code)
        return None


def lobby_embed(game: GameSummary, locale: str | None) -> discord.Embed:
    status = {
        GameStatus.LOBBY: "lobby.waiting",
        GameStatus.ACTIVE: "lobby.started",
        GameStatus.FINISHED: "lobby.finished",
        GameStatus.ABANDONED: "lobby.cancelled",
    }[game.status]
    embed = discord.Embed(
        title=tr("lobby.title", locale, game=game.id),
        description=houserules.rules_text(game, locale),
        colour=discord.Colour.dark_green(),
    )
    low, high = game.rules.player_range
    embed.add_field(
        name=tr("lobby.seats", locale, count=len(game.players), low=low, high=high),
        value=messages.seats_text(game, locale),
        inline=False,
    )
    if game.status is GameStatus.LOBBY:  # how long it will take, before anyone commits to it
        embed.add_field(
            name=tr("pace.field", locale), value=pacewords.length_text(game, locale), inline=False
        )
    embed.set_footer(text=tr(status, locale))
    return embed


def lobby_controls(game: GameSummary, locale: str | None) -> discord.ui.View:
    """The lobby's buttons and selects, with a way to take out each computer player seated."""
    computers = [(p.seat, p.name) for p in game.players if p.is_computer]
    return lobby_view(game.id, locale, computers)


async def refresh_lobby(
    bot: GameBot,
    game: GameSummary,
    interaction: Interaction | None = None,
    *,
    row: MessageRow | None = None,
) -> None:
    """Edit the lobby message to show the seats now (buttons go once the lobby closes);
    ``row``: the card's row, when the caller has read it already."""
    row = row or (await bot.service.messages(game.id)).get("lobby")
    if row is None:
        return
    locale = channel_locale(interaction, client=bot, guild_id=game.guild_id)
    view = lobby_controls(game, locale) if game.status is GameStatus.LOBBY else None
    fields = fit("lobby edit", embed=lobby_embed(game, locale), view=view)
    clicked = interaction.message if interaction is not None else None
    update = discord.InteractionResponseType.deferred_message_update
    try:
        if (
            interaction is not None
            and clicked is not None
            and clicked.id == row.message_id
            and interaction.response.type is update
        ):  # the click on this card: its own token edits it, free of the global limit
            await interaction.edit_original_response(**fields)
            return
        message = bot.get_partial_messageable(row.channel_id).get_partial_message(row.message_id)
        await message.edit(**fields)
    except discord.HTTPException:
        log.warning("game %s: could not update the lobby message", game.id, exc_info=True)


async def close_lobby(bot: GameBot, game: GameSummary, locale: str | None) -> None:
    """Show a lobby that will never start as closed, without its buttons."""
    row = (await bot.service.messages(game.id)).get("lobby")
    if row is None:
        return
    message = bot.get_partial_messageable(row.channel_id).get_partial_message(row.message_id)
    try:
        await message.edit(**fit("lobby close", embed=lobby_embed(game, locale), view=None))
    except discord.HTTPException:
        log.warning("game %s: could not close the lobby message", game.id, exc_info=True)


# ---------------------------------------------------------------------- games in threads


async def open_thread(
    bot: GameBot,
    card: discord.Message | discord.PartialMessage,
    game: GameSummary,
    host_id: int,
    locale: str | None,
) -> GameSummary:
    """Open the game's own thread from its lobby card and move the lobby into it: from then
    on the thread is the game's channel, and the card (with its buttons) stays where the
    thread was opened from. If Discord refuses the thread, the lobby ends and the refusal
    says why."""
    place = bot.get_channel(card.channel.id)
    if card.guild is None and isinstance(place, discord.TextChannel):
        card = place.get_partial_message(card.id)  # a followup's message knows no server
    try:
        thread = await card.create_thread(
            name=tr("thread.name", locale, game=game.id)[:THREAD_NAME],
            auto_archive_duration=10080,
        )
    except discord.HTTPException as exc:
        out = await bot.service.end(game.id, host_id, bot.now(), is_manager=True)
        await close_lobby(bot, out.game, locale)
        raise Refusal("thread.cannot", detail=exc.text or str(exc.status)) from None
    return (await bot.service.move_to_thread(game.id, host_id, thread.id, bot.now())).game


async def thread_result(bot: GameBot, game: GameSummary, standings: str, locale: str) -> None:
    """A thread game's match is over: its result goes to the channel the thread was opened
    from (with a link and Rematch), kept as the game's ``result`` message: the end DMs, sent
    after it, link there (:func:`bot.ui.roundend.result_link`), where Rematch is, not to the
    last post of a thread about to be archived. Nothing for a game played in its own channel."""
    card = await thread_card(bot, game)
    if card is None:
        return
    text = tr("thread.result", locale, game=game.id, thread=f"<#{game.channel_id}>")
    # Each player's rating change, as the thread's final post says it (issue 48).
    standings = "\n".join([standings, *await ratings.end_line(bot, game.id, game.players, locale)])
    try:
        posted = await bot.get_partial_messageable(card.channel_id).send(
            **fit(
                "thread result",
                content=f"{text}\n{standings}",
                # The archived thread takes no more clicks: Rematch is here.
                view=components.rematch_view(game.id, locale),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        )
    except discord.HTTPException as exc:
        log.warning("game %s: could not post the result beside the thread: %s", game.id, exc)
        return
    await bot.service.record_message(game.id, "result", card.channel_id, posted.id, bot.now())


async def close_thread(bot: GameBot, game: GameSummary) -> None:
    """After :func:`thread_result` and the end DMs: the card shows the game finished and the
    thread is archived. Nothing for a game played in its own channel."""
    card = await thread_card(bot, game)
    if card is None:
        return
    await refresh_lobby(bot, game, row=card)
    try:
        await bot.http.edit_channel(game.channel_id, archived=True)
    except discord.HTTPException as exc:
        log.info("game %s: could not archive its thread: %s", game.id, exc)


async def thread_card(bot: GameBot, game: GameSummary) -> MessageRow | None:
    """The lobby card's row when the game is played in a thread the bot opened for it (the
    card is in another channel, the one the thread was opened from), else None."""
    card = (await bot.service.messages(game.id)).get("lobby")
    return card if card is not None and card.channel_id != game.channel_id else None


async def in_thread(bot: GameBot, game: GameSummary) -> bool:
    """Whether the game is played in a thread the bot opened for it."""
    return await thread_card(bot, game) is not None


# ---------------------------------------------------------------------- the card's controls


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"mt:(?P<game>{ID}):lobby:(?P<action>join|leave|start|cancel)",
):
    place: ClassVar[str] = "channel"

    def __init__(self, game_id: int, action: str, locale: str | None = None) -> None:
        style = {
            "join": discord.ButtonStyle.success,
            "start": discord.ButtonStyle.primary,
            "cancel": discord.ButtonStyle.danger,
        }.get(action, discord.ButtonStyle.secondary)
        super().__init__(
            discord.ui.Button(
                label=tr(f"button.{action}", locale),
                style=style,
                custom_id=f"mt:{game_id}:lobby:{action}",
            )
        )
        self.game_id, self.action = game_id, action

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LobbyButton:
        return cls(int(match["game"]), match["action"])

    async def callback(self, interaction: Interaction) -> None:
        await components.clicked(interaction, self)


class ComputerSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=rf"mt:(?P<game>{ID}):lobby:cpu"
):
    """Add a computer player of the chosen level (host only)."""

    place: ClassVar[str] = "channel"

    def __init__(self, game_id: int, locale: str | None = None) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"mt:{game_id}:lobby:cpu",
                placeholder=tr("select.computer", locale),
                options=[
                    discord.SelectOption(label=tr(f"level.{lv}", locale), value=lv) for lv in LEVELS
                ],
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ComputerSelect:
        return cls(int(match["game"]))

    def level(self, interaction: Interaction) -> str:
        """The value picked. A client can send any value (or none): the lobby checks it is
        one of :data:`LEVELS`, after its host check."""
        return components.one_pick(interaction)

    async def callback(self, interaction: Interaction) -> None:
        await components.clicked(interaction, self)


class RemoveComputerSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=rf"mt:(?P<game>{ID}):lobby:uncpu"
):
    """Take a computer player out of the lobby (host only): one option per computer seat.

    Each option's value is ``seat:name`` as the lobby message last showed it. Seats move up
    when one is removed, so a pick whose seat no longer holds that computer is refused as
    stale rather than removing whoever sits there now.
    """

    place: ClassVar[str] = "channel"

    def __init__(
        self, game_id: int, computers: Sequence[tuple[int, str]] = (), locale: str | None = None
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"mt:{game_id}:lobby:uncpu",
                placeholder=tr("select.remove-computer", locale),
                options=[
                    discord.SelectOption(
                        label=name[:OPTION_TEXT],
                        value=f"{seat}:{name}"[:OPTION_TEXT],
                    )
                    for seat, name in computers
                ]
                # Only rebuilt to dispatch a pick: the options are never sent from here.
                or [discord.SelectOption(label="-", value="-")],
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RemoveComputerSelect:
        return cls(int(match["game"]))

    def choice(self, interaction: Interaction) -> tuple[int, str]:
        """(seat, name) of the computer picked, as the lobby message showed it (seat -1 when
        unreadable: the service refuses it)."""
        seat, _, name = components.one_pick(interaction).partition(":")
        number = read_int(seat, max_digits=3)
        return -1 if number is None else number, name

    async def callback(self, interaction: Interaction) -> None:
        await components.clicked(interaction, self)


def lobby_view(
    game_id: int, locale: str | None, computers: Sequence[tuple[int, str]] = ()
) -> discord.ui.View:
    """The lobby's controls; ``computers`` (seat, name) adds a select to take one out."""
    view = discord.ui.View(timeout=None)
    for action in LOBBY_ACTIONS:
        view.add_item(LobbyButton(game_id, action, locale))
    view.add_item(ComputerSelect(game_id, locale))
    if computers:
        view.add_item(RemoveComputerSelect(game_id, computers, locale))
    return view
