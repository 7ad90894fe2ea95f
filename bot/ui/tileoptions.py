"""The ``tile`` and ``train`` options of the move commands, as discord.py's transformers.

A :class:`discord.app_commands.Transformer` keeps what an option means in one class: its
declared type and length (what Discord's client enforces and :mod:`bot.ui.options` checks
again), how the typed text becomes a value, and what autocomplete offers while it is typed.
``/play`` declares ``tile: Transform[str, TileOption]`` and reads it with :func:`read_tile`
against the game's set, with the seat's view it was read for; any other command that takes a
tile or a train declares the same annotations.

Autocomplete is a suggestion (Discord sends whatever was typed), so the service checks the
move again and a refusal changes nothing. It cannot be deferred and must answer within 3 s:
it makes two cheap reads (the channel's game, the seat's view from the service's cache) and
no writes. :meth:`TileOption.transform` only hands the text on: the command's body reads it
with :func:`read_tile` (the same two reads) once the interaction is acknowledged, and a
refusal there (no game here, not seated, not a tile of this set) is answered by its funnel.
"""

from __future__ import annotations

from typing import NamedTuple, cast

from discord import AppCommandOptionType, app_commands

from bot.engine import SeatView, Tile, TileError, plain_dashes
from bot.service import GameSummary, ServiceError
from bot.ui import messages
from bot.ui.interactions import Interaction, bot_of, game_here, locale_of
from bot.ui.notation import parse_tile
from bot.ui.options import quiet_autocomplete

#: What autocomplete offers at most (Discord's own limit on choices).
MAX_CHOICES = 25

_Offers = list[app_commands.Choice[int | float | str]]


class PickedTile(NamedTuple):
    """A typed tile read against this channel's game: the game and the seat's view it was
    read for come with it, so the command does not read them again."""

    game: GameSummary
    view: SeatView
    tile: Tile


async def read_tile(interaction: Interaction, text: str) -> PickedTile:
    """The tile typed in ``/play``, read against this channel's game and the user's seat; a
    refusal (no game here, not seated, not a tile of this set) goes to the body's funnel."""
    game = await game_here(interaction)
    view = await bot_of(interaction).service.seat_view(game.id, interaction.user.id)
    return PickedTile(game, view, parse_tile(text, view.rules.max_pip))


async def view_here(interaction: Interaction) -> SeatView | None:
    """The user's view of this channel's game, or None (autocomplete then offers nothing)."""
    bot = bot_of(interaction)
    if interaction.channel_id is None:
        return None
    try:
        game = await bot.service.game_in_channel(interaction.channel_id)
        if game is None or game.turn is None:
            return None
        return await bot.service.seat_view(game.id, interaction.user.id)
    except ServiceError:
        return None


def _norm(text: str) -> str:
    return plain_dashes(text).strip().replace("|", "-").replace(" ", "-").replace("--", "-")


def tile_choices(view: SeatView, typed: str, locale: str | None) -> list[app_commands.Choice[str]]:
    """The legal tiles matching what was typed (either end order), with where each goes."""
    typed = _norm(typed)
    out = []
    for tile, trains in messages.plays_by_tile(view).items():
        text = str(tile)
        flipped = f"{tile.low}-{tile.high}"
        if typed and not (text.startswith(typed) or flipped.startswith(typed)):
            continue
        where = ", ".join(messages.train_label(view.names, t, view.seat, locale) for t in trains)
        out.append(app_commands.Choice(name=f"{text} → {where}"[:100], value=text))
    return out[:MAX_CHOICES]


def train_choices(
    view: SeatView, tile_text: str | None, locale: str | None
) -> list[app_commands.Choice[str]]:
    """The trains the chosen tile legally fits (every legal train if the tile is unreadable)."""
    plays = messages.plays_by_tile(view)
    try:
        tile: Tile | None = Tile.parse(tile_text or "", view.rules.max_pip)
    except TileError:
        tile = None
    trains: list[int] = []
    for t, where in plays.items():
        if tile is None or t == tile:
            trains.extend(w for w in where if w not in trains)
    return [
        app_commands.Choice(
            name=messages.train_label(view.names, t, view.seat, locale), value=messages.train_ref(t)
        )
        for t in trains
    ][:MAX_CHOICES]


@quiet_autocomplete
async def _tile_offers(interaction: Interaction, typed: str) -> list[app_commands.Choice[str]]:
    view = await view_here(interaction)
    return [] if view is None else tile_choices(view, typed, locale_of(interaction))


@quiet_autocomplete
async def _train_offers(interaction: Interaction, typed: str) -> list[app_commands.Choice[str]]:
    view = await view_here(interaction)
    if view is None:
        return []
    # The namespace holds the raw text typed so far, not the transformed tile.
    tile = getattr(interaction.namespace, "tile", None)
    return train_choices(view, tile if isinstance(tile, str) else None, locale_of(interaction))


class _TextOption(app_commands.Transformer):
    """A text option of 1 to :attr:`longest` characters (Discord refuses longer in the
    client, and :mod:`bot.ui.options` checks it again: a client can send anything)."""

    longest = 100

    @property
    def type(self) -> AppCommandOptionType:
        return AppCommandOptionType.string

    @property
    def min_value(self) -> int:
        return 1

    @property
    def max_value(self) -> int:
        return self.longest


class TileOption(_TextOption):
    """``tile:`` — offers the tiles this seat may legally play now, with where each goes;
    reads what was typed (any dash, either end first) as a tile of this game's set."""

    longest = 16

    async def transform(self, interaction: Interaction, value: str, /) -> str:
        # Only the text: the reads happen in the command's body (:func:`read_tile`), after
        # the acknowledgement. A transformer runs before the body, and reads here would make
        # every /play's acknowledgement wait for the database under load (issue 39).
        return value.strip()

    async def autocomplete(self, interaction: Interaction, value: int | float | str, /) -> _Offers:
        return cast(_Offers, await _tile_offers(interaction, str(value)))


class TrainOption(_TextOption):
    """``train:`` — offers the trains the tile typed beside it fits; the text (``mexican``,
    ``@N``) is read with the tile by :func:`bot.ui.notation.check_notation`, since what a
    train word means depends on the seat and the table."""

    longest = 40

    async def transform(self, interaction: Interaction, value: str, /) -> str:
        return value.strip()

    async def autocomplete(self, interaction: Interaction, value: int | float | str, /) -> _Offers:
        return cast(_Offers, await _train_offers(interaction, str(value)))
