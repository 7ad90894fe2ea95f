"""What a player types at ``your move>``, read into one :class:`Command` — or refused.

The terminal has no slash commands, options or buttons to keep input in shape, so the
grammar is strict: a command word (``help``, ``moves``…), a move word (``draw``, ``pass``,
``done``, ``knock``), ``catch @N``, or a tile with at most one train word and ``knock`` after
it. Anything else is refused with a short quote of the line — never guessed at (once, "n
importe quoi" was read as a tile and a train). Words are taken in English and French, in
either language mode, from the catalog (``try.word.*``, ``notation.word.*``), so what the help
shows is exactly what is read. The move itself is then checked by the same code as ``/play``.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata

from bot.digits import DIGIT
from bot.engine import plain_dashes
from bot.i18n import LANGUAGES, tr
from bot.ui.refusals import Refusal

#: Longer lines are refused unread: a move is a few words.
MAX_LINE = 60
#: How much of a refused line is quoted back.
QUOTE = 24

#: What the player can ask for that is not a move.
ACTIONS = ("help", "moves", "hint", "hand", "table", "quit")
#: One-word moves; ``catch`` takes a seat.
MOVE_WORDS = ("draw", "pass", "done", "knock")
#: Other spellings taken as they are (the catalog's words are always taken).
ALIASES = {
    "?": "help",
    "legal": "moves",
    "exit": "quit",
    "q": "quit",
    "quitte": "quit",
    "stop": "done",
    "pioche": "draw",
    "passe": "pass",
    "frappe": "knock",
}
#: Train words the engine does not know, in the player's own words.
OWN_TRAIN_WORDS = ("moi", "mien", "mon")

#: The Discord forms the README and the players' guide show, typed here as they are written
#: there (``/draw``, ``/play 12-5 mexican``, ``/play tile:12-5 train:mexican``, ``/mt hint``):
#: the slash, ``mt``, the play command's name and the option names are dropped (English and
#: French names, as bot/texts/commands.py gives them).
_DISCORD = re.compile(r"^\s*/\s*(?:mt\s+)?(?:(?:play|jouer)(?:\s+|$))?", re.IGNORECASE)
_OPTION = re.compile(r"\b(?:tile|domino|train):\s*", re.IGNORECASE)

_D = DIGIT  # ASCII digits only: Arabic-Indic or fullwidth digits make no tile
_TILE = re.compile(rf"\[?{_D}{{1,2}}[-|:/]{_D}{{1,2}}\]?")
_NUMBER = re.compile(rf"{_D}{{1,2}}")


@dataclasses.dataclass(frozen=True, slots=True)
class Command:
    """``action`` is one of :data:`ACTIONS`, ``move`` (``text`` is a whole move in notation:
    ``draw``, ``catch @2``) or ``play`` (``text`` a tile, ``train`` its train or None)."""

    action: str
    text: str = ""
    train: str | None = None
    knock: bool = False


def _words() -> dict[str, str]:
    """Every typed word that names an action or a one-word move, in every language."""
    table = dict(ALIASES)
    for language in LANGUAGES:
        for action in ACTIONS:
            table[tr(f"try.word.{action}", language)] = action
        for move in (*MOVE_WORDS, "catch"):
            table[tr(f"notation.word.{move}", language)] = move
    return table


WORDS = _words()


def quote(line: str) -> str:
    """A typed line as it is quoted back: the start of it, never all of a long one, and
    without control or invisible characters (an escape sequence typed or piped in would
    act on the terminal as it is printed back)."""
    kept = (c for c in line if c.isspace() or unicodedata.category(c) not in ("Cc", "Cf"))
    line = " ".join("".join(kept).split())
    return line if len(line) <= QUOTE else line[: QUOTE - 1] + "…"


def _train(word: str) -> str:
    if word in OWN_TRAIN_WORDS:
        return "own"
    return word


def read(line: str) -> Command | None:
    """The command in ``line`` (None for a blank line); :class:`Refusal` for anything else."""
    if len(line) > MAX_LINE:
        raise Refusal("try.too-long", count=len(line.rstrip("\n")))
    if line.lstrip().startswith("/"):
        line = _OPTION.sub("", _DISCORD.sub("", line, count=1))
    # Any dash a phone or keyboard types is the notation's "-", and "12 - 5" is "12-5".
    words = re.sub(rf"({_D})\s*-\s*({_D})", r"\1-\2", plain_dashes(line)).lower().split()
    if not words:
        return None
    first = WORDS.get(words[0])
    if len(words) == 1 and first in ACTIONS:
        return Command(first)
    if len(words) == 1 and first in MOVE_WORDS:
        return Command("move", first)
    if len(words) == 2 and first == "catch":
        return Command("move", f"catch {_train(words[1])}")
    knock = len(words) > 1 and WORDS.get(words[-1]) == "knock"
    if knock:
        words = words[:-1]
    if _TILE.fullmatch(words[0]):
        tile, rest = words[0], words[1:]
    elif len(words) >= 2 and _NUMBER.fullmatch(words[0]) and _NUMBER.fullmatch(words[1]):
        tile, rest = f"{words[0]}-{words[1]}", words[2:]  # "12 5 mexican"
    else:
        raise Refusal("try.unknown", text=quote(line))
    if len(rest) > 1:
        raise Refusal("try.unknown", text=quote(line))
    return Command("play", tile, _train(rest[0]) if rest else None, knock)
