"""Acknowledgements first (issue 50, ``bot.ui.host.ACKS_FIRST``): a move acknowledged while
another interaction that reached the bot before it is still unacknowledged does its work
(the look-up, the commit, the answer) only once that one is acknowledged too, so under a
burst the acknowledgements go out back to back. Driven through the real discord.py client
and the loopback fake Discord; the other interaction is stamped on the bot's gateway clock
as its gateway event would be."""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Callable

from bot.app import MexicanTrainBot
from bot.ops.collector import young_passes
from tests.e2e.helpers import open_game, pick, said, to_move, type_move
from tests.fakediscord import WAIT, FakeDiscord, running_bot


async def test_a_moves_work_waits_for_the_acknowledgements_before_it(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    users = {u.id: u for u in (alice, bob)}
    bot = make_bot()
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="standard")
        uid, view = await to_move(bot, game.id)
        before = await bot.service.game(game.id)
        bot.arrivals.acks_first = 60.0  # the bound never decides here, however slow the host
        other = 1  # an interaction whose gateway event was read, its deferral not yet sent
        bot.arrivals.arrived(other, acknowledges=True)
        move = await type_move(users[uid], games, str(pick(view.legal)))
        await move.answer(timeout=WAIT)  # the move itself is acknowledged at once …
        await asyncio.sleep(0.3)
        # … but nothing of its work ran: no answer yet, the game as it was
        assert move.record.original is not None and move.record.original.loading
        assert await bot.service.game(game.id) == before
        bot.arrivals.acknowledged(other)
        answer = await said(move)
        assert answer.text.startswith("✅"), answer.text
        assert (await bot.service.game(game.id)).version > before.version


async def test_no_collector_pass_between_an_interaction_and_its_acknowledgement(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    """The serving bot's collector (``bot.ops.collector.keep``) is off from the moment a
    move's gateway event is read until Discord has its acknowledgement, and on again after:
    the young passes a burst triggers run once its acknowledgements are out."""
    fake = fake_discord
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    users = {u.id: u for u in (alice, bob)}
    bot = make_bot()
    changes: list[tuple[bool, float, bool]] = []  # (owed, when, collector on after)
    passes = young_passes()

    def owing(owed: bool) -> None:
        passes(owed)
        changes.append((owed, time.monotonic(), gc.isenabled()))

    try:
        async with running_bot(fake, bot):
            game = await open_game(fake, bot, games, alice, [bob], preset="standard")
            uid, view = await to_move(bot, game.id)
            bot.arrivals.owing = owing
            move = await type_move(users[uid], games, str(pick(view.legal)))
            answer = await said(move)
            assert answer.text.startswith("✅"), answer.text
            acknowledged = move.record.acknowledged_at
            assert acknowledged is not None
            (owed, began, on), (freed, ended, on_again) = changes[:2]
            assert (owed, on) == (True, False) and (freed, on_again) == (False, True)
            assert began <= acknowledged <= ended
            assert gc.isenabled()
    finally:
        gc.enable()
