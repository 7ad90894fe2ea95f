"""One translation function for every sentence the bot says, in English and French.

The rule sheets are bilingual and so are many players, so no user-facing text is written
inline: it is a key in :data:`CATALOG` with both languages, looked up by :func:`tr` with the
reader's Discord locale (``fr``, ``en-US``, …). This module is the translator; the texts
live under ``bot/texts/``, each module a ``TEXTS`` dict (the game's older sentences in
:mod:`bot.texts.core`, each feature's in its own), listed in :data:`_FEATURE_TEXTS` and
joined into :data:`CATALOG` at import; a key may be defined once only. A test fails when
a key lacks a language or when the two languages disagree on the placeholders they use.

**Counts and plurals.** A noun after a number takes the reader's language's plural rule
(:func:`plural_form`: English "1 tile", "0 tiles"; French "0 domino", "1 domino", "2
dominos"), never a hard-coded form ("1 tiles") nor "tile(s)". Write the forms in the text,
as a placeholder whose format is ``singular|plural``::

    "hand.count": {"en": "{n} {n:tile|tiles} left", "fr": "{n} {n:domino|dominos} restants"}

``{n}`` prints the number, ``{n:tile|tiles}`` the form its value takes (either side may be
empty: ``domino{n:|s}``); :func:`tr` picks it, whatever the key — nothing to call
differently. A test fails on a catalog text that puts a plural noun straight after a
placeholder (``{count} tiles``). The older way still works: a pair of keys ``key.one`` /
``key.many`` read with :func:`tr_count` (which also reads a key written the new way), so
texts written either way, by any feature, keep working.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping

LANGUAGES = ("en", "fr")
DEFAULT_LANGUAGE = "en"

#: Every text: key -> language -> sentence, assembled from ``bot/texts/`` at import (below).
CATALOG: dict[str, Mapping[str, str]] = {}


def _merge_feature_texts() -> None:
    import importlib

    for name in _FEATURE_TEXTS:
        texts: dict[str, Mapping[str, str]] = importlib.import_module(f"bot.texts.{name}").TEXTS
        clash = sorted(set(texts) & set(CATALOG))
        if clash:
            raise KeyError(f"bot.texts.{name} redefines {clash[0]!r}")
        CATALOG.update(texts)


#: Feature modules in ``bot/texts/`` whose ``TEXTS`` join the catalog (one line each).
_FEATURE_TEXTS: tuple[str, ...] = (
    "core",
    "hint",
    "matchend",
    "pictures",
    "commands",
    "extras",
    "ratings",
    "seasons",
    "schedule",
    "channel",
    "turns",
    "roundend",
    "catchup",
    "alt",
    "reading",
    "tryit",
    "faults",
    "places",
    "outbox",
    "review",
    "orders",
    "cadence",
    "pace",
)
_merge_feature_texts()


def language_of(locale: str | None) -> str:
    """The catalog language for a Discord locale (``fr`` for ``fr``, English otherwise)."""
    if locale:
        base = str(locale).split("-")[0].lower()
        if base in LANGUAGES:
            return base
    return DEFAULT_LANGUAGE


def plural_form(count: object, language: str | None) -> str:
    """``"one"`` or ``"many"``: which form a noun takes after ``count`` for a reader of
    ``language`` (a catalog language or a Discord locale). English: 1 is singular, 0 and 2
    plural. French: 0 and 1 are singular ("0 domino", "1,5 heure"), from 2 plural.
    """
    number = abs(float(count)) if isinstance(count, int | float) else abs(float(str(count)))
    if language_of(language) == "fr":
        return "one" if number < 2 else "many"
    return "one" if number == 1 else "many"


class _Plurals(string.Formatter):
    """``str.format`` plus ``{n:singular|plural}``: a field whose format holds ``|`` prints
    the form ``n`` takes in ``language`` instead of ``n`` itself."""

    def __init__(self, language: str) -> None:
        self.language = language

    def format_field(self, value: object, format_spec: str) -> str:
        if "|" in format_spec:
            one, _, many = format_spec.partition("|")
            return one if plural_form(value, self.language) == "one" else many
        return str(super().format_field(value, format_spec))


#: French drops the "e" of "de" before a vowel: "le train d'Alice", never "le train de Alice"
#: (read in a whole French match), as the catch-up already did (bot/ui/catchup.py, VOWELS).
#: Not before "h", where usage splits ("de Hugo"), nor before a name that opens with a mark
#: (an escaped or bold name).
_DE_NAME = re.compile(r"\bde \{(\w+)\}")
_FRENCH_VOWELS = frozenset("aeiouyàâäéèêëîïôöùûüœæ")


def _elided(text: str, params: Mapping[str, object]) -> str:
    """``text`` with each "de {name}" written "d'{name}" where that name opens with a vowel."""

    def one(found: re.Match[str]) -> str:
        first = str(params.get(found.group(1), ""))[:1].lower()
        return "d'{" + found.group(1) + "}" if first in _FRENCH_VOWELS and first else found[0]

    return _DE_NAME.sub(one, text)


def tr(key: str, locale: str | None = None, /, **params: object) -> str:
    """The sentence ``key`` in the reader's language, with ``params`` filled in and each
    ``{n:singular|plural}`` in the form ``n`` takes in that language.

    An unknown key is a programming error and raises KeyError (tests catch it); a missing
    placeholder value raises too, rather than showing a player ``{name}``.
    """
    entry = CATALOG[key]
    language = language_of(locale)
    text = entry.get(language) or entry[DEFAULT_LANGUAGE]
    if not params and "{" not in text:
        return text
    if language == "fr" and "de {" in text:
        text = _elided(text, params)
    if "|" in text:  # only texts with plural forms pay for the slower formatter
        return _Plurals(language).vformat(text, (), params)
    return text.format(**params)


def tr_count(key: str, count: int, locale: str | None = None, /, **params: object) -> str:
    """A sentence about ``count`` things, with ``{count}`` filled in: "1 round", "2 rounds",
    never "round(s)". ``key`` is either one text with its forms inline (``{count} {count:
    round|rounds}``, see the module's docstring) or, the older way, a pair ``key.one`` /
    ``key.many`` chosen by :func:`plural_form`."""
    if key in CATALOG:
        return tr(key, locale, count=count, **params)
    form = plural_form(count, locale)
    return tr(f"{key}.{form}", locale, count=count, **params)


def placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field}
