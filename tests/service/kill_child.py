"""A writer to be killed: plays moves in a loop and prints each acknowledged one.

``python -m tests.service.kill_child DB SEED [ROUNDS]`` opens the store (migrating a new
file), keeps three games going (starting new ones as games finish) and, after every call
that returned, prints one JSON line: the game, its version and the seq and notation of
every move the call appended. A line is printed only after the commit, so every printed
move must be in the file.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
from datetime import UTC, datetime, timedelta

from bot.engine import Play
from bot.engine.ai import Level
from bot.service import GameService, Outcome
from bot.store import Store

CHANNELS = (501, 502, 503)
HUMANS = ((1, "Ann"), (2, "Ben"))
#: Rounds a match (argv[3]; 1 ends matches often: the ratings' kill test, issue 48).
ROUNDS = int(sys.argv[3]) if len(sys.argv) > 3 else 2


def ack(out: Outcome) -> None:
    steps = [[s.seq, str(s.move)] for s in out.steps]
    line = json.dumps({"g": out.game.id, "v": out.game.version, "steps": steps})
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


async def ensure_game(svc: GameService, channel: int, now: datetime) -> int:
    found = await svc.game_in_channel(channel)
    if found is not None and found.status == "active":
        return found.id
    if found is None:
        out = await svc.create_lobby(
            guild_id=1,
            channel_id=channel,
            user_id=1,
            display_name="Ann",
            now=now,
            preset_name="standard",
            house_rules={"rounds": ROUNDS},
        )
        ack(out)
        found = out.game
    gid = found.id
    if len(found.players) < 3:
        if found.player(2) is None:
            ack(await svc.join(gid, 2, "Ben", now))
        ack(await svc.add_computer(gid, 1, now, level=Level.EASY))
    out = await svc.start(gid, 1, now)
    ack(out)
    return gid


async def main(path: str, seed: int) -> None:
    store = await Store.open(path)
    svc = GameService(store, rng=random.Random(seed))
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    rng = random.Random(seed)
    now = datetime(2025, 1, 1, tzinfo=UTC) + timedelta(days=seed)
    while True:
        for channel in CHANNELS:
            now += timedelta(seconds=1)
            gid = await ensure_game(svc, channel, now)
            turn = await svc.whose_turn(gid)
            assert turn is not None and turn.user_id is not None
            view = await svc.seat_view(gid, turn.user_id)
            plays = [m for m in view.legal if isinstance(m, Play)]
            move = rng.choice(plays) if plays else view.legal[0]
            ack(await svc.move(gid, turn.user_id, move, now, knock=True))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
