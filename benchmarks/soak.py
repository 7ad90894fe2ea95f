"""Soak: the whole bot through the fake Discord for minutes, then prove nothing was lost.

Many games in many channels of the fake's one guild (it models a single guild; channels are
what the bot keys games on, so many channels exercise the same paths many guilds would). Each
channel plays quick two-player games back to back — ``/mt new``, Join, Start, then every
move as a player's ``/play``/``/draw``/``/pass`` — until ``--seconds`` have passed. Then:

* **nothing lost**: every move the bot acknowledged (the player got an answer and the game's
  version moved) is in the event log, in order, and every game's stored state equals a full
  replay (``GameService.verify_game``); the database passes ``PRAGMA integrity_check``;
* **figures**: acknowledged moves and interactions per second, p50/p99 to the first answer
  and to the table message, the bot's own handling-time percentiles read back from its
  ``/metrics`` endpoint over HTTP, errors, and the process's peak RSS (``resource``; it
  includes the fake Discord and this driver, which run in the same process).

The fake keeps every message and upload for tests to read; here anything older than a minute
is dropped so the fake's memory does not drown the bot's. Prints ONE JSON line.

    python benchmarks/soak.py                   # 180 s, 40 channels
    python benchmarks/soak.py --seconds 30 --channels 10
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import logging
import random
import resource
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere

from bot.app import MexicanTrainBot, create_bot
from bot.config import Config
from bot.engine import Play
from bot.ops.health import HealthServer, parse_metrics
from bot.ops.metrics import percentile
from bot.store import GameStatus
from tests.e2e.helpers import lobby_card
from tests.fakediscord import FakeDiscord, FakeMessage, fake_discord, running_bot

#: Messages, interactions and recorded requests older than this leave the fake.
KEEP_SECONDS = 60.0


class Soak:
    def __init__(self, fake: FakeDiscord, bot: MexicanTrainBot, args: argparse.Namespace) -> None:
        self.fake, self.bot, self.args = fake, bot, args
        self.deadline = 0.0
        self.posts: collections.Counter[int] = collections.Counter()
        self.acked: dict[int, list[str]] = {}
        self.first: list[float] = []
        self.posted: list[float] = []
        self.interactions = 0
        self.refused = 0
        self.timeouts = 0
        self.games_finished = 0
        self._born: dict[int, float] = {}
        publish = fake._publish

        def counting(event: str, message: FakeMessage) -> None:
            if event == "MESSAGE_CREATE" and message.visible_to is None and not message.loading:
                self.posts[message.channel_id] += 1
            publish(event, message)

        fake._publish = counting  # type: ignore[method-assign]

    async def prune(self) -> None:
        """Forget what the fake keeps for tests (messages, uploads, requests) once it is old."""
        fake = self.fake
        while True:
            await asyncio.sleep(5)
            now = time.monotonic()
            fake.requests.clear()
            for mid in list(fake.messages):
                born = self._born.setdefault(mid, now)
                if now - born > KEEP_SECONDS:
                    del fake.messages[mid]
                    del self._born[mid]
            for iid, record in list(fake.interactions.items()):
                if now - record.created > KEEP_SECONDS:
                    del fake.interactions[iid]
                    fake._by_token.pop(record.token, None)

    async def act(self, invocation_coro: object) -> None:
        self.interactions += 1
        invocation = await invocation_coro  # type: ignore[misc]
        await invocation.message(timeout=60)

    async def channel_loop(self, index: int) -> None:
        fake, bot = self.fake, self.bot
        channel = fake.channel(f"soak-{index}")
        users = [fake.user(f"s{index}-{i}") for i in range(self.args.players)]
        by_id = {u.id: u for u in users}
        rng = random.Random(self.args.seed * 100_003 + index)
        while time.monotonic() < self.deadline:
            await self.act(users[0].slash("mt new", channel=channel, preset=self.args.preset))
            # The card follows the host's answer, as the command's followup.
            lobby = await lobby_card(fake, channel, 60)
            assert lobby is not None
            for user in users[1:]:
                await self.act(user.click(lobby, label="Join"))
            await self.act(users[0].click(lobby, label="Start"))
            game = await bot.service.game_in_channel(channel.id)
            assert game is not None and game.status is GameStatus.ACTIVE, game
            gid = game.id
            self.acked[gid] = []
            while time.monotonic() < self.deadline:
                game = await bot.service.game(gid)
                if game.status is not GameStatus.ACTIVE or game.turn is None:
                    self.games_finished += 1
                    break
                uid = game.turn.user_id
                assert uid is not None
                view = await bot.service.seat_view(gid, uid)
                if not view.legal:  # read between two commits (a turn played for them since)
                    await asyncio.sleep(0.01)
                    continue
                move = rng.choice(list(view.legal))
                before_posts, before_version = self.posts[channel.id], game.version
                started = time.perf_counter()
                self.interactions += 1
                if isinstance(move, Play):
                    tile, train = str(move).split()
                    inv = await by_id[uid].slash("play", channel=channel, tile=tile, train=train)
                else:
                    inv = await by_id[uid].slash(str(move), channel=channel)
                try:
                    await inv.answer(timeout=60)
                    self.first.append(time.perf_counter() - started)
                    await fake.wait_for(
                        lambda seen=before_posts: self.posts[channel.id] > seen,  # type: ignore[misc]
                        timeout=60,
                        what="the table message",
                    )
                    self.posted.append(time.perf_counter() - started)
                    await inv.message(timeout=60)
                except TimeoutError:
                    self.timeouts += 1
                    continue
                if (await bot.service.game(gid)).version > before_version:
                    self.acked[gid].append(str(move))
                else:
                    self.refused += 1
            else:
                break

    def lost_moves(self, db: Path) -> tuple[int, int]:
        """(acknowledged moves missing from the event log, moves in the log)."""
        lost = stored = 0
        with sqlite3.connect(db) as conn:
            for gid, acked in self.acked.items():
                rows = conn.execute(
                    "SELECT payload FROM events WHERE game_id = ? AND kind = 'move' ORDER BY seq",
                    (gid,),
                ).fetchall()
                logged = iter(json.loads(p)["move"] for (p,) in rows)
                stored += len(rows)
                # In order; the log may hold more (the bot's automatic pass after a draw).
                lost += sum(1 for move in acked if not any(m == move for m in logged))
        return lost, stored


async def run(args: argparse.Namespace) -> dict[str, object]:
    logging.basicConfig(level=logging.WARNING)
    logging.getLogger("discord").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "soak.sqlite3"
        config = Config(database=db, synchronous=args.synchronous)
        bot = create_bot(config, rng=random.Random(args.seed))
        async with fake_discord() as fake, running_bot(fake, bot):
            health = HealthServer(bot, "127.0.0.1", 0)
            await health.start()
            soak = Soak(fake, bot, args)
            pruner = asyncio.create_task(soak.prune())
            t0 = time.perf_counter()
            soak.deadline = time.monotonic() + args.seconds
            await asyncio.gather(*(soak.channel_loop(i) for i in range(args.channels)))
            elapsed = time.perf_counter() - t0
            pruner.cancel()
            async with aiohttp.ClientSession() as http:
                async with http.get(health.url + "/metrics") as response:
                    metrics = parse_metrics(await response.text())
                async with http.get(health.url + "/healthz") as response:
                    healthy = response.status == 200
            await health.stop()
            replay_mismatches = 0
            for gid in soak.acked:
                try:
                    await bot.service.verify_game(gid)
                except Exception:
                    replay_mismatches += 1
            integrity = await bot.service.store.integrity_check()
        lost, stored = soak.lost_moves(db)
    acked = sum(len(v) for v in soak.acked.values())
    first, posted = sorted(soak.first), sorted(soak.posted)
    handling = bot.metrics.latency_percentiles()
    one = f'{{process="{bot.metrics.process}"}}'
    return {
        "benchmark": "soak",
        "seconds": round(elapsed, 1),
        "channels": args.channels,
        "guilds": 1,
        "players_per_game": args.players,
        "preset": args.preset,
        "games": len(soak.acked),
        "games_finished": soak.games_finished,
        "moves_acknowledged": acked,
        "moves_in_log": stored,
        "moves_per_s": round(acked / elapsed, 1),
        "interactions": soak.interactions,
        "interactions_per_s": round(soak.interactions / elapsed, 1),
        "first_answer_p50_ms": round(percentile(first, 0.5) * 1000, 1),
        "first_answer_p99_ms": round(percentile(first, 0.99) * 1000, 1),
        "table_message_p50_ms": round(percentile(posted, 0.5) * 1000, 1),
        "table_message_p99_ms": round(percentile(posted, 0.99) * 1000, 1),
        # The bot's own percentiles (in-process; /metrics exports a histogram instead).
        "bot_handling_p50_ms": round(handling["p50"] * 1000, 1),
        "bot_handling_p99_ms": round(handling["p99"] * 1000, 1),
        "bot_interactions_total": int(metrics[f"mexican_train_interactions_total{one}"]),
        "bot_errors": int(metrics[f"mexican_train_errors_total{one}"]),
        "refused": soak.refused,
        "timeouts": soak.timeouts,
        "lost_moves": lost,
        "replay_mismatches": replay_mismatches,
        "integrity": integrity,
        "healthz_ok": healthy,
        "rss_peak_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "synchronous": args.synchronous,
        "python": sys.version.split()[0],
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=180)
    parser.add_argument("--channels", type=int, default=40, help="games played at once")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--preset", default="quick", help="quick: one round, games turn over")
    parser.add_argument("--synchronous", choices=("NORMAL", "FULL"), default="FULL")
    parser.add_argument("--seed", type=int, default=1)
    print(json.dumps(asyncio.run(run(parser.parse_args()))))
