"""A job's request, the lane it runs on, and a worker process's start and stop: the pieces of
:class:`bot.workers.pool.WorkerPool` that hold no rule of its own (which request runs next,
what a death or an overrun does), kept apart so the pool reads as those rules.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

import bot

#: Seconds one job may take in a worker before it is killed and the caller told.
DEFAULT_TIMEOUT = 10.0

#: A module-level function whose arguments and result are pickled across the socket.
Job = Callable[..., Any]


@dataclass(eq=False)
class Request:
    """One job asked of the pool: queued, then on a lane until it answers or fails."""

    id: int
    func: Job
    args: tuple[Any, ...]
    future: asyncio.Future[Any]
    #: Its place in the backlog: ("key", key) for keyed requests, else unique.
    slot: Hashable = None
    attempts: int = 0
    #: Seconds it may take in a worker (the pool's ``timeout`` unless ``run`` was told).
    timeout: float = DEFAULT_TIMEOUT
    #: Run before every non-urgent request waiting (the tables).
    urgent: bool = False


@dataclass(eq=False)
class Lane:
    """Where a request runs: a worker process, or (``workers=0``) this process's thread."""

    name: str
    process: subprocess.Popen[bytes] | None = None
    conn: Connection | None = None
    pid: int = 0
    request: Request | None = None
    timer: asyncio.TimerHandle | None = None
    ready: asyncio.Future[int] | None = None
    retired: bool = False
    reader: threading.Thread | None = field(default=None, repr=False)


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


def stop_processes(lanes: list[Lane]) -> None:
    """Wait briefly for told-to-stop workers to exit, then kill the rest."""
    for lane in lanes:
        if lane.process is None:
            continue
        try:
            lane.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            lane.process.kill()
            lane.process.wait(timeout=2)
