"""The use cases the Discord layer calls: see :class:`GameService` and :class:`Outcome`."""

from bot.service import errors
from bot.service.errors import ServiceError
from bot.service.games import GameService
from bot.service.outcome import (
    Fact,
    GameOptions,
    GameSummary,
    MatchEnd,
    Outcome,
    Player,
    RoundEnd,
    Standing,
    Step,
)
from bot.service.settings import rules_with

__all__ = [
    "Fact",
    "GameOptions",
    "GameService",
    "GameSummary",
    "MatchEnd",
    "Outcome",
    "Player",
    "RoundEnd",
    "ServiceError",
    "Standing",
    "Step",
    "errors",
    "rules_with",
]
