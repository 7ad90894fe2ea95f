"""Worker processes that run jobs off the event loop: the machinery under the render pool
(:mod:`bot.drawing`) and the thinking pool (:mod:`bot.thinking`), which knows nothing of
pictures or moves. :class:`WorkerPool` is in :mod:`bot.workers.pool`, the failures its
callers catch in :mod:`bot.workers.failures`, a worker's lane and a process's start and stop
in :mod:`bot.workers.lanes`; the loop each worker runs is :mod:`bot.workerloop` (imported by
the workers, which never load this pool).
"""

from bot.workers.failures import (
    PoolClosed,
    Superseded,
    WorkerCrashed,
    WorkerFailed,
    WorkerTimeout,
)
from bot.workers.lanes import default_workers
from bot.workers.pool import WorkerPool

__all__ = [
    "PoolClosed",
    "Superseded",
    "WorkerCrashed",
    "WorkerFailed",
    "WorkerPool",
    "WorkerTimeout",
    "default_workers",
]
