"""The catch-up digest late in a long match: how long ``GameService.digest`` and its words take.

Plays a 4-player standard match through the service on a real SQLite file (every move a
human's, chosen deterministically) into its 11th round, with one player away for the last
round and a half (their turns played by the scheduler's away path). Then times, on that game:

* ``turn`` — a player who has just had their turn (what a turn notification needs);
* ``away`` — the away player, back after a round and a half (a long stretch, a round end);
* ``spectator`` — someone without a seat (the last 10 moves);
* ``full_replay`` — a full replay of the same log by the engine alone (``Match.replay``), for
  the ratio: the digest replays only the rounds it needs;
* ``words`` — ``catchup_text`` of the away player's digest in a 1,000-character budget;
* ``turn_early`` / ``turn_late`` — CPU per call (process time, threads included) of the digest
  a turn notification asks for (the next mover's), in round 2 and in round 11, through the
  service (which reads the log's last rounds) and from the whole log, with their ratios.

Each ``service_*`` figure is the whole call (reading the game's events from the file and the
fold); ``fold_*`` is the fold alone on a record already read. Prints one JSON line, with the
load average (the machine is shared: compare ratios within one run).

    python -m benchmarks.digest [--repeat 200] [--seed 1]
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
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bot.engine import Match, Play
from bot.service import GameService
from bot.service.catchup import digest_of
from bot.service.eventlog import live_engine_rows
from bot.service.outcome import read_rules
from bot.service.replay import decode_event
from bot.service.schedule import ScheduleService
from bot.store import Store
from bot.ui.catchup import catchup_text

USERS = (101, 102, 103, 104)
NAMES = ("Ann", "Ben", "Cy", "Dee")
AWAY = USERS[3]
SPECTATOR = 999


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2025, 1, 1, tzinfo=UTC)

    def tick(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


async def per_turn(svc: GameService, gid: int, repeat: int) -> dict[str, float]:
    """CPU per call (process time: the store's and the fold's threads included) of the digest
    a turn notification asks for — the next mover's — through the service, and the same
    digest from the whole log (what every call read before issue 39)."""
    game = await svc.game(gid)
    assert game.turn is not None
    user = game.turn.user_id
    if user == AWAY:  # her turns are played for her: the next player is the one told
        user = game.players[(game.turn.seat + 1) % len(game.players)].user_id

    async def whole() -> None:
        digest_of(await svc.game_record(gid), user)

    out: dict[str, float] = {}
    for label, call in (("service", lambda: svc.digest(gid, user)), ("whole_log", whole)):
        samples = []
        for _ in range(repeat):
            t = time.process_time()
            await call()
            samples.append(time.process_time() - t)
        out[f"{label}_cpu_ms"] = round(statistics.mean(samples) * 1000, 3)
    out["round"] = (game.round_no or 0) + 1
    return out


async def build(
    db: Path, seed: int, early: dict[str, float], repeat: int
) -> tuple[Store, GameService, int, int]:
    """The game, played into round 11 with Dee away since the middle of round 10; ``early``
    gets the per-turn digest figures in round 2."""
    store = await Store.open(db, synchronous="NORMAL")
    svc = GameService(store, rng=random.Random(seed))
    schedule = ScheduleService(svc)
    clock = Clock()
    gid = (
        await svc.create_lobby(
            guild_id=1, channel_id=1, user_id=USERS[0], display_name=NAMES[0], now=clock.tick()
        )
    ).game.id
    for u, n in zip(USERS[1:], NAMES[1:], strict=True):
        await svc.join(gid, u, n, clock.tick())
    await svc.start(gid, USERS[0], clock.tick())
    away_from = (9, 40)  # round 10, after 40 of its moves
    turns_in_round = 0
    last_round = 0
    while True:
        game = await svc.game(gid)
        assert game.turn is not None and game.turn.user_id is not None
        if game.round_no != last_round:
            last_round, turns_in_round = game.round_no or 0, 0
        if (game.round_no, turns_in_round) == away_from:
            await schedule.set_away(AWAY, True, clock.tick())
        if game.round_no == 1 and turns_in_round == 30:
            early.update(await per_turn(svc, gid, repeat))
        if game.round_no == 10 and turns_in_round >= 30:
            break
        uid = game.turn.user_id
        if uid == AWAY and (game.round_no or 0, turns_in_round) >= away_from:
            await schedule.play_away_turn(gid, uid, clock.tick())
        else:
            view = await svc.seat_view(gid, uid)
            plays = [m for m in view.legal if isinstance(m, Play)]
            await svc.move(gid, uid, plays[0] if plays else view.legal[0], clock.tick())
        turns_in_round += 1
    record = await svc.game_record(gid)
    # The player who last moved themselves (Dee's turns are played for her).
    just_played = next(
        e.actor for e in reversed(record.events) if e.kind == "move" and e.actor is not None
    )
    assert just_played != AWAY
    return store, svc, gid, just_played


def stats_ms(samples: list[float]) -> dict[str, float]:
    samples = sorted(samples)
    return {
        "p50_ms": round(statistics.median(samples) * 1000, 3),
        "p99_ms": round(samples[min(len(samples) - 1, int(len(samples) * 0.99))] * 1000, 3),
    }


async def timed_async(call: Callable[[], Awaitable[Any]], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        await call()
        out.append(time.perf_counter() - t)
    return out


def timed(call: Callable[[], Any], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        call()
        out.append(time.perf_counter() - t)
    return out


async def run(repeat: int, seed: int, db: Path) -> dict[str, object]:
    early: dict[str, float] = {}
    store, svc, gid, just = await build(db, seed, early, repeat)
    try:
        record = await svc.game_record(gid)
        result: dict[str, object] = {
            "benchmark": "digest",
            "events": len(record.events),
            "round": (record.game.round_no or 0) + 1,
            "repeat": repeat,
        }
        # Issue 39: the turn notification's digest, CPU per call early and late in the match.
        late = await per_turn(svc, gid, repeat)
        result["turn_early"], result["turn_late"] = early, late
        result["turn_late_vs_early"] = round(late["service_cpu_ms"] / early["service_cpu_ms"], 2)
        result["whole_log_late_vs_early"] = round(
            late["whole_log_cpu_ms"] / early["whole_log_cpu_ms"], 2
        )
        away = digest_of(record, AWAY)
        result["away_moves"] = len(away.moves)
        result["away_rounds_over"] = len(away.rounds_over)
        for label, user in (("turn", just), ("away", AWAY), ("spectator", SPECTATOR)):
            result[f"service_{label}"] = stats_ms(
                await timed_async(lambda u=user: svc.digest(gid, u), repeat)  # type: ignore[misc]
            )
            result[f"fold_{label}"] = stats_ms(
                timed(lambda u=user: digest_of(record, u), repeat)  # type: ignore[misc]
            )
        rules = read_rules(record.game)
        names = [s.display_name for s in record.seats]
        rows = live_engine_rows(gid, record.events)

        def full() -> None:
            Match.replay(
                rules, names, (decode_event(e, rules, len(names)) for e in rows),
                record.game.engine_version,
            )  # fmt: skip

        result["full_replay"] = stats_ms(timed(full, repeat))
        result["words"] = stats_ms(timed(lambda: catchup_text(away, "en", 1000), repeat))
        fold_away = result["fold_away"]
        assert isinstance(fold_away, dict)
        full_p50 = result["full_replay"]["p50_ms"]  # type: ignore[index]
        result["fold_away_vs_full_replay"] = round(fold_away["p50_ms"] / full_p50, 3)
        result["loadavg"] = [round(x, 2) for x in os.getloadavg()]
        return result
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        print(json.dumps(asyncio.run(run(args.repeat, args.seed, Path(tmp) / "digest.sqlite3"))))


if __name__ == "__main__":
    main()
