"""A thinking worker process: ``python -m bot.thinking.worker FD``, started by the pool.

The render worker's protocol (:mod:`bot.drawing.worker`) over the socket ``FD``: it warms up
(:func:`bot.thinking.jobs.warm_up`), sends ``("ready", pid, None)``, then answers each
``(request_id, function, args)`` with ``(request_id, True, result)`` or ``(request_id, False,
"Error: why")``; ``None`` or a closed socket ends it. Its own module rather than the render
worker's so it never imports Pillow, and at a lower CPU priority than the bot, so the event
loop answers players first while a search runs.
"""

from __future__ import annotations

import contextlib
import os
import sys
from multiprocessing.connection import Connection

from bot.thinking import jobs

#: How much lower the workers' CPU priority is than the bot's (see ``os.nice``).
WORKER_NICE = 5


def serve(conn: Connection) -> None:
    """Warm up, say ready, then think about what arrives until told to stop."""
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICE)
    conn.send(("ready", jobs.warm_up(), None))
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
        except Exception as exc:  # a computer player's bug: report it, keep serving
            conn.send((request_id, False, f"{type(exc).__name__}: {exc}"))
        else:
            conn.send((request_id, True, result))


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not argv[0].isdigit():
        print("usage: python -m bot.thinking.worker FD (started by bot.thinking.Thinker)",
              file=sys.stderr)  # fmt: skip
        return 2
    with contextlib.suppress(KeyboardInterrupt):
        serve(Connection(int(argv[0])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
