"""Counts and plural nouns: one rule per language, applied by ``tr`` itself.

Players read "1 tiles", "1 dominos" and "1 games" where a text put a noun straight after a
number. Every text now writes its forms (``{n} {n:tile|tiles}``) or uses a ``.one``/``.many``
pair, and a test reads the whole catalog — every feature's texts included — for a count with a
hard-coded noun.
"""

from __future__ import annotations

import re

import pytest

from bot.i18n import CATALOG, LANGUAGES, placeholders, plural_form, tr, tr_count

#: Nouns that follow a count somewhere in the bot's texts, both numbers, both languages.
NOUNS = (
    "tiles?|dominos?|games?|parties|partie|rounds?|manches?|players?|joueurs?|points?|pts?|"
    "wins?|victoires?|days?|jours?|hours?|heures?|minutes?|seconds?|secondes?|moves?|coups?|"
    "characters?|caractères?|turns?|tours?|frames?|images?|servers?|serveurs?"
)
#: A number placeholder then a noun; not an id (``#{game} moves``, ``n°{game}``).
HARD_CODED = re.compile(rf"(?<![#°])\{{\w+\}}\s+(?:{NOUNS})\b", re.IGNORECASE)


def test_the_plural_rule_of_each_language() -> None:
    assert [plural_form(n, "en") for n in (0, 1, 2, 1.5)] == ["many", "one", "many", "many"]
    assert [plural_form(n, "fr") for n in (0, 1, 2, 1.5)] == ["one", "one", "many", "one"]
    assert plural_form(1, "en-GB") == "one" and plural_form(0, "fr-CA") == "one"
    assert plural_form("3", "fr") == "many"  # a number already turned into text


def test_tr_picks_the_form_written_in_the_text() -> None:
    title = {"game": 4, "round": 2, "rounds": 13}
    assert tr("hand.title", "en", count=1, **title).endswith("1 tile:")
    assert tr("hand.title", "en", count=0, **title).endswith("0 tiles:")
    assert tr("hand.title", "fr", count=0, **title).endswith("0 domino :")
    assert tr("hand.title", "fr", count=1, **title).endswith("1 domino :")
    assert tr("hand.title", "fr", count=12, **title).endswith("12 dominos :")
    assert tr("schedule.days", "en", days=1) == "1 day"
    assert tr("schedule.days", "fr", days=14) == "14 jours"
    # Texts without forms are untouched, format specs included.
    assert tr("turn.next", "en", mention="Ana") == "Ana, it's your turn."


def test_tr_count_reads_both_ways_of_writing_a_count() -> None:
    # The older pair of keys (count.rounds.one / count.rounds.many)…
    assert tr_count("count.rounds", 1, "en") == "1 round"
    assert tr_count("count.rounds", 0, "en") == "0 rounds"
    assert tr_count("count.rounds", 0, "fr") == "0 manche"
    # …and one key with its forms inline.
    assert tr_count("schedule.days", 1, "en", days=1) == "1 day"


def test_no_text_hard_codes_a_count_with_a_noun() -> None:
    offenders = [
        (key, language, text)
        for key, entry in CATALOG.items()
        if not key.endswith((".one", ".many"))  # the pair itself says which form it is
        for language, text in entry.items()
        if HARD_CODED.search(text)
    ]
    assert not offenders, offenders[:5]


def test_one_and_many_come_in_pairs_and_forms_are_in_every_language() -> None:
    for key in CATALOG:
        stem, _, form = key.rpartition(".")
        if form == "many":  # (a .one may stand alone, as pic.match-over.one beside .shared)
            assert f"{stem}.one" in CATALOG, f"{key} has no {stem}.one"
    spec = re.compile(r"\{(\w+):[^}|]*\|[^}]*\}")
    for key, entry in CATALOG.items():
        counted = {language: set(spec.findall(entry[language])) for language in LANGUAGES}
        assert len({frozenset(v) for v in counted.values()}) == 1, (key, counted)
        assert placeholders(entry["en"]) == placeholders(entry["fr"]), key


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_text_with_forms_reads_right_at_0_1_and_2(language: str) -> None:
    """Fill each text with forms for 0, 1 and 2 and read the number back with its noun."""
    spec = re.compile(r"\{(\w+):([^}|]*)\|([^}]*)\}")
    for key, entry in CATALOG.items():
        text = entry[language]
        forms = spec.findall(text)
        if not forms:
            continue
        for n in (0, 1, 2):
            params: dict[str, object] = {name: f"<{name}>" for name in placeholders(text)}
            params.update({name: n for name, _, _ in forms})
            out = tr(key, language, **params)
            for _, one, many in forms:
                word = one if plural_form(n, language) == "one" else many
                assert f"{n} {word}".strip() in out, (key, language, n, out)
