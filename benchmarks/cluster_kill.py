"""kill -9 in a cluster: two worker processes (benchmarks/cluster_worker.py: each its own pool,
``GameService`` and claiming ``Scheduler``) play moves and run scheduled work on one PostgreSQL
database; one of them is killed with SIGKILL in the middle of it, ``--kills`` times (alternating),
and started again under a new name. Prints ONE JSON line.

What is checked, from the workers' own reports and the database:

* **0 acknowledged moves lost**: every move a worker reported after its commit returned is in
  the log at the seq it was given, by that player.
* **0 duplicate events**: no seq acknowledged twice, every game's log runs 1..n, and every
  game replays (``verify_game``).
* **Scheduled work exactly once across the kills**: the idle games (nobody moves in them) only
  advance by their one-minute deadlines, which a virtual clock at 60x real time makes pass
  every second; no turn's timeout is reported fired twice, the database holds no more
  ``timeout`` events than turns timed out, and when the run ends no work is overdue by more
  than the lease (the dead process's claims were taken over).

The service level stands in for the bot here (the moves come from the workers, not from
Discord interactions): killing a process between its commit and its Discord post is the same
event either way, and what the cluster must guarantee lives in the database.

    python benchmarks/cluster_kill.py --kills 20
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import sys
import time
from collections import Counter
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere

from benchmarks.cluster_worker import VirtualClock, Worker, fresh_db, new_game, pg_server
from bot.service import GameService
from bot.service.schedule import ScheduleService
from bot.store import open_store

SPEED = 60.0  # virtual seconds per real second: a one-minute deadline passes every second
LEASE = 1.0  # real seconds


class Run:
    def __init__(self, url: str, t0: float, active: list[list[int]]) -> None:
        self.url, self.t0, self.active = url, t0, active
        self.acks: list[dict[str, object]] = []
        self.fired: list[dict[str, object]] = []
        self.workers: dict[int, Worker] = {}
        self.readers: dict[int, asyncio.Task[None]] = {}
        self.starts = 0

    async def start(self, slot: int) -> None:
        self.starts += 1
        name = f"w{slot}-{self.starts}"
        games = ",".join(str(g) for g in self.active[slot])
        worker = await Worker.start(
            "play", self.url, name, "--games", games, "--t0", str(self.t0), "--speed",
            str(SPEED), "--lease", str(LEASE), "--seed", str(self.starts),
        )  # fmt: skip
        self.workers[slot] = worker
        self.readers[slot] = asyncio.create_task(self._collect(worker))

    async def _collect(self, worker: Worker) -> None:
        while True:
            try:
                line = await worker.read()
            except EOFError:
                return
            if "ack" in line:
                self.acks.append(line)
            elif "fired" in line:
                self.fired.append(line)

    async def kill(self, slot: int) -> None:
        worker = self.workers[slot]
        worker.proc.send_signal(signal.SIGKILL)
        await worker.proc.wait()
        await self.readers[slot]  # what it printed before it died is all it acknowledged

    async def stop(self) -> None:
        for slot, worker in self.workers.items():
            worker.proc.send_signal(signal.SIGTERM)  # a clean stop: claims given back
            await worker.proc.wait()
            await self.readers[slot]


async def run(base: str, kills: int, games: int, idle: int) -> dict[str, object]:
    url = await fresh_db(base, "mt_bench_cluster_kill")
    t0 = time.time()
    clock = VirtualClock(t0, SPEED)
    store = await open_store(url)
    svc = GameService(store)
    ScheduleService(svc)  # its commit hook plans each new turn's deadline
    # Active games: each worker moves in its own; idle games: only their deadlines move them.
    active = [[await new_game(svc, 100 * s + i, clock()) for i in range(games)] for s in (0, 1)]
    idle_ids = [await new_game(svc, 10_000 + i, clock(), timedelta(minutes=1)) for i in range(idle)]
    r = Run(url, t0, active)
    await r.start(0)
    await r.start(1)
    rng = random.Random(5)
    started = time.perf_counter()
    for k in range(kills):
        await asyncio.sleep(rng.uniform(0.4, 1.2))  # in the middle of moves and timeouts
        slot = k % 2
        await r.kill(slot)
        await r.start(slot)
    await asyncio.sleep(2 * LEASE + 0.5)  # the last victim's claims run out and are taken over
    overdue_rows = await store.fetch_all(
        "SELECT count(*) FROM due_work WHERE due_at < ?",
        (_db_time(clock() - timedelta(seconds=(2 * LEASE + 0.5) * SPEED)),),
    )
    await r.stop()
    seconds = time.perf_counter() - started

    lost = 0
    seen_seqs: Counter[tuple[int, int]] = Counter()
    for ack in r.acks:
        gid = int(str(ack["ack"]))
        for seq in ack["seqs"]:  # type: ignore[attr-defined]
            seen_seqs[(gid, int(seq))] += 1
    logs = {}
    for gid in [g for s in active for g in s] + idle_ids:
        record = await store.load(gid)
        assert record is not None
        logs[gid] = {e.seq: e for e in record.events}
        await svc.verify_game(gid)
    for ack in r.acks:
        gid = int(str(ack["ack"]))
        for seq in ack["seqs"]:  # type: ignore[attr-defined]
            event = logs[gid].get(int(seq))
            if event is None or event.kind != "move" or event.actor != ack["actor"]:
                lost += 1
    duplicate_acks = sum(1 for n in seen_seqs.values() if n > 1)
    gaps = sum(1 for log in logs.values() if sorted(log) != list(range(1, len(log) + 1)))
    fired_keys = Counter((f["fired"], f["kind"], f["key"]) for f in r.fired)
    fired_twice = sum(1 for n in fired_keys.values() if n > 1)
    db_timeouts = sum(1 for g in idle_ids for e in logs[g].values() if e.kind == "timeout")
    reported = sum(1 for f in r.fired if f["kind"] == "timeout" and f["fired"] in idle_ids)
    by_process = Counter(str(f["by"]) for f in r.fired)
    integrity = await store.integrity_check()
    await store.close()
    return {
        "benchmark": "cluster_kill",
        "kills": kills,
        "processes": 2,
        "seconds": round(seconds, 1),
        "acknowledged_moves": sum(len(a["seqs"]) for a in r.acks),  # type: ignore[misc, arg-type]
        "acknowledged_lost": lost,
        "duplicate_acks": duplicate_acks,
        "games_with_gaps": gaps,
        "games_replayed": len(logs),
        "integrity": integrity,
        "timeouts_in_db": db_timeouts,
        "timeouts_reported": reported,
        "fired_twice": fired_twice,
        "fired_by_processes": len(by_process),
        "overdue_after_lease": int(overdue_rows[0][0]),
        "loadavg": os.getloadavg()[0],
    }


def _db_time(at: object) -> str:
    from bot.store.rows import to_db_time

    return to_db_time(at)  # type: ignore[arg-type]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kills", type=int, default=20)
    ap.add_argument("--games", type=int, default=6, help="active games per process")
    ap.add_argument("--idle", type=int, default=8, help="games moved only by their deadlines")
    ap.add_argument("--pg-url", help="a PostgreSQL server to use (default: start a throwaway)")
    args = ap.parse_args()
    with pg_server(args.pg_url) as base:
        print(json.dumps(asyncio.run(run(base, args.kills, args.games, args.idle))))


if __name__ == "__main__":
    main()
