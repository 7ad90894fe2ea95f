"""The use cases the Discord layer calls: see :class:`GameService` and :class:`Outcome`."""

from bot.service import errors
from bot.service.errors import ServiceError
from bot.service.games import GameService
from bot.service.outcome import (
    Fact,
    FactCode,
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

# Values the store defines and the Discord layer reads, passed on so that layer imports the
# service only (tests/test_layers.py).
from bot.store import GameStatus, MessageRow
from bot.store.schedule import GameScheduleRow, WaitingRow
from bot.store.stats import FinishedRow

__all__ = [
    "Fact",
    "FactCode",
    "FinishedRow",
    "GameOptions",
    "GameScheduleRow",
    "GameService",
    "GameStatus",
    "GameSummary",
    "MatchEnd",
    "MessageRow",
    "Outcome",
    "Player",
    "RoundEnd",
    "ServiceError",
    "Standing",
    "Step",
    "WaitingRow",
    "errors",
    "rules_with",
]
