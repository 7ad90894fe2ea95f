"""A render worker process: ``python -m bot.drawing.worker FD``, started by the pool.

It runs the workers' loop (:mod:`bot.workerloop`: the protocol, the lower CPU priority):
warm (fonts loaded, one table and one hand drawn), then it draws what the pool sends and
answers PNG bytes. A fresh interpreter rather than a fork of the bot, whose process has
threads and an event loop.
"""

from __future__ import annotations

import sys

from bot import workerloop
from bot.drawing import jobs

if __name__ == "__main__":
    sys.exit(workerloop.main(sys.argv[1:], "bot.drawing.worker", jobs.warm_up))
