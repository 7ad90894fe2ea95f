"""Small steps shared by the service tests."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from bot.engine import Move, Play, Tile
from bot.engine.ai import Level
from bot.service import GameService, Outcome
from bot.service.seasons import RatedChoice
from bot.store import Store
from tests.clock import FakeClock
from tests.service.conftest import ALICE, BOB, CHANNEL, GUILD, NAMES


async def new_game(
    svc: GameService,
    clock: FakeClock,
    *,
    humans: Sequence[int] = (ALICE, BOB),
    computers: int = 0,
    preset: str = "quick",
    house_rules: Mapping[str, Any] | None = None,
    channel: int = CHANNEL,
    start: bool = True,
    rated: RatedChoice | None = None,
) -> Outcome:
    host, *others = humans
    out = await svc.create_lobby(
        guild_id=GUILD,
        channel_id=channel,
        user_id=host,
        display_name=NAMES.get(host, f"P{host}"),
        now=clock.tick(),
        preset_name=preset,
        house_rules=house_rules,
        rated=rated,
    )
    gid = out.game.id
    for u in others:
        out = await svc.join(gid, u, NAMES.get(u, f"P{u}"), clock.tick())
    for _ in range(computers):
        out = await svc.add_computer(gid, host, clock.tick(), level=Level.EASY)
    if start:
        out = await svc.start(gid, host, clock.tick())
    return out


def pick(legal: Sequence[Move]) -> Move:
    """A deterministic legal move, preferring tiles (games end sooner)."""
    plays = [m for m in legal if isinstance(m, Play)]
    return plays[0] if plays else legal[0]


async def play_turn(svc: GameService, gid: int, clock: FakeClock) -> Outcome:
    """The player to move makes a legal move."""
    turn = await svc.whose_turn(gid)
    assert turn is not None and turn.user_id is not None, "a human should be to play"
    view = await svc.seat_view(gid, turn.user_id)
    return await svc.move(gid, turn.user_id, pick(view.legal), clock.tick())


async def raw_sql(store: Store, sql: str, params: Sequence[Any] = ()) -> int:
    """Run one statement as someone editing the database by hand would (either store; ``?``
    placeholders): for tests that damage a game on purpose. Rows changed."""
    async with store.transaction() as tx:
        return await tx._c.execute(sql, params)


class Rigged(random.Random):
    """A deal the test names: each shuffle puts the named hands first (seat by seat) and the
    named draws right after them (the boneyard's first tiles, in order), then every other
    tile of the round in the set's order."""

    def __init__(self, deals: Sequence[tuple[Sequence[str], str]]) -> None:
        super().__init__(7)
        self.deals = list(deals)

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        if not self.deals:
            super().shuffle(x)
            return
        hands, draws = self.deals.pop(0)
        named = [Tile.parse(t) for h in hands for t in h.split()]
        top = [Tile.parse(t) for t in draws.split()]
        rest = [t for t in sorted(x) if t not in named and t not in top]
        assert len(set(named + top)) == len(named + top), "a tile named twice"
        x[:] = named + top + rest
