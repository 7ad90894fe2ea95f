"""Faults: a writer killed at random moments, and a corrupt row in one game."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.engine import DRAW
from bot.service import GameService, errors
from bot.store import Store
from bot.store.rows import unpack_events
from tests.clock import FakeClock
from tests.service.conftest import ALICE, BOB, CHANNEL
from tests.service.helpers import new_game, play_turn

ROOT = Path(__file__).resolve().parents[2]
KILLS_PER_FILE = 10  # two files killed side by side: 20 kills


async def _run_and_kill(
    db: Path, seed: int, rng: random.Random, rounds: int = 2, late: float = 0.3
) -> list[dict[str, Any]]:
    """Start a writer, kill it (SIGKILL) at a random moment, return what it acknowledged."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.service.kill_child",
        str(db),
        str(seed),
        str(rounds),
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
    )
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
    if rng.random() < 0.2:
        await asyncio.sleep(rng.uniform(0.0, 0.6))  # maybe while opening or migrating
    else:
        await asyncio.wait_for(ready.wait(), 10)
        await asyncio.sleep(rng.uniform(0.01, late))
    proc.kill()
    await proc.wait()
    await reader
    # Only whole lines were acknowledged; a line cut by the kill does not count.
    return [json.loads(x) for x in lines if x.endswith("\n") and x.startswith("{")]


def _check_file(db: Path, acks: list[dict[str, Any]]) -> None:
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        for a in acks:
            gid = a["g"]
            (version,) = conn.execute("SELECT version FROM games WHERE id = ?", (gid,)).fetchone()
            assert version >= a["v"]
            # A finished match's events live in its archive row (issue 39), the same rows.
            archive = conn.execute(
                "SELECT events FROM event_archive WHERE game_id = ?", (gid,)
            ).fetchone()
            archived = {e.seq: e.payload for e in unpack_events(gid, archive[0])} if archive else {}
            for seq, move in a["steps"]:
                row = conn.execute(
                    "SELECT payload FROM events WHERE game_id = ? AND seq = ?", (gid, seq)
                ).fetchone()
                payload = row[0] if row is not None else archived.get(seq)
                assert payload is not None, f"acknowledged move {gid}/{seq} was lost"
                assert json.loads(payload)["move"] == move
    finally:
        conn.close()


async def _kill_lane(db: Path, lane: int) -> int:
    rng = random.Random(lane)
    acknowledged = 0
    for i in range(KILLS_PER_FILE):
        acks = await _run_and_kill(db, seed=lane * 100 + i, rng=rng)
        if db.exists():
            _check_file(db, acks)
        acknowledged += sum(len(a["steps"]) for a in acks)
    return acknowledged


async def test_killed_writers_lose_nothing_acknowledged(tmp_path: Path) -> None:
    dbs = [tmp_path / f"lane{n}" / "games.sqlite3" for n in range(2)]
    counts = await asyncio.gather(*(_kill_lane(db, n) for n, db in enumerate(dbs)))
    assert all(c > 0 for c in counts), counts  # the writers did get moves in
    for db in dbs:
        async with await Store.open(db) as store:
            assert await store.integrity_check() == "ok"
            svc = GameService(store)
            ids = [r[0] for r in await store._all("SELECT id FROM games")]
            assert ids
            for gid in ids:  # every game replays
                await svc.history(gid)
                g = await svc.game(gid)
                if g.status == "active":
                    assert (await svc.whose_turn(gid)) == g.turn


# ---------------------------------------------------------------------------- corrupt rows


def _tamper(db: Path, sql: str, *params: object) -> None:
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("DROP TRIGGER IF EXISTS events_append_only_update")
    conn.execute("DROP TRIGGER IF EXISTS events_append_only_delete")
    conn.execute(sql, params)
    conn.close()


@pytest.mark.parametrize(
    ("sql", "detail"),
    [
        ("UPDATE events SET payload = '{not json' WHERE game_id = ? AND seq = 4", "Expecting"),
        (
            'UPDATE events SET payload = \'{"kind":"move","seat":0,"move":"0-0 @2"}\' '
            "WHERE game_id = ? AND seq = 4",
            "does not apply",
        ),
        ("UPDATE events SET payload = '[1, 2]' WHERE game_id = ? AND seq = 4", "unreadable"),
        ("DELETE FROM events WHERE game_id = ? AND seq = 3", "missing"),
        pytest.param(
            "UPDATE games SET rules = 'nope' WHERE id = ?",
            "rules",
            # A listing leaves the game out and says so in the log, for the operator.
            marks=pytest.mark.expect_errors(
                logger="bot.service.queries", match=r"unreadable rules, left out of a listing"
            ),
        ),
    ],
)
async def test_a_corrupt_game_is_reported_and_spares_the_others(
    db_path: Path, clock: FakeClock, sql: str, detail: str
) -> None:
    async with await Store.open(db_path) as store:
        svc = GameService(store, rng=random.Random(1))
        bad = (await new_game(svc, clock)).game.id
        good = (await new_game(svc, clock, channel=CHANNEL + 1)).game.id
        for gid in (bad, good, bad, good, bad):
            await play_turn(svc, gid, clock)
    _tamper(db_path, sql, bad)
    async with await Store.open(db_path) as store:
        svc = GameService(store)
        with pytest.raises(errors.GameCorrupt) as exc:
            await svc.whose_turn(bad)
        assert exc.value.code == "game-corrupt" and exc.value.game_id == bad
        assert f"game #{bad}" in str(exc.value) and detail in str(exc.value)
        if "seq = " in sql:
            assert exc.value.seq == int(sql.split("seq = ")[1][0])
        with pytest.raises(errors.GameCorrupt):
            await svc.move(bad, ALICE, DRAW, clock.tick())
        # The other game plays on, and listings still work.
        await play_turn(svc, good, clock)
        listed = [g.id for g in await svc.games_for_user(BOB)]
        assert good in listed and (bad in listed) == ("rules" not in sql)
