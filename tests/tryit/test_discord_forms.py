"""The Discord forms the README shows (``/draw``, ``/play tile:12-5 train:mexican``,
``/hand``, ``/mt hint``), typed into ``try`` as they are written there, are read as the
terminal's own words (issue 50: they were refused as unknown)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.tryit.reading import read

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
_FORM = re.compile(r"`(/(?:play|draw|pass|hand|knock|table|mt hint)[^`]*)`")


def _plain(form: str) -> str:
    """What the form means in the terminal's own words."""
    text = form.removeprefix("/").removeprefix("mt ")
    text = text.removeprefix("play ").replace("tile:", "").replace("train:", "")
    return text


def test_the_readme_shows_discord_forms() -> None:
    forms = set(_FORM.findall(README))
    assert {"/draw", "/pass", "/hand", "/mt hint", "/play tile:12-5 train:mexican"} <= forms


@pytest.mark.parametrize("form", sorted(set(_FORM.findall(README))))
def test_each_readme_form_reads_as_its_plain_words(form: str) -> None:
    assert read(form) == read(_plain(form)) is not None, form


@pytest.mark.parametrize(
    ("form", "plain"),
    [
        ("/play 12-5 mexican", "12-5 mexican"),
        ("/play 12-5", "12-5"),
        ("/catch @2", "catch @2"),
        ("/knock", "knock"),
        ("/table", "table"),
        ("/jouer domino:12-5 train:mexicain", "12-5 mexicain"),
        ("/piocher", "piocher"),
        ("/mt indice", "indice"),
    ],
)
def test_more_forms_in_both_languages(form: str, plain: str) -> None:
    assert read(form) == read(plain) is not None
