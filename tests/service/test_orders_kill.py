"""Standing orders survive kill -9 (issue 46): a writer that plays with orders
(``tests.service.orders_kill_child``) is killed with SIGKILL at random moments, again and again
on the same file. After each kill: the file is whole; every acknowledged move, an order's
included, is in it; an order's marker is never left without its moves; and an order's queue
never still holds a tile its move played — the move and what is left of the order are one
transaction. A restarted writer goes on from there (its orders play on)."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import sys
from pathlib import Path
from typing import Any

from bot.engine import Tile

ROOT = Path(__file__).resolve().parents[2]
KILLS = 6


async def run_and_kill(db: Path, seed: int, rng: random.Random) -> list[dict[str, Any]]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.service.orders_kill_child", str(db), str(seed),
        cwd=ROOT, stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert proc.stdout is not None
    lines: list[str] = []
    ready = asyncio.Event()

    async def read() -> None:
        assert proc.stdout is not None
        while line := (await proc.stdout.readline()).decode():
            lines.append(line)
            if line == "ready\n":
                ready.set()

    reader = asyncio.create_task(read())
    await asyncio.wait_for(ready.wait(), 30)
    await asyncio.sleep(rng.uniform(0.3, 1.5))
    proc.kill()
    await proc.wait()
    await reader
    return [json.loads(x) for x in lines if x.endswith("\n") and x.startswith("{")]


def check(db: Path, acks: list[dict[str, Any]]) -> int:
    """The file after a kill; how many order commits were acknowledged."""
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        for a in acks:
            for seq, move in a["steps"]:
                row = conn.execute(
                    "SELECT payload FROM events WHERE game_id = ? AND seq = ?", (a["g"], seq)
                ).fetchone()
                if row is None:  # a finished match's log is archived: its row holds them
                    assert conn.execute(
                        "SELECT 1 FROM event_archive WHERE game_id = ?", (a["g"],)
                    ).fetchone(), f"acknowledged move {a['g']}/{seq} was lost"
                    continue
                assert json.loads(row[0])["move"] == move
        for (gid,) in conn.execute("SELECT id FROM games").fetchall():
            events = conn.execute(
                "SELECT seq, kind, payload, actor FROM events WHERE game_id = ? ORDER BY seq",
                (gid,),
            ).fetchall()
            played: set[str] = set()
            for i, (_seq, kind, payload, _actor) in enumerate(events):
                data = json.loads(payload) if payload else {}
                if kind == "round":
                    played = set()
                first = str(data.get("move", "")).split(" ")[0]
                if kind == "move" and "-" in first:
                    played.add(str(Tile.parse(first)))
                if kind == "order":
                    nxt = events[i + 1] if i + 1 < len(events) else None
                    assert nxt is not None and nxt[1] == "move" and nxt[3] is None, (
                        "an order's marker without its move"
                    )
                    assert json.loads(nxt[2])["seat"] == data["seat"]
            row = conn.execute("SELECT tiles FROM orders WHERE game_id = ?", (gid,)).fetchone()
            if row is not None:
                queued = set(json.loads(row[0]))
                assert not queued & played, f"game {gid}: the order still holds a played tile"
        return sum(1 for a in acks if a["order"])
    finally:
        conn.close()


async def test_orders_survive_kill_9(tmp_path: Path) -> None:
    db = tmp_path / "kill.db"
    rng = random.Random(46)
    orders = acked = 0
    for i in range(KILLS):
        acks = await run_and_kill(db, seed=i, rng=rng)
        acked += len(acks)
        orders += check(db, acks)
    assert acked > 50, "the writer never got going"
    assert orders > 0, "no order ever played: the test proves nothing"
