"""Every slash command's options checked against what the command declared, before it runs.

Discord's client only offers the declared choices and lengths, but a client can send any
value (and a command synced long ago may carry other choices than the running code): a
forged ``level:godlike`` or a 6,000-character tile would reach the command's body, which
turns values into enums and rules. :func:`install` adds one check to every command of the
tree; the check compares each option the interaction carries with the command's own
parameter (its choices, its string length, its number range, its type) and refuses the
first that does not fit, naming the option and quoting the value short, before anything is
read or written. Autocomplete has its own guard, :func:`quiet_autocomplete`: suggestions are
a courtesy, so any failure there is an empty list, never an unanswered interaction.

The ``tile`` and ``train`` options of the move commands are discord.py transformers here too
(:class:`TileOption`, :class:`TrainOption`): a :class:`discord.app_commands.Transformer`
keeps what an option means in one class — its declared type and length (which the check
above compares), how the typed text becomes a value, and what autocomplete offers while it
is typed. ``/play`` declares ``tile: Transform[str, TileOption]`` and
``train: Transform[str, TrainOption]``; any other command that takes a tile or a train
declares the same annotations. The terminal game (``python -m bot try``) takes the same
words (``12-5``, ``12-5 mexican``, ``5-7 @2``, ``draw``) and must refuse them the same way,
so it reads them with the same classes (:meth:`TileOption.parse`, :meth:`TrainOption.move`,
:func:`check_notation`); the service still checks every move again.

Reading the tile needs the game (its set's highest double, the seat's view), so the
transformer only trims the text, and the command's body reads it with
:meth:`TileOption.read` after the interaction is acknowledged: a transformer runs before the
body, and a database read there would make every ``/play``'s acknowledgement wait on the
database under load (issue 39). The read is one look-up, which the body then uses instead of
reading the game again; a refusal (no game here, not seated, not a tile of this set) goes to
the body's funnel like any other.

Autocomplete is a suggestion (Discord sends whatever was typed), so the service checks the
move again and a refusal changes nothing. It cannot be deferred and must answer within 3 s:
it makes one cheap read (the channel's game with the seat's view, from the service's cache)
and no writes.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Coroutine
from typing import Any, NamedTuple, ParamSpec, TypeVar, cast

from discord import AppCommandOptionType, app_commands

from bot.engine import MEXICAN, Move, SeatView, Tile, TileError, parse_move, plain_dashes
from bot.service import GameSummary, ServiceError
from bot.service.errors import unreachable
from bot.ui import limits, messages
from bot.ui.interactions import Interaction, bot_of, locale_of, seat_here
from bot.ui.refusals import Refusal, RefusedCheck, quote_input
from bot.ui.translator import translate_metadata

log = logging.getLogger(__name__)

_P = ParamSpec("_P")
_T = TypeVar("_T", str, int, float)

#: Option types whose value the check reads (the others are resolved objects: users, roles).
_STRING, _INTEGER, _NUMBER, _BOOLEAN = (
    AppCommandOptionType.string,
    AppCommandOptionType.integer,
    AppCommandOptionType.number,
    AppCommandOptionType.boolean,
)


#: The largest integer Discord sends in an option (JavaScript's safe integers).
DISCORD_INT = 2**53


def check_options(interaction: Interaction) -> bool:
    """The check :func:`install` adds: True, or a :class:`RefusedCheck` naming the option."""
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return True
    namespace = interaction.namespace
    locale = locale_of(interaction)
    for param in command.parameters:
        value = getattr(namespace, param.display_name, None)
        if value is None:
            continue
        refusal = _refusal(param, value, locale)
        if refusal is not None:
            raise RefusedCheck(refusal)
    return True


def _refusal(param: app_commands.Parameter, value: object, locale: str) -> Refusal | None:
    """Why ``value`` does not fit ``param``, in the reader's words (option and choice names
    as their Discord client shows them), or None."""
    where = app_commands.TranslationContextLocation
    kind = param.type

    def name() -> str:
        # The option's name in the reader's words, only once it is refused: a value that
        # fits (every honest one) costs no translation.
        shown = translate_metadata(param.display_name, where.parameter_name, locale)
        return shown or param.display_name

    choices = param.choices
    if choices:
        if any(value == c.value and type(value) is type(c.value) for c in choices):
            return None
        offered = ", ".join(
            translate_metadata(c.name, where.choice_name, locale) or c.name for c in choices[:10]
        )
        return Refusal("error.bad-choice", option=name(), value=quote_input(value), choices=offered)
    if kind is _STRING:
        if not isinstance(value, str):
            return Refusal("error.bad-option", option=name())
        low, high = param.min_value, param.max_value
        if high is not None and len(value) > high:
            return Refusal("error.too-long", option=name(), limit=int(high))
        if low is not None and len(value) < low:
            return Refusal("error.too-short", option=name(), limit=int(low))
    elif kind in (_INTEGER, _NUMBER):
        numeric = int if kind is _INTEGER else int | float
        if isinstance(value, bool) or not isinstance(value, numeric):
            return Refusal("error.bad-option", option=name())
        # Discord's integers stay within ±2**53 whatever the option says: a larger one is
        # forged, and would overflow the database's 64-bit integers further down.
        low = -DISCORD_INT if param.min_value is None else param.min_value
        high = DISCORD_INT if param.max_value is None else param.max_value
        if not low <= value <= high:
            shown = [int(x) if kind is _INTEGER else x for x in (low, high)]
            return Refusal("error.out-of-range", option=name(), low=shown[0], high=shown[1])
    elif kind is _BOOLEAN and not isinstance(value, bool):
        return Refusal("error.bad-option", option=name())
    return None


def install(tree: app_commands.CommandTree[Any]) -> int:
    """Add :func:`check_options` to every command of ``tree`` (once); how many have it."""
    count = 0
    for command in tree.walk_commands():
        if isinstance(command, app_commands.Command):
            if check_options not in command.checks:
                command.add_check(check_options)
            count += 1
    return count


def quiet_autocomplete(
    func: Callable[_P, Coroutine[Any, Any, list[app_commands.Choice[_T]]]],
) -> Callable[_P, Coroutine[Any, Any, list[app_commands.Choice[_T]]]]:
    """An autocomplete callback that always answers in time: at most 25 choices that fit
    Discord's limits, and an empty list when anything fails (a database outage included,
    which the next command will report), since discord.py leaves a failed autocomplete
    unanswered."""

    @functools.wraps(func)
    async def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> list[app_commands.Choice[_T]]:
        try:
            choices = await func(*args, **kwargs)
        except Exception as error:
            reason = unreachable(error)
            if reason is None:
                log.warning("autocomplete %s failed: %r", func.__qualname__, error)
            else:
                log.debug("autocomplete %s: %s", func.__qualname__, reason)
            return []
        return limits.fit_choices(choices)

    return wrapper


# ---------------------------------------------------------------------- the tile and train options

#: What autocomplete offers at most (Discord's own limit on choices).
MAX_CHOICES = limits.CHOICES

_Offers = list[app_commands.Choice[int | float | str]]


class PickedTile(NamedTuple):
    """A typed tile read against this channel's game: the game and the seat's view it was
    read for come with it, so the command does not read them again."""

    game: GameSummary
    view: SeatView
    tile: Tile


async def view_here(interaction: Interaction) -> SeatView | None:
    """The user's view of this channel's game, or None (autocomplete then offers nothing)."""
    bot = bot_of(interaction)
    if interaction.channel_id is None:
        return None
    try:
        look = await bot.service.look_here(interaction.channel_id, interaction.user.id)
    except ServiceError:
        return None
    if look is None or look.game.turn is None:
        return None
    return look.view


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
        out.append(app_commands.Choice(name=f"{text} → {where}"[: limits.CHOICE_TEXT], value=text))
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
        # Only the text: the reads happen in the command's body (:meth:`read`), after
        # the acknowledgement. A transformer runs before the body, and reads here would make
        # every /play's acknowledgement wait for the database under load (issue 39).
        return value.strip()

    @staticmethod
    async def read(interaction: Interaction, text: str) -> PickedTile:
        """The tile :meth:`transform` passed on, read against this channel's game and the
        user's seat (one look-up); a refusal (no game here, not seated, not a tile of this
        set) goes to the body's funnel. Called in the body, after the acknowledgement."""
        look = await seat_here(interaction)
        view = look.seat_view()
        return PickedTile(look.game, view, TileOption.parse(text, view.rules.max_pip))

    @staticmethod
    def parse(text: str, max_pip: int) -> Tile:
        """A typed tile, in any of the forms :meth:`Tile.parse` reads."""
        return Tile.parse(text.strip(), max_pip)

    async def autocomplete(self, interaction: Interaction, value: int | float | str, /) -> _Offers:
        return cast(_Offers, await _tile_offers(interaction, str(value)))


class WhichTrain(Refusal):
    """``error.which-train``: the tile fits more than one train and none was named. It
    carries the trains :meth:`TrainOption.move` found the tile fits, so a front end that
    words the refusal its own way (the terminal game's example to type) reads them here
    instead of finding them again."""

    def __init__(self, tile: Tile, trains: list[int]) -> None:
        super().__init__("error.which-train", tile=str(tile))
        self.trains = trains


class TrainOption(_TextOption):
    """``train:`` — offers the trains the tile typed beside it fits; the text (``mexican``,
    ``@N``) is read with the tile by :meth:`move`, since what a train word means depends on
    the seat and the table."""

    longest = 40

    async def transform(self, interaction: Interaction, value: str, /) -> str:
        return value.strip()

    async def autocomplete(self, interaction: Interaction, value: int | float | str, /) -> _Offers:
        return cast(_Offers, await _train_offers(interaction, str(value)))

    @staticmethod
    def move(view: SeatView, tile: Tile, train: str | None) -> Move:
        """The move ``tile`` on ``train`` for this seat: the train given, or the only train
        the tile legally fits, read as notation (a ``MoveError`` if it is not); a tile that
        fits several trains and none named is :class:`WhichTrain`. The one place a tile's
        trains are found for a typed move, ``/play``'s and the terminal game's."""
        if train:
            text = f"{tile} {train.strip()}"
        else:
            trains = messages.plays_by_tile(view).get(tile, [])
            if len(trains) > 1:
                raise WhichTrain(tile, trains)
            # No legal train: let the service say exactly why (not your turn, no fit, must
            # satisfy a double), for the seat's own train.
            only = trains[0] if trains else view.seat if view.seat is not None else MEXICAN
            text = f"{tile} {messages.train_ref(only)}"
        return check_notation(text, view)


def check_notation(text: str, view: SeatView) -> Move:
    """A whole typed move (``12-5 @2``, ``draw``) for this seat, or a ``MoveError``."""
    return parse_move(text, seat=view.seat, players=view.players, max_pip=view.rules.max_pip)
