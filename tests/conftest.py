"""Shared fixtures: ``fake_discord`` (a loopback fake Discord, see tests/fakediscord), the
fake ``clock`` every layer takes, and ``db_path``, a fresh database file's place."""

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.clock import FakeClock
from tests.fakediscord import FakeDiscord
from tests.fakediscord import fake_discord as _start_fake_discord


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A fake Discord on a free 127.0.0.1 port; discord.py is pointed at it for the test.

    Strict: the test fails if the bot called a route the fake does not know.
    """
    async with _start_fake_discord() as fake:
        yield fake


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "games.sqlite3"
