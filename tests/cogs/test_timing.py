"""The time-zone feature's pure Discord-side parts: zone autocomplete, the channel's lines for
turns played for absent players, and jump links."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.cogs import timing
from bot.engine import preset
from bot.service import FactCode, GameOptions, GameSummary
from bot.store import GameStatus
from bot.store.store import MessageRow
from bot.ui import choices, facts, messages


def test_time_zone_choices_offer_common_zones_first_then_any_iana_name() -> None:
    assert len(choices.zone_choices("")) == 25
    assert choices.zone_choices("paris")[0].value == "Europe/Paris"
    assert "Asia/Kolkata" in [c.value for c in choices.zone_choices("kolk")]
    assert "America/Argentina/Cordoba" in [c.value for c in choices.zone_choices("cordoba")]
    assert choices.zone_choices("nowhere at all") == []


def test_turns_played_for_absent_players_are_told_plainly() -> None:
    base: dict[str, object] = {"name": "Bob", "reason": "timeout", "policy": "computer"}
    line = facts.FACT_LINES[FactCode.TURN_PLAYED_FOR]
    assert line({**base, "tiles": ("5-3",)}, "en") == (
        "⏰ Bob's time ran out: the computer played 5-3 for them."
    )
    assert line({**base, "tiles": ("5-3",)}, "fr") == (
        "⏰ Le temps de Bob est écoulé : l'ordinateur a posé 5-3 à sa place."
    )
    skipped = line({**base, "policy": "skip", "drew": True, "passed": True, "tiles": ()}, "en")
    assert (
        skipped
        == "⏰ Bob's time ran out: their turn was skipped (the bot drew and passed for them)."
    )
    replaced = line({**base, "replaced": True, "missed": 3, "tiles": ("6-6", "6-2")}, "en")
    assert "missed 3 turns in a row" in replaced and "played 6-6, 6-2" in replaced
    away = line({**base, "reason": "away", "drew": True, "tiles": ("4-1",)}, "en")
    assert away == "🏖️ Bob is away: the computer drew and played 4-1 for them."


def test_links_jump_to_the_latest_table_message_or_the_channel() -> None:
    now = datetime(2025, 3, 1, tzinfo=UTC)
    game = GameSummary(
        id=1, guild_id=10, channel_id=20, host_id=1, status=GameStatus.ACTIVE, preset="quick",
        rules=preset("quick"), players=(), turn=None, round_no=0, options=GameOptions(),
        version=1, created_at=now, updated_at=now, turn_since=now, deadline_at=None,
    )  # fmt: skip
    assert timing.link(game, None) == "https://discord.com/channels/10/20"
    row = MessageRow(1, "table", 20, 30, now)
    assert timing.link(game, row) == "https://discord.com/channels/10/20/30"


def test_deadlines_are_shown_relative_and_as_a_date() -> None:
    when = datetime(2025, 3, 1, 12, tzinfo=UTC)
    assert messages.timestamp(when) == "<t:1740830400:R> (<t:1740830400:f>)"
