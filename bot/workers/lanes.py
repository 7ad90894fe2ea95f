"""A worker process's lane, how many there are, and a process's start and stop: the pieces of
:class:`bot.workers.pool.WorkerPool` that hold no rule of its own (which request runs next,
what a death or an overrun does) and run only when a worker starts or stops, kept apart so
the pool reads as those rules (and a job's round trip runs in the pool's module alone).

A worker is a fresh interpreter, like multiprocessing's ``spawn`` but without re-importing the
bot's ``__main__`` in every worker: never a ``fork`` of the bot, whose process has threads and
an event loop. Workers run at a lower CPU priority so that under load the event loop keeps
answering interactions first. POSIX only (the socket is handed over as a file descriptor),
like the bot's SIGTERM handling.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any, Generic, TypeVar

import bot

#: Seconds one job may take in a worker before it is killed and the caller told.
DEFAULT_TIMEOUT = 10.0

#: A module-level function whose arguments and result are pickled across the socket.
Job = Callable[..., Any]
#: More workers than this cannot be fed by one event loop (a table is ~20-40 ms of work).
MAX_DEFAULT_WORKERS = 4


#: What a lane carries: the pool's request.
R = TypeVar("R")


@dataclass(eq=False)
class Lane(Generic[R]):
    """Where a request runs: a worker process, or (``workers=0``) this process's thread."""

    name: str
    process: subprocess.Popen[bytes] | None = None
    conn: Connection | None = None
    pid: int = 0
    request: R | None = None
    timer: asyncio.TimerHandle | None = None
    ready: asyncio.Future[int] | None = None
    retired: bool = False
    reader: threading.Thread | None = field(default=None, repr=False)


def default_workers(cpus: int | None = None, most: int = MAX_DEFAULT_WORKERS) -> int:
    """One worker per CPU this process may run on, at least 1 and at most ``most``."""
    if cpus is None:
        try:
            cpus = len(os.sched_getaffinity(0))
        except AttributeError:  # not on Linux
            cpus = os.cpu_count() or 1
    return max(1, min(cpus, most))


def spawn_worker(fd: int, module: str) -> subprocess.Popen[bytes]:
    """Start ``python -m MODULE FD`` (a render or thinking worker) with this checkout
    importable."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(bot.__file__)))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    return subprocess.Popen(
        [sys.executable, "-m", module, str(fd)],
        pass_fds=(fd,),
        stdin=subprocess.DEVNULL,
        env=env,
    )


def stop_processes(lanes: list[Lane[Any]]) -> None:
    """Wait briefly for told-to-stop workers to exit, then kill the rest."""
    for lane in lanes:
        if lane.process is None:
            continue
        try:
            lane.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            lane.process.kill()
            lane.process.wait(timeout=2)
