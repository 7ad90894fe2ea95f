"""Cluster load through the fake Discord: the same games played by one bot process and by two.

One fake Discord with two shards and a server on each; ``--games`` games per server, each with
two players whose moves go through Discord (``/play``, ``/draw``, ``/pass``) as a client sends
them, all games at once. Three setups, one after the other on the same machine, each a real
``python -m bot`` (or two) with both shards:

* ``sqlite_1proc``: one process, both shards, an SQLite file (``synchronous=FULL``);
* ``pg_1proc``: one process, both shards, PostgreSQL (durable commits);
* ``pg_2proc``: two processes, ``MT_SHARD_IDS=0`` and ``1``, one PostgreSQL.

For each: moves/s (all moves / wall time) and the player's wait per move (slash command to
answer shown). Beside them, per-move commit latency through the service (lock, version check,
append, commit) on SQLite and on PostgreSQL in the same run (benchmarks/store_pg.py's
``moves``). Prints ONE JSON line with the load average.

    python benchmarks/cluster_load.py --games 6 --moves 12
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere

from benchmarks.cluster_worker import fresh_db, pg_server
from benchmarks.store_pg import moves as service_moves
from bot.engine import Play
from bot.service import GameService
from bot.store import open_store
from tests.e2e.helpers import lobby_card
from tests.fakediscord import FakeChannel, FakeDiscord, FakeUser, fake_discord
from tests.ops.helpers import ROOT, bot_env


async def _start(fake: FakeDiscord, db: str, logs: Path, name: str, **env: str) -> object:
    log = (logs / f"{name}.log").open("wb")
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "--sync", cwd=ROOT, stdout=log, stderr=log,
        env=bot_env(fake, Path(db), MT_DATABASE=db, MT_RENDER_WORKERS="0", **env),
    )  # fmt: skip


async def _connected(fake: FakeDiscord, procs: list[asyncio.subprocess.Process]) -> None:
    for _ in range(400):
        if any(p.returncode is not None for p in procs):
            raise RuntimeError("a bot process exited at start-up")
        live = {s.shard[0] for s in fake.sessions.values() if s.conn is not None}
        if live == {0, 1} and fake.commands():
            return
        await asyncio.sleep(0.05)
    raise TimeoutError("the bot processes never connected")


async def _game(svc: GameService, channel: FakeChannel, host: FakeUser, guest: FakeUser) -> int:
    opened = await host.slash("mt new", channel=channel, preset="standard")
    await opened.message(timeout=30)
    # The card follows the host's answer, as the command's followup.
    lobby = await lobby_card(opened.fake, channel, 30)
    assert lobby is not None
    await (await guest.click(lobby, label="Join")).message(timeout=30)
    await (await host.click(lobby, label="Start")).message(timeout=30)
    game = await svc.game_in_channel(channel.id)
    assert game is not None
    return game.id


async def _play(
    svc: GameService,
    gid: int,
    channel: FakeChannel,
    users: dict[int, FakeUser],
    n: int,
    waits: list[float],
    rng: random.Random,
) -> int:
    done = 0
    for _ in range(n):
        game = await svc.game(gid)
        if game.turn is None or game.turn.user_id is None:
            break
        view = await svc.seat_view(gid, game.turn.user_id)
        plays = [m for m in view.legal if isinstance(m, Play)]
        move = str(rng.choice(plays) if plays else view.legal[0])
        user = users[game.turn.user_id]
        tile, _, train = move.partition(" ")
        began = time.perf_counter()
        if train:
            inv = await user.slash("play", channel=channel, tile=tile, train=train)
        else:
            inv = await user.slash(move, channel=channel)
        answer = await inv.message(timeout=60)
        waits.append(time.perf_counter() - began)
        if answer.content.startswith("✅"):
            done += 1
    return done


async def setup(name: str, db: str, shard_env: list[dict[str, str]], games: int, n: int) -> dict:
    async with fake_discord(shards=2) as fake, await open_store(db) as store:
        first = fake.guilds[fake.guild_id]
        second = fake.guild("Second Club", shard=1 - first.shard(2))
        with tempfile.TemporaryDirectory() as logs:
            procs = [
                await _start(fake, db, Path(logs), f"{name}{i}", **env)
                for i, env in enumerate(shard_env)
            ]
            try:
                await _connected(fake, procs)  # type: ignore[arg-type]
                svc = GameService(store)
                users: dict[int, FakeUser] = {}
                tables = []
                for g, guild in enumerate((first, second)):
                    for i in range(games):
                        host, guest = fake.user(f"h{g}-{i}"), fake.user(f"g{g}-{i}")
                        users |= {host.id: host, guest.id: guest}
                        channel = fake.channel(f"t{i}", guild=guild)
                        tables.append((await _game(svc, channel, host, guest), channel))
                waits: list[float] = []
                began = time.perf_counter()
                rng = random.Random(7)
                done = await asyncio.gather(
                    *(_play(svc, gid, ch, users, n, waits, rng) for gid, ch in tables)
                )
                wall = time.perf_counter() - began
            finally:
                for p in procs:
                    p.terminate()  # type: ignore[attr-defined]
                for p in procs:
                    await p.wait()  # type: ignore[attr-defined]
    ms = sorted(w * 1000 for w in waits)
    return {
        "processes": len(shard_env),
        "games": len(tables),
        "moves": sum(done),
        "moves_per_s": round(sum(done) / wall, 2),
        "wait_median_ms": round(statistics.median(ms), 1),
        "wait_p95_ms": round(ms[int(0.95 * (len(ms) - 1))], 1),
    }


async def run(base: str, games: int, n: int, commits: int) -> dict[str, object]:
    out: dict[str, object] = {"benchmark": "cluster_load", "loadavg_start": os.getloadavg()[0]}
    with tempfile.TemporaryDirectory() as tmp:
        lite = str(Path(tmp) / "load.sqlite3")
        out["sqlite_1proc"] = await setup("lite", lite, [{"MT_SHARD_COUNT": "2"}], games, n)
        one = await fresh_db(base, "mt_bench_cluster_load1")
        out["pg_1proc"] = await setup("one", one, [{"MT_SHARD_COUNT": "2"}], games, n)
        two = await fresh_db(base, "mt_bench_cluster_load2")
        shards = [{"MT_SHARD_COUNT": "2", "MT_SHARD_IDS": str(i)} for i in (0, 1)]
        out["pg_2proc"] = await setup("two", two, shards, games, n)
        store = await open_store(Path(tmp) / "commit.sqlite3", synchronous="FULL")
        try:
            lite_commit = await service_moves(store, commits)
        finally:
            await store.close()
    store = await open_store(await fresh_db(base, "mt_bench_cluster_commit"))
    try:
        pg_commit = await service_moves(store, commits)
    finally:
        await store.close()
    out["commit_per_move"] = {
        "moves": commits,
        "sqlite_full": lite_commit,
        "postgresql_durable": pg_commit,
    }
    pg1, pg2 = out["pg_1proc"], out["pg_2proc"]
    out["two_over_one_moves_per_s"] = round(pg2["moves_per_s"] / pg1["moves_per_s"], 2)  # type: ignore[index]
    out["loadavg_end"] = os.getloadavg()[0]
    out["cpus"] = os.cpu_count()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=6, help="games per server (two servers)")
    ap.add_argument("--moves", type=int, default=12, help="moves per game")
    ap.add_argument("--commits", type=int, default=300, help="service-level moves per store")
    ap.add_argument("--pg-url", help="a PostgreSQL server to use (default: start a throwaway)")
    args = ap.parse_args()
    with pg_server(args.pg_url) as base:
        print(json.dumps(asyncio.run(run(base, args.games, args.moves, args.commits))))


if __name__ == "__main__":
    main()
