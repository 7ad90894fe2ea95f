"""What a thinking worker runs: one computer decision, timed on the thread's own CPU clock.

Module-level functions of plain values, so the pool can pickle them to a worker by name; the
bot runs the very same function when it decides here (the cheap levels, a fallback, no
workers), so where a decision was made never changes which move it is.
"""

from __future__ import annotations

import dataclasses
import os
import random
import time

from bot.engine import PRESETS, Match, Move, SeatView, view_for
from bot.engine.ai import Hint, Level, choose_move, hint
from bot.engine.ai.review import ReviewJob, SeatReview, run

#: How much lower than the other thinking a review runs (``os.nice`` of its worker): a review
#: is seconds of CPU nobody is waiting on at a table.
REVIEW_NICE = 10
_niced = False


@dataclasses.dataclass(frozen=True, slots=True)
class Thought:
    """A computer player's move and the CPU seconds it took (its thread's own clock: in the
    bot's process the event loop's other work is not counted)."""

    move: Move
    cpu: float


def think(view: SeatView, level: Level, seed: int) -> Thought:
    """``choose_move(view, level, seed)``, the Expert's search bounded by its CPU budget on
    this thread's clock, with the CPU time it took."""
    started = time.thread_time()
    move = choose_move(view, level, seed, clock=time.thread_time)
    return Thought(move, time.thread_time() - started)


def advise(view: SeatView) -> Hint:
    """``/mt hint``'s advice for ``view``: Hard's move, why, and the own train it builds (the
    same search as a Hard decision, so it runs where Hard's decisions run)."""
    return hint(view)


def review(job: ReviewJob, nice: int = 0) -> SeatReview:
    """A finished match's review for one seat (issue 49), within its CPU budget on this
    thread's clock; ``nice``: first lower this process's priority by that much, once (only
    in the review worker: on the bot's own process it would slow everything)."""
    global _niced
    if nice and not _niced:
        os.nice(nice)
        _niced = True
    return run(job, clock=time.thread_time)


def warm_up() -> int:
    """One Hard decision on a fixed deal (the engine's imports and first calls paid before a
    player waits on them); the process id, which the worker reports when ready."""
    rules = PRESETS["standard"]
    match = Match(rules, ["A", "B"])
    match.start_round(match.shuffle(random.Random(0)))
    think(view_for(match, match.current_seat or 0), Level.HARD, 0)
    return os.getpid()
