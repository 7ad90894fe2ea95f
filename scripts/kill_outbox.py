"""kill -9 during play, through the fake Discord: every committed move told once (issue 37).

The fake Discord runs in this process; the bot runs in a child process (the real bot,
``bot.app.create_bot``, pointed at the fake), on an SQLite file or a PostgreSQL database. Two
people play whole matches by typing moves (``/play``, ``/draw``, ``/pass``). Between normal
moves, the child is killed with SIGKILL ``--at-ack`` times the instant the mover's ✅ arrives,
and ``--random`` times at a random instant after a move was typed (0 to 0.6 s), then started
again on the same database. At the end (after a last restart has paid what was owed) it
checks, against the event log:

* **every committed move appears in the channel exactly once**: the lines the posts hold,
  as a multiset, against the lines of every move in the log (``missing``, ``duplicated``);
* **the next player is pinged exactly once**: per player, the notifications they got (a DM,
  a mention that pings) against the turns that came to them from someone else's move;
* the posts Discord answered from a nonce instead of posting twice (``nonce_repeats``).

Prints ONE JSON line.

    python scripts/kill_outbox.py --store sqlite --at-ack 10 --random 20
    python scripts/kill_outbox.py --store postgresql --at-ack 10 --random 20
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere

from bot.config import Config
from bot.engine import Draw, Match, Pass, Play
from bot.engine.match import RoundStarted
from bot.service import GameService
from bot.service.eventlog import ENGINE_KINDS, cancelled_seqs
from bot.service.outbox import owed_outcome
from bot.service.replay import decode_event, read_rules
from bot.store import GameStatus, Store, open_store
from bot.ui.messages import step_lines

WAIT = 60.0


# ---------------------------------------------------------------------- the child: the bot


async def child(base: str, gateway: str, target: str, seed: int) -> None:
    import discord
    import yarl

    from bot.app import create_bot
    from bot.ui.deliver import Deliverer

    if os.environ.get("KILL_OUTBOX_CONTROL"):
        # The control run: nothing pays what a crash left owed, as before the outbox.
        async def nothing(self: Deliverer, **kwargs: Any) -> int:
            return 0

        async def idle(self: Deliverer, **kwargs: Any) -> None:
            await asyncio.Event().wait()

        Deliverer.drain = nothing  # type: ignore[method-assign]
        Deliverer.run = idle  # type: ignore[method-assign]

    discord.http.Route.BASE = base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    bot = create_bot(config_for(target, sync=True), rng=random.Random(seed))
    bot._connection.guild_ready_timeout = 0.05
    await bot.start("fake-token")


def config_for(target: str, *, sync: bool = False) -> Config:
    if target.startswith("postgresql://"):
        return Config(database_url=target, render_workers=0, sync_commands=sync)
    return Config(database=Path(target), render_workers=0, sync_commands=sync)


# ---------------------------------------------------------------------- the parent: players


class Run:
    def __init__(self, target: str, rng: random.Random, log: Path) -> None:
        from tests.fakediscord import FakeDiscord

        self.target, self.rng, self.log = target, rng, log
        # Slow children under load must not lose interactions to the 3 s deadline: that is
        # not what this run measures.
        self.fake = FakeDiscord(strict=False, interaction_deadline=60.0)
        self.proc: asyncio.subprocess.Process | None = None
        self.starts = 0
        self.store: Store | None = None
        self.service: GameService | None = None
        self.games: list[int] = []
        self.control = bool(os.environ.get("KILL_OUTBOX_CONTROL"))

    async def start_child(self) -> None:
        from tests.fakediscord.server import API_PREFIX

        self.starts += 1
        before = self.fake.gateway.active
        with self.log.open("ab") as out:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                __file__,
                "--child",
                self.fake.base_url + API_PREFIX,
                self.fake.gateway_url,
                self.target,
                str(self.starts),
                stdout=out,
                stderr=out,
            )
        deadline = time.monotonic() + WAIT
        while True:
            session = self.fake.gateway.active
            ready = session is not None and session is not before and session.conn is not None
            if ready and self.fake.commands():
                break
            assert self.proc.returncode is None, f"the bot exited: see {self.log}"
            assert time.monotonic() < deadline, "the bot never connected"
            await asyncio.sleep(0.05)
        await self.paid()

    async def kill(self) -> None:
        assert self.proc is not None
        self.proc.kill()  # SIGKILL
        await self.proc.wait()
        self.proc = None

    async def paid(self) -> None:
        """Wait until the outbox is empty: everything committed was delivered. The control
        run (nothing pays what a crash left owed) gives each move a second instead."""
        assert self.store is not None
        if self.control:
            await asyncio.sleep(1.0)
            return
        deadline = time.monotonic() + WAIT
        while int((await self.store.fetch_one("SELECT COUNT(*) FROM outbox"))[0]) != 0:
            assert time.monotonic() < deadline, "the outbox was never paid"
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.1)  # the last edit's answer on its way

    async def current_game(self) -> int:
        assert self.service is not None
        room = self.room
        game = await self.service.game_in_channel(room.id)
        if game is not None and game.status is GameStatus.ACTIVE:
            return game.id
        host, other = self.alice, self.bob
        inv = await host.slash("mt new", channel=room, preset="quick")
        await inv.message(timeout=WAIT)
        lobby = room.last_message()
        assert lobby is not None
        await (await other.click(lobby, label="Join")).message(timeout=WAIT)
        await (await host.click(lobby, label="Start")).message(timeout=WAIT)
        await self.paid()
        game = await self.service.game_in_channel(room.id)
        assert game is not None
        self.games.append(game.id)
        return game.id

    async def type_a_move(self) -> Any:
        from tests.e2e.helpers import type_move

        assert self.service is not None
        gid = await self.current_game()
        game = await self.service.game(gid)
        assert game.turn is not None and game.turn.user_id is not None
        user = self.users[game.turn.user_id]
        view = await self.service.seat_view(gid, user.id)
        moves = [m for m in view.legal if isinstance(m, Play | Draw | Pass)]
        plays = [m for m in moves if isinstance(m, Play)]
        move = self.rng.choice(plays if plays and self.rng.random() < 0.8 else moves)
        return await type_move(user, self.room, str(move))

    async def main(self, at_ack: int, at_random: int, between: int) -> dict[str, Any]:
        await self.fake.start()
        self.room = self.fake.channel("games")
        self.alice, self.bob = self.fake.user("alice"), self.fake.user("bob")
        self.users = {u.id: u for u in (self.alice, self.bob)}
        self.store = await open_store(config_for(self.target))
        self.service = GameService(self.store)
        kills = ["ack"] * at_ack + ["random"] * at_random
        self.rng.shuffle(kills)
        acked = 0
        try:
            await self.start_child()
            for how in kills:
                for _ in range(between):
                    answer = await (await self.type_a_move()).message(timeout=WAIT)
                    assert answer.content.startswith("✅"), answer.content
                    await self.paid()
                inv = await self.type_a_move()
                if how == "ack":
                    answer = await inv.message(timeout=WAIT)
                    await self.kill()
                    acked += answer.content.startswith("✅")
                else:
                    await asyncio.sleep(self.rng.uniform(0.0, 0.6))
                    await self.kill()
                await self.start_child()
            result = await self.check()
        finally:
            if self.proc is not None:
                await self.kill()
            await self.store.close()
            await self.fake.stop()
        result.update(kills_at_ack=at_ack, kills_random=at_random, acks_before_kill=acked)
        return result

    # ------------------------------------------------------------------ the checks

    async def check(self) -> dict[str, Any]:
        assert self.store is not None
        expected: collections.Counter[str] = collections.Counter()
        pings_due: collections.Counter[int] = collections.Counter()
        moves = 0
        for gid in self.games:
            record = await self.store.load(gid)
            assert record is not None
            out = owed_outcome(record, 1)
            names = [p.name for p in out.game.players]
            for step in out.steps:
                expected.update(step_lines(names, step, "en"))
            moves += len(out.steps)
            for user, n in turn_pings(record).items():
                pings_due[user] += n
        said: collections.Counter[str] = collections.Counter()
        for message in self.room.messages():
            if message.author is not self.fake.bot_user:
                continue
            for line in lines_of(message):
                if line in expected:
                    said[line] += 1
        got = {u: len(self.fake.pings_for(self.users[u])) for u in self.users}
        return {
            "store": "postgresql" if self.target.startswith("postgresql") else "sqlite",
            "games": len(self.games),
            "moves_committed": moves,
            "move_lines_expected": sum(expected.values()),
            "missing": sum((expected - said).values()),
            "duplicated": sum((said - expected).values()),
            "pings_expected": sum(pings_due.values()),
            "pings_got": sum(got.values()),
            "pings_missing": sum(max(0, pings_due[u] - got[u]) for u in self.users),
            "pings_extra": sum(max(0, got[u] - pings_due[u]) for u in self.users),
            "nonce_repeats": self.fake.nonce_repeats,
            "bot_starts": self.starts,
            "control": self.control,
        }


def lines_of(message: Any) -> Iterator[str]:
    yield from message.content.splitlines()
    for embed in message.embeds:
        yield from str(embed.get("description") or "").splitlines()


def turn_pings(record: Any) -> collections.Counter[int]:
    """Per user, the pings the log says they are owed: the first turn of the match when the
    host did not get it, and each turn that came to them from the other player's move (a
    move that leaves its own player to move pings nobody: they are looking)."""
    row, seats = record.game, record.seats
    rules = read_rules(row)
    names = [s.display_name for s in seats]
    gone = cancelled_seqs(row.id, record.events)
    events = [e for e in record.events if e.kind in ENGINE_KINDS and e.seq not in gone]
    owed: collections.Counter[int] = collections.Counter()
    match: Match | None = None
    actor: int | None = row.host_id  # the first deal comes from the host's Start
    for i, e in enumerate(events):
        event = decode_event(e, rules, len(names))
        if isinstance(event, RoundStarted):
            match = match or Match(rules, names, row.engine_version)
            match.start_round(event.order)
        else:
            assert match is not None
            match.apply(event.move, event.seat)
            actor = e.actor
        if i + 1 < len(events) and events[i + 1].kind == "round":
            continue  # the deal is part of the same commit
        if match is None or match.is_over or match.round is None:
            continue
        seat = match.round.current_seat
        if seat is None:
            continue
        user = seats[seat].user_id
        if user is not None and user != actor:
            owed[user] += 1
    return owed


@contextlib.contextmanager
def database(kind: str) -> Iterator[str]:
    if kind == "sqlite":
        with tempfile.TemporaryDirectory() as folder:
            yield str(Path(folder) / "games.db")
        return
    from tests import pg

    with pg.start(durable=True) as server:
        yield server.url


async def parent(args: argparse.Namespace) -> dict[str, Any]:
    t0 = time.monotonic()
    log = Path(tempfile.mkdtemp()) / "bot.log"
    with database(args.store) as target:
        run = Run(target, random.Random(args.seed), log)
        result = await run.main(args.at_ack, args.random, args.between)
    result["seconds"] = round(time.monotonic() - t0, 1)
    result["load_avg"] = [round(x, 2) for x in os.getloadavg()]
    result["bot_log"] = str(log)
    return result


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        base, gateway, target, seed = sys.argv[2:6]
        asyncio.run(child(base, gateway, target, int(seed)))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--at-ack", type=int, default=10, help="kills at the mover's ✅")
    parser.add_argument("--random", type=int, default=20, help="kills at random instants")
    parser.add_argument("--between", type=int, default=1, help="normal moves between kills")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--control",
        action="store_true",
        help="the same run with the deliverer switched off (what main did): expect losses",
    )
    args = parser.parse_args()
    if args.control:
        os.environ["KILL_OUTBOX_CONTROL"] = "1"  # the children inherit it
    print(json.dumps(asyncio.run(parent(args))))


if __name__ == "__main__":
    main()
