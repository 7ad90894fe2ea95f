"""One move through the service with a real database file: median and p99 latency.

Each timed call is the whole use case as the bot makes it: take the game's lock, check the
cached game is current (one read), validate the move with the engine, append the event and
update the game row in one ``BEGIN IMMEDIATE`` transaction, commit. Two human players, so
each call appends exactly one move. Prints one JSON line.

    python -m benchmarks.service_move [--moves 3000] [--synchronous FULL|NORMAL] [--db PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.engine import Play
from bot.service import GameService
from bot.store import Store

USERS = (101, 102)


async def new_game(svc: GameService, channel: int, now: datetime) -> int:
    out = await svc.create_lobby(
        guild_id=1, channel_id=channel, user_id=USERS[0], display_name="Ann", now=now
    )
    gid = out.game.id
    await svc.join(gid, USERS[1], "Ben", now)
    await svc.start(gid, USERS[0], now)
    return gid


async def run(moves: int, synchronous: str, db: Path) -> dict[str, object]:
    store = await Store.open(db, synchronous="FULL" if synchronous == "FULL" else "NORMAL")
    svc = GameService(store, rng=random.Random(1))
    rng = random.Random(2)
    now = datetime(2025, 1, 1, tzinfo=UTC)
    channel = 1
    gid = await new_game(svc, channel, now)
    times: list[float] = []
    warmup = 50
    while len(times) < moves:
        match = svc.cached(gid)
        assert match is not None and match.round is not None
        seat = match.round.current
        legal = list(match.round.legal_moves())
        plays = [m for m in legal if isinstance(m, Play)]
        move = rng.choice(plays) if plays else legal[0]
        now += timedelta(seconds=1)
        t0 = time.perf_counter()
        out = await svc.move(gid, USERS[seat], move, now)
        elapsed = time.perf_counter() - t0
        if warmup:
            warmup -= 1
        else:
            times.append(elapsed)
        if out.game.status != "active":
            channel += 1
            gid = await new_game(svc, channel, now)
    await store.close()
    times.sort()
    ms = [t * 1000 for t in times]
    return {
        "benchmark": "service_move",
        "moves": len(ms),
        "synchronous": synchronous,
        "median_ms": round(statistics.median(ms), 3),
        "p99_ms": round(ms[int(len(ms) * 0.99) - 1], 3),
        "mean_ms": round(statistics.fmean(ms), 3),
        "max_ms": round(ms[-1], 3),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=3000)
    ap.add_argument("--synchronous", choices=("FULL", "NORMAL"), default="FULL")
    ap.add_argument("--db", type=Path, help="database file (default: a temporary one)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "bench.sqlite3"
        print(json.dumps(asyncio.run(run(args.moves, args.synchronous, db))))


if __name__ == "__main__":
    main()
