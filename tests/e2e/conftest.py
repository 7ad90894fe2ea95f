"""Fixtures for end-to-end tests: our real bot on the fake Discord, a fake clock, a seeded deal.

``make_bot()`` builds a fresh bot on the same database file each time it is called, which is
how a test restarts the bot mid-game.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.app import MexicanTrainBot, create_bot
from bot.config import Config


class FakeClock:
    """Time that moves only when a test says so (deadlines are computed from it)."""

    def __init__(self) -> None:
        self.now = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def tick(self, seconds: float = 1) -> datetime:
        self.now += timedelta(seconds=seconds)
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "games.sqlite3"


@pytest.fixture
def make_bot(db_path: Path, clock: FakeClock) -> Callable[..., MexicanTrainBot]:
    def make(seed: int = 7) -> MexicanTrainBot:
        config = Config(database=db_path, synchronous="NORMAL")
        return create_bot(config, clock=clock, rng=random.Random(seed))

    return make
