"""A thinking worker process: ``python -m bot.thinking.worker FD``, started by the pool.

It runs the workers' loop (:mod:`bot.workerloop`: the render worker's protocol, the lower
CPU priority, so the event loop answers players first while a search runs): warm (one Hard
decision, :func:`bot.thinking.jobs.warm_up`), then it chooses the moves the pool sends. Its
own module rather than the render worker's so it never imports Pillow.
"""

from __future__ import annotations

import sys

from bot import workerloop
from bot.thinking import jobs

if __name__ == "__main__":
    sys.exit(workerloop.main(sys.argv[1:], "bot.thinking.worker", jobs.warm_up))
