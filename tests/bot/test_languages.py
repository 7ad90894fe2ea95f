"""English and French everywhere: command metadata, picture labels, refusals, rule names.

The catalog test (test_words.py) checks every key has both languages; these check that every
piece of text that reaches a player *has* a key: each command, option and choice of the real
command tree, each label the renderers draw, each ``tr("...")`` literal in the code.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.app import EXTENSIONS, MexicanTrainBot, create_bot
from bot.config import Config
from bot.engine import MEXICAN, Rules, view_for
from bot.i18n import CATALOG
from bot.ui.translator import CatalogTranslator
from renderers import HandOptions, TableOptions, render_hand, render_table
from tests.renderers.positions import built, match_over, playout, spectator

ROOT = Path(__file__).resolve().parents[2]
#: Discord's rule for command and option names (lower case, no spaces, 1-32 characters).
NAME = re.compile(r"^[-_\w]{1,32}$")


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[MexicanTrainBot]:
    b = create_bot(Config(database=tmp_path / "db.sqlite3", synchronous="NORMAL", render_workers=0))
    # setup_hook needs no Discord connection: the store, the services and every extension.
    await b.setup_hook()
    # Never logged in: the resumption of computer turns (which waits for the gateway's ready)
    # is not this test's business, so it stops before it starts.
    b.cancel_background()
    assert set(b.extensions) == set(EXTENSIONS)
    try:
        yield b
    finally:
        await b.close()


def _walk(payloads: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any], list[Any]]]:
    """(path, item, siblings) for every command, option and choice in synced payloads."""
    out: list[tuple[str, dict[str, Any], list[Any]]] = []

    def visit(path: str, items: list[dict[str, Any]]) -> None:
        for item in items:
            here = f"{path} {item['name']}".strip()
            out.append((here, item, items))
            for choice in item.get("choices", []):
                out.append((f"{here}={choice['value']}", choice, item["choices"]))
            visit(here, item.get("options", []))

    visit("", payloads)
    return out


async def test_every_command_option_and_choice_has_french(bot: MexicanTrainBot) -> None:
    translator = CatalogTranslator()
    payloads = [
        await cmd.get_translated_payload(bot.tree, translator) for cmd in bot.tree.get_commands()
    ]
    items = _walk(payloads)
    assert len(items) >= 90
    names = {"mt", "play", "draw", "pass", "knock", "catch", "hand", "table"}
    assert names <= {p["name"] for p in payloads}
    mt = next(p for p in payloads if p["name"] == "mt")
    subs = {o["name"] for o in mt["options"]}
    assert {"history", "replay", "stats", "leaderboard", "undo"} <= subs
    assert not {"export", "rules"} & subs  # options of /mt history and /mt status now
    assert len(mt["options"]) <= 25
    for path, item, siblings in items:
        french = (item.get("name_localizations") or {}).get("fr")
        assert french, f"{path}: no French name"
        if "type" in item:  # a command or option (choices have no type)
            assert NAME.match(french) and french == french.lower(), f"{path}: bad name {french!r}"
            desc = (item.get("description_localizations") or {}).get("fr")
            assert desc and len(desc) <= 100, f"{path}: French description {desc!r}"
            same = [s for s in siblings if "type" in s]
            frs = [(s.get("name_localizations") or {}).get("fr") for s in same]
            assert frs.count(french) == 1, f"{path}: French name {french!r} used twice"
        else:
            assert len(french) <= 100
        # English is Discord's default: no "en-US" localisation is sent.
        assert "en-US" not in (item.get("name_localizations") or {})


def test_picture_labels_exist_in_french() -> None:
    worst = built(8, {MEXICAN: 16, **{s: 7 for s in range(8)}}, open_doubles=(2, 5),
                  marked=(1, 3, 4, 6), current=2)  # fmt: skip
    cases = [worst, spectator(match_over()), spectator(playout(4, 3, 40)),
             spectator(playout(8, 5, 400))]  # fmt: skip
    for view in cases:
        en = render_table(view)
        fr = render_table(view, TableOptions(language="fr"))
        assert en.size == fr.size and en.tobytes() != fr.tobytes()
    m = playout(4, 7, 36)
    assert m.round is not None
    v = view_for(m, m.round.current)
    en = render_hand(v, HandOptions(plan=v.hand[:3] if v.hand else ()))
    fr = render_hand(v, HandOptions(plan=v.hand[:3] if v.hand else (), language="fr"))
    assert en.size == fr.size and en.tobytes() != fr.tobytes()


def test_every_literal_key_is_in_the_catalog() -> None:
    missing = []
    for path in [*ROOT.joinpath("bot").rglob("*.py"), *ROOT.joinpath("renderers").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            func = node.func
            called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            first = node.args[0]
            if called in ("tr", "t", "Refusal") and isinstance(first, ast.Constant):
                key = first.value
                if isinstance(key, str) and key not in CATALOG:
                    missing.append(f"{path.relative_to(ROOT)}:{node.lineno} {key}")
    assert not missing, missing


def test_every_rule_has_a_name_in_both_languages() -> None:
    for f in dataclasses.fields(Rules):
        assert f"rule.{f.name}" in CATALOG, f.name


def test_every_hint_reason_is_in_both_languages() -> None:
    """``/mt hint`` looks its reason up by code, so no literal key names them."""
    from bot.engine.ai import REASONS

    for code, english in REASONS.items():
        entry = CATALOG[f"hint.reason.{code}"]
        assert entry["en"] == english and entry["fr"], code
