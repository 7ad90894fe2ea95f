"""Fixtures for service tests: a real SQLite file per test, a fake clock, seeded deals."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service import GameService
from bot.store import Store

GUILD = 1000
CHANNEL = 2000
ALICE, BOB, CAROL, DAVE = 11, 22, 33, 44
NAMES = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol", DAVE: "Dave"}


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
