"""The thinking pool with real worker processes: the same moves as here, the Expert within its
budget, and a decision whose worker hangs or dies becomes Hard's move chosen here.

One pool serves the module's plain tests (starting a worker costs ~0.3 s); tests that break
workers on purpose start their own.
"""

from __future__ import annotations

import logging
import os
import random
import signal
import time
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from bot.engine import PRESETS, Match, Move, Round, SeatView
from bot.engine.ai import Level, choose_move, expert, hint
from bot.engine.view import round_view
from bot.thinking.jobs import Thought, think
from bot.thinking.pool import INLINE, Thinker

pytestmark = pytest.mark.asyncio(loop_scope="module")


def positions(deals: int, per_deal: int) -> list[SeatView]:
    """Views of the player to move over the first turns of a few deals, 2 to 4 players."""
    rules = PRESETS["standard"]
    out = []
    for seed in range(deals):
        names = ["A", "B", "C", "D"][: 2 + seed % 3]
        rnd = Round.deal(rules, names, 0, Match(rules, names).shuffle(random.Random(seed)))
        for step in range(per_deal):
            if rnd.result is not None:
                break
            view = round_view(rnd, rnd.current)
            out.append(view)
            rnd.apply(choose_move(view, Level.HARD, step))
    return out


# Jobs the tests send to workers (module-level, so they pickle by name).


def hangs(view: SeatView, level: Level, seed: int) -> Thought:
    time.sleep(120)
    return think(view, level, seed)


def dies(view: SeatView, level: Level, seed: int) -> Thought:
    os.kill(os.getpid(), signal.SIGKILL)
    return think(view, level, seed)


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def thinker() -> AsyncIterator[Thinker]:
    pool = Thinker(1, inline=(), timeout=60)  # every level to the worker
    await pool.start()
    try:
        yield pool
    finally:
        await pool.close()


async def test_a_worker_chooses_the_move_choose_move_gives_here(thinker: Thinker) -> None:
    views = positions(deals=6, per_deal=12)
    before = thinker.stats["worker"]
    for level in (Level.EASY, Level.NORMAL, Level.HARD):
        for i, view in enumerate(views):
            seed = 1_000 * i + 17
            assert await thinker.choose(view, level, seed, game_id=1) == choose_move(
                view, level, seed
            )
    assert thinker.stats["worker"] - before == 3 * len(views)
    assert len(thinker.pids) == 1 and thinker.pids[0] != os.getpid()


async def test_a_hint_is_advised_in_a_worker_as_it_would_be_here(thinker: Thinker) -> None:
    """``/mt hint``'s search runs where Hard's decisions run: the same advice, from the worker
    (counted by its pool), so a player asking for a hint never holds up the event loop."""
    assert thinker.pool is not None
    views = positions(deals=4, per_deal=8)
    before = thinker.pool.stats["drawn"]
    for view in views:
        assert await thinker.advise(view, game_id=1) == hint(view)
    assert thinker.pool.stats["drawn"] - before == len(views)


async def test_without_workers_a_hint_is_advised_here() -> None:
    view = positions(deals=1, per_deal=1)[0]
    assert await Thinker(0).advise(view, game_id=1) == hint(view)


async def test_the_expert_thinks_in_a_worker_within_its_budget(thinker: Thinker) -> None:
    """Contested decisions (several tiles to play, mid-deal): each is legal, and its CPU time,
    measured in the worker, stays within the budget plus the one world it checks it after."""
    seen: list[tuple[str, str, float]] = []
    thinker.on_decision = lambda level, where, cpu, wall: seen.append((level, where, cpu))
    try:
        views = [v for v in positions(deals=3, per_deal=10)[4:] if len(v.legal) >= 3][:3]
        assert views
        for i, view in enumerate(views):
            assert await thinker.choose(view, Level.EXPERT, i, game_id=1) in view.legal
    finally:
        thinker.on_decision = None
    assert [(level, where) for level, where, _ in seen] == [("expert", "worker")] * len(views)
    assert all(0 < cpu < expert.BUDGET_S + 0.5 for _, _, cpu in seen), seen


async def test_cheap_levels_are_decided_here_without_a_round_trip() -> None:
    pool = Thinker(1)  # not started: nothing could reach a worker anyway
    view = positions(deals=1, per_deal=1)[0]
    for level in INLINE:
        assert await pool.choose(view, level, 3, game_id=1) == choose_move(view, level, 3)
    assert pool.stats == {"inline": len(INLINE)}


@pytest.mark.asyncio(loop_scope="function")
async def test_a_hung_worker_is_replaced_and_hards_move_played_here(
    caplog: pytest.LogCaptureFixture,
) -> None:
    view = next(v for v in positions(deals=3, per_deal=10) if len(v.legal) >= 3)
    decisions: list[tuple[str, str]] = []
    pool = Thinker(
        1,
        inline=(),
        timeout=1.0,
        job=hangs,
        on_decision=lambda level, where, cpu, wall: decisions.append((level, where)),
    )
    await pool.start()
    try:
        first = pool.pids
        with caplog.at_level(logging.WARNING, logger="bot.thinking"):
            move: Move = await pool.choose(view, Level.EXPERT, 5, game_id=7)
        assert move == choose_move(view, Level.HARD, 5)
        assert decisions == [("expert", "fallback")]
        assert pool.pool is not None and pool.pool.stats["timed_out"] == 1
        mine = [r for r in caplog.records if r.name == "bot.thinking.pool"]
        assert len(mine) == 1 and mine[0].levelno == logging.WARNING
        assert "game 7" in mine[0].getMessage() and "Hard's move" in mine[0].getMessage()
        assert pool.pids != first  # the hung worker was killed, not left to run
    finally:
        await pool.close(grace=0)


@pytest.mark.asyncio(loop_scope="function")
async def test_a_worker_that_dies_is_replaced_and_hards_move_played_here(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The pool retries a crashed decision once on a new worker; dying twice, it is Hard's
    move chosen here, and the next decision finds a worker again."""
    view = next(v for v in positions(deals=3, per_deal=10) if len(v.legal) >= 3)
    pool = Thinker(1, inline=(), timeout=60, job=dies)
    await pool.start()
    try:
        with caplog.at_level(logging.WARNING, logger="bot.thinking"):
            move = await pool.choose(view, Level.HARD, 9, game_id=8)
        assert move == choose_move(view, Level.HARD, 9)
        assert pool.stats == {"fallback": 1}
        assert pool.pool is not None and pool.pool.stats["crashed"] == 2
        mine = [r for r in caplog.records if r.name == "bot.thinking.pool"]
        assert len(mine) == 1 and "game 8" in mine[0].getMessage()
        pool.job = think
        assert await pool.choose(view, Level.HARD, 9, game_id=8) == move
        assert pool.stats == {"fallback": 1, "worker": 1}
    finally:
        await pool.close(grace=0)
