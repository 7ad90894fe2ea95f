"""Facts are typed (:class:`bot.service.FactCode`), and every code has its words.

A fact the service states but nobody tells is a silent feature; a code spelled as a bare
string at a producer or a consumer drifts from the enum without mypy seeing it (a string
compares equal to a ``StrEnum`` member, so a typo there is never an error). So: every member
is told by :mod:`bot.ui.facts` in English and French or says what tells it instead, and no
module in ``bot/``, ``scripts/`` or ``tests/`` spells a fact code as a string literal.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.i18n import CATALOG
from bot.service import FactCode
from bot.ui import facts

ROOT = Path(__file__).resolve().parents[2]
CODES = {c.value for c in FactCode}


def test_every_fact_is_told_in_exactly_one_place() -> None:
    places = [set(facts.FACT_LINES), set(facts.SAID), set(facts.TOLD_ELSEWHERE)]
    for i, here in enumerate(places):
        for there in places[i + 1 :]:
            assert not here & there, here & there
    assert set().union(*places) == set(FactCode)


def test_the_values_are_the_codes_the_house_always_spelled() -> None:
    """Logs and tests read a code as its string: the values must not drift."""
    assert FactCode.DOUBLE_OPENED == "double-opened"
    assert FactCode.TURN_PLAYED_FOR == "turn-played-for"
    assert FactCode.MARKER_REMOVED == "marker-removed"
    assert len(CODES) == len(FactCode)


@pytest.mark.parametrize("code", list(facts.SAID))
def test_each_said_fact_has_its_sentence_in_english_and_french(code: FactCode) -> None:
    entry = CATALOG[facts.SAID[code]]
    assert entry.get("en") and entry.get("fr") and entry["en"] != entry["fr"]
    en = facts.fact_line(code, {"name": "Bob"}, "en")
    fr = facts.fact_line(code, {"name": "Bob"}, "fr")
    assert en and fr and en != fr and "{" not in en + fr


SAMPLES: dict[FactCode, dict[str, object]] = {
    FactCode.TURN_PLAYED_FOR: {"name": "Bob", "reason": "timeout", "policy": "computer"},
    FactCode.UNDONE: {"host": "Ann", "name": "Bob", "moves": "12-5 @1", "by": 1, "own": False},
}


@pytest.mark.parametrize("code", list(facts.FACT_LINES))
def test_each_fact_line_reads_in_english_and_french(code: FactCode) -> None:
    line = facts.FACT_LINES[code]
    en, fr = line(SAMPLES[code], "en"), line(SAMPLES[code], "fr")
    assert "Bob" in en and "Bob" in fr and en != fr and "{" not in en + fr


def _spelled_codes(source: str, path: str) -> list[str]:
    """Where ``source`` (the file ``path``) passes a fact code as a string to ``Fact`` or
    ``Fact.of``, or compares a ``.code`` with one (``==``, or ``in`` a literal holding one)."""
    tree = ast.parse(source)
    found: list[str] = []

    def literal_codes(node: ast.AST) -> list[str]:
        return [
            n.value
            for n in ast.walk(node)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value in CODES
        ]

    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args:
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
            owner = f.value if isinstance(f, ast.Attribute) else None
            if name == "Fact" or (name == "of" and getattr(owner, "id", "") == "Fact"):
                found += [f"{path}:{node.lineno}: {c}" for c in literal_codes(node.args[0])]
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(isinstance(s, ast.Attribute) and s.attr == "code" for s in sides):
                for side in sides:
                    found += [f"{path}:{node.lineno}: {c}" for c in literal_codes(side)]
    return found


def test_no_producer_or_consumer_spells_a_fact_code_as_a_string() -> None:
    files = [p for top in ("bot", "scripts", "tests") for p in sorted((ROOT / top).rglob("*.py"))]
    spelled = [hit for p in files for hit in _spelled_codes(p.read_text("utf-8"), str(p))]
    assert spelled == []


def test_the_sweep_sees_a_bare_string() -> None:
    """The sweep above must be able to fail."""
    probe = 'Fact.of("double-opened", seat=1)\nif fact.code == "undone":\n    pass\n'
    assert len(_spelled_codes(probe, "probe.py")) == 2
    assert _spelled_codes("Fact.of(FactCode.DOUBLE_OPENED)\nf.code == 'no-round'\n", "ok") == []
