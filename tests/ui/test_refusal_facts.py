"""French refusals say as much as English ones (issue 50): ``passer`` answered "Tu as un
domino jouable : tu dois le poser." where English listed the moves, and ``9-6 @1`` "Ce domino
ne va pas sur ce train." where English said the train must match 12.

The engine's refusals carry their facts (``IllegalMove.params``); each ``refusal.<code>``
entry, English and French, takes exactly the facts the engine gives for that code, and the
sentence a French player reads holds the same facts as the English one."""

from __future__ import annotations

import ast
import random
from pathlib import Path

from bot.engine import PRESETS, Match
from bot.engine.legality import IllegalMove, check
from bot.engine.moves import MEXICAN, Draw, Pass, Play
from bot.engine.tiles import Tile
from bot.i18n import CATALOG, placeholders
from bot.service.play import turn_refusal
from bot.ui.refusals import error_text

ENGINE = Path(__file__).resolve().parents[2] / "bot" / "engine"


def _engine_facts() -> dict[str, set[str]]:
    """Every code the engine refuses with, and the facts each of its raises gives (a train's
    three facts, ``**_on(...)``, are said as one: ``train``)."""
    found: dict[str, set[str]] = {}
    for module in ("legality.py", "match.py"):
        tree = ast.parse((ENGINE / module).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "IllegalMove"):
                continue
            first = node.args[0]
            codes = (
                [first.value]
                if isinstance(first, ast.Constant)
                else ["satisfy-own", "open-double"]  # bound.code: the binding double's reason
            )
            facts = {kw.arg for kw in node.keywords if kw.arg is not None}
            if any(kw.arg is None for kw in node.keywords):
                facts.add("train")
            for code in codes:
                assert found.get(code, facts) == facts, f"{code}: raises give different facts"
                found[code] = facts
    return found


def test_every_refusal_text_takes_the_engines_facts_in_both_languages() -> None:
    facts = _engine_facts()
    assert len(facts) >= 30 and facts["no-fit"] == {"tile", "train", "end"}
    assert facts["must-play"] == {"moves"}
    for code, given in facts.items():
        entry = CATALOG[f"refusal.{code}"]
        assert placeholders(entry["en"]) == given, code
        assert placeholders(entry["fr"]) == given, code


def _round(seed: int = 3) -> Match:
    match = Match(PRESETS["quick"], ["Ann", "Bob", "Eve"])
    match.start_round(match.shuffle(random.Random(seed)))
    return match


def _refusal(match: Match, move: Play | Draw | Pass) -> IllegalMove:
    assert match.round is not None
    try:
        check(match.round, move, match.round.current)
    except IllegalMove as exc:
        return exc
    raise AssertionError(f"{move} was allowed")


def _both(match: Match, exc: IllegalMove) -> tuple[str, str]:
    refused = turn_refusal(exc, match)  # as the service hands it to the Discord layer
    return error_text(refused, "en"), error_text(refused, "fr")


def test_a_refused_pass_lists_every_legal_move_in_both_languages() -> None:
    match = _round()
    assert match.round is not None
    plays = [m for m in match.round.legal_moves() if isinstance(m, Play)]
    assert len(plays) >= 4  # the case: 4 moves, of which 3 were shown and "…"
    en, fr = _both(match, _refusal(match, Pass()))
    for move in plays:
        assert str(move) in en, (move, en)
        french = str(move).replace("mexican", "mexicain")
        assert french in fr, (move, fr)
    assert "…" not in en and "…" not in fr


def test_a_tile_that_does_not_fit_says_what_the_train_needs_in_both_languages() -> None:
    match = _round()
    assert match.round is not None
    seat = match.round.current
    engine = match.round.trains[seat].end
    tile = next(t for t in match.round.hands[seat] if not t.has(engine))
    en, fr = _both(match, _refusal(match, Play(tile, seat)))
    for text in (en, fr):
        assert str(tile) in text and str(engine) in text, text
    assert fr == f"Le {tile} ne va pas sur ton train (@1) : il y faut un {engine}."


def test_other_trains_are_named_as_the_channel_names_them() -> None:
    match = _round()
    assert match.round is not None
    seat = match.round.current
    playable = next(m for m in match.round.legal_moves() if isinstance(m, Play))
    other = (seat + 1) % 3
    name = match.names[other]
    _en, fr = _both(match, _refusal(match, Play(playable.tile, other)))
    assert f"le train de {name} (@{other + 1})" in fr or f"le train d'{name}" in fr, fr
    _en, fr = _both(match, _refusal(match, Play(Tile(0, 0), MEXICAN)))
    if "Tu n'as pas le" not in fr:  # (0-0 may be in the hand)
        assert "Train mexicain" in fr, fr


def test_a_service_refusal_without_its_facts_is_still_answered() -> None:
    """A refusal that reaches the words without the facts its text needs (an older caller)
    is said in the source's words, never a KeyError."""
    bare = IllegalMove("no-fit", "9-6 doesn't fit your train (@1): it ends in 12")
    match = _round()
    en, fr = _both(match, bare)
    assert "it ends in 12" in en and "12" in fr
