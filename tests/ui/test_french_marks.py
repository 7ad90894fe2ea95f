"""French sets a colon (and a semicolon) off with a space: "Train mexicain : `11-9`". A turn
DM read in French whose lines say "Train mexicain: `11-9`" under "Tu peux poser :" reads as
English punctuation pasted in (seen reading a whole French match, scripts/play_through_fake.py
--language fr)."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from bot.engine import Match, Rules, view_for
from bot.engine.simulate import random_move
from bot.i18n import CATALOG, placeholders, tr
from bot.service import GameOptions, GameSummary
from bot.store import GameStatus
from bot.ui.dmturn import hand_lines


def _game() -> GameSummary:
    now = datetime(2026, 1, 1, tzinfo=UTC)
    return GameSummary(
        id=1, guild_id=10, channel_id=20, host_id=100, status=GameStatus.ACTIVE,
        preset="standard", rules=Rules(max_pip=12), players=(), turn=None, round_no=0,
        options=GameOptions(), version=1, created_at=now, updated_at=now, turn_since=now,
        deadline_at=None,
    )  # fmt: skip


def test_a_turn_dms_playable_lines_follow_each_languages_colon() -> None:
    rng = random.Random(8)
    m = Match(Rules(max_pip=12), ["Alice", "Bob", "Carol"])
    m.start_round(m.shuffle(rng))
    checked = 0
    for _ in range(60):
        assert m.round is not None
        if m.round.result is not None:
            break
        view = view_for(m, m.round.current)
        fr = hand_lines(view, _game(), "fr").splitlines()
        en = hand_lines(view, _game(), "en").splitlines()
        wheres = [(f, e) for f, e in zip(fr, en, strict=True) if f.startswith("→ ")]
        for f, e in wheres:
            label, _, tiles = e.partition(": ")
            assert tiles.startswith("`") and label.startswith("→ "), e
            assert " : `" in f and ": `" not in f.replace(" : `", ""), f
        checked += len(wheres)
        m.apply(random_move(m.round, rng))
    assert checked > 10  # playable lines were really read


def test_french_says_d_before_a_name_that_opens_with_a_vowel() -> None:
    # "3-3 → train de Alice (@1)" in a French select, "Le temps de Alice est écoulé" in the
    # channel: French drops the "e" of "de" before a vowel.
    assert tr("train.other", "fr", name="Alice", ref="@1") == "train d'Alice (@1)"
    assert tr("error.not-your-turn", "fr", name="Émile") == "C'est le tour d'Émile."
    assert tr("move.play.other", "fr", name="Bob", tile="3-3", owner="Olga").endswith(
        "sur le train d'Olga"
    )
    # Not before a consonant, nor "h" (usage splits), nor a name opening with a mark.
    for name in ("Bob", "Hugo", "\\_ana", "**Alice**"):
        assert tr("train.other", "fr", name=name, ref="@1") == f"train de {name} (@1)"
    assert tr("train.other", "en", name="Alice", ref="@1") == "Alice's train (@1)"
    # Every French text that says "de {a name}" elides it: none is left out.
    checked = 0
    for key, entry in CATALOG.items():
        text = entry.get("fr", "")
        if "de {" not in text or "|" in text:
            continue
        said = tr(key, "fr", **dict.fromkeys(placeholders(text), "Alice"))
        assert "de Alice" not in said, (key, said)
        checked += 1
    assert checked >= 10  # the train, the turn, the time out, the undo, the stats...
