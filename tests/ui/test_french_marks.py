"""French sets a colon (and a semicolon) off with a space: "Train mexicain : `11-9`". A turn
DM read in French whose lines say "Train mexicain: `11-9`" under "Tu peux poser :" reads as
English punctuation pasted in (seen reading a whole French match, scripts/play_through_fake.py
--language fr)."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from bot.engine import Match, Rules, view_for
from bot.engine.simulate import random_move
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
