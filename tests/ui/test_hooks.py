"""The webhook's name (bot/ui/hooks.py): Discord refuses one containing "clyde" or
"discord" (any case), and one longer than 80 characters or empty."""

from __future__ import annotations

from bot.ui.hooks import webhook_name


def test_the_webhook_is_named_for_the_bot_as_discord_allows() -> None:
    assert webhook_name("TrainBot") == "TrainBot"
    assert webhook_name("Discord Trains") == "Trains"
    assert webhook_name("CLYDE") == "Mexican Train"
    assert webhook_name("") == "Mexican Train"
    assert len(webhook_name("x" * 100)) == 80
