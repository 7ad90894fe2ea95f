"""What is wrong with a typed move, in the reader's language: one sentence per reason code of
:class:`~bot.engine.MoveError` and :class:`~bot.engine.TileError`.

English readers get the engine's own sentence (it names exactly what was typed); French
readers get these, placed in ``error.bad-move`` ("Je ne comprends pas ce coup : …"), so a
French player — on Discord or in the terminal game — never reads an English reason. They
quote at most a tile or a train, never the whole of what was typed.
"""

from __future__ import annotations

from collections.abc import Mapping

TEXTS: dict[str, Mapping[str, str]] = {
    # The notation's words as a reader of each language types and reads them (the French
    # ones are the French slash commands' names). Tiles and @N are the same in every language.
    "notation.word.draw": {"en": "draw", "fr": "piocher"},
    "notation.word.pass": {"en": "pass", "fr": "passer"},
    "notation.word.done": {"en": "done", "fr": "fini"},
    "notation.word.knock": {"en": "knock", "fr": "frapper"},
    "notation.word.catch": {"en": "catch", "fr": "surprendre"},
    "notation.word.mexican": {"en": "mexican", "fr": "mexicain"},
    "notation.not-a-tile": {
        "en": "that is not a tile: write it like 12-5",
        "fr": "ce n'est pas un domino : écris-le comme 12-5",
    },
    "notation.not-a-domino": {
        "en": "{tile} is not a domino: ends run from 0 to {max_pip}",
        "fr": "{tile} n'est pas un domino : les valeurs vont de 0 à {max_pip}",
    },
    "notation.not-in-set": {
        "en": "{tile} is not in a double-{max_pip} set",
        "fr": "{tile} n'est pas dans un jeu double-{max_pip}",
    },
    "notation.no-set": {
        "en": "there is no such set: sets go up to double-18",
        "fr": "ce jeu n'existe pas : les jeux vont jusqu'au double-18",
    },
    "notation.whose-train": {
        "en": "say whose train: write @N",
        "fr": "précise à qui est le train : écris @N",
    },
    "notation.not-a-train": {
        "en": "that is not a train: write mexican or @N",
        "fr": "ce n'est pas un train : écris mexicain ou @N",
    },
    "notation.no-such-train": {
        "en": "there is no train {train} at this table",
        "fr": "il n'y a pas de train {train} à cette table",
    },
    "notation.empty-move": {
        "en": "an empty move: write a tile and a train, draw, or pass",
        "fr": "coup vide : écris un domino et un train, piocher ou passer",
    },
    "notation.catch-whom": {
        "en": "write catch @N to catch a player who did not knock",
        "fr": "écris surprendre @N pour surprendre un joueur qui n'a pas frappé",
    },
    "notation.needs-train": {
        "en": "that tile needs a train: add mexican or @N",
        "fr": "ce domino a besoin d'un train : ajoute mexicain ou @N",
    },
    "notation.bad-move": {
        "en": "that is not a move",
        "fr": "ce n'est pas un coup",
    },
}
