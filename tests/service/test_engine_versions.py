"""A game stored by an older engine loads, through the service, as that engine played it.

The game row keeps the engine version that recorded it; every replay (the full one, the one
from a round snapshot, the history) must pass it to the engine. The recording is the engine
tests' ``v1_game.json``: written by engine version 1, whose first round ended "blocked" before
every player had passed (issue 15), followed by the second round's deal and moves.
"""

from __future__ import annotations

import json
import logging
import random
import sqlite3
from pathlib import Path

import pytest

from bot.engine.position import to_position
from bot.service import GameService
from bot.store import Store
from tests.clock import FakeClock
from tests.service.conftest import ALICE, BOB, CAROL
from tests.service.helpers import new_game, play_turn

FIXTURE = Path(__file__).parents[1] / "engine" / "fixtures" / "v1_game.json"


def _store_the_recording(db: Path, gid: int, recording: dict[str, object]) -> None:
    """Swap the started game's deal and moves for the version-1 recording, as an old bot
    would have written them (with a round snapshot at the second deal)."""
    events = recording["events"]
    assert isinstance(events, list)
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("DROP TRIGGER IF EXISTS events_append_only_update")
    conn.execute("DROP TRIGGER IF EXISTS events_append_only_delete")
    start, at = conn.execute(
        "SELECT seq, at FROM events WHERE game_id = ? AND kind = 'start'", (gid,)
    ).fetchone()
    conn.execute("DELETE FROM events WHERE game_id = ? AND seq > ?", (gid, start))
    conn.execute("DELETE FROM round_snapshots WHERE game_id = ?", (gid,))
    rows = [
        (gid, start + 1 + i, e["kind"], json.dumps(e, separators=(",", ":")), None, at)
        for i, e in enumerate(events)
    ]
    conn.executemany(
        "INSERT INTO events (game_id, seq, kind, payload, actor, at) VALUES (?, ?, ?, ?, ?, ?)",
        rows,
    )
    second_deal = next(r[1] for r in rows if r[2] == "round" and json.loads(r[3])["round"] == 1)
    scores = recording["round_one_scores"]
    conn.execute(
        "INSERT INTO round_snapshots (game_id, seq, rounds) VALUES (?, ?, ?)",
        (gid, second_deal, json.dumps([{"scores": scores, "went_out": None}])),
    )
    position = recording["position"]
    assert isinstance(position, dict)
    seat = position["current_round"]["turn"]["seat"]
    conn.execute(
        "UPDATE games SET engine_version = 1, turn_seat = ?, round_no = 1 WHERE id = ?",
        (seat, gid),
    )
    conn.close()


async def test_a_game_recorded_by_engine_version_1_loads_and_plays_on(
    db_path: Path, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    recording = json.loads(FIXTURE.read_text(encoding="utf-8"))
    async with await Store.open(db_path) as store:
        svc = GameService(store, rng=random.Random(1))
        out = await new_game(
            svc, clock, humans=(ALICE, BOB, CAROL), preset="standard", house_rules={"rounds": 2}
        )
        gid = out.game.id
    _store_the_recording(db_path, gid, recording)
    async with await Store.open(db_path) as store:
        svc = GameService(store, rng=random.Random(1))
        # The full replay, the snapshot shortcut and the cache all agree …
        await svc.verify_game(gid)
        assert not [r for r in caplog.records if "snapshot" in r.getMessage()]
        assert await svc.round_scores(gid) == (tuple(recording["round_one_scores"]),)
        match = svc.cached(gid)
        assert match is not None and match.engine_version == 1
        # … with the state the old engine recorded (seat names come from the seats table).
        assert to_position(match) == recording["position"]
        await play_turn(svc, gid, clock)
        svc.clear_cache()
        await svc.verify_game(gid)
        history = await svc.history(gid)
        assert history
