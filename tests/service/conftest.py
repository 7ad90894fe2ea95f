"""Fixtures for service tests: a real SQLite file per test, a fake clock, seeded deals."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.service import GameService
from bot.store import Store

GUILD = 1000
CHANNEL = 2000
ALICE, BOB, CAROL, DAVE = 11, 22, 33, 44
NAMES = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol", DAVE: "Dave"}


class FakeClock:
    """Time that moves only when a test says so."""

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
async def store(db_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(db_path, synchronous="NORMAL")
    try:
        yield s
    finally:
        await s.close()


@pytest.fixture
async def service(store: Store) -> GameService:
    return GameService(store, cache_size=8, rng=random.Random(7))
