"""Tiles and double-N sets, with the notation players type.

A tile is an unordered pair of pip counts and prints high end first (``12-5``). Tiles are
immutable tuples, interned per set, so the rules engine can hash and compare them at C speed
in its hot loops; parsing is forgiving about separators and order (``5|12``, ``12 - 5``) and
strict about everything else, raising :class:`TileError` with a message a player can act on.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from bot.digits import DIGIT
from bot.engine.errors import EngineError

#: Set sizes the product supports (docs/rules.md, "Equipment").
SUPPORTED_SETS: tuple[int, ...] = (9, 12, 15, 18)
#: The largest pip count any supported set uses; tiles are interned up to it.
MAX_PIP = 18


class TileError(EngineError):
    """A tile string or pip pair that does not name a tile of the set in play.

    ``str()`` is the English sentence; ``code`` names the reason and ``params`` its facts, so
    another language can say it in its own words (``refusal.<code>`` in the catalog).
    """

    default_code = "not-a-tile"


class _Pair(NamedTuple):
    high: int
    low: int


class Tile(_Pair):
    """One domino. ``Tile(5, 12)`` and ``Tile(12, 5)`` are the same tile, printed ``12-5``.

    >>> Tile.parse("5|12")
    Tile(12, 5)
    >>> str(Tile(0, 0)), Tile(9, 9).is_double, Tile(12, 5).pips
    ('0-0', True, 17)
    """

    __slots__ = ()

    def __new__(cls, a: int, b: int) -> Tile:
        if a < b:
            a, b = b, a
        if b < 0 or a > MAX_PIP:
            raise TileError(
                f"{a}-{b} is not a domino: ends run from 0 to {MAX_PIP}", "not-a-domino",
                tile=f"{a}-{b}", max_pip=MAX_PIP,
            )  # fmt: skip
        return _Pair.__new__(cls, a, b)

    @property
    def is_double(self) -> bool:
        return self.high == self.low

    @property
    def pips(self) -> int:
        return self.high + self.low

    def has(self, pip: int) -> bool:
        """Whether either end shows ``pip``."""
        return self.high == pip or self.low == pip

    def other(self, pip: int) -> int:
        """The end left open when the ``pip`` end is laid against a train."""
        return self.low if self.high == pip else self.high

    def __str__(self) -> str:
        return f"{self.high}-{self.low}"

    def __repr__(self) -> str:
        return f"Tile({self.high}, {self.low})"

    @classmethod
    def parse(cls, text: str, max_pip: int | None = None) -> Tile:
        """Read ``12-5``, ``12|5``, ``5-12``, ``12 5`` or ``[12:5]``; any dash or minus sign
        (en dash, em dash, minus sign...: :data:`DASHES`) is a ``-``.

        With ``max_pip`` the tile must belong to that double-N set.

        >>> Tile.parse("13-2", max_pip=12)
        Traceback (most recent call last):
        ...
        bot.engine.tiles.TileError: 13-2 is not in a double-12 set
        """
        if len(text) > _REMEMBERED_LENGTH:  # not a spelling worth keeping (typed input)
            return cls.read(text, max_pip)
        return _parse_tile(text, max_pip)

    @classmethod
    def read(cls, text: str, max_pip: int | None) -> Tile:
        """:meth:`parse` without the memory: every event and position is full of tiles (a
        deal stores the whole shuffled set), so :func:`_parse_tile` remembers the last few
        thousand spellings read; a tile is a frozen value, so a remembered one is the same."""
        m = _TILE_RE.fullmatch(plain_dashes(text).strip())
        if m is None:
            shown = text.strip() or "an empty string"
            raise TileError(f"{shown!s} is not a tile: write it like 12-5", "not-a-tile")
        a, b = int(m.group(1)), int(m.group(2))
        limit = MAX_PIP if max_pip is None else max_pip
        if max(a, b) > limit:
            if max_pip is None:
                raise TileError(
                    f"{a}-{b} is not a domino: ends run from 0 to {MAX_PIP}", "not-a-domino",
                    tile=f"{a}-{b}", max_pip=MAX_PIP,
                )  # fmt: skip
            raise TileError(
                f"{a}-{b} is not in a double-{max_pip} set", "not-in-set",
                tile=f"{a}-{b}", max_pip=max_pip,
            )  # fmt: skip
        return TILES[max(a, b)][min(a, b)]


#: Every dash and minus sign a keyboard, a phone's autocorrect or an input method produces,
#: each read as the notation's ``-``: phones turn ``12-10`` into ``12`` en dash ``10`` or
#: em dash on their own, and a player cannot see the difference. These are all of
#: Unicode's dash punctuation (category Pd: hyphens, en and em dashes, the fullwidth and small
#: hyphen-minus, wave dashes...) and the minus signs (U+2212, superscript, subscript, heavy).
DASHES = (
    "\u058a\u05be\u1400\u1806\u2010\u2011\u2012\u2013\u2014\u2015\u2e17\u2e1a\u2e3a"
    "\u2e3b\u2e40\u2e5d\u301c\u3030\u30a0\ufe31\ufe32\ufe58\ufe63\uff0d\U00010ead"
    "\u2212\u207b\u208b\u02d7\u2796"
)
_DASH_TABLE = str.maketrans(dict.fromkeys(DASHES, "-"))


def plain_dashes(text: str) -> str:
    """``text`` with every dash and minus sign in :data:`DASHES` made a plain ``-``."""
    return text.translate(_DASH_TABLE)


# ASCII digits only (DIGIT): a pattern's \d would read Arabic-Indic or fullwidth digits. Spaces
# inside a tile are plain spaces: a newline or a tab between its ends is no spelling of it.
_END = f"({DIGIT}{{1,2}})"
_TILE_RE = re.compile(rf"\[? *{_END} *(?:-|\||:|/| ) *{_END} *\]?")

#: ``TILES[high][low]`` is the interned tile; the engine never builds tiles in its loops.
TILES: tuple[tuple[Tile, ...], ...] = tuple(
    tuple(Tile(h, lo) for lo in range(h + 1)) for h in range(MAX_PIP + 1)
)


def tile(a: int, b: int) -> Tile:
    """The interned tile with ends ``a`` and ``b`` in either order."""
    if a < b:
        a, b = b, a
    if b < 0 or a > MAX_PIP:
        raise TileError(
            f"{a}-{b} is not a domino: ends run from 0 to {MAX_PIP}", "not-a-domino",
            tile=f"{a}-{b}", max_pip=MAX_PIP,
        )  # fmt: skip
    return TILES[a][b]


def double_set(max_pip: int) -> tuple[Tile, ...]:
    """Every tile of a double-``max_pip`` set, highest first: (N+1)(N+2)/2 tiles.

    >>> len(double_set(12)), len(double_set(9)), len(double_set(15)), len(double_set(18))
    (91, 55, 136, 190)
    """
    if not 0 <= max_pip <= MAX_PIP:
        raise TileError(
            f"there is no double-{max_pip} set here: sets go up to double-{MAX_PIP}", "no-set"
        )
    return tuple(TILES[h][lo] for h in range(max_pip, -1, -1) for lo in range(h, -1, -1))


#: Spellings up to this long are remembered (``[12:5]`` with some spaces fits).
_REMEMBERED_LENGTH = 16


@functools.lru_cache(maxsize=4096)
def _parse_tile(text: str, max_pip: int | None) -> Tile:
    return Tile.read(text, max_pip)


def parse_tiles(text: str, max_pip: int | None = None) -> tuple[Tile, ...]:
    """A space- or comma-separated list of tiles, as positions and events store them."""
    parts = [p for p in re.split(r"[\s,]+", text.strip()) if p]
    return tuple(Tile.parse(p, max_pip) for p in parts)


def format_tiles(tiles: tuple[Tile, ...] | list[Tile]) -> str:
    return " ".join(map(str, tiles))
