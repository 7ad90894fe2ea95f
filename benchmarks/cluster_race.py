"""Racing moves across two processes: 1,000 pairs of the same move sent by two worker processes
(benchmarks/cluster_worker.py, each its own asyncpg pool and ``GameService``) on one PostgreSQL
database, both validated before either writes. Exactly one must apply each time: one process
says applied, the other is told the table changed, the game's version is one higher.

At the service level (not through the fake Discord): through Discord the two processes never
receive the same game's interaction (a server belongs to one shard), and the race the cluster
must survive is the one underneath, between two processes writing one game. Prints ONE JSON line.

    python benchmarks/cluster_race.py --pairs 1000
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere

from benchmarks.cluster_worker import EPOCH, Worker, fresh_db, new_game, pg_server, pick
from bot.service import GameService
from bot.store import open_store


async def run(base: str, pairs: int) -> dict[str, object]:
    url = await fresh_db(base, "mt_bench_cluster_race")
    store = await open_store(url)
    svc = GameService(store, rng=random.Random(1))
    rng = random.Random(3)
    a, b = await Worker.start("race", url, "a"), await Worker.start("race", url, "b")
    started = time.perf_counter()
    exactly_one = both = neither = channel = 0
    told: dict[str, int] = {}
    gid = await new_game(svc, 1, EPOCH)
    try:
        for _ in range(pairs):
            game = await svc.game(gid)
            if game.turn is None:
                channel += 1
                gid = await new_game(svc, 1 + channel, EPOCH)
            before = await store.version(gid)
            await svc.whose_turn(gid)
            uid, move = pick(svc, gid, rng)
            for w in (a, b):
                w.send({"gid": gid, "uid": uid, "move": str(move)})
            answers = {}
            for w in (a, b):  # each validates, then waits at its gate ...
                first = await w.read()
                if "ready" not in first:
                    answers[w.name] = first
            for w in (a, b):  # ... until both are there
                w.send({"go": True})
            for w in (a, b):
                if w.name not in answers:
                    answers[w.name] = await w.read()
            applied = [x for x in answers.values() if x.get("applied")]
            for x in answers.values():
                if not x.get("applied"):
                    told[str(x.get("told"))] = told.get(str(x.get("told")), 0) + 1
            landed = (await store.version(gid) or 0) - (before or 0)
            if len(applied) == 1 and landed == 1:
                exactly_one += 1
            elif len(applied) == 2:
                both += 1
            else:
                neither += 1
        await svc.verify_game(gid)
        integrity = await store.integrity_check()
    finally:
        for w in (a, b):
            assert w.proc.stdin is not None
            w.proc.stdin.close()
            await w.proc.wait()
        await store.close()
    return {
        "benchmark": "cluster_race",
        "level": "service, two worker processes, one PostgreSQL",
        "pairs": pairs,
        "exactly_one": exactly_one,
        "both": both,
        "neither": neither,
        "losers_told": told,
        "integrity": integrity,
        "seconds": round(time.perf_counter() - started, 1),
        "loadavg": os.getloadavg()[0],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=1000)
    ap.add_argument("--pg-url", help="a PostgreSQL server to use (default: start a throwaway)")
    args = ap.parse_args()
    with pg_server(args.pg_url) as base:
        print(json.dumps(asyncio.run(run(base, args.pairs))))


if __name__ == "__main__":
    main()
