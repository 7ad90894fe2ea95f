"""The thinking pool's settings, without starting a process."""

from __future__ import annotations

import pytest

from bot.config import Config
from bot.configvalues import ConfigError
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


def test_a_thinking_worker_loads_the_engine_but_no_pictures() -> None:
    """Its interpreter imports the engine and the workers' loop, never Pillow, the renderers
    or discord.py: a thinking worker costs the memory of the engine alone."""
    import subprocess
    import sys

    code = (
        "import sys, bot.thinking.worker, bot.thinking.jobs; "
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'PIL', 'renderers', 'discord'}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
