"""Shared fixtures: ``fake_discord``, a loopback fake Discord (see tests/fakediscord)."""

from collections.abc import AsyncIterator

import pytest

from tests.fakediscord import FakeDiscord
from tests.fakediscord import fake_discord as _start_fake_discord


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A fake Discord on a free 127.0.0.1 port; discord.py is pointed at it for the test.

    Strict: the test fails if the bot called a route the fake does not know.
    """
    async with _start_fake_discord() as fake:
        yield fake
