"""Fixtures for end-to-end tests: our real bot on the fake Discord, a fake clock, a seeded deal.

``make_bot()`` builds a fresh bot on the same database file each time it is called, which is
how a test restarts the bot mid-game. Its pictures are drawn in a thread of the test's own
process (``render_workers=0``) unless a test asks for worker processes
(``make_bot(render_workers=2)``, tests/e2e/test_render_pool.py): the same pictures, without
starting interpreters for every bot the suite makes. Likewise its computer players think on
the event loop unless a test asks for thinking workers (``make_bot(think_workers=1)``,
tests/e2e/test_thinking.py): the same moves.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.app import MexicanTrainBot, create_bot
from bot.config import Config
from tests.clock import FakeClock


@pytest.fixture
def make_bot(db_path: Path, clock: FakeClock) -> Callable[..., MexicanTrainBot]:
    def make(
        seed: int = 7, render_workers: int | None = 0, think_workers: int | None = 0
    ) -> MexicanTrainBot:
        config = Config(
            database=db_path,
            synchronous="NORMAL",
            render_workers=render_workers,
            think_workers=think_workers,
        )
        return create_bot(config, clock=clock, rng=random.Random(seed))

    return make
