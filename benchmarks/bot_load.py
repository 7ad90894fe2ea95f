"""End-to-end load: many concurrent games through the fake Discord, our real bot, real SQLite.

Each game has its own channel and players; every player's move goes through Discord as a
person's client sends it (``/play`` with a tile and train, ``/draw``, ``/pass``), chosen from
the legal moves the service reports. We time, per move, from pushing INTERACTION_CREATE to
(a) the bot's first answer (its deferral: what the player waits for before "thinking…") and
(b) the table message appearing in the channel. Prints ONE JSON line.

    python benchmarks/bot_load.py --games 100 --moves 15
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import logging
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere

from bot.app import MexicanTrainBot, create_bot
from bot.config import Config
from bot.engine import Play
from bot.store import GameStatus
from tests.fakediscord import (
    FakeChannel,
    FakeDiscord,
    FakeMessage,
    FakeUser,
    fake_discord,
    running_bot,
)


def pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


async def open_table(
    fake: FakeDiscord, bot: MexicanTrainBot, index: int, players: int
) -> tuple[int, FakeChannel, dict[int, FakeUser]]:
    channel = fake.channel(f"table-{index}")
    users = [fake.user(f"p{index}-{i}") for i in range(players)]
    await (await users[0].slash("mt new", channel=channel, preset="standard")).message(timeout=30)
    lobby = channel.last_message()
    assert lobby is not None
    for user in users[1:]:
        await (await user.click(lobby, label="Join")).message(timeout=30)
    await (await users[0].click(lobby, label="Start")).message(timeout=30)
    game = await bot.service.game_in_channel(channel.id)
    assert game is not None
    return game.id, channel, {u.id: u for u in users}


#: Public messages posted per channel, counted as the fake publishes them: reading
#: ``channel.messages()`` scans every message the fake holds, which at 100 games made the
#: harness, not the bot, the bottleneck.
posts: collections.Counter[int] = collections.Counter()


def count_posts(fake: FakeDiscord) -> None:
    publish = fake._publish

    def counting(event: str, message: FakeMessage) -> None:
        if event == "MESSAGE_CREATE" and message.visible_to is None and not message.loading:
            posts[message.channel_id] += 1
        publish(event, message)

    fake._publish = counting  # type: ignore[method-assign]


async def play_game(
    fake: FakeDiscord,
    bot: MexicanTrainBot,
    table: tuple[int, FakeChannel, dict[int, FakeUser]],
    moves: int,
    first: list[float],
    posted: list[float],
    rng: random.Random,
) -> int:
    game_id, channel, users = table
    done = 0
    for _ in range(moves):
        game = await bot.service.game(game_id)
        if game.status is not GameStatus.ACTIVE or game.turn is None:
            break
        uid = game.turn.user_id
        assert uid is not None
        view = await bot.service.seat_view(game_id, uid)
        move = rng.choice(list(view.legal))
        before = posts[channel.id]
        started = time.perf_counter()
        if isinstance(move, Play):
            tile, train = str(move).split()
            invocation = await users[uid].slash("play", channel=channel, tile=tile, train=train)
        else:
            invocation = await users[uid].slash(str(move), channel=channel)
        await invocation.answer(timeout=30)
        first.append(time.perf_counter() - started)
        await fake.wait_for(
            lambda seen=before: posts[channel.id] > seen,  # type: ignore[misc]
            timeout=30,
            what="the table message",
        )
        posted.append(time.perf_counter() - started)
        await invocation.message(timeout=30)  # the player's own answer, before their next move
        done += 1
    return done


async def main(args: argparse.Namespace) -> dict[str, object]:
    logging.getLogger("discord").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory() as tmp:
        config = Config(database=Path(tmp) / "load.sqlite3", synchronous=args.synchronous)
        bot = create_bot(config, rng=random.Random(1))
        async with fake_discord() as fake, running_bot(fake, bot):
            count_posts(fake)
            tables = []
            for start in range(0, args.games, 20):  # open lobbies in batches
                batch = range(start, min(args.games, start + 20))
                tables += await asyncio.gather(
                    *(open_table(fake, bot, i, args.players) for i in batch)
                )
            first: list[float] = []
            posted: list[float] = []
            rejected_before = sum(len(r.rejections) for r in fake.interactions.values())
            t0 = time.perf_counter()
            counts = await asyncio.gather(
                *(
                    play_game(fake, bot, t, args.moves, first, posted, random.Random(i))
                    for i, t in enumerate(tables)
                )
            )
            elapsed = time.perf_counter() - t0
            rejected = sum(len(r.rejections) for r in fake.interactions.values()) - rejected_before
    total = sum(counts)
    return {
        "benchmark": "bot_load",
        "games": args.games,
        "players_per_game": args.players,
        "moves": total,
        "seconds": round(elapsed, 3),
        "moves_per_s": round(total / elapsed, 1),
        "interactions_per_s": round(total / elapsed, 1),
        "first_answer_p50_ms": round(pct(first, 0.50), 2),
        "first_answer_p99_ms": round(pct(first, 0.99), 2),
        "table_message_p50_ms": round(pct(posted, 0.50), 2),
        "table_message_p99_ms": round(pct(posted, 0.99), 2),
        "mean_table_message_ms": round(statistics.fmean(posted) * 1000, 2) if posted else 0,
        "rejected_answers": rejected,
        "synchronous": args.synchronous,
        "python": sys.version.split()[0],
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--moves", type=int, default=15, help="moves per game")
    parser.add_argument("--synchronous", choices=("NORMAL", "FULL"), default="NORMAL")
    print(json.dumps(asyncio.run(main(parser.parse_args()))))
