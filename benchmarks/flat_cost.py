"""CPU per move early and late in a match, with the games cached and with twice as many games
moving as the cache holds (issue 39: the cost of a move must not grow with the match or with
the number of live games).

Builds ``--games`` 4-player standard matches through the service on a real SQLite file (every
seat a human, moves chosen deterministically), played a dozen moves into round 1, and again
into round ``--late`` (the set-up is not timed). Then, on a copy of each, plays ``--moves``
moves per game, the games in turn (round-robin: the worst case for an LRU cache), each move
as the bot makes it: whose turn, the mover's view, the move, and the next mover's catch-up
digest (the turn notification). Timed as process CPU (the store's and the digest's threads
included), per move, for:

* ``cached`` — a cache as large as the games (``MT_GAME_CACHE`` ≥ live games);
* ``missing`` — a cache of half the games: every move misses;

and both again with ``whole_log``: a store that ignores ``rounds`` and reads the whole log,
as every read did before issue 39, for the ratio on the same machine in the same run.
Prints one JSON line, with the load average (compare ratios within one run).

    python -m benchmarks.flat_cost [--games 8] [--moves 40] [--late 11] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

from bot.engine import Play
from bot.service import GameService
from bot.store import GameRecord, Store
from tests.clock import FakeClock

USERS = (101, 102, 103, 104)
#: Moves played into the early or late round before the timing starts: mid-round, as most
#: moves are (the first moves of a round are the ones whose digest reaches into the last).
INTO_ROUND = 12


def whole_log(store: Store) -> Store:
    """``store``, reading the whole log whatever ``rounds`` a caller asks for (as before)."""
    load = store.load

    async def whole(game_id: int, *, rounds: int | None = None) -> GameRecord | None:
        return await load(game_id)

    store.load = whole  # type: ignore[method-assign]
    return store


async def move(svc: GameService, gid: int, clock: FakeClock) -> None:
    """One move as the bot makes it, and the next mover's digest (their turn notification)."""
    turn = await svc.whose_turn(gid)
    assert turn is not None and turn.user_id is not None
    view = await svc.seat_view(gid, turn.user_id)
    plays = [m for m in view.legal if isinstance(m, Play)]
    out = await svc.move(gid, turn.user_id, plays[0] if plays else view.legal[0], clock.tick())
    if out.next_player is not None and out.next_player.user_id is not None:
        await svc.digest(gid, out.next_player.user_id)


async def build(db: Path, games: int, rounds: int, seed: int) -> None:
    """``games`` matches, each played :data:`INTO_ROUND` moves into round ``rounds``."""
    store = await Store.open(db, synchronous="NORMAL")
    try:
        svc = GameService(store, cache_size=games, rng=random.Random(seed))
        clock = FakeClock()
        for channel in range(games):
            gid = (
                await svc.create_lobby(
                    guild_id=1,
                    channel_id=channel,
                    user_id=USERS[0],
                    display_name="P0",
                    now=clock.tick(),
                )
            ).game.id
            for i, u in enumerate(USERS[1:], start=1):
                await svc.join(gid, u, f"P{i}", clock.tick())
            await svc.start(gid, USERS[0], clock.tick())
            into = INTO_ROUND
            while into:
                if ((await svc.game(gid)).round_no or 0) >= rounds - 1:
                    into -= 1
                turn = await svc.whose_turn(gid)
                assert turn is not None and turn.user_id is not None
                view = await svc.seat_view(gid, turn.user_id)
                plays = [m for m in view.legal if isinstance(m, Play)]
                pick = plays[0] if plays else view.legal[0]
                await svc.move(gid, turn.user_id, pick, clock.tick())
    finally:
        await store.close()


async def measure(db: Path, cache: int, moves: int, whole: bool, seed: int) -> dict[str, Any]:
    store = await Store.open(db, synchronous="NORMAL")
    try:
        if whole:
            whole_log(store)
        svc = GameService(store, cache_size=cache, rng=random.Random(seed))
        ids = await store.game_ids()
        clock = FakeClock()
        clock.now += timedelta(days=30)
        # One untimed move per game first: the cached case starts warm, as a live bot is.
        for gid in ids:
            await move(svc, gid, clock)
        svc.ledger.loads.clear()
        t = time.process_time()
        for _ in range(moves):
            for gid in ids:
                await move(svc, gid, clock)
        cpu = time.process_time() - t
        n = moves * len(ids)
        return {"cpu_ms_per_move": round(cpu * 1000 / n, 3), "loads": dict(svc.ledger.loads)}
    finally:
        await store.close()


async def run(games: int, moves: int, late: int, seed: int, tmp: Path) -> dict[str, object]:
    result: dict[str, object] = {
        "benchmark": "flat_cost",
        "games": games,
        "players": len(USERS),
        "moves_per_game": moves,
    }
    for label, rounds in (("early", 1), ("late", late)):
        built = tmp / f"{label}.sqlite3"
        await build(built, games, rounds, seed)
        for whole in (False, True):
            for case, cache in (("cached", games), ("missing", max(1, games // 2))):
                copy = tmp / "run.sqlite3"
                for suffix in ("", "-wal", "-shm"):
                    Path(f"{copy}{suffix}").unlink(missing_ok=True)
                shutil.copy(built, copy)
                key = f"{label}_{case}" + ("_whole_log" if whole else "")
                result[key] = await measure(copy, cache, moves, whole, seed)
                result[key]["round"] = rounds  # type: ignore[index]

    def cpu(key: str) -> float:
        value = result[key]
        assert isinstance(value, dict)
        return float(value["cpu_ms_per_move"])

    for suffix in ("", "_whole_log"):
        result["late_vs_early" + suffix] = round(
            cpu("late_cached" + suffix) / cpu("early_cached" + suffix), 3
        )
        result["missing_vs_cached_late" + suffix] = round(
            cpu("late_missing" + suffix) / cpu("late_cached" + suffix), 3
        )
        result["missing_vs_cached_early" + suffix] = round(
            cpu("early_missing" + suffix) / cpu("early_cached" + suffix), 3
        )
    result["loadavg"] = [round(x, 2) for x in os.getloadavg()]
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--moves", type=int, default=40, help="timed moves per game")
    ap.add_argument("--late", type=int, default=11, help="the late round (1-based)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = asyncio.run(run(args.games, args.moves, args.late, args.seed, Path(tmp)))
    print(json.dumps(out))


if __name__ == "__main__":
    main()
