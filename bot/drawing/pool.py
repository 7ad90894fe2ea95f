"""The render pool: pictures drawn in worker processes while the event loop only awaits.

Drawing and encoding a table costs tens of milliseconds of pure Python and Pillow. Run in a
thread it still holds the GIL against the event loop (measured: the bot capped at ~11
moves/s and never used more than ~1.2 of 2 cores), so pictures go to a few worker
*processes* (``python -m bot.drawing.worker``). The bot sends plain data (the engine's
``SeatView`` and the renderer's options, both picklable) and gets PNG bytes back.

The processes, the backlog, a dead or overrunning worker replaced alone, the timeouts: all
that is :class:`bot.workers.WorkerPool`'s, shared with the thinking pool. What is a
picture's lives here: a table is urgent and superseded by a newer table of its channel, an
unchanged hand is not redrawn (the pool's cache, keyed by :func:`jobs.hand_key`), and the
thread of ``workers=0`` warms up as a worker does (fonts loaded, one table drawn). The bot's
pictures (:mod:`bot.ui.pictures`) call the pool's own ``run`` and ``cached``.
"""

from __future__ import annotations

from collections.abc import Hashable

from bot.drawing import jobs
from bot.engine import SeatView
from bot.workers import WorkerPool
from bot.workers.lanes import DEFAULT_TIMEOUT
from renderers import HandOptions, TableOptions

#: Hand pictures kept by their inputs (a hand PNG is ~20-60 KB).
DEFAULT_HAND_CACHE = 256


class RenderPool(WorkerPool):
    """Draws pictures off the event loop; see :class:`~bot.workers.WorkerPool` for its life
    (``start``, ``close``, ``async with``) and its failures (``WorkerFailed``: no picture,
    post text; ``Superseded``: skip the post). ``workers`` None:
    :func:`~bot.workers.default_workers`; 0: a thread."""

    def __init__(
        self,
        workers: int | None = None,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        hand_cache: int = DEFAULT_HAND_CACHE,
        start_timeout: float = 60.0,
    ) -> None:
        super().__init__(
            workers,
            worker="bot.drawing.worker",
            label="render",
            noun="picture",
            timeout=timeout,
            start_timeout=start_timeout,
            warm_up=jobs.warm_up,
            cache=hand_cache,
        )

    async def table(self, view: SeatView, options: TableOptions, *, key: Hashable = None) -> bytes:
        """The table picture. With ``key`` (e.g. the channel id), a newer table for the same
        key replaces this one if it has not started yet: this call then raises
        :class:`~bot.workers.Superseded`. Raises :class:`~bot.workers.WorkerFailed` when no
        picture can be made. Tables are urgent: drawn before the hands and other pictures
        waiting."""
        png: bytes = await self.run(jobs.draw_table, view, options, key=key, urgent=True)
        return png

    async def hand(self, view: SeatView, options: HandOptions) -> bytes:
        """The hand picture; an unchanged hand (same :func:`jobs.hand_key`) is not redrawn."""
        png: bytes = await self.cached(jobs.hand_key(view, options), jobs.draw_hand, view, options)
        return png
