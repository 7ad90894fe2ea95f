"""``MT_SHARDS`` runs the same bot on ``AutoShardedBot``; games work whichever shard has them."""

from __future__ import annotations

from pathlib import Path

import pytest
from discord.ext import commands

from bot.app import MexicanTrainBot, ShardedMexicanTrainBot, create_bot
from bot.config import Config
from bot.ops.health import gateway_connected
from tests.fakediscord import fake_discord, running_bot


def test_create_bot_picks_the_class_from_the_configuration(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    plain = create_bot(Config(database=db))
    assert type(plain) is MexicanTrainBot and not isinstance(plain, commands.AutoShardedBot)
    auto = create_bot(Config(database=db, shards="auto"))
    assert isinstance(auto, ShardedMexicanTrainBot) and auto.shard_count is None
    fixed = create_bot(Config(database=db, shards=3))
    assert isinstance(fixed, commands.AutoShardedBot) and fixed.shard_count == 3


@pytest.mark.parametrize("shards", [1, 2])
async def test_sharded_bot_starts_and_plays_against_the_fake(tmp_path: Path, shards: int) -> None:
    async with fake_discord(shards=shards) as fake:
        bot = create_bot(Config(database=tmp_path / "db.sqlite3", shards="auto"))

        async def no_identify_pause(shard_id: int | None, *, initial: bool = False) -> None:
            """discord.py waits 5 s between shards' IDENTIFYs (Discord's limit); not here."""

        bot.before_identify_hook = no_identify_pause  # type: ignore[method-assign]
        async with running_bot(fake, bot):
            assert bot.shard_count == shards and len(bot.shards) == shards
            assert gateway_connected(bot)
            alice, games = fake.user("alice"), fake.channel("games")
            answer = await (await alice.slash("mt new", channel=games)).message()
            assert "is open" in answer.content
            guild = bot.get_guild(fake.guild_id)
            assert guild is not None and guild.shard_id == (fake.guild_id >> 22) % shards
            assert len(fake.sessions) == shards
        assert bot.metrics.interactions == 1
