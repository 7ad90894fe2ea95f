"""The thinking pool's settings, without starting a process."""

from __future__ import annotations

import pytest

from bot.config import Config, ConfigError
from bot.thinking.pool import Thinker, default_workers


def test_mt_think_workers_sizes_the_pool() -> None:
    assert Config.from_env({}).think_workers is None  # the bot's default: default_workers()
    assert Config.from_env({"MT_THINK_WORKERS": "0"}).think_workers == 0
    assert Config.from_env({"MT_THINK_WORKERS": " 2 "}).think_workers == 2
    with pytest.raises(ConfigError, match="MT_THINK_WORKERS"):
        Config.from_env({"MT_THINK_WORKERS": "-1"})
    assert Config().think_workers == 0  # built in code (tests, scripts): on the event loop
    assert default_workers(1) == 1 and default_workers(16) == 2
    with pytest.raises(ValueError, match="0 or more"):
        Thinker(-1)
