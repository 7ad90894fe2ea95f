"""Fixtures for service tests: a real database per test (an SQLite file, and a PostgreSQL
database when a server can run here: ``store`` is parametrized over both through the
project-wide ``db_target``), a fake clock, seeded deals."""

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
async def store(db_target: str | Path) -> AsyncIterator[Store]:
    s = await Store.open(db_target, synchronous="NORMAL")
    try:
        yield s
    finally:
        await s.close()


@pytest.fixture
async def service(store: Store) -> GameService:
    return GameService(store, cache_size=8, rng=random.Random(7))
