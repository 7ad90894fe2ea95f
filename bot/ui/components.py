"""Buttons and selects that keep working after a restart: ``DynamicItem``s, and the views
that carry them.

Everything a click needs is in its ``custom_id`` (the game id, for turn controls the game's
version when the message was posted, and the action), never in process memory, so the cogs
re-register these classes in ``setup_hook`` and a message posted a week ago still answers.
A turn post's buttons act on the table as it is when pressed (an old post's too); a move
list whose version is no longer the game's says the table changed instead of acting on a
stale list.

The items only parse. Every click passes :func:`_clicked`, the one place that checks the
game named in the ``custom_id`` is where the control may act (its ``place``, see
:func:`~bot.ui.interactions.check_place`: a client can send any ``custom_id``), then hands it
to what the cog that owns the feature registered with :func:`listen` when it loaded (the lobby
cog for the lobby's controls, the play cog for the turn controls…). The lobby card's own
controls are :mod:`bot.ui.lobbycard`'s, beside the card they sit on: this module, like
everything under ``bot/ui``, never imports a cog.

A click whose ``custom_id`` no item claims (an old message from a release that had other
buttons, a forged or mangled id: ``mt:abc:5:draw``, ``mt:2:5:nuke``, the empty string) would
get no answer at all from discord.py, and the player would see "This interaction failed":
:func:`unclaimed` answers it privately instead, with the game as it is now when the id names
one of this server's games (or the channel has one). Values a select sends are checked here
before use (a client can send any value), and every refusal changes nothing.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, ClassVar, Protocol, TypeVar

import discord
from discord import SelectOption

from bot.digits import ID
from bot.engine import Play, SeatView, Tile
from bot.i18n import tr
from bot.service import GameStatus, GameSummary, ServiceError
from bot.ui import limits, messages
from bot.ui.host import GameBot
from bot.ui.interactions import Interaction, bot_of, check_place, guarded, locale_of
from bot.ui.messages import train_label
from bot.ui.refusals import Refusal

log = logging.getLogger(__name__)

TURN_ACTIONS = ("play", "draw", "pass", "hand", "knock")
#: The largest id a game can have (SQLite's and PostgreSQL's 64-bit integers): a larger number
#: in a ``custom_id`` names no game and must not reach the database, which would overflow.
MAX_ID = 2**63 - 1

_Item = TypeVar("_Item", bound=discord.ui.DynamicItem[Any])


def listen(
    bot: discord.Client,
    kind: type[_Item],
    handler: Callable[[Interaction, _Item], Awaitable[None]],
) -> None:
    """Register ``kind`` as a persistent item of ``bot`` and say what a click on it does."""
    host = bot_of_client(bot)
    host.click_handlers[kind] = handler
    host.add_dynamic_items(kind)


def unlisten(bot: discord.Client, *kinds: type[discord.ui.DynamicItem[Any]]) -> None:
    host = bot_of_client(bot)
    host.remove_dynamic_items(*kinds)
    for kind in kinds:
        host.click_handlers.pop(kind, None)


def bot_of_client(client: discord.Client) -> GameBot:
    assert isinstance(client, GameBot)
    return client


def picked(interaction: Interaction) -> list[str]:
    """The values chosen in the select that was used (Discord sends them with the click)."""
    data: Any = interaction.data or {}
    return [str(v) for v in data.get("values") or []]


def one_pick(interaction: Interaction) -> str:
    """The one value of a select that takes one; empty when Discord sent none or several
    (only a forged click can), which every reader of it refuses as unreadable."""
    values = picked(interaction)
    return values[0] if len(values) == 1 else ""


class _Control(Protocol):
    """What every persistent item here has: its game, and where it may act on it (most
    items by their class; the move list by where it was sent)."""

    game_id: int

    @property
    def place(self) -> str: ...


async def _clicked(interaction: Interaction, item: _Control) -> None:
    """Check the click's game is where ``item`` may act, then hand it to its feature's
    handler. A refusal (or a feature not loaded) is answered here and changes nothing."""
    handler = bot_of(interaction).click_handlers.get(type(item))
    try:
        if handler is None:
            log.warning("no handler for %s (is its cog loaded?)", type(item).__name__)
            raise Refusal("error.unexpected")
        if item.game_id > MAX_ID:
            raise Refusal("error.no-such-game", game=item.game_id)
        # A turn control's handler needs the clicker's seat: read with the place, once.
        seat = bool(getattr(item, "reads_seat", False))
        await check_place(interaction, item.game_id, item.place, seat=seat)
    except Exception as error:
        async with guarded(interaction, defer_first=False):
            raise error
        return
    await handler(interaction, item)


async def clicked(interaction: Interaction, item: _Control) -> None:
    """:func:`_clicked`, for controls defined beside their feature (the turn DM's)."""
    await _clicked(interaction, item)


class TurnButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"mt:(?P<game>{ID}):(?P<version>{ID}):(?P<action>play|draw|pass|hand|knock)",
):
    place: ClassVar[str] = "channel"
    #: Play opens the clicker's move list: their seat is read with the place check.
    reads_seat: ClassVar[bool] = True

    def __init__(self, game_id: int, version: int, action: str, locale: str | None = None) -> None:
        style = discord.ButtonStyle.primary if action == "play" else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(
                label=tr(f"button.{action}", locale),
                style=style,
                custom_id=f"mt:{game_id}:{version}:{action}",
            )
        )
        self.game_id, self.version, self.action = game_id, version, action

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TurnButton:
        return cls(int(match["game"]), int(match["version"]), match["action"])

    async def callback(self, interaction: Interaction) -> None:
        await _clicked(interaction, self)


class MoveSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=rf"mt:(?P<game>{ID}):(?P<version>{ID}):(?P<dm>dm:)?pick",
):
    """The legal moves as a list: the second tap of "Play" on a phone, or the list on a turn
    DM (``dm``: ``mt:<game>:<version>:dm:pick``, which may act from a DM to one of the
    game's players; the channel's ``mt:<game>:<version>:pick`` only in the game's channel).
    """

    def __init__(
        self,
        game_id: int,
        version: int,
        options: list[discord.SelectOption] | None = None,
        locale: str | None = None,
        *,
        dm: bool = False,
    ) -> None:
        where = "dm:" if dm else ""
        super().__init__(
            discord.ui.Select(
                custom_id=f"mt:{game_id}:{version}:{where}pick",
                placeholder=tr("select.move", locale),
                options=options or [discord.SelectOption(label="-", value="-")],
            )
        )
        self.game_id, self.version, self.dm = game_id, version, dm

    @property
    def place(self) -> str:
        return "player" if self.dm else "move"

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> MoveSelect:
        return cls(int(match["game"]), int(match["version"]), dm=match["dm"] is not None)

    def value(self, interaction: Interaction) -> str:
        """The move picked, in notation (``|knock`` appended to knock with it); empty when
        Discord sent none (the move is then refused as unreadable)."""
        return one_pick(interaction)

    async def callback(self, interaction: Interaction) -> None:
        await _clicked(interaction, self)


class RematchButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"mt:(?P<game>{ID}):rematch"
):
    """On a finished game's last table message: a new lobby with the same players and rules."""

    place: ClassVar[str] = "channel"

    def __init__(self, game_id: int, locale: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=tr("button.rematch", locale),
                style=discord.ButtonStyle.success,
                emoji="🔁",
                custom_id=f"mt:{game_id}:rematch",
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RematchButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: Interaction) -> None:
        await _clicked(interaction, self)


class CatchUpButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"mt:(?P<game>{ID}):catchup"
):
    """Catch me up: what happened since your last turn, the table and your hand, answered
    privately. It goes on turn posts (the game's channel) and on turn DMs, so it may act in
    the game's channel or in a DM to one of its players (``place`` ``player``)."""

    place: ClassVar[str] = "player"

    def __init__(self, game_id: int, locale: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=tr("button.catchup", locale),
                style=discord.ButtonStyle.secondary,
                emoji="🔎",
                custom_id=f"mt:{game_id}:catchup",
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> CatchUpButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: Interaction) -> None:
        await _clicked(interaction, self)


def catchup_button(game_id: int, locale: str | None) -> CatchUpButton:
    """The Catch me up button of a game, labelled in ``locale``: add it to a turn post's or a
    turn DM's view (``view.add_item(...)``)."""
    return CatchUpButton(game_id, locale)


def turn_view(game_id: int, version: int, locale: str | None, *, knock: bool) -> discord.ui.View:
    """A turn post's controls: Play, Draw, Pass, My hand (Knock with that house rule) and
    Catch me up, for anyone coming back to the game."""
    view = discord.ui.View(timeout=None)
    for action in TURN_ACTIONS:
        if action != "knock" or knock:
            view.add_item(TurnButton(game_id, version, action, locale))
    view.add_item(CatchUpButton(game_id, locale))
    return view


def move_select_view(
    game_id: int, version: int, options: list[discord.SelectOption], locale: str | None
) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(MoveSelect(game_id, version, options, locale))
    return view


def move_options(
    view: SeatView, locale: str | None, emojis: Mapping[Tile, discord.PartialEmoji] | None = None
) -> list[discord.SelectOption]:
    """The legal moves as select options (at most 25, Discord's limit); a play shows its
    tile's emoji (``emojis``: ``bot.tile_emojis.shown``, empty until the set is known)
    beside its notation, the text a screen reader says."""
    options: list[discord.SelectOption] = []
    knocks = view.rules.knock and len(view.hand or ()) == 2
    for move in view.legal:
        if not isinstance(move, Play):
            options.append(SelectOption(label=tr(f"button.{move}", locale), value=str(move)))
            continue
        pic = emojis.get(move.tile) if emojis else None
        label = f"{move.tile} → {train_label(view.names, move.train, view.seat, locale)}"
        options.append(SelectOption(label=label, value=str(move), emoji=pic))
        if knocks:
            label = f"{label} + {tr('button.knock', locale)}"
            options.append(SelectOption(label=label, value=f"{move}|knock", emoji=pic))
    return options[: limits.SELECT_OPTIONS]


def rematch_view(game_id: int, locale: str | None) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(game_id, locale))
    return view


# ---------------------------------------------------------------------- clicks nothing claims

#: The game a ``custom_id`` of ours names, if it names one (``mt:<game>:…``).
_GAME_IN_ID = re.compile(rf"mt:(?P<game>{ID})(?::|$)")


def claimed(client: discord.Client, interaction: Interaction) -> bool:
    """Whether discord.py will hand this component interaction to one of our items: an item
    class registered for its ``custom_id``, on a message that carries that component."""
    data: Any = interaction.data or {}
    custom_id, kind = str(data.get("custom_id", "")), data.get("component_type")
    host = bot_of_client(client)
    if not any(
        item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in host.click_handlers
    ):
        return False
    message = interaction.message
    if message is None:
        return False
    return any(
        getattr(c, "custom_id", None) == custom_id and getattr(c.type, "value", None) == kind
        for c in leaves(message.components)
    )


def leaves(components: Sequence[Any]) -> list[Any]:
    """A message's components, rows and a card's container and sections opened."""
    found: list[Any] = []
    for component in components:
        found.extend(leaves(getattr(component, "children", [])))
        accessory = getattr(component, "accessory", None)
        found.extend([accessory] if accessory is not None else [])
        found.append(component)
    return found


async def unclaimed(interaction: Interaction) -> None:
    """``on_interaction``: answer a click no item will handle (see the module's docstring)."""
    if interaction.type is not discord.InteractionType.component:
        return
    if claimed(interaction.client, interaction):
        return
    async with guarded(interaction):
        data: Any = interaction.data or {}
        # The interaction's own line (refused:stale-button) is the one an admin reads; the
        # whole id, quoted, only when debugging (a forged one is one line either way).
        log.debug("a click nothing handles: custom_id %r", str(data.get("custom_id", ""))[:120])
        game = await _game_now(interaction, str(data.get("custom_id", "")))
        if game is None:
            raise Refusal("error.stale-button-none")
        raise Refusal("error.stale-button", game=_state_text(game, locale_of(interaction)))


async def _game_now(interaction: Interaction, custom_id: str) -> GameSummary | None:
    """The game the stale control named, if it is one of this server's; else this channel's."""
    service = bot_of(interaction).service
    found = _GAME_IN_ID.match(custom_id)
    if found is not None and interaction.guild_id is not None:
        try:
            game = await service.game(int(found["game"]))
        except ServiceError:
            game = None
        if game is not None and game.guild_id == interaction.guild_id:
            return game
    if interaction.guild_id is None or interaction.channel_id is None:
        return None
    return await service.game_in_channel(interaction.channel_id)


def _state_text(game: GameSummary, locale: str | None) -> str:
    """The game now, in a few lines: what ``/mt status`` starts with."""
    lines = [
        tr("status.head", locale, game=game.id, status=tr(f"status.{game.status}", locale)),
        messages.seats_text(game, locale),
    ]
    if game.status is GameStatus.ACTIVE and game.turn is not None:
        lines.append(messages.turn_line(game, game.turn, locale))
    return "\n".join(line for line in lines if line)


# ---------------------------------------------------------------------- the card (V2)

#: Discord's budget of text across a Components V2 message's Text Displays ("Component
#: Reference"); a card's text is cut to it.
CARD_TEXT = 4000


def card(
    parts: Sequence[str],
    *,
    picture: discord.File | None = None,
    controls: discord.ui.View | None = None,
    colour: discord.Colour | None = None,
) -> discord.ui.LayoutView:
    """One message as one card (Components V2, ``IS_COMPONENTS_V2``): a container holding
    the text (each of ``parts`` a Text Display, cut together to :data:`CARD_TEXT`), the
    picture in a media gallery with its alt text (the file's description; the file goes
    with the message and is shown by ``attachment://``), then the controls, a row each as
    ``controls`` lays them out: a control another feature adds to that view comes along.
    Only where Discord takes a V2 message with files (docs/discord.md, "Components V2")."""
    box: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container(accent_colour=colour)
    room = CARD_TEXT
    for part in parts:
        text = part.strip()
        if not text or room <= 1:
            continue
        text = text if len(text) <= room else text[: room - 1] + "…"
        room -= len(text)
        box.add_item(discord.ui.TextDisplay(text))
    if picture is not None:
        item = discord.MediaGalleryItem(
            f"attachment://{picture.filename}", description=picture.description or None
        )
        box.add_item(discord.ui.MediaGallery(item))
    for row in control_rows(controls):
        box.add_item(row)
    layout = discord.ui.LayoutView(timeout=None)
    layout.add_item(box)
    return layout


def table_card(
    content: str | None,
    embed: discord.Embed,
    files: Sequence[discord.File],
    controls: discord.ui.View | None,
) -> discord.ui.LayoutView:
    """A turn post (its ``content``, ``embed`` and ``controls``) as one card: the title and
    the moves, whose turn it is (the mention, what changed since their turn), the table's
    picture with its alt text (or the table as text when none was drawn), the controls."""
    head = f"### {embed.title}" if embed.title else ""
    picture = next((f for f in files if f.filename == "table.png"), None)
    table = [] if picture else [f.value for f in embed.fields if f.value]
    parts = [head, embed.description or "", *table, content or ""]
    colour = embed.colour if isinstance(embed.colour, discord.Colour) else None
    return card(parts, picture=picture, controls=controls, colour=colour)


def control_rows(
    controls: discord.ui.View | None,
) -> list[discord.ui.ActionRow[discord.ui.LayoutView]]:
    """The controls of a classic view as action rows: a select alone on its row, buttons
    five to a row, in the order the view holds them (a ``row`` given starts a new one)."""
    rows: list[list[discord.ui.Item[Any]]] = []
    last_row: int | None = None
    for item in controls.children if controls is not None else ():
        row, used = item.row, sum(i.width for i in rows[-1]) if rows else 5
        if used + item.width > 5 or (row is not None and row != last_row):
            rows.append([])
        rows[-1].append(item)
        last_row = row
    out: list[discord.ui.ActionRow[discord.ui.LayoutView]] = []
    for items in rows:
        action_row: discord.ui.ActionRow[discord.ui.LayoutView] = discord.ui.ActionRow()
        for item in items:
            item._view = None  # leaves the classic view for the card
            action_row.add_item(item)
        out.append(action_row)
    return out


def quiet_card(message: discord.Message | None) -> discord.ui.LayoutView | None:
    """The card ``message`` is, without its controls (its text and picture kept), for an
    edit that takes them off; None when the message is no card (a classic message loses its
    controls with ``view=None``; a V2 message may not: it must keep a component)."""
    if message is None or not message.flags.components_v2:
        return None
    return recontrolled(discord.ui.LayoutView.from_message(message, timeout=None), None)


def recontrolled(
    layout: discord.ui.LayoutView, controls: discord.ui.View | None
) -> discord.ui.LayoutView:
    """``layout`` (a card read back from its message) with its controls replaced by those
    of ``controls`` (None: none), in its last container (a round's end may come first)."""
    boxes = [item for item in layout.children if isinstance(item, discord.ui.Container)]
    for box in boxes[-1:]:
        for child in list(box.children):
            if isinstance(child, discord.ui.ActionRow):
                box.remove_item(child)
        for row in control_rows(controls):
            box.add_item(row)
    return layout
