"""Every sentence exists in English and French, and moves read the way players say them."""

from __future__ import annotations

import pytest

from bot.engine import DRAW, PASS, Rules, parse_move
from bot.i18n import CATALOG, LANGUAGES, language_of, placeholders, tr
from bot.ui.messages import describe_move, round_end_line
from tests.engine.helpers import NAMES, table


def test_every_key_has_every_language_with_the_same_placeholders() -> None:
    for key, entry in CATALOG.items():
        assert set(entry) == set(LANGUAGES), f"{key} lacks {set(LANGUAGES) - set(entry)}"
        en = placeholders(entry["en"])
        for lang in LANGUAGES:
            assert entry[lang].strip(), f"{key} is empty in {lang}"
            assert placeholders(entry[lang]) == en, f"{key}: {lang} placeholders differ"


def test_locales_pick_the_language() -> None:
    assert language_of("fr") == "fr" and language_of("en-US") == "en"
    assert language_of("de") == "en" and language_of(None) == "en"
    with pytest.raises(KeyError):
        tr("no.such.key")


def _names() -> tuple[str, ...]:
    return NAMES[:3]


def test_plays_are_told_in_words() -> None:
    rnd = table(Rules(), ["12-5 5-5 9-1", "5-2 1-1", "0-0"], trains={"mexican": "12-9"})
    applied = rnd.apply(parse_move("9-1 mexican"))
    # "Woo Woo!" only for the first tile on the Mexican Train (and the match's winner).
    assert describe_move(_names(), 0, applied.move, applied) == (
        "Alice played 9-1 on the Mexican Train"
    )
    assert describe_move(_names(), 0, applied.move, applied, "fr") == (
        "Alice a posé 9-1 sur le Train mexicain"
    )
    rnd = table(Rules(), ["12-5 5-5", "5-2 1-1", "0-0"])
    applied = rnd.apply(parse_move("12-5 mexican"))
    assert describe_move(_names(), 0, applied.move, applied) == (
        "Alice started the Mexican Train with 12-5 — Woo Woo!"
    )


def test_doubles_markers_and_passes_are_told() -> None:
    rnd = table(Rules(), ["5-5 5-2 3-3", "1-0", "0-0"], trains={"@1": "12-5"}, marked=("@1",))
    applied = rnd.apply(parse_move("5-5 @1"))
    text = describe_move(_names(), 0, applied.move, applied)
    assert (
        text == "Alice played 5-5 on their own train (a double: it must be satisfied, marker off)"
    )
    applied = rnd.apply(parse_move("5-2 @1"))
    assert "satisfying 5-5" in describe_move(_names(), 0, applied.move, applied)
    rnd = table(Rules(), ["1-1", "4-4", "0-0"], trains={"@1": "12-5"}, draws="3-6")
    drew = rnd.apply(DRAW)
    assert describe_move(_names(), 0, DRAW, drew) == "Alice drew a tile"
    passed = rnd.apply(PASS)
    assert describe_move(_names(), 0, PASS, passed) == "Alice passed; their train is open"
    other = table(Rules(), ["1-6", "4-4", "0-0"], trains={"@2": "12-6"}, marked=("@2",))
    applied = other.apply(parse_move("6-1 @2"))
    assert describe_move(_names(), 0, applied.move, applied) == "Alice played 6-1 on Bob's train"


def test_round_ends_are_told() -> None:
    rnd = table(Rules(), ["12-5", "1-0", "0-0"])
    rnd.apply(parse_move("12-5 @1"))
    assert rnd.result is not None
    assert round_end_line(_names(), rnd.result.went_out, 0, None) == (
        "Alice went out — dominoes! Round 1 is over."
    )
    assert round_end_line(_names(), rnd.result.went_out, 0, "fr").startswith("Alice a posé")
