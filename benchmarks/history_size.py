"""Bytes per finished match, and start-up time with a long history (issue 39: a bounded
database).

Plays ``--matches`` 4-player standard matches (13 rounds, every seat a human, moves chosen
deterministically) to their end through the service, on two SQLite files from the same
seeds: one as the bot keeps them now (a finished match's log compacted into one
``event_archive`` row, its last round snapshot kept), one with every event left in the
``events`` table (as before). Each file is vacuumed; bytes per match are its size less an
empty database's, divided by the matches.

Then start-up: the compacted file's first match is copied (every row of it, under new ids)
until the file holds ``--history`` finished matches, and the start-up open (migrations and
the start-up integrity check) is timed against an empty database's, median of three; the
same for ``--plain-history`` uncompacted matches, for the slope it had. Prints one JSON
line, with the load average.

    python -m benchmarks.history_size [--matches 2] [--history 10000] [--plain-history 1000]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.engine import Play
from bot.service import GameService
from bot.store import GameStatus, Store
from bot.store.sqlite import SQLiteStore

USERS = (101, 102, 103, 104)
#: The tables a finished match has rows in, and the column naming the game.
GAME_TABLES = {
    "seats": "game_id",
    "events": "game_id",
    "event_archive": "game_id",
    "round_snapshots": "game_id",
    "results": "game_id",
    "player_stats": "game_id",
}


async def play(db: Path, matches: int, seed: int, *, compact: bool) -> None:
    store = await Store.open(db, synchronous="NORMAL")
    try:
        svc = GameService(store, cache_size=matches, rng=random.Random(seed))
        if not compact:
            svc.ledger.compact_finished = False
        now = datetime(2025, 1, 1, tzinfo=UTC)
        for channel in range(matches):
            now += timedelta(seconds=1)
            gid = (
                await svc.create_lobby(
                    guild_id=1, channel_id=channel, user_id=USERS[0], display_name="P0", now=now
                )
            ).game.id
            for i, u in enumerate(USERS[1:], start=1):
                await svc.join(gid, u, f"P{i}", now)
            await svc.start(gid, USERS[0], now)
            while (await svc.game(gid)).status is GameStatus.ACTIVE:
                now += timedelta(seconds=1)
                turn = await svc.whose_turn(gid)
                assert turn is not None and turn.user_id is not None
                view = await svc.seat_view(gid, turn.user_id)
                plays = [m for m in view.legal if isinstance(m, Play)]
                await svc.move(gid, turn.user_id, plays[0] if plays else view.legal[0], now)
    finally:
        await store.close()


def vacuumed_size(db: Path) -> int:
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.execute("VACUUM")
    conn.close()
    return db.stat().st_size


def copy_history(db: Path, games: int) -> None:
    """Copy game 1's rows under new ids until ``db`` holds ``games`` finished matches."""
    conn = sqlite3.connect(db)
    with conn:
        cols = [r[1] for r in conn.execute("PRAGMA table_info(games)")]
        template = conn.execute("SELECT * FROM games WHERE id = 1").fetchone()
        at = cols.index("id")
        channel = cols.index("channel_id")
        start = int(conn.execute("SELECT MAX(id) FROM games").fetchone()[0]) + 1
        rows = []
        for gid in range(start, games + 1):
            row = list(template)
            row[at], row[channel] = gid, 10_000_000 + gid
            rows.append(row)
        marks = ",".join("?" * len(cols))
        conn.executemany(f"INSERT INTO games ({','.join(cols)}) VALUES ({marks})", rows)
        for table, key in GAME_TABLES.items():
            tcols = [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]
            mine = conn.execute(f"SELECT * FROM {table} WHERE {key} = 1").fetchall()
            k = tcols.index(key)
            marks = ",".join("?" * len(tcols))
            conn.executemany(
                f"INSERT INTO {table} ({','.join(tcols)}) VALUES ({marks})",
                (
                    [gid if i == k else v for i, v in enumerate(r)]
                    for gid in range(start, games + 1)
                    for r in mine
                ),
            )
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.close()


async def start_up_seconds(db: Path) -> float:
    samples = []
    for _ in range(3):
        t = time.perf_counter()
        store = await SQLiteStore.open_file(db, synchronous="NORMAL", check=True)
        await store.close()
        samples.append(time.perf_counter() - t)
    return statistics.median(samples)


async def run(args: argparse.Namespace, tmp: Path) -> dict[str, object]:
    empty = tmp / "empty.sqlite3"
    await (await Store.open(empty, synchronous="NORMAL")).close()
    base = vacuumed_size(empty)
    result: dict[str, object] = {"benchmark": "history_size", "matches": args.matches}
    files = {}
    for compact in (True, False):
        db = tmp / ("compact.sqlite3" if compact else "plain.sqlite3")
        await play(db, args.matches, args.seed, compact=compact)
        files[compact] = db
        per = (vacuumed_size(db) - base) / args.matches
        result["bytes_per_match" + ("" if compact else "_plain")] = round(per)
    result["smaller"] = round(
        int(result["bytes_per_match_plain"]) / int(result["bytes_per_match"]),  # type: ignore[call-overload]
        2,
    )
    result["start_up_empty_s"] = round(await start_up_seconds(empty), 3)
    for label, compact, games in (
        ("", True, args.history),
        ("_plain", False, args.plain_history),
    ):
        if games <= 0:
            continue
        copy_history(files[compact], games)
        result[f"history{label}"] = games
        result[f"history{label}_mib"] = round(files[compact].stat().st_size / 2**20, 1)
        result[f"start_up{label}_s"] = round(await start_up_seconds(files[compact]), 3)
    result["loadavg"] = [round(x, 2) for x in os.getloadavg()]
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=2)
    ap.add_argument("--history", type=int, default=10_000)
    ap.add_argument("--plain-history", type=int, default=1_000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        print(json.dumps(asyncio.run(run(args, Path(tmp)))))


if __name__ == "__main__":
    main()
