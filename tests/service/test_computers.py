"""The computer players' moves inside a commit, chosen elsewhere: while one game's computer
thinks, other games move; a game whose thinking worker dies goes on with Hard's move."""

from __future__ import annotations

import asyncio
import logging
import random

import pytest

from bot.engine import Move, SeatView
from bot.engine.ai import Level, choose_move
from bot.service import GameService
from bot.store import Store
from bot.thinking.pool import Thinker
from tests.clock import FakeClock
from tests.service.conftest import ALICE, BOB
from tests.service.helpers import new_game, pick
from tests.thinking.test_pool import dies


class Gate:
    """A chooser that holds the decisions of game ``slow`` until released (a long search, as
    the event loop sees it: an await); every other game's are decided at once."""

    def __init__(self) -> None:
        self.slow: int | None = None
        self.thinking = asyncio.Event()
        self.release = asyncio.Event()
        #: The games whose decisions were asked for, in order.
        self.asked: list[int] = []

    async def choose(self, view: SeatView, level: Level, seed: int, *, game_id: int) -> Move:
        self.asked.append(game_id)
        if game_id == self.slow:
            self.thinking.set()
            await self.release.wait()
        return choose_move(view, level, seed)


async def test_while_a_computer_thinks_another_games_move_is_answered(
    store: Store, clock: FakeClock
) -> None:
    gate = Gate()
    svc = GameService(store, cache_size=8, rng=random.Random(7), chooser=gate)
    slow = (await new_game(svc, clock, humans=(ALICE,), computers=1, channel=1)).game.id
    quick = (await new_game(svc, clock, humans=(BOB,), computers=1, channel=2)).game.id
    gate.slow, gate.asked = slow, []
    view = await svc.seat_view(slow, ALICE)
    waiting = asyncio.create_task(svc.move(slow, ALICE, pick(view.legal), clock.tick()))
    await gate.thinking.wait()  # Alice's move is made; her computer opponent is thinking
    # Meanwhile Bob moves in the other game and its computer answers him, committed.
    view = await svc.seat_view(quick, BOB)
    answered = await svc.move(quick, BOB, pick(view.legal), clock.tick())
    assert [s.player.is_computer for s in answered.steps][:2] == [False, True]
    assert not waiting.done()
    assert gate.asked[0] == slow and quick in gate.asked
    gate.release.set()
    out = await waiting
    assert [s.player.is_computer for s in out.steps][:2] == [False, True]
    assert (await svc.whose_turn(slow)) is not None


@pytest.mark.asyncio(loop_scope="function")
async def test_a_game_goes_on_with_hards_move_when_its_thinking_worker_dies(
    store: Store, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    thinker = Thinker(1, inline=(), timeout=60, job=dies)  # every decision kills its worker
    await thinker.start()
    try:
        svc = GameService(store, cache_size=8, rng=random.Random(7), chooser=thinker)
        gid = (await new_game(svc, clock, humans=(ALICE,), computers=1)).game.id
        before = thinker.stats["fallback"]
        view = await svc.seat_view(gid, ALICE)
        with caplog.at_level(logging.WARNING, logger="bot.thinking"):
            out = await svc.move(gid, ALICE, pick(view.legal), clock.tick())
        computer = [s for s in out.steps if s.player.is_computer]
        assert computer, "the computer moved all the same"
        assert thinker.stats["fallback"] - before == len(computer)
        named = [r for r in caplog.records if r.name == "bot.thinking.pool"]
        assert len(named) == len(computer) and all(f"game {gid}" in r.getMessage() for r in named)
        assert out.next_player is not None and out.next_player.user_id == ALICE
    finally:
        await thinker.close(grace=0)
