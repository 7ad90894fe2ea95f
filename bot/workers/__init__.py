"""Worker processes that run jobs off the event loop: the machinery under the render pool
(:mod:`bot.drawing`) and the thinking pool (:mod:`bot.thinking`), which knows nothing of
pictures or moves. :class:`WorkerPool` and its failures are in :mod:`bot.workers.pool`; the
request, its lane and a process's start and stop in :mod:`bot.workers.lanes`; the loop each
worker runs is :mod:`bot.workerloop` (imported by the workers, which never load this pool).
"""

from bot.workers.pool import (
    PoolClosed,
    Superseded,
    WorkerCrashed,
    WorkerFailed,
    WorkerPool,
    WorkerTimeout,
    default_workers,
)

__all__ = [
    "PoolClosed",
    "Superseded",
    "WorkerCrashed",
    "WorkerFailed",
    "WorkerPool",
    "WorkerTimeout",
    "default_workers",
]
