"""The rules as the lobby card and ``/mt status rules:True`` tell them (bot/ui/messages.py):
"House rules" are what the host changed on top of the preset they picked. A quick game read
"House rules: `rounds`: 1" under "1 round" (read in a whole match's transcript): its one round
is the preset's, not a house rule."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.engine import preset
from bot.service import GameOptions, GameSummary
from bot.store import GameStatus
from bot.ui.houserules import rules_text


def _lobby(name: str, **house: object) -> GameSummary:
    now = datetime(2026, 1, 1, tzinfo=UTC)
    return GameSummary(
        id=1, guild_id=10, channel_id=20, host_id=100, status=GameStatus.LOBBY, preset=name,
        rules=preset(name).replace(**house), players=(), turn=None, round_no=None,
        options=GameOptions(), version=1, created_at=now, updated_at=now, turn_since=None,
        deadline_at=None,
    )  # fmt: skip


def test_a_presets_own_rules_are_not_house_rules() -> None:
    for name in ("quick", "fundex", "standard"):
        text = rules_text(_lobby(name), "en")
        assert "House rules" not in text, (name, text)
    assert "1 round," in rules_text(_lobby("quick"), "en")


def test_what_the_host_changed_on_the_preset_is_told_as_house_rules() -> None:
    text = rules_text(_lobby("quick", knock=True), "en")
    house = [line for line in text.splitlines() if line.startswith("**House rules:**")]
    assert len(house) == 1 and "rounds" not in house[0] and "knock" in house[0], text
    # French sets the colon off with a space, in the rule as in its head.
    fr = rules_text(_lobby("quick", knock=True), "fr")
    assert "**Règles maison :** `" in fr and "` : " in fr and "`:" not in fr, fr
