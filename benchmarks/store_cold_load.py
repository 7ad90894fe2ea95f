"""Cold load of one game out of many: read its events from the file and replay them.

Fills one database file with ``--games`` games (default 10,000), a mix of finished and
unfinished games across presets and 2-6 players, made from seeded random playouts
(``bot.engine.simulate.play_match``; a pool of distinct playouts is reused across games so
generating stays quick, every game still gets its own rows). Then, with the service's cache
empty before each load, times loading a random sample of games (the game's version check, one
snapshot read of its row, seats and events, and the replay). Prints one JSON line with the
median and p99 load time, the largest game sampled, and the file size.

    python -m benchmarks.store_cold_load [--games 10000] [--sample 500] [--db PATH]

With ``--db`` an existing file is reused as it is (no generation), so runs can be repeated.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from bot.engine import KNOCK, PRESETS, Match, RoundStarted, Rules
from bot.engine.simulate import play_match
from bot.service import GameService
from bot.store import GameStatus, NewEvent, SeatRow, Store

MIX = (("standard", 0.6), ("fundex", 0.2), ("double-9", 0.1), ("quick", 0.1))
POOL = 300


def playout(rng: random.Random) -> tuple[str, Rules, list[str], Match]:
    """A seeded random match, stopped at a random point half the time (unfinished)."""
    name = rng.choices([n for n, _ in MIX], [w for _, w in MIX])[0]
    rules = PRESETS[name]
    low, high = rules.player_range
    names = [f"Player {i + 1}" for i in range(rng.randint(low, min(high, 6)))]
    if rng.random() < 0.5:
        return name, rules, names, play_match(rules, names, rng)
    # Unfinished: some whole rounds, then part of the next one.
    done = rng.randrange(rules.rounds_total)
    match = play_match(rules, names, rng, rounds=done)
    match.start_round(match.shuffle(rng))
    rnd = match.round
    assert rnd is not None
    for _ in range(rng.randrange(1, 60)):
        if rnd.result is not None:
            break
        legal = rnd.legal_list()
        match.apply(legal[int(rng.random() * len(legal))])
        if rules.knock and rnd.knock_window is not None and rnd.result is None:
            match.apply(KNOCK, rnd.knock_window)
    if rnd.result is not None and not match.is_over:
        match.start_round(match.shuffle(rng))
    return name, rules, names, match


async def generate(store: Store, games: int, seed: int) -> None:
    rng = random.Random(seed)
    pool = [playout(rng) for _ in range(POOL)]
    # Each playout's rows are encoded once and written for every game that uses it.
    logs = [
        [
            NewEvent(d["kind"], json.dumps(d, separators=(",", ":")), None)
            for d in match.event_dicts()
        ]
        for _, _, _, match in pool
    ]
    # The round snapshots the service writes at each deal (seq counts the start event as 1).
    snapshots = [
        [
            (
                seq,
                json.dumps(
                    [
                        {"scores": list(r.scores), "went_out": r.went_out}
                        for r in match.results[: e.round_no]
                    ],
                    separators=(",", ":"),
                ),
            )
            for seq, e in enumerate(match.events, start=2)
            if isinstance(e, RoundStarted)
        ]
        for _, _, _, match in pool
    ]
    now = datetime(2025, 1, 1, tzinfo=UTC)
    async with store.transaction() as tx:
        for i in range(games):
            name, rules, names, match = pool[i % POOL]
            gid = await tx.insert_game(
                guild_id=1 + i % 50,
                channel_id=10_000 + i,
                host_id=1_000_000 + i,
                preset=name,
                rules_json=rules.to_json(),
                engine_version=match.engine_version,
                turn_deadline_s=None,
                hints=True,
                now=now,
            )
            await tx.replace_seats(
                gid,
                [SeatRow(gid, s, 1_000_000 + i + s, n, None, now) for s, n in enumerate(names)],
            )
            events = [NewEvent("start", "{}", 1_000_000 + i), *logs[i % POOL]]
            await tx.append_events(gid, 1, events, now)
            await tx.put_snapshots(gid, snapshots[i % POOL])
            over = match.is_over
            await tx.touch(
                gid,
                1,
                now,
                status=GameStatus.FINISHED if over else GameStatus.ACTIVE,
                turn_seat=None if over else match.current_seat,
                round_no=None if match.round is None else match.round.round_no,
            )


async def run(games: int, sample: int, db: Path, seed: int) -> dict[str, object]:
    store = await Store.open(db, synchronous="NORMAL")
    (count,) = (await store._all("SELECT COUNT(*) FROM games"))[0]
    generated_s = None
    if count == 0:
        t0 = time.perf_counter()
        await generate(store, games, seed)
        generated_s = round(time.perf_counter() - t0, 1)
        count = games
    await store.close()  # checkpoint the WAL into the file before measuring its size
    store = await Store.open(db)
    svc = GameService(store, cache_size=1)
    ids = [r[0] for r in await store._all("SELECT id FROM games")]
    picks = random.Random(seed + 1).sample(ids, min(sample, len(ids)))
    times: list[float] = []
    largest = 0
    for gid in picks:
        svc.clear_cache()
        t0 = time.perf_counter()
        await svc.whose_turn(gid)
        times.append(time.perf_counter() - t0)
        match = svc.cached(gid)
        assert match is not None
        largest = max(largest, len(match.events))
    (events,) = (await store._all("SELECT COUNT(*) FROM events"))[0]
    (finished,) = (await store._all("SELECT COUNT(*) FROM games WHERE status = 'finished'"))[0]
    await store.close()
    ms = sorted(t * 1000 for t in times)
    return {
        "benchmark": "store_cold_load",
        "games": count,
        "finished": finished,
        "events": events,
        "file_mb": round(os.path.getsize(db) / 1e6, 1),
        "sample": len(ms),
        "median_ms": round(statistics.median(ms), 2),
        "p99_ms": round(ms[max(0, int(len(ms) * 0.99) - 1)], 2),
        "max_ms": round(ms[-1], 2),
        "largest_sampled_events": largest,
        "generate_s": generated_s,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--sample", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--db", type=Path, help="database file (kept; reused if it has games)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "cold.sqlite3"
        print(json.dumps(asyncio.run(run(args.games, args.sample, db, args.seed))))


if __name__ == "__main__":
    main()
