"""One bot process of a cluster, at the service level, for the cluster benchmarks: its own
asyncpg pool, ``GameService``, ``ScheduleService`` and claiming ``Scheduler`` over one
PostgreSQL database, talking to the parent in JSON lines (stdout out, stdin in).

``play`` mode (benchmarks/cluster_kill.py): plays the human moves of its own games as fast as
it can and runs the scheduler (claims, a lease) for every game; prints ``{"ack": …}`` once a
move's commit returned (an acknowledged move) and ``{"fired": …}`` once scheduled work was
done and delivered. Time is a shared virtual clock running ``speed`` times real time, so the
one-minute turn deadlines of the idle games pass every second.

``race`` mode (benchmarks/cluster_race.py): for each ``{"gid", "uid", "move"}`` line, loads the
game, validates the move, says ``ready`` and waits at the gate before its transaction until the
parent says ``go`` to both processes; then commits and says what happened.

Not a test and not the bot: the parent kills it with SIGKILL whenever it likes.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import sys
import time
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere

from bot.engine import Move, Play, parse_move
from bot.service import GameOptions, GameService, errors
from bot.service.schedule import ScheduleService
from bot.service.scheduler import Scheduler
from bot.service.timing import Notice, TurnPlayed
from bot.store import Tx, open_store

EPOCH = datetime(2025, 1, 1, tzinfo=UTC)


def say(obj: object) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


class VirtualClock:
    """``EPOCH`` + (real seconds since ``t0``) times ``speed``: the same in every process."""

    def __init__(self, t0: float, speed: float) -> None:
        self.t0, self.speed = t0, speed

    def __call__(self) -> datetime:
        return EPOCH + timedelta(seconds=(time.time() - self.t0) * self.speed)


async def play(args: argparse.Namespace) -> None:
    store = await open_store(args.url)
    clock = VirtualClock(args.t0, args.speed)
    svc = GameService(store, rng=random.Random(args.seed))
    schedule = ScheduleService(svc)

    async def deliver(notice: Notice) -> None:
        if isinstance(notice, TurnPlayed):
            say({"fired": notice.due.game_id, "kind": notice.due.kind, "key": notice.due.turn_key,
                 "by": args.name})  # fmt: skip

    lease = timedelta(seconds=args.lease * args.speed)  # virtual time: ``lease`` real seconds
    scheduler = Scheduler(
        schedule, clock, deliver, send_interval=0, owner=args.name, lease=lease, max_sleep=0.1
    )
    runner = asyncio.create_task(scheduler.run())
    rng = random.Random(args.seed)
    games = [int(g) for g in args.games.split(",") if g]
    say({"up": args.name})
    try:
        while True:
            gid = rng.choice(games)
            game = await svc.game(gid)
            if game.turn is None or game.turn.user_id is None:
                await asyncio.sleep(0.01)
                continue
            uid = game.turn.user_id
            try:
                view = await svc.seat_view(gid, uid)
                plays = [m for m in view.legal if isinstance(m, Play)]
                move = rng.choice(plays) if plays else view.legal[0]
                out = await svc.move(gid, uid, move, clock(), expected_version=game.version)
            except errors.ServiceError:
                continue  # the scheduler of some process played this turn first
            mine = [s.seq for s in out.steps if s.player.user_id == uid]
            say({"ack": gid, "seqs": mine, "actor": uid, "version": out.game.version})
            await asyncio.sleep(args.pause)
    finally:
        runner.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await runner
        await scheduler.release()
        await store.close()


async def race(args: argparse.Namespace) -> None:
    store = await open_store(args.url)
    svc = GameService(store, rng=random.Random(args.seed))
    go = asyncio.Event()
    original = store.transaction

    @contextlib.asynccontextmanager
    async def gated() -> AsyncIterator[Tx]:
        say({"ready": True})  # validated: the move is about to be written
        await go.wait()
        async with original() as tx:
            yield tx

    store.transaction = gated  # type: ignore[method-assign]
    reader = asyncio.StreamReader()
    loop = asyncio.get_running_loop()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    jobs: asyncio.Queue[dict[str, object] | None] = asyncio.Queue()

    async def read() -> None:
        while line := await reader.readline():
            job = json.loads(line)
            if job.get("go"):
                go.set()
            else:
                jobs.put_nowait(job)
        jobs.put_nowait(None)

    reading = asyncio.create_task(read())
    say({"up": args.name})
    try:
        while (job := await jobs.get()) is not None:
            go.clear()
            gid, uid = int(str(job["gid"])), int(str(job["uid"]))
            await svc.seat_view(gid, uid)  # cached and current before the race
            try:
                out = await svc.move(gid, uid, parse_move(str(job["move"])), datetime.now(UTC))
                say({"applied": True, "version": out.game.version})
            except errors.TableChanged:
                say({"applied": False, "told": "table-changed"})
            except errors.ServiceError as exc:
                say({"applied": False, "told": exc.code})
    finally:
        reading.cancel()
        await store.close()


# ---------------------------------------------------------------------- the parent's side


USERS = (101, 102)


@contextlib.contextmanager
def pg_server(url: str | None) -> Iterator[str]:
    """``url``, or a throwaway PostgreSQL server with durable commits (tests/pg.py)."""
    if url:
        yield url
        return
    from tests import pg

    with pg.start(durable=True) as server:
        yield server.url


async def fresh_db(url: str, name: str) -> str:
    """An empty database ``name`` on the server of ``url``; its URL."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return url.rsplit("/", 1)[0] + "/" + name


async def new_game(
    svc: GameService, channel: int, now: datetime, deadline: timedelta | None = None
) -> int:
    """A started two-player game (``deadline``: the turn deadline)."""
    out = await svc.create_lobby(
        guild_id=1, channel_id=channel, user_id=USERS[0], display_name="Ann", now=now,
        options=GameOptions(turn_deadline=deadline),
    )  # fmt: skip
    gid = out.game.id
    await svc.join(gid, USERS[1], "Ben", now)
    await svc.start(gid, USERS[0], now)
    return gid


def pick(svc: GameService, gid: int, rng: random.Random) -> tuple[int, Move]:
    """The player to move (from the cached game) and a legal move, tiles preferred."""
    match = svc.cached(gid)
    assert match is not None and match.round is not None
    legal = list(match.round.legal_moves())
    plays = [m for m in legal if isinstance(m, Play)]
    return USERS[match.round.current], (rng.choice(plays) if plays else legal[0])


class Worker:
    """A worker subprocess as its parent sees it: JSON lines in and out."""

    def __init__(self, proc: asyncio.subprocess.Process, name: str) -> None:
        self.proc, self.name = proc, name
        self.lines: list[dict[str, object]] = []

    @classmethod
    async def start(cls, mode: str, url: str, name: str, *extra: str) -> Worker:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, str(Path(__file__)), mode, "--url", url, "--name", name, *extra,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        )  # fmt: skip
        worker = cls(proc, name)
        up = await worker.read()
        assert up == {"up": name}, up
        return worker

    async def read(self) -> dict[str, object]:
        assert self.proc.stdout is not None
        line = await self.proc.stdout.readline()
        if not line:
            raise EOFError(f"worker {self.name} ended")
        obj: dict[str, object] = json.loads(line)
        return obj

    def send(self, obj: object) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write((json.dumps(obj) + "\n").encode())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mode", choices=("play", "race"))
    ap.add_argument("--url", required=True)
    ap.add_argument("--name", required=True)
    ap.add_argument("--games", default="")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--t0", type=float, default=0.0)
    ap.add_argument("--speed", type=float, default=60.0)
    ap.add_argument("--lease", type=float, default=1.0, help="real seconds")
    ap.add_argument("--pause", type=float, default=0.005)
    args = ap.parse_args()
    asyncio.run(play(args) if args.mode == "play" else race(args))


if __name__ == "__main__":
    main()
