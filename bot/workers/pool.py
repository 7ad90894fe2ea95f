"""Worker processes that run jobs while the event loop only awaits: the machinery under the
render pool (:mod:`bot.drawing`) and the computer players' thinking pool (:mod:`bot.thinking`).

A job here is a module-level function and its picklable arguments, run in a worker process
(``python -m WORKER FD``, the loop in :mod:`bot.workerloop`) and its picklable result sent
back; nothing in this module knows what the job makes, so each pool says what its workers
run (``worker=``), what the log calls them (``label=``) and what a failure calls one job
(``noun=``) and how many results it keeps by key (``cache=``: the render pool's hands). The
render pool adds pictures (a table urgent and superseded by its channel's newer one); the
thinking pool sends decisions.

Our own small workers rather than ``concurrent.futures.ProcessPoolExecutor``: the executor
breaks as a whole when one worker dies (every pending job fails), cannot stop one hung job,
and queues work inside itself where a newer request can no longer replace an older one. Here
each worker has its own socket, so we know which request was on a worker that died or
overran, kill and replace only that worker, and keep the backlog on our side where a newer
request with the same key (a channel's newer table) supersedes its not-yet-started older one.
How a worker process starts and stops is :mod:`bot.workers.lanes`'.

With ``workers=0`` jobs run in a thread of this process (tiny hosts, tests): the same
backlog, supersede and timeout rules apply, but a timed-out thread cannot be stopped, only
abandoned.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import itertools
import logging
import socket
import subprocess
import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from bot.workers.failures import (
    PoolClosed,
    Superseded,
    WorkerCrashed,
    WorkerFailed,
    WorkerTimeout,
)
from bot.workers.lanes import (
    DEFAULT_TIMEOUT,
    Job,
    Lane,
    default_workers,
    spawn_worker,
    stop_processes,
)

log = logging.getLogger(__name__)

_Pool = TypeVar("_Pool", bound="WorkerPool")


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


#: A lane carrying this pool's requests.
_Lane = Lane[Request]


class WorkerPool:
    """Runs jobs off the event loop. ``await start()`` before use, ``await close()`` at
    shutdown (or ``async with``). ``workers`` None: :func:`default_workers`; 0: a thread."""

    def __init__(
        self,
        workers: int | None = None,
        *,
        worker: str,
        label: str,
        noun: str,
        timeout: float = DEFAULT_TIMEOUT,
        start_timeout: float = 60.0,
        warm_up: Callable[[], object] | None = None,
        cache: int = 0,
    ) -> None:
        """``worker``: the module each worker process runs (``python -m``); ``label``: what
        the log calls the workers (``render worker 123 died``); ``noun``: what a failure
        calls one job (``the picture took more than 10s``); ``warm_up``: what the thread of
        ``workers=0`` runs once before the first job (a worker warms itself up); ``cache``: how
        many results :meth:`cached` keeps."""
        if workers is not None and workers < 0:
            raise ValueError(f"{label} workers must be 0 or more, not {workers}")
        if timeout <= 0:
            raise ValueError(f"the {label} timeout must be positive, not {timeout}")
        self.workers = default_workers() if workers is None else workers
        self.timeout = timeout
        self.start_timeout = start_timeout
        self.worker = worker
        self.label = label
        self.noun = noun
        self.warm_up = warm_up
        self.cache_size = cache
        self._kept: collections.OrderedDict[Hashable, Any] = collections.OrderedDict()
        self._making: dict[Hashable, asyncio.Future[Any]] = {}
        #: Counters for metrics and benchmarks.
        self.stats: collections.Counter[str] = collections.Counter()
        self._lanes: list[_Lane] = []
        #: Waiting requests by slot, oldest first: tables (urgent), then everything else.
        self._urgent: collections.OrderedDict[Hashable, Request] = collections.OrderedDict()
        self._backlog: collections.OrderedDict[Hashable, Request] = collections.OrderedDict()
        self._ids = itertools.count(1)
        self._names = itertools.count(1)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._state = "new"  # new -> running -> closing -> closed
        self._idle = asyncio.Event()
        self._replacing: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ life

    @property
    def running(self) -> bool:
        return self._state == "running"

    @property
    def busy(self) -> int:
        """Jobs queued or running now (the SIGTERM drain waits for none)."""
        return self.queued + self.working

    @property
    def queued(self) -> int:
        """Jobs waiting for a lane (``/metrics``' render queue)."""
        return len(self._urgent) + len(self._backlog)

    @property
    def working(self) -> int:
        """Jobs a lane is running now (``/metrics``' pictures being drawn)."""
        return sum(1 for lane in self._lanes if lane.request is not None)

    @property
    def pids(self) -> list[int]:
        """The live workers' process ids (empty in thread mode)."""
        return [lane.pid for lane in self._lanes if lane.pid and not lane.retired]

    async def start(self) -> None:
        """Start the workers and wait until each has warmed up (a render worker has loaded
        its fonts and drawn once)."""
        if self._state != "new":
            raise RuntimeError(f"the {self.label} pool is {self._state}; start it once")
        self._loop = asyncio.get_running_loop()
        self._state = "running"
        if self.workers == 0:
            self._lanes = [_Lane("thread")]
            if self.warm_up is not None:
                await asyncio.to_thread(self.warm_up)
            self._update_idle()
            return
        try:
            await asyncio.gather(*(self._add_worker() for _ in range(self.workers)))
        except BaseException:
            await self.close(grace=0)
            raise
        self._update_idle()
        log.info("%s pool: %d worker(s) ready, pids %s", self.label, self.workers, self.pids)

    async def close(self, grace: float = 5.0) -> None:
        """Stop taking jobs; let those queued or running finish for up to ``grace`` seconds,
        fail the rest with :class:`PoolClosed`, then stop the workers."""
        if self._state in ("closed", "closing"):
            return
        started = self._state != "new"
        self._state = "closing"
        if started and grace > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._idle.wait(), grace)
        for task in list(self._replacing):
            task.cancel()
        closed = PoolClosed(f"the {self.label} pool is closed")
        for queue in (self._urgent, self._backlog):
            for request in queue.values():
                _fail(request.future, closed)
            queue.clear()
        lanes = list(self._lanes)
        for lane in lanes:
            overran = lane.request is not None  # still running after the grace: kill it
            if lane.request is not None:
                _fail(lane.request.future, closed)
            self._clear(lane)
            self._retire(lane, kill=overran)
        await asyncio.to_thread(stop_processes, lanes)
        self._state = "closed"

    async def __aenter__(self: _Pool) -> _Pool:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # ------------------------------------------------------------------ jobs

    async def cached(self, cache_key: Hashable, func: Job, *args: Any) -> Any:
        """``func(*args)`` run as :meth:`run` runs it, unless a result for ``cache_key`` is
        kept or on its way (a hand picture often stays the same over turns). The pool keeps
        ``cache`` results; the least recently used go first."""
        kept = self._kept.get(cache_key)
        if kept is not None:
            self._kept.move_to_end(cache_key)
            self.stats["hand_cache_hits"] += 1
            return kept
        making = self._making.get(cache_key)
        if making is None:
            making = asyncio.ensure_future(self.run(func, *args))
            self._making[cache_key] = making
            making.add_done_callback(lambda done: self._keep(cache_key, done))
        else:
            self.stats["hand_cache_hits"] += 1
        return await asyncio.shield(making)

    async def run(
        self,
        func: Job,
        *args: Any,
        key: Hashable = None,
        timeout: float | None = None,
        urgent: bool = False,
    ) -> Any:
        """Run ``func(*args)`` (a module-level function; its arguments are pickled to a
        worker, its result back) and return its result. With ``key`` (e.g. the channel id),
        a newer request for the same key replaces this one if it has not started yet: this
        call then raises :class:`Superseded`. Raises :class:`WorkerFailed` when the job gives
        no result.
        ``timeout``: this job's own limit (a replay GIF takes seconds), else the pool's.
        ``urgent``: start it before every non-urgent request waiting (oldest first within
        each), for the answer people are waiting on."""
        if self._state != "running":
            raise PoolClosed(f"the {self.label} pool is {self._state}")
        if not self._lanes and not self._replacing:
            raise WorkerFailed(f"no {self.label} worker is running")
        loop = asyncio.get_running_loop()
        number = next(self._ids)
        slot: Hashable = ("request", number) if key is None else ("key", key)
        limit = self.timeout if timeout is None else timeout
        if limit <= 0:
            raise ValueError(f"a {self.label} timeout must be positive, not {limit}")
        request = Request(
            number, func, args, loop.create_future(), slot, timeout=limit, urgent=urgent
        )
        queue = self._urgent if urgent else self._backlog
        older = queue.get(slot)
        if older is not None:
            # The newer request takes the older one's place in the queue: that channel
            # has waited since then already.
            self.stats["superseded"] += 1
            _fail(older.future, Superseded(f"a newer {self.noun} for {key!r} replaced this one"))
        queue[slot] = request
        self._pump()
        return await request.future

    # ------------------------------------------------------------------ machinery

    def _keep(self, cache_key: Hashable, done: asyncio.Future[Any]) -> None:
        self._making.pop(cache_key, None)
        if done.cancelled() or done.exception() is not None or self.cache_size <= 0:
            return
        self._kept[cache_key] = done.result()
        while len(self._kept) > self.cache_size:
            self._kept.popitem(last=False)

    def _pump(self) -> None:
        """Start queued requests on idle lanes, oldest first."""
        for lane in list(self._lanes):
            if lane.retired or lane.request is not None or (lane.ready and not lane.ready.done()):
                continue
            waiting = self._urgent or self._backlog
            if waiting and lane.process is not None and lane.process.poll() is not None:
                # Dead, and its reader has not told us yet (several workers killed at once):
                # a request sent there would count as a crash against the request itself.
                self._lost(lane)
                continue
            while self._urgent or self._backlog:
                _, request = (self._urgent or self._backlog).popitem(last=False)
                if not request.future.done():  # a caller that gave up is skipped
                    self._begin(lane, request)
                    break
        self._update_idle()

    def _begin(self, lane: _Lane, request: Request) -> None:
        assert self._loop is not None
        lane.request = request
        request.attempts += 1
        lane.timer = self._loop.call_later(request.timeout, self._overran, lane, request)
        if lane.conn is None:
            task = asyncio.ensure_future(asyncio.to_thread(request.func, *request.args))
            task.add_done_callback(lambda done: self._thread_done(lane, request, done))
            return
        try:
            lane.conn.send((request.id, request.func, request.args))
        except (OSError, ValueError) as exc:  # the worker died between requests
            log.warning("%s worker %s unreachable (%s); replacing it", self.label, lane.pid, exc)
            request.attempts -= 1  # it never reached a worker: not a crash it caused
            self._lost(lane)

    def _thread_done(self, lane: _Lane, request: Request, done: asyncio.Future[Any]) -> None:
        if done.cancelled():
            return
        exc = done.exception()
        if exc is not None:
            self._finished(lane, (request.id, False, f"{type(exc).__name__}: {exc}"))
        else:
            self._finished(lane, (request.id, True, done.result()))

    def _finished(self, lane: _Lane, message: tuple[Any, bool, Any]) -> None:
        request_id, ok, payload = message
        if request_id == "ready":
            lane.pid = int(ok)
            if lane.ready is not None and not lane.ready.done():
                lane.ready.set_result(lane.pid)
            self._pump()
            return
        request = lane.request
        if request is None or request.id != request_id:
            return  # an answer for a request that timed out meanwhile
        self._clear(lane)
        if ok:
            self.stats["drawn"] += 1
            _resolve(request.future, payload)
        else:
            self.stats["failed"] += 1
            _fail(request.future, WorkerFailed(f"the {self.label} job raised {payload}"))
        self._pump()

    def _overran(self, lane: _Lane, request: Request) -> None:
        if lane.request is not request:
            return
        self.stats["timed_out"] += 1
        self._clear(lane)
        _fail(request.future, WorkerTimeout(f"the {self.noun} took more than {request.timeout:g}s"))
        if lane.conn is None:
            self._pump()  # the thread cannot be stopped; its result will be dropped
            return
        log.warning("%s worker %s overran %gs; replacing it", self.label, lane.pid, request.timeout)
        self._retire(lane, kill=True)
        self._replace()
        self._update_idle()

    def _lost(self, lane: _Lane) -> None:
        """The worker's pipe closed: it died (or we retired it)."""
        if lane.retired:
            return
        if not lane.pid:  # died before it was ready: _add_worker reports it
            self._retire(lane, kill=True)
            return
        request = lane.request
        self._clear(lane)
        self._retire(lane, kill=True)
        if self._state != "running":
            if request is not None:
                _fail(request.future, PoolClosed(f"the {self.label} pool is closed"))
            return
        self.stats["crashed"] += 1
        log.warning("%s worker %s died; replacing it", self.label, lane.pid)
        if request is not None and not request.future.done():
            queue = self._urgent if request.urgent else self._backlog
            if request.slot in queue:
                _fail(request.future, Superseded(f"a newer {self.noun} replaced this one"))
            elif request.attempts < 2:
                # Retry once, first in line.
                queue[request.slot] = request
                queue.move_to_end(request.slot, last=False)
            else:
                died = f"the {self.label} worker died twice on this {self.noun}"
                _fail(request.future, WorkerCrashed(died))
        self._replace()
        self._update_idle()

    def _clear(self, lane: _Lane) -> None:
        lane.request = None
        if lane.timer is not None:
            lane.timer.cancel()
            lane.timer = None

    def _retire(self, lane: _Lane, *, kill: bool) -> None:
        lane.retired = True
        if lane in self._lanes:
            self._lanes.remove(lane)
        if lane.conn is not None:
            with contextlib.suppress(OSError, ValueError):
                lane.conn.send(None)
        if kill and lane.process is not None and lane.process.poll() is None:
            lane.process.kill()

    def _replace(self) -> None:
        self.stats["restarts"] += 1
        task = asyncio.ensure_future(self._add_worker())
        self._replacing.add(task)
        task.add_done_callback(self._replaced)

    def _replaced(self, task: asyncio.Task[None]) -> None:
        self._replacing.discard(task)
        if not task.cancelled() and (exc := task.exception()) is not None:
            log.error("%s pool: could not start a replacement worker: %s", self.label, exc)
            if not any(not lane.retired for lane in self._lanes):
                failed = WorkerFailed(f"no {self.label} worker could be started: {exc}")
                self._fail_backlog(failed)

    def _fail_backlog(self, exc: Exception) -> None:
        for queue in (self._urgent, self._backlog):
            for request in queue.values():
                _fail(request.future, exc)
            queue.clear()
        self._update_idle()

    async def _add_worker(self) -> None:
        assert self._loop is not None
        ours, theirs = socket.socketpair()
        lane = _Lane(f"mt-{self.label}-{next(self._names)}", conn=Connection(ours.detach()))
        lane.ready = self._loop.create_future()
        self._lanes.append(lane)
        try:
            lane.process = await asyncio.to_thread(spawn_worker, theirs.fileno(), self.worker)
        except BaseException:
            self._retire(lane, kill=True)
            raise
        finally:
            theirs.close()
        lane.reader = threading.Thread(
            target=self._read, args=(lane, self._loop), name=f"{lane.name}-reader", daemon=True
        )
        lane.reader.start()
        try:
            await asyncio.wait_for(asyncio.shield(lane.ready), self.start_timeout)
        except TimeoutError:
            self._retire(lane, kill=True)
            raise WorkerFailed(
                f"a {self.label} worker was not ready after {self.start_timeout:g}s"
            ) from None

    def _read(self, lane: _Lane, loop: asyncio.AbstractEventLoop) -> None:
        """A lane's reader thread: hand each answer to the loop; report the pipe's end."""
        assert lane.conn is not None
        while True:
            try:
                message = lane.conn.recv()
            except (EOFError, OSError):
                break
            if not _call(loop, self._finished, lane, message):
                return
        if lane.process is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                lane.process.wait(timeout=5)  # reap it
        with contextlib.suppress(OSError):
            lane.conn.close()
        if lane.ready is not None:
            died = WorkerCrashed(f"the {self.label} worker died starting")
            _call(loop, _fail, lane.ready, died)
        _call(loop, self._lost, lane)

    def _update_idle(self) -> None:
        busy = self._urgent or self._backlog or any(lane.request for lane in self._lanes)
        if busy:
            self._idle.clear()
        else:
            self._idle.set()


def _call(loop: asyncio.AbstractEventLoop, func: Callable[..., Any], *args: Any) -> bool:
    try:
        loop.call_soon_threadsafe(func, *args)
    except RuntimeError:  # the loop is closed: nobody is waiting any more
        return False
    return True


def _resolve(future: asyncio.Future[Any], value: Any) -> None:
    if not future.done():
        future.set_result(value)


def _fail(future: asyncio.Future[Any], exc: BaseException) -> None:
    if not future.done():
        future.set_exception(exc)
        # Nobody may be awaiting any more (a superseded post's caller that gave up).
        future.exception()
