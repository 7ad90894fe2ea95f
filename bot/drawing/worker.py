"""A render worker process: ``python -m bot.drawing.worker FD``, started by the pool.

It speaks over the socket ``FD`` (a ``multiprocessing.connection.Connection``): it warms up
(fonts loaded, one table and one hand drawn), sends ``("ready", pid, None)``, then for each
``(request_id, function, args)`` it receives answers ``(request_id, True, png_bytes)`` or
``(request_id, False, "Error: why")`` and keeps serving; ``None`` or a closed socket ends it.
A fresh interpreter rather than a fork of the bot, whose process has threads and an event
loop; it lowers its own CPU priority so the bot's event loop wins the CPU under load.
"""

from __future__ import annotations

import contextlib
import os
import sys
from multiprocessing.connection import Connection

from bot.drawing import jobs

#: How much lower the workers' CPU priority is than the bot's (see ``os.nice``).
WORKER_NICE = 5


def serve(conn: Connection) -> None:
    """Warm up, say ready, then draw what arrives until the pool says stop or goes away."""
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
        except Exception as exc:  # the renderer's bug: report it, keep serving
            conn.send((request_id, False, f"{type(exc).__name__}: {exc}"))
        else:
            conn.send((request_id, True, result))


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not argv[0].isdigit():
        print("usage: python -m bot.drawing.worker FD (started by bot.drawing.RenderPool)",
              file=sys.stderr)  # fmt: skip
        return 2
    with contextlib.suppress(KeyboardInterrupt):
        serve(Connection(int(argv[0])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
