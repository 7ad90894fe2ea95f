"""Moves and their notation: what a player does, written as a short string.

``12-5 mexican`` plays 12-5 on the Mexican Train; ``5-7 @2`` plays 5-7 on seat 2's train
(seats count from 1, as players do); ``draw``, ``pass``, ``done`` (end a fast start early),
``knock`` and ``catch @3`` are the rest. The same strings are the move history, the event
log's payload, bug reports and what tests are written in, so :func:`parse_move` accepts what
people type and ``str(move)`` always prints the one canonical form.
"""

from __future__ import annotations

import re
from typing import Final, NamedTuple

from bot.digits import DIGIT
from bot.engine.errors import EngineError
from bot.engine.tiles import Tile, TileError

#: The train reference of the Mexican Train; personal trains are referenced by seat (0-based).
MEXICAN: Final = -1


class MoveError(EngineError):
    """A move string that cannot be read.

    ``str()`` is the English sentence; ``code`` names the reason and ``params`` its facts, as
    :class:`~bot.engine.tiles.TileError` does, for the other languages.
    """

    default_code = "bad-move"

    @classmethod
    def from_tile(cls, exc: TileError) -> MoveError:
        """A tile that cannot be read makes the move unreadable, for the same reason."""
        return cls(str(exc), exc.code, **exc.params)


def train_name(train: int) -> str:
    """Notation for a train: ``mexican`` or ``@N`` with 1-based seats.

    >>> train_name(MEXICAN), train_name(0), train_name(3)
    ('mexican', '@1', '@4')
    """
    return "mexican" if train == MEXICAN else f"@{train + 1}"


class Play(NamedTuple):
    """Lay ``tile`` on ``train`` (a seat index, or :data:`MEXICAN`).

    ``str()`` is the canonical notation, which :func:`parse_move` reads back:

    >>> str(Play(Tile(5, 12), MEXICAN)), str(Play(Tile(7, 5), 1))
    ('12-5 mexican', '7-5 @2')
    >>> parse_move(str(Play(Tile(7, 5), 1))) == Play(Tile(7, 5), 1)
    True
    """

    tile: Tile
    train: int

    def __str__(self) -> str:
        return f"{self.tile} {train_name(self.train)}"


class _Word:
    """A move that is one word; each is a singleton compared by identity."""

    __slots__ = ()
    word: str = ""

    def __str__(self) -> str:
        return self.word

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def __reduce__(self) -> str:
        return self.word.upper()


class Draw(_Word):
    """Take one tile from the boneyard (only when no tile can be played)."""

    word = "draw"


class Pass(_Word):
    """End the turn without playing, which raises your marker (only when you cannot play)."""

    word = "pass"


class Done(_Word):
    """End a fast-start first turn before running out of tiles for your own train."""

    word = "done"


class Knock(_Word):
    """Announce you are down to one tile (the knock house rule)."""

    word = "knock"


class Catch(NamedTuple):
    """Catch ``seat`` holding one tile without having knocked: they draw the penalty.

    >>> str(Catch(2)), parse_move("catch @3") == Catch(2)
    ('catch @3', True)
    """

    seat: int

    def __str__(self) -> str:
        return f"catch {train_name(self.seat)}"


DRAW: Final = Draw()
PASS: Final = Pass()
DONE: Final = Done()
KNOCK: Final = Knock()

Move = Play | Draw | Pass | Done | Knock | Catch

_WORDS: dict[str, Move] = {
    "draw": DRAW,
    "pass": PASS,
    "done": DONE,
    "stop": DONE,
    "knock": KNOCK,
}
#: "mexicain" is what the French pictures tell French players to type.
_MEXICAN_WORDS = {"mexican", "mexicain", "mex", "mx", "m", "mexican-train", "mt"}
_OWN_WORDS = {"own", "mine", "me", "my"}
_SEAT_RE = re.compile(rf"@?({DIGIT}{{1,2}})")  # ASCII digits only: "@٢" is no train


def parse_train(text: str, seat: int | None = None, players: int | None = None) -> int:
    """Read ``mexican``, ``@2`` or ``2`` (1-based), or ``own`` when the actor's seat is known.

    Seats are 0-based inside the engine; :data:`MEXICAN` is -1.

    >>> parse_train("Mexican"), parse_train("@2"), parse_train("2"), parse_train("own", seat=3)
    (-1, 1, 1, 3)
    >>> parse_train("@5", players=4)
    Traceback (most recent call last):
    ...
    bot.engine.moves.MoveError: there is no train @5: seats are numbered 1 to 4
    """
    word = text.strip().lower()
    if word in _MEXICAN_WORDS:
        return MEXICAN
    if word in _OWN_WORDS:
        if seat is None:
            raise MoveError(f"{text.strip()!r} needs to know whose train: write @N", "whose-train")
        return seat
    m = _SEAT_RE.fullmatch(word)
    if m is None:
        raise MoveError(
            f"{text.strip() or 'nothing'!r} is not a train: write mexican or @N", "not-a-train"
        )
    number = int(m.group(1))
    if number < 1 or (players is not None and number > players):
        limit = f"1 to {players}" if players is not None else "from 1"
        raise MoveError(
            f"there is no train @{number}: seats are numbered {limit}", "no-such-train",
            train=f"@{number}",
        )  # fmt: skip
    return number - 1


def check_fits(move: Move, *, players: int, max_pip: int) -> None:
    """Refuse a move that names what the table lacks — a seat past the last, a tile outside
    its set — in the words :func:`parse_move` would use with the table's size. A move read
    without the table (a pick's value, read before its game is) or built in code is checked
    so before it is played, as python-chess checks a pushed move it did not parse.

    >>> check_fits(Play(Tile(7, 5), 4), players=4, max_pip=12)
    Traceback (most recent call last):
    ...
    bot.engine.moves.MoveError: there is no train @5: seats are numbered 1 to 4
    """
    if isinstance(move, Play):
        tile = move.tile
        if tile.high > max_pip:
            raise MoveError(
                f"{tile} is not in a double-{max_pip} set", "not-in-set",
                tile=str(tile), max_pip=max_pip,
            )  # fmt: skip
        train = move.train
    elif isinstance(move, Catch):
        if move.seat == MEXICAN:
            raise MoveError(
                "the Mexican Train holds no tiles to catch: write catch @N", "catch-whom"
            )
        train = move.seat
    else:
        return
    if train != MEXICAN and not 0 <= train < players:
        raise MoveError(
            f"there is no train @{train + 1}: seats are numbered 1 to {players}", "no-such-train",
            train=f"@{train + 1}",
        )  # fmt: skip


def parse_move(
    text: str, *, seat: int | None = None, players: int | None = None, max_pip: int | None = None
) -> Move:
    """Read a move in notation.

    >>> str(parse_move("5|12  MX")), str(parse_move("7-5 @2")), str(parse_move("DRAW"))
    ('12-5 mexican', '7-5 @2', 'draw')
    >>> parse_move("12-5")
    Traceback (most recent call last):
    ...
    bot.engine.moves.MoveError: '12-5' needs a train: write '12-5 mexican' or '12-5 @N'
    """
    words = text.strip().split()
    if not words:
        raise MoveError("an empty move: write a tile and a train, draw, or pass", "empty-move")
    first = words[0].lower()
    if len(words) == 1 and first in _WORDS:
        return _WORDS[first]
    if first == "catch":
        if len(words) != 2:
            raise MoveError("write catch @N to catch a player who did not knock", "catch-whom")
        target = parse_train(words[1], seat, players)
        if target == MEXICAN:
            raise MoveError(
                "the Mexican Train holds no tiles to catch: write catch @N", "catch-whom"
            )
        return Catch(target)
    # A tile may itself contain a space ("12 5 mexican"): the train is the last word.
    if len(words) == 1:
        try:
            Tile.parse(words[0], max_pip)
        except TileError as exc:
            raise MoveError.from_tile(exc) from None
        typed = text.strip()
        raise MoveError(
            f"{typed!r} needs a train: write '{typed} mexican' or '{typed} @N'", "needs-train"
        )
    try:
        played = Tile.parse(" ".join(words[:-1]), max_pip)
    except TileError as exc:
        raise MoveError.from_tile(exc) from None
    return Play(played, parse_train(words[-1], seat, players))
