"""A writer with standing orders, to be killed (issue 46): plays one game after another and
prints each acknowledged commit.

``python -m tests.service.orders_kill_child DB SEED`` opens the store (migrating a new file)
and plays matches of one round between Ann, Ben and an Easy computer through the turn use
case. Whenever Ann can, she plays her train plan's first tile and queues the rest as a
standing order (as the turn DM's one tap does); the orders then play at her turns. After every
commit it prints one JSON line (the game, its version, and the moves with their seqs; ``order``
for a commit an order made), only after the commit returned.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sys
from datetime import UTC, datetime, timedelta

from bot.engine import Play
from bot.engine.ai import Level, longest_train
from bot.service import FactCode, GameService, Outcome
from bot.service.orders import OrderRefused
from bot.service.schedule import ScheduleService
from bot.service.turn import Turns
from bot.store import Store

CHANNEL = 601
ANN, BEN = 1, 2


def ack(out: Outcome) -> None:
    order = any(
        f.code == FactCode.TURN_PLAYED_FOR and f.params.get("reason") == "order" for f in out.facts
    )
    steps = [[s.seq, str(s.move)] for s in out.steps]
    line = json.dumps({"g": out.game.id, "v": out.game.version, "steps": steps, "order": order})
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


async def ensure_game(svc: GameService, now: datetime) -> int:
    found = await svc.game_in_channel(CHANNEL)
    if found is not None and found.status == "active":
        return found.id
    out = await svc.create_lobby(
        guild_id=1, channel_id=CHANNEL, user_id=ANN, display_name="Ann", now=now,
        preset_name="standard", house_rules={"rounds": 1},
    )  # fmt: skip
    gid = out.game.id
    await svc.join(gid, BEN, "Ben", now)
    await svc.add_computer(gid, ANN, now, level=Level.EASY)
    ack(await svc.start(gid, ANN, now))
    return gid


async def main(path: str, seed: int) -> None:
    store = await Store.open(path)
    svc = GameService(store, rng=random.Random(seed))
    turns = Turns(svc, ScheduleService(svc))
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    rng = random.Random(seed)
    now = datetime(2025, 1, 1, tzinfo=UTC) + timedelta(days=seed)
    while True:
        now += timedelta(seconds=1)
        gid = await ensure_game(svc, now)
        for out in [o async for o in turns.until_human(gid, [], now)]:
            ack(out)
        turn = await svc.whose_turn(gid)
        if turn is None or turn.user_id is None:
            continue
        view = await svc.seat_view(gid, turn.user_id)
        plays = [m for m in view.legal if isinstance(m, Play)]
        move = rng.choice(plays) if plays else view.legal[0]
        then = ()
        if turn.user_id == ANN and view.hand and view.seat is not None:
            plan = longest_train(view.hand, view.trains[view.seat].end)
            first = Play(plan[0], view.seat) if plan else None
            if first in view.legal and len(plan) > 1:
                move, then = first, plan[1:5]
        taken = await turns.take(gid, turn.user_id, move, now, knock=True)
        for out in taken.outs:
            ack(out)
        if then:
            with contextlib.suppress(OrderRefused):  # (a double's turn went on elsewhere)
                await svc.orders.set(gid, ANN, then, now, log_from=len(view.log))
        async for out in turns.until_human(gid, taken.outs, now):
            ack(out)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
