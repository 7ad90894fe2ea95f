"""Load through the fake Discord: many channels, concurrent users, one real discord.py bot.

Each simulated user runs a demo slash command over and over in its own channel; we time
from pushing INTERACTION_CREATE to the bot's first answer arriving at the fake (what a
player waits for before "Bot is thinking..." or the reply shows). Prints ONE JSON line:
interactions/s and p50/p99 latency to first answer, so runs can be compared.

    python benchmarks/fakediscord_load.py --channels 20 --users 4 --rounds 25
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere

from tests.fakediscord import FakeDiscord, FakeUser, fake_discord, running_bot
from tests.fakediscord.demo_bot import DemoBot

COMMANDS = {
    "play": {"tile": "12-5", "train": "mexican"},  # immediate answer
    "table": {},  # defer, render a PNG in a thread, followup with the image
}


async def player(
    fake: FakeDiscord, user: FakeUser, channel_name: str, command: str, rounds: int
) -> list[float]:
    channel = fake.channel(channel_name)
    latencies = []
    for _ in range(rounds):
        started = time.perf_counter()
        invocation = await user.slash(command, channel=channel, **COMMANDS[command])
        await invocation.answer(timeout=10)
        latencies.append(time.perf_counter() - started)
        await invocation.message(timeout=10)  # the whole exchange finishes before the next
    return latencies


async def main(args: argparse.Namespace) -> dict[str, object]:
    logging.getLogger("discord").setLevel(logging.ERROR)
    async with fake_discord(interaction_deadline=args.deadline) as fake:
        channels = [f"table-{c}" for c in range(args.channels)]
        for name in channels:
            fake.channel(name)
        async with running_bot(fake, DemoBot(guild_id=fake.guild_id)):
            users = [fake.user(f"player{i}") for i in range(args.channels * args.users)]
            started = time.perf_counter()
            results = await asyncio.gather(
                *(
                    player(fake, user, channels[i % args.channels], args.command, args.rounds)
                    for i, user in enumerate(users)
                )
            )
            elapsed = time.perf_counter() - started
        rejected = sum(len(r.rejections) for r in fake.interactions.values())
    latencies = sorted(x for per_user in results for x in per_user)
    cuts = statistics.quantiles(latencies, n=100)
    return {
        "benchmark": "fakediscord_load",
        "command": args.command,
        "channels": args.channels,
        "users_per_channel": args.users,
        "interactions": len(latencies),
        "seconds": round(elapsed, 3),
        "interactions_per_s": round(len(latencies) / elapsed, 1),
        "p50_ms": round(cuts[49] * 1000, 2),
        "p99_ms": round(cuts[98] * 1000, 2),
        "rejected_answers": rejected,
        "python": sys.version.split()[0],
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=int, default=10)
    parser.add_argument("--users", type=int, default=4, help="concurrent users per channel")
    parser.add_argument("--rounds", type=int, default=20, help="commands per user")
    parser.add_argument("--command", choices=sorted(COMMANDS), default="play")
    parser.add_argument("--deadline", type=float, default=3.0, help="first-answer deadline (s)")
    print(json.dumps(asyncio.run(main(parser.parse_args()))))
