"""The scheduler's loop: run what is due, then sleep until the next due time or a wake.

Due work is *claimed* (:meth:`bot.store.Store.claim_due`) under this process's ``owner`` name
for a ``lease``: with several bot processes over one PostgreSQL database each row goes to one
of them, whichever shard's server the game is on (any process can post to any channel through
Discord's REST API), and the rows of a process that died are taken over by the others once
its lease runs out. A process that stops cleanly gives its rows back (:meth:`Scheduler.release`).
On SQLite (one process per file) claiming is reading the due rows.

Nothing here knows Discord: ``deliver`` is handed each :data:`~bot.service.timing.Notice`
(the Discord layer posts it, a test records it), and time comes from an injected clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import datetime, timedelta

from bot.service.daily import DailyDigest
from bot.service.schedule import ScheduleService
from bot.service.timing import RETRY_AFTER, Notice
from bot.store.outage import Outage, unreachable
from bot.store.schedule import (
    DueRow,
)

log = logging.getLogger(__name__)


# ---------------------------------------------------------------------- the loop

Clock = Callable[[], datetime]
Deliver = Callable[[Notice], Awaitable[None]]
#: Tells Discord (or a test) one player's daily digest (issue 46).
DeliverDigest = Callable[[DailyDigest], Awaitable[None]]
GameLock = Callable[[int], contextlib.AbstractAsyncContextManager[None]]
#: Sleeps ``seconds`` or until the event is set (tests and the benchmark pass a virtual one).
Waiter = Callable[[asyncio.Event, float], Awaitable[None]]


#: How long a claimed row stays this process's (``MT_SCHEDULE_LEASE``): longer than one batch
#: takes (50 rows, 4 sends a second), short enough that a dead process's work is barely late.
DEFAULT_LEASE = timedelta(seconds=60)


def process_owner() -> str:
    """This process's name on the rows it claims: host, pid and a random part (a restarted
    process with the same pid in a new container is still someone else)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


@contextlib.asynccontextmanager
async def _no_lock(game_id: int) -> AsyncIterator[None]:
    yield


class Scheduler:
    """Runs due work, then sleeps until the next due time or a :meth:`wake`.

    ``deliver`` tells Discord (or a test) about each :class:`Notice`; ``game_lock`` is the
    Discord layer's per-game posting lock, held from the state change to the post so the
    channel shows moves in order. Sends are spaced ``send_interval`` seconds apart, so a bot
    coming back to thousands of due reminders drains them at a steady rate instead of
    bursting. ``max_sleep`` bounds a sleep (a backstop against a wake that never came, e.g.
    another process wrote a deadline): at most one look per ``max_sleep`` when idle. ``owner``
    and ``lease``: see the module's docstring; a cluster keeps ``max_sleep`` near the lease, so
    the work of a process that died is taken over soon after its lease ends.
    """

    def __init__(
        self,
        schedule: ScheduleService,
        clock: Clock,
        deliver: Deliver,
        *,
        game_lock: GameLock = _no_lock,
        batch: int = 50,
        send_interval: float = 0.25,
        max_sleep: float = 3600.0,
        waiter: Waiter | None = None,
        owner: str | None = None,
        lease: timedelta = DEFAULT_LEASE,
        outage: Outage | None = None,
        deliver_digest: DeliverDigest | None = None,
    ) -> None:
        self.schedule = schedule
        #: Where the players' daily digests go (None: this loop sends none).
        self.deliver_digest = deliver_digest
        #: The bot's memory of a database outage (one ERROR per outage for the whole bot).
        self.outage = outage or Outage(log)
        self.clock = clock
        self.deliver = deliver
        self.game_lock = game_lock
        self.batch = batch
        self.send_interval = send_interval
        self.max_sleep = max_sleep
        self.owner = owner or process_owner()
        self.lease = lease
        # The schedule's own event: a move's commit sets it when its work is due before the
        # loop's next look (:attr:`ScheduleService.next_look`), without entering this module.
        self._wake = schedule.look_sooner
        self._tick_lock = asyncio.Lock()
        self._wait: Waiter = waiter or _wait_or_wake
        #: For the benchmark and tests: loop iterations, next-due queries, rows handled.
        self.wakeups = 0
        self.queries = 0
        self.handled = 0

    def wake(self) -> None:
        """Something may be due sooner than planned (a new turn, away mode): look again."""
        self._wake.set()

    async def tick(self) -> int:
        """Run everything due now (in batches, oldest first); the number of rows handled.

        Ticks never overlap, so a row is never delivered by two ticks at once."""
        done = 0
        async with self._tick_lock:
            retried: set[tuple[int, str]] = set()
            seen: set[DueRow] = set()  # every path changes its row; this is insurance
            while True:
                now = self.clock()
                rows = [
                    r
                    for r in await self.schedule.claim(now, self.batch, self.owner, self.lease)
                    if (r.game_id, r.kind) not in retried and r not in seen
                ]
                if not rows:
                    return done + await self._side_work() + await self._digests()
                seen.update(rows)
                for row in rows:
                    sent = await self._one(row, now, retried)
                    done += 1
                    self.handled += 1
                    if sent and self.send_interval > 0:
                        await asyncio.sleep(self.send_interval)

    async def _one(self, row: DueRow, now: datetime, retried: set[tuple[int, str]]) -> bool:
        try:
            async with self.game_lock(row.game_id):
                notice = await self.schedule.handle(row, now)
                if notice is None:
                    return False
                try:
                    await self.deliver(notice)
                finally:
                    # Delivered or not (a channel gone, DMs shut): never retry a message in
                    # a loop; the state change behind a TurnPlayed is committed either way.
                    await self.schedule.done(notice, now)
                return True
        except Exception:
            log.exception("game %s: %s work failed; trying again later", row.game_id, row.kind)
            retried.add((row.game_id, row.kind))
            with contextlib.suppress(Exception):
                await self.schedule.retry_later(row, now)
            return False

    async def _side_work(self) -> int:
        """The other features' due work (a season's end), each on its own: one that fails
        is logged and tried at the next look."""
        done = 0
        for work in self.schedule.side_work:
            try:
                done += await work.run_due(self.clock())
            except Exception as exc:
                if unreachable(exc) is not None:
                    raise
                log.exception("scheduled %s failed; trying again later", type(work).__name__)
        return done

    async def _digests(self) -> int:
        """Send the daily digests due now (issue 46), oldest first; the number handled. Each
        is read, delivered, then moved to the player's next day (:mod:`bot.service.daily`); a
        day with nothing waiting sends nothing. A player is looked at once per tick."""
        if self.deliver_digest is None:
            return 0
        digests, done = self.schedule.digests, 0
        seen: set[int] = set()
        while True:
            now = self.clock()
            due = [d for d in await digests.due(now, self.batch) if d[0] not in seen]
            if not due:
                return done
            for user_id, when in due:
                seen.add(user_id)
                sent = False
                try:
                    digest = await digests.read(user_id, when)
                    if digest is not None and digest.games:
                        await self.deliver_digest(digest)
                        sent = True
                    await digests.sent(user_id, when, now)
                except Exception:
                    log.exception("user %s: daily digest failed; trying again later", user_id)
                    with contextlib.suppress(Exception):
                        await digests.later(user_id, when, now + RETRY_AFTER)
                done += 1
                self.handled += 1
                if sent and self.send_interval > 0:
                    await asyncio.sleep(self.send_interval)

    async def release(self) -> int:
        """Give back the rows this scheduler claimed and has not finished (a clean stop), so
        another process takes them at once instead of after the lease."""
        return await self.schedule.release(self.owner)

    async def sleep_time(self) -> float:
        """Seconds until the next due work (bounded by ``max_sleep``; 0 if due now)."""
        nxt = await self.schedule.next_due()
        for work in self.schedule.side_work:
            other = await work.next_due()
            if other is not None and (nxt is None or other < nxt):
                nxt = other
        self.queries += 1
        if nxt is None:
            return self.max_sleep
        return min(self.max_sleep, max(0.0, (nxt - self.clock()).total_seconds()))

    async def run(self) -> None:
        """Forever: tick, then sleep until the next due time or a wake. A database outage is
        logged once when it starts and once when it ends, not a traceback per retry."""
        down = False
        while True:
            self._wake.clear()
            self.schedule.next_look = None  # looking now: anything written is seen, or wakes
            started = time.monotonic()
            try:
                await self.tick()
                delay = await self.sleep_time()
            except Exception as exc:
                reason = unreachable(exc)
                if reason is None:
                    log.exception("scheduler tick failed")
                else:
                    self.outage.failed(reason, "scheduler", started)
                    if not down:
                        log.info("scheduler: waiting for the game database; retrying")
                down = reason is not None
                delay = min(self.max_sleep, RETRY_AFTER.total_seconds())
            else:
                if down:
                    self.outage.recovered("scheduler", started)
                down = False
            if delay > 0:
                self.schedule.next_look = self.clock() + timedelta(seconds=delay)
                await self._wait(self._wake, delay)
            self.wakeups += 1


async def _wait_or_wake(wake: asyncio.Event, seconds: float) -> None:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(wake.wait(), seconds)
