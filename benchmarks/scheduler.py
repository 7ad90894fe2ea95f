"""The scheduler with 10,000 games in play: time to find and dispatch due work per tick, a
burst after downtime, timeouts, and proof that an idle bot does no work between due times.

One real two-player game (24 h deadline) is made through the service and cloned into N games
(rows, seats and events, so every clone replays and can time out), each with its turn's
reminder and timeout planned at staggered times over a day (as the commit hook plans them).
Delivery is a no-op (Discord is not measured; the bot spaces real sends 0.25 s apart), so the
figures are the scheduler's own cost: the due query, the checks, the state change, the ack.

* ``tick_*``: the clock jumps to the next due time and one tick runs (about one row each);
* ``burst_*``: the clock jumps an hour (the bot was down): one tick drains everything due;
* ``timeout_tick_*``: ticks whose row is a timeout (replay, computer move, commit);
* ``idle_*``: the loop runs on a virtual clock through an hour with nothing due: how many
  times it woke and how many database reads it made.

Prints ONE JSON line.

    python -m benchmarks.scheduler [--games 10000] [--ticks 300] [--db PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere

from bot.service import GameOptions, GameService
from bot.service.schedule import ScheduleService
from bot.service.scheduler import Scheduler
from bot.service.timing import Notice, Reminder, TurnPlayed
from bot.store import Store

START = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 3)


async def build(store: Store, games: int) -> None:
    """One real game, cloned ``games - 1`` times; every clone's turn work staggered over 24 h."""
    svc = GameService(store, rng=random.Random(1))
    ScheduleService(svc)
    out = await svc.create_lobby(
        guild_id=1,
        channel_id=1,
        user_id=100,
        display_name="Ann",
        now=START,
        options=GameOptions(turn_deadline=timedelta(hours=24)),
    )
    await svc.join(out.game.id, 101, "Ben", START)
    await svc.start(out.game.id, 100, START)
    step = 86400 / games
    async with store.transaction() as tx:
        c = tx._c
        await c.execute(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) "
            "INSERT INTO games (id, guild_id, channel_id, host_id, preset, rules, engine_version,"
            " status, version, turn_seat, round_no, turn_deadline_s, hints, created_at, "
            "updated_at, deadline_at, turn_since) "
            "SELECT 1 + i, guild_id, channel_id + i, host_id + 1000 * i, preset, rules, "
            "engine_version, status, version, turn_seat, round_no, turn_deadline_s, hints, "
            "created_at, updated_at, deadline_at, turn_since FROM games, n WHERE games.id = 1",
            (games - 1,),
        )
        await c.execute(
            "INSERT INTO seats (game_id, seat, user_id, display_name, computer, joined_at) "
            "SELECT g.id, s.seat, s.user_id + 1000 * (g.id - 1), s.display_name, s.computer, "
            "s.joined_at FROM games g JOIN seats s ON s.game_id = 1 WHERE g.id > 1"
        )
        await c.execute(
            "INSERT INTO events (game_id, seq, kind, payload, actor, at) "
            "SELECT g.id, e.seq, e.kind, e.payload, e.actor, e.at "
            "FROM games g JOIN events e ON e.game_id = 1 WHERE g.id > 1"
        )
        # Every game's turn: a reminder some time in the next day, its timeout 12 h later.
        await c.execute("DELETE FROM due_work WHERE kind IN ('remind', 'timeout')")
        rows = await c.fetch(
            "SELECT g.id, g.turn_seat || '@' || g.turn_since, s.user_id FROM games g "
            "JOIN seats s ON s.game_id = g.id AND s.seat = g.turn_seat"
        )
        work: list[tuple[Any, ...]] = []
        for gid, key, uid in rows:
            remind = START + timedelta(seconds=(gid - 1) * step + 60)
            work.append((gid, "remind", key, uid, remind.isoformat(timespec="microseconds")))
            timeout = remind + timedelta(hours=12)
            work.append((gid, "timeout", key, uid, timeout.isoformat(timespec="microseconds")))
        await c.executemany(
            "INSERT INTO due_work (game_id, kind, turn_key, user_id, due_at) VALUES (?,?,?,?,?)",
            work,
        )
        # The turn's deadline as the timeout row says (the handler checks it).
        await c.execute(
            "UPDATE games SET deadline_at = (SELECT due_at FROM due_work d "
            "WHERE d.game_id = games.id AND d.kind = 'timeout')"
        )


async def run(games: int, ticks: int, db: Path) -> dict[str, object]:
    store = await Store.open(db, synchronous="NORMAL")
    try:
        await build(store, games)
        svc = GameService(store, cache_size=512, rng=random.Random(2))
        schedule = ScheduleService(svc)
        clock = Clock(START)
        told: list[Notice] = []

        async def deliver(notice: Notice) -> None:
            told.append(notice)

        scheduler = Scheduler(schedule, clock, deliver, send_interval=0)

        # One tick per due time: the clock jumps to the next row, the tick finds and runs it.
        tick_s: list[float] = []
        for _ in range(ticks):
            nxt = await schedule.next_due()
            assert nxt is not None
            clock.now = nxt
            t = time.perf_counter()
            await scheduler.tick()
            tick_s.append(time.perf_counter() - t)
        reminded = sum(isinstance(n, Reminder) for n in told)

        # Down for an hour: everything due meanwhile, drained by one tick.
        before = len(told)
        clock.now += timedelta(hours=1)
        t = time.perf_counter()
        burst_rows = await scheduler.tick()
        burst_s = time.perf_counter() - t
        burst_sent = len(told) - before

        # Timeouts: jump to the first deadlines (12 h after the first reminders).
        timeout_s: list[float] = []
        clock.now = START + timedelta(hours=12)
        for _ in range(min(ticks, 200)):
            nxt = await schedule.next_due()
            assert nxt is not None
            clock.now = max(clock.now, nxt)
            before = len(told)
            t = time.perf_counter()
            await scheduler.tick()
            elapsed = time.perf_counter() - t
            if any(isinstance(n, TurnPlayed) for n in told[before:]):
                timeout_s.append(elapsed)
        timeouts = sum(isinstance(n, TurnPlayed) for n in told)

        # Idle: clear the next two hours, then run the loop on a virtual clock for an hour.
        async with store.transaction() as tx:
            await tx._c.execute(
                "DELETE FROM due_work WHERE due_at < ?",
                ((clock.now + timedelta(hours=2)).isoformat(timespec="microseconds"),),
            )
        idle_start = clock.now
        reads = 0
        real_all = store._all

        async def counting(sql: str, params: Any = ()) -> list[Any]:
            nonlocal reads
            reads += 1
            return await real_all(sql, params)

        store._all = counting  # type: ignore[method-assign]
        waits: list[float] = []

        async def virtual_wait(wake: asyncio.Event, seconds: float) -> None:
            waits.append(seconds)
            clock.now += timedelta(seconds=seconds)
            if clock.now >= idle_start + timedelta(hours=1):
                raise asyncio.CancelledError

        idle = Scheduler(schedule, clock, deliver, send_interval=0, waiter=virtual_wait)
        with contextlib.suppress(asyncio.CancelledError):
            await idle.run()
        store._all = real_all  # type: ignore[method-assign]
        return {
            "benchmark": "scheduler",
            "games": games,
            "pending_rows": 2 * games,
            "ticks": ticks,
            "tick_median_ms": round(statistics.median(tick_s) * 1000, 3),
            "tick_p99_ms": pct(tick_s, 0.99),
            "reminders_sent": reminded,
            "burst_after_1h_down_rows": burst_rows,
            "burst_sent": burst_sent,
            "burst_ms": round(burst_s * 1000, 1),
            "burst_rows_per_s": round(burst_rows / burst_s, 1) if burst_s else None,
            "timeouts_played": timeouts,
            "timeout_tick_median_ms": round(statistics.median(timeout_s) * 1000, 3)
            if timeout_s
            else None,
            "timeout_tick_p99_ms": pct(timeout_s, 0.99) if timeout_s else None,
            "idle_hour_wakeups": idle.wakeups,
            "idle_hour_next_due_queries": idle.queries,
            "idle_hour_db_reads": reads,
            "idle_hour_sleeps_s": [round(w) for w in waits],
            "python": sys.version.split()[0],
        }
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--ticks", type=int, default=300)
    parser.add_argument("--db", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "scheduler.sqlite3"
        if db.exists():
            raise SystemExit(f"{db} exists: the benchmark builds its own file")
        print(json.dumps(asyncio.run(run(args.games, args.ticks, db))))


if __name__ == "__main__":
    main()
