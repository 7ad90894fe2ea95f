"""``MT_SHARD_COUNT``/``MT_SHARD_IDS``: each process of a cluster runs its own shards; a value
the bot cannot use is one clear line, and the bot is built with exactly those shards."""

from __future__ import annotations

from pathlib import Path

import pytest
from discord.ext import commands

from bot.app import create_bot
from bot.config import Config
from bot.configvalues import ConfigError

PG = "postgresql://mtbot@db.internal:5432/mexican_train"


def test_a_cluster_process_runs_its_own_shards() -> None:
    config = Config.from_env({"MT_SHARD_COUNT": "4", "MT_SHARD_IDS": "3, 1", "MT_DATABASE": PG})
    assert config.shard_count == 4 and config.shard_ids == (1, 3) and config.clustered
    bot = create_bot(config)
    assert isinstance(bot, commands.AutoShardedBot)
    assert bot.shard_count == 4 and bot.shard_ids == [1, 3]
    # Discord gives a server to shard (id >> 22) % count; DMs go to shard 0.
    assert config.runs_guild(1 << 22) and config.runs_guild(3 << 22)
    assert not config.runs_guild(2 << 22) and not config.runs_guild(None)


def test_a_count_alone_runs_every_shard_here(tmp_path: Path) -> None:
    env = {"MT_SHARD_COUNT": "2", "MT_DATABASE": str(tmp_path / "db.sqlite3")}
    config = Config.from_env(env)
    assert config.shard_count == 2 and config.shard_ids is None and not config.clustered
    assert config.runs_guild(1 << 22) and config.runs_guild(None)
    bot = create_bot(config)
    assert bot.shard_count == 2 and bot.shard_ids is None  # type: ignore[attr-defined]
    # Naming every shard is the same as naming none: SQLite is fine then.
    both = Config.from_env(env | {"MT_SHARD_IDS": "1,0"})
    assert both.shard_ids == (0, 1) and not both.clustered
    assert Config.from_env({}).runs_guild(12345 << 22)


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"MT_SHARD_IDS": "0"}, "MT_SHARD_IDS needs MT_SHARD_COUNT"),
        ({"MT_SHARD_COUNT": "two"}, "MT_SHARD_COUNT must be a number of shards, not 'two'"),
        ({"MT_SHARD_COUNT": "0"}, "MT_SHARD_COUNT must be at least 1, not 0"),
        ({"MT_SHARD_COUNT": "2", "MT_SHARD_IDS": "2"}, "numbered 0 to 1"),
        ({"MT_SHARD_COUNT": "2", "MT_SHARD_IDS": "-1"}, "MT_SHARD_IDS has shard -1"),
        ({"MT_SHARD_COUNT": "3", "MT_SHARD_IDS": "1,1"}, "names shard 1 twice"),
        ({"MT_SHARD_COUNT": "3", "MT_SHARD_IDS": "0;1"}, "separated by commas"),
        ({"MT_SHARD_COUNT": "2", "MT_SHARDS": "2"}, "not both"),
        ({"MT_SHARD_COUNT": "2", "MT_SHARD_IDS": "0"}, "must share a PostgreSQL database"),
    ],
)
def test_bad_shard_settings_are_one_clear_line(env: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message) as caught:
        Config.from_env(env)
    assert "\n" not in str(caught.value)


def test_the_schedule_lease_is_read_in_seconds() -> None:
    assert Config.from_env({}).schedule_lease == 60.0
    assert Config.from_env({"MT_SCHEDULE_LEASE": "5"}).schedule_lease == 5.0
    with pytest.raises(ConfigError, match="MT_SCHEDULE_LEASE must be a number of seconds"):
        Config.from_env({"MT_SCHEDULE_LEASE": "soon"})
