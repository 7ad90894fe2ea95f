"""The real bot on PostgreSQL through the loopback fake Discord: ``MT_DATABASE`` as a
``postgresql://`` URL is all it takes; a game opened and played, then carried on by a new bot
process that has nothing in memory."""

from __future__ import annotations

import random

from bot.app import create_bot
from bot.config import Config
from bot.store import GameStatus
from tests.clock import FakeClock
from tests.e2e.helpers import last_public, open_game, pick, settled, slash_move, to_move
from tests.fakediscord import FakeDiscord, running_bot


async def test_a_game_on_postgresql_survives_a_restart(
    fake_discord: FakeDiscord, pg_url: str, clock: FakeClock
) -> None:
    fake = fake_discord
    config = Config.from_env({"MT_DATABASE": pg_url})
    games, alice, bob = fake.channel("games"), fake.user("alice"), fake.user("bob")
    users = {alice.id: alice, bob.id: bob}
    bot = create_bot(config, clock=clock, rng=random.Random(7))
    async with running_bot(fake, bot):
        assert bot.service.store.kind == "postgresql"
        game = await open_game(fake, bot, games, alice, [bob], preset="quick")
        for _ in range(4):
            uid, view = await to_move(bot, game.id)
            answer = await slash_move(users[uid], games, str(pick(view.legal)))
            assert answer.startswith("✅"), answer
        history = await bot.service.history(game.id)

    bot = create_bot(config, clock=clock, rng=random.Random(8))  # a new process
    async with running_bot(fake, bot):
        assert await bot.service.history(game.id) == history
        uid, view = await to_move(bot, game.id)
        answer = await slash_move(users[uid], games, str(pick(view.legal)))
        assert answer.startswith("✅"), answer
        assert "played" in last_public(games).embeds[0]["description"]
        assert (await settled(bot, game.id)).status is GameStatus.ACTIVE
        await bot.service.verify_game(game.id)
