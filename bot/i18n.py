"""One translation function for every sentence the bot says, in English and French.

The rule sheets are bilingual and so are many players, so no user-facing text is written
inline: it is a key in :data:`CATALOG` with both languages, looked up by :func:`tr` with the
reader's Discord locale (``fr``, ``en-US``, …). A test fails when a key lacks a language or
when the two languages disagree on the placeholders they use.
"""

from __future__ import annotations

import string
from collections.abc import Mapping

LANGUAGES = ("en", "fr")
DEFAULT_LANGUAGE = "en"

CATALOG: dict[str, Mapping[str, str]] = {
    # ---- moves, as the channel reads them
    "move.play.own": {
        "en": "{name} played {tile} on their own train",
        "fr": "{name} a posé {tile} sur son train",
    },
    "move.play.other": {
        "en": "{name} played {tile} on {owner}'s train",
        "fr": "{name} a posé {tile} sur le train de {owner}",
    },
    "move.play.mexican": {
        "en": "{name} played {tile} on the Mexican Train — Woo Woo!",
        "fr": "{name} a posé {tile} sur le Train Mexicain — Tchou tchou !",
    },
    "move.start.mexican": {
        "en": "{name} started the Mexican Train with {tile} — Woo Woo!",
        "fr": "{name} a lancé le Train Mexicain avec {tile} — Tchou tchou !",
    },
    "move.double": {
        "en": "a double: it must be satisfied",
        "fr": "un double : il faut le compléter",
    },
    "move.satisfied": {"en": "satisfying {double}", "fr": "complétant le {double}"},
    "move.released": {
        "en": "{doubles} can no longer be satisfied and blocks nothing",
        "fr": "{doubles} ne peut plus être complété et ne bloque plus rien",
    },
    "move.marker_off": {"en": "marker off", "fr": "marqueur retiré"},
    "move.draw": {"en": "{name} drew a tile", "fr": "{name} a pioché un domino"},
    "move.draw.fits": {
        "en": "{name} drew a tile that fits and must play it",
        "fr": "{name} a pioché un domino jouable et doit le poser",
    },
    "move.pass": {
        "en": "{name} passed; their train is open",
        "fr": "{name} passe ; son train est ouvert",
    },
    "move.pass.marked": {
        "en": "{name} passed (their train was already open)",
        "fr": "{name} passe (son train était déjà ouvert)",
    },
    "move.done": {
        "en": "{name} ended their fast start",
        "fr": "{name} termine son départ rapide",
    },
    "move.knock": {
        "en": "{name} knocks: one tile left!",
        "fr": "{name} frappe : plus qu'un domino !",
    },
    "move.catch": {
        "en": "{catcher} caught {name} without a knock: {name} draws {count}",
        "fr": "{catcher} a surpris {name} sans frapper : {name} pioche {count}",
    },
    "move.last_tile": {
        "en": "{name} has one tile left!",
        "fr": "{name} n'a plus qu'un domino !",
    },
    "move.computer": {"en": "(computer)", "fr": "(ordinateur)"},
    # ---- rounds and the match
    "round.out": {
        "en": "{name} went out — dominoes! Round {round} is over.",
        "fr": "{name} a posé son dernier domino ! La manche {round} est finie.",
    },
    "round.blocked": {
        "en": "Nobody can play and the boneyard is empty: round {round} is blocked.",
        "fr": "Personne ne peut jouer et la pioche est vide : la manche {round} est bloquée.",
    },
    "round.start": {
        "en": "Round {round} of {rounds}: the engine is {engine}. {name} starts.",
        "fr": "Manche {round} sur {rounds} : la locomotive est le {engine}. {name} commence.",
    },
    "match.winner": {
        "en": "{names} won the match — Woo Woo!",
        "fr": "{names} remporte la partie — Tchou tchou !",
    },
    "turn.next": {"en": "{mention}, it's your turn.", "fr": "{mention}, à toi de jouer."},
    "turn.deadline": {"en": "Play by {when}.", "fr": "À jouer avant {when}."},
}


def language_of(locale: str | None) -> str:
    """The catalog language for a Discord locale (``fr`` for ``fr``, English otherwise)."""
    if locale:
        base = str(locale).split("-")[0].lower()
        if base in LANGUAGES:
            return base
    return DEFAULT_LANGUAGE


def tr(key: str, locale: str | None = None, /, **params: object) -> str:
    """The sentence ``key`` in the reader's language, with ``params`` filled in.

    An unknown key is a programming error and raises KeyError (tests catch it); a missing
    placeholder value raises too, rather than showing a player ``{name}``.
    """
    entry = CATALOG[key]
    text = entry.get(language_of(locale)) or entry[DEFAULT_LANGUAGE]
    return text.format(**params) if params else text


def placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field}
