"""PostgreSQL beside SQLite, in one run: commit latency, racing moves, the per-game guard.

Three measurements, one JSON line:

- ``move``: one move through the service (lock, version check, engine, append + touch in one
  transaction, commit), SQLite ``synchronous=FULL`` vs PostgreSQL with durable commits
  (``fsync``, ``synchronous_commit`` on), median and p99 in ms.
- ``race``: ``--pairs`` pairs of the same move sent at once through two services over two
  stores on one PostgreSQL database (two pools: two processes as far as the server can tell),
  both validated before either writes; counts of pairs where exactly one was applied (one
  move returned, the other told "the table changed", the game's version one higher).
- ``guard``: the two ways to order one game's changes across processes, at the store level:
  the key race plus one retry (append with the seq read before; on Conflict re-read and
  retry once) and ``Tx.lock_game`` (an advisory lock, then read and append under it).
  Uncontended commit latency of each, and the wall time of contended pairs.

PostgreSQL is a throwaway server started here (tests/pg.py) unless ``--pg-url`` names one.

    python -m benchmarks.store_pg [--moves 1000] [--pairs 1000] [--pg-url URL]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bot.engine import Play
from bot.service import GameService, Outcome, errors
from bot.store import Conflict, NewEvent, Store, Tx, open_store

USERS = (101, 102)
NOW = datetime(2025, 1, 1, tzinfo=UTC)


def _ms(times: list[float]) -> dict[str, float]:
    ms = sorted(t * 1000 for t in times)
    return {
        "median_ms": round(statistics.median(ms), 3),
        "p99_ms": round(ms[max(0, int(len(ms) * 0.99) - 1)], 3),
    }


async def _new_game(svc: GameService, channel: int, now: datetime) -> int:
    out = await svc.create_lobby(
        guild_id=1, channel_id=channel, user_id=USERS[0], display_name="Ann", now=now
    )
    gid = out.game.id
    await svc.join(gid, USERS[1], "Ben", now)
    await svc.start(gid, USERS[0], now)
    return gid


def _pick(svc: GameService, gid: int, rng: random.Random) -> tuple[int, Any]:
    match = svc.cached(gid)
    assert match is not None and match.round is not None
    legal = list(match.round.legal_moves())
    plays = [m for m in legal if isinstance(m, Play)]
    return USERS[match.round.current], (rng.choice(plays) if plays else legal[0])


async def moves(store: Store, n: int) -> dict[str, float]:
    svc = GameService(store, rng=random.Random(1))
    rng = random.Random(2)
    now, channel = NOW, 1
    gid = await _new_game(svc, channel, now)
    times: list[float] = []
    warmup = 50
    while len(times) < n:
        user, move = _pick(svc, gid, rng)
        now += timedelta(seconds=1)
        t0 = time.perf_counter()
        out = await svc.move(gid, user, move, now)
        if warmup:
            warmup -= 1
        else:
            times.append(time.perf_counter() - t0)
        if out.game.status != "active":
            channel += 1
            gid = await _new_game(svc, channel, now)
    return _ms(times)


def _gate(store: Store, barrier: asyncio.Barrier) -> None:
    """Both writers wait at ``barrier`` before writing: both have validated the same table."""
    original = store.transaction

    @contextlib.asynccontextmanager
    async def gated() -> AsyncIterator[Tx]:
        await barrier.wait()
        async with original() as tx:
            yield tx

    store.transaction = gated  # type: ignore[method-assign]


async def race(url: str, pairs: int) -> dict[str, int]:
    s1, s2 = await open_store(url), await open_store(url)
    try:
        one, two = GameService(s1, rng=random.Random(1)), GameService(s2, rng=random.Random(1))
        rng = random.Random(3)
        now, channel = NOW, 10_000
        gid = await _new_game(one, channel, now)
        exactly_one = both = neither = 0
        for _ in range(pairs):
            await one.whose_turn(gid)  # both services hold the current table
            await two.whose_turn(gid)
            before = await s1.version(gid)
            user, move = _pick(one, gid, rng)
            barrier = asyncio.Barrier(2)
            _gate(s1, barrier)
            _gate(s2, barrier)
            now += timedelta(seconds=1)
            results = await asyncio.gather(
                one.move(gid, user, move, now), two.move(gid, user, move, now),
                return_exceptions=True,
            )  # fmt: skip
            del s1.transaction, s2.transaction
            won = [r for r in results if isinstance(r, Outcome)]
            told = [r for r in results if isinstance(r, errors.TableChanged)]
            # One commit is one version: exactly one applied means exactly one more.
            landed = (await s1.version(gid) or 0) - (before or 0)
            if len(won) == 1 and len(told) == 1 and landed == 1:
                exactly_one += 1
            elif len(won) == 2:
                both += 1
            else:
                neither += 1
            if won and won[0].game.status != "active":
                channel += 1
                gid = await _new_game(one, channel, now)
        await one.verify_game(gid)
        return {"pairs": pairs, "exactly_one": exactly_one, "both": both, "neither": neither}
    finally:
        await s1.close()
        await s2.close()


async def _new_bare_game(store: Store, channel: int) -> int:
    async with store.transaction() as tx:
        return await tx.insert_game(
            guild_id=1, channel_id=channel, host_id=9, preset="standard", rules_json="{}",
            engine_version=1, turn_deadline_s=None, hints=True, now=NOW,
        )  # fmt: skip


#: The game's version and last seq in one read (what the service knows before it writes).
_STATE = (
    "SELECT g.version, (SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = g.id) "
    "FROM games g WHERE g.id = ?"
)


async def _append_retry(store: Store, gid: int) -> int:
    """The key race plus one retry: read, write; on Conflict read again and write once more.
    Returns the attempts used (1 or 2)."""
    for attempt in (1, 2):
        [(version, seq)] = await store._all(_STATE, (gid,))
        try:
            async with store.transaction() as tx:
                await tx.append_events(gid, seq + 1, [NewEvent("x", "{}")], NOW)
                await tx.touch(gid, version, NOW)
            return attempt
        except Conflict:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


async def _append_locked(store: Store, gid: int) -> int:
    """The advisory lock: lock the game, read under it, write; never conflicts."""
    async with store.transaction() as tx:
        await tx.lock_game(gid)
        [(version, seq)] = await tx._c.fetch(_STATE, (gid,))
        await tx.append_events(gid, seq + 1, [NewEvent("x", "{}")], NOW)
        await tx.touch(gid, version, NOW)
    return 1


async def guard(url: str, n: int) -> dict[str, Any]:
    s1, s2 = await open_store(url), await open_store(url)
    out: dict[str, Any] = {}
    try:
        for name, write in (("retry", _append_retry), ("lock", _append_locked)):
            gid = await _new_bare_game(s1, 20_000 + len(out))
            alone: list[float] = []
            for _ in range(n):
                t0 = time.perf_counter()
                await write(s1, gid)
                alone.append(time.perf_counter() - t0)
            paired: list[float] = []
            retries = 0
            for _ in range(n):
                t0 = time.perf_counter()
                used = await asyncio.gather(write(s1, gid), write(s2, gid))
                paired.append(time.perf_counter() - t0)
                retries += sum(u - 1 for u in used)
            assert await s1.last_seq(gid) == 3 * n
            out[name] = {
                "uncontended": _ms(alone),
                "contended_pair": _ms(paired),
                "retries": retries,
            }
    finally:
        await s1.close()
        await s2.close()
    return out


@contextlib.contextmanager
def _server(url: str | None) -> Iterator[str]:
    if url:
        yield url
        return
    from tests import pg

    with pg.start(durable=True) as server:
        yield server.url


async def _fresh_db(url: str, name: str) -> str:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return url.rsplit("/", 1)[0] + "/" + name


async def run(args: argparse.Namespace, base: str) -> dict[str, Any]:
    url = await _fresh_db(base, "mt_bench_store_pg")
    result: dict[str, Any] = {"benchmark": "store_pg", "loadavg": os.getloadavg()[0]}
    with tempfile.TemporaryDirectory() as tmp:
        lite = await open_store(Path(tmp) / "bench.sqlite3", synchronous="FULL")
        try:
            sqlite_move = await moves(lite, args.moves)
        finally:
            await lite.close()
    pg_store = await open_store(url)
    try:
        pg_move = await moves(pg_store, args.moves)
    finally:
        await pg_store.close()
    result["move"] = {
        "moves": args.moves,
        "sqlite_full": sqlite_move,
        "postgresql_durable": pg_move,
        "pg_over_sqlite_median": round(pg_move["median_ms"] / sqlite_move["median_ms"], 2),
    }
    result["race"] = await race(url, args.pairs)
    result["guard"] = {"writes": args.guard, **await guard(url, args.guard)}
    result["loadavg_end"] = os.getloadavg()[0]
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=1000)
    ap.add_argument("--pairs", type=int, default=1000)
    ap.add_argument("--guard", type=int, default=500, help="writes per guard measurement")
    ap.add_argument("--pg-url", help="a PostgreSQL server to use (default: start a throwaway)")
    args = ap.parse_args()
    with _server(args.pg_url) as base:
        print(json.dumps(asyncio.run(run(args, base))))


if __name__ == "__main__":
    main()
