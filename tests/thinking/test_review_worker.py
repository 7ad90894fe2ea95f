"""A match's review (issue 49) in the thinking pool's review worker: a process of its own,
started at the first review, at a lower priority than the thinking workers, giving the very
review computed here (no clock budget: a pure function of the match)."""

from __future__ import annotations

import os
import random

from bot.engine import PRESETS, Match, view_for
from bot.engine.ai import Level, choose_move
from bot.engine.ai.review import ReviewJob, ReviewSettings, run
from bot.thinking.pool import Thinker


def _job() -> ReviewJob:
    rules = PRESETS["quick"]
    names = ("A", "B")
    match = Match(rules, names)
    rng = random.Random(3)
    step = 0
    while not match.is_over:
        if match.needs_deal:
            match.start_round(match.shuffle(rng))
            continue
        seat = match.current_seat
        assert seat is not None
        match.apply(choose_move(view_for(match, seat), Level.EASY, step), seat)
        step += 1
    tiny = ReviewSettings(worlds=4, screen=2, luck_deals=1, budget_s=None)
    return ReviewJob(rules, names, tuple(match.events), 0, match.engine_version, tiny, seed=3)


async def test_a_review_runs_in_a_niced_worker_of_its_own() -> None:
    thinker = Thinker(1, start_timeout=120)
    await thinker.start()
    try:
        assert thinker.reviewer is None  # started at the first review only
        job = _job()
        assert await thinker.review(job) == run(job)
        assert thinker.reviewer is not None
        [reviewer] = thinker.reviewer.pids
        [thinking] = thinker.pids
        assert reviewer != thinking
        nice = os.getpriority(os.PRIO_PROCESS, reviewer)
        assert nice > os.getpriority(os.PRIO_PROCESS, thinking)
        assert await thinker.review(job) == run(job)  # the same worker again
        assert thinker.reviewer.pids == [reviewer]
    finally:
        await thinker.close()
    assert await Thinker(0).review(job) == run(job)  # no workers: in a thread here
