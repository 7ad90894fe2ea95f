"""The loop every worker process runs: the render pool's and the thinking pool's.

A worker is a fresh interpreter (``python -m bot.drawing.worker FD``, ``python -m
bot.thinking.worker FD``) started by a :class:`bot.workers.WorkerPool`. It speaks over the
socket ``FD`` (a ``multiprocessing.connection.Connection``): it warms up (its module's
``warm_up``: fonts loaded and a table drawn, or one decision made), sends ``("ready", pid,
None)``, then answers each ``(request_id, function, args)`` with ``(request_id, True,
result)`` or ``(request_id, False, "Error: why")`` and keeps serving; ``None`` or a closed
socket ends it. It lowers its own CPU priority so the bot's event loop wins the CPU under
load. Here, at the bottom of the tree and importing nothing of the bot, so a thinking worker
never loads the renderers' Pillow.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable
from multiprocessing.connection import Connection

#: How much lower the workers' CPU priority is than the bot's (see ``os.nice``).
WORKER_NICE = 5


def serve(conn: Connection, warm_up: Callable[[], int]) -> None:
    """Warm up, say ready, then run what arrives until the pool says stop or goes away."""
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICE)
    conn.send(("ready", warm_up(), None))
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        request_id, func, args = message
        try:
            result = func(*args)
        except Exception as exc:  # the job's bug: report it, keep serving
            conn.send((request_id, False, f"{type(exc).__name__}: {exc}"))
        else:
            conn.send((request_id, True, result))


def main(argv: list[str], module: str, warm_up: Callable[[], int]) -> int:
    """``python -m MODULE FD``: serve on the socket FD; 2 with a usage line otherwise."""
    if len(argv) != 1 or not argv[0].isdigit():
        print(f"usage: python -m {module} FD (started by its pool)", file=sys.stderr)
        return 2
    with contextlib.suppress(KeyboardInterrupt):
        serve(Connection(int(argv[0])), warm_up)
    return 0
