"""What a job's caller catches when the pool gives no result: :class:`WorkerFailed` and its
kinds (the job's own exception, an overrun, a worker that died twice, a pool closed), and
:class:`Superseded`, which is no failure (a newer request took the job's place).

The render pool's callers post text instead of a picture; the thinking pool plays Hard's
move chosen in the bot's process. Kept apart from the pool's machinery: this is all a caller
needs to know of it.
"""

from __future__ import annotations


class WorkerFailed(Exception):
    """A job gave no result: its own exception, or one of the subclasses. The caller does
    without (a picture: the message as text; a decision: Hard's move chosen here)."""


class WorkerTimeout(WorkerFailed):
    """The job took longer than its timeout; its worker was replaced."""


class WorkerCrashed(WorkerFailed):
    """The worker running the job died (twice: a request is retried once)."""


class PoolClosed(WorkerFailed):
    """The pool is stopping or stopped, or never started."""


class Superseded(Exception):
    """A newer request with the same key replaced this one before it ran (a channel's newer
    table): skip the post, the newer one is on its way. Not a :class:`WorkerFailed`: nothing
    went wrong."""
