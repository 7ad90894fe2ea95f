"""The thinking pool: computer moves chosen in worker processes while the event loop awaits.

A Hard decision costs milliseconds (its worst ~0.2 s) and an Expert's up to its 0.8 s CPU
budget: on the event loop either holds up every other game's moves, answers and posts. So
:class:`Thinker` sends them to worker processes of its own — the render pool's machinery
(:class:`~bot.workers.WorkerPool`, the render pool's too: one socket per worker, a dead or
overrunning worker killed and replaced alone, started warm and stopped with the bot) running
:mod:`bot.thinking.worker` — and the service awaits the move under the game's lock (nobody
else can move in that game meanwhile; everyone else can). The cheap levels (Easy, Normal:
:data:`INLINE`) are decided here: their decision costs less than the round trip (measured in
``docs/computer-players.md``).

It never stalls a game: a decision whose worker dies twice, overruns :data:`DEFAULT_TIMEOUT`
of wall-clock time or cannot be reached becomes Hard's move chosen here (else the first legal
move), with one WARNING naming the game; a computer player's bug in the worker is an ERROR,
as it is here. Every decision is reported (``on_decision``: level, where it was made, its CPU
seconds measured where it ran, its wall seconds here) for ``/metrics``.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import time
from collections.abc import Callable, Collection

from bot import workers
from bot.engine import Move, SeatView
from bot.engine.ai import Hint, Level
from bot.engine.ai.review import ReviewJob, SeatReview
from bot.thinking.jobs import REVIEW_NICE, Thought, advise, review, think
from bot.workers import WorkerFailed, WorkerPool

log = logging.getLogger(__name__)

#: Wall-clock seconds one decision may take in a worker before it is killed and replaced and
#: Hard's move played instead: a hang, not a slow search. The Expert's 0.8 s of CPU took over
#: 5 s of wall time in a worker at load 5-7 on 2 cores (the workers run at a lower priority
#: than the bot; benchmarks/bot_load.py --computer expert, 4 of 203 decisions), hence 10 s,
#: like the render pool's.
DEFAULT_TIMEOUT = 10.0
#: Wall-clock seconds a review may take in its worker (its CPU budget is a setting; at the
#: lowest priority on a busy host the wall clock runs several times slower).
REVIEW_TIMEOUT = 900.0
#: More workers than this would only queue searches behind each other on a small host: a
#: table seldom waits on more than one computer at a time.
MAX_DEFAULT_WORKERS = 2
#: Levels decided on the event loop: Easy's and Normal's decisions cost less than a round trip
#: to a worker (pickling the view there and the move back).
INLINE = frozenset({Level.EASY, Level.NORMAL})

#: ``(level, where, cpu_seconds, wall_seconds)``: ``where`` is ``worker``, ``inline`` or
#: ``fallback`` (the worker failed; Hard's move was chosen here).
DecisionHook = Callable[[str, str, float, float], None]
#: What a worker runs: a module-level function of (view, level, seed) returning a Thought.
Job = Callable[[SeatView, Level, int], Thought]


def default_workers(cpus: int | None = None) -> int:
    """One worker per CPU this process may run on, at least 1 and at most 2."""
    return workers.default_workers(cpus, MAX_DEFAULT_WORKERS)


class Thinker:
    """Chooses computer moves (the service's chooser). ``workers`` None:
    :func:`default_workers`; 0: every decision here, on the event loop (tiny hosts). ``await
    start()`` before use, ``await close()`` at shutdown. ``job`` and ``inline`` are for tests
    (a slow or failing job; every level sent to a worker)."""

    def __init__(
        self,
        workers: int | None = None,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        inline: Collection[Level] = INLINE,
        job: Job = think,
        on_decision: DecisionHook | None = None,
        start_timeout: float = 60.0,
    ) -> None:
        if workers is not None and workers < 0:
            raise ValueError(f"thinking workers must be 0 or more, not {workers}")
        self.workers = default_workers() if workers is None else workers
        self.inline = frozenset(inline)
        self.job = job
        self.on_decision = on_decision
        #: Decisions by where they were made (``worker``, ``inline``, ``fallback``).
        self.stats: collections.Counter[str] = collections.Counter()
        self.pool: WorkerPool | None = None
        #: One worker of its own for reviews (issue 49), started at the first one: a review's
        #: seconds of CPU never hold up a computer's move.
        self.reviewer: WorkerPool | None = None
        self.start_timeout = start_timeout
        self._review_start = asyncio.Lock()
        if self.workers:
            self.pool = WorkerPool(
                self.workers,
                worker="bot.thinking.worker",
                label="thinking",
                noun="decision",
                timeout=timeout,
                start_timeout=start_timeout,
            )

    @property
    def pids(self) -> list[int]:
        """The live workers' process ids (empty without workers)."""
        return [] if self.pool is None else self.pool.pids

    @property
    def thinking(self) -> int:
        """Decisions queued for or running in a worker now."""
        return 0 if self.pool is None else self.pool.busy

    async def start(self) -> None:
        """Start the workers and wait until each has made one decision."""
        if self.pool is not None:
            await self.pool.start()

    async def close(self, grace: float = 5.0) -> None:
        """Let running decisions finish for up to ``grace`` seconds, then stop the workers;
        a decision asked for after this is made here."""
        if self.pool is not None:
            await self.pool.close(grace)
        if self.reviewer is not None:
            await self.reviewer.close(grace)

    async def choose(self, view: SeatView, level: Level, seed: int, *, game_id: int) -> Move:
        """The move of a computer player of ``level`` at ``view`` (its turn), for game
        ``game_id`` (named in the log if its worker fails)."""
        started = time.perf_counter()
        where = "inline"
        if self.pool is None or level in self.inline or not self.pool.running:
            thought = self.job(view, level, seed)
        else:
            try:
                thought = await self.pool.run(self.job, view, level, seed)
                where = "worker"
            except WorkerFailed as exc:
                thought, where = self._instead(view, level, seed, game_id, exc), "fallback"
        self.stats[where] += 1
        if self.on_decision is not None:
            self.on_decision(level.value, where, thought.cpu, time.perf_counter() - started)
        return thought.move

    async def advise(self, view: SeatView, *, game_id: int) -> Hint:
        """``/mt hint``'s advice for ``view`` (a Hard search: milliseconds, its worst ~0.2 s),
        from a worker so the event loop only awaits; here if there are no workers, or if the
        worker fails (one WARNING naming the game: the player still gets their hint)."""
        if self.pool is None or not self.pool.running:
            return advise(view)
        try:
            advice: Hint = await self.pool.run(advise, view)
            return advice
        except WorkerFailed as exc:
            log.warning("game %s: a hint failed in its worker (%s); advising here", game_id, exc)
            return advise(view)

    async def review(self, job: ReviewJob) -> SeatReview:
        """A finished match's review for one seat (:mod:`bot.engine.ai.review`): in the
        review worker at a lower priority still (:data:`REVIEW_NICE`), or without workers
        in a thread of this process. A worker that fails raises
        :class:`~bot.workers.WorkerFailed` (the review is asked for again later)."""
        if not self.workers:
            return await asyncio.to_thread(review, job)
        async with self._review_start:  # two first reviews at once start one worker
            if self.reviewer is None:
                self.reviewer = WorkerPool(
                    1,
                    worker="bot.thinking.worker",
                    label="review",
                    noun="review",
                    timeout=REVIEW_TIMEOUT,
                    start_timeout=self.start_timeout,
                )
                await self.reviewer.start()
        budget = job.settings.budget_s or REVIEW_TIMEOUT
        result: SeatReview = await self.reviewer.run(
            review, job, REVIEW_NICE, timeout=min(REVIEW_TIMEOUT, 10 * budget + 30)
        )
        return result

    def _instead(
        self, view: SeatView, level: Level, seed: int, game_id: int, exc: WorkerFailed
    ) -> Thought:
        """Hard's move chosen here after the worker failed ``level``'s decision; the first
        legal move if even that fails (one log line either way, naming the game)."""
        # A plain WorkerFailed is the job's own exception: a computer player's bug.
        report = log.error if type(exc) is WorkerFailed else log.warning
        try:
            thought = think(view, Level.HARD, seed)
        except Exception as hard_exc:
            report(
                "game %s: the %s computer player's decision failed in its worker (%s), and "
                "Hard's here too (%s); playing %s",
                game_id, level.value, exc, hard_exc, view.legal[0],
            )  # fmt: skip
            return Thought(view.legal[0], 0.0)
        report(
            "game %s: the %s computer player's decision failed in its worker (%s); playing "
            "Hard's move %s instead",
            game_id, level.value, exc, thought.move,
        )  # fmt: skip
        return thought
