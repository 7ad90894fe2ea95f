"""Settings an admin gets right in one go (issue 50): every bad setting named at once, not
only the first; ``MT_SCHEDULE_LEASE=0`` refused with its range; a token wrapped in quotes
said so; a file in the way of the database directory named as such; the README's log levels
the ones the program takes."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import Config, check_database_dir
from bot.configvalues import LOG_LEVELS, ConfigError
from tests.ops.helpers import ROOT, TOKEN, bot_env

#: One bad value per setting, each refused on its own.
BAD = {
    "MT_SQLITE_SYNCHRONOUS": "sometimes",
    "MT_SQLITE_BUSY_MS": "-1",
    "MT_GAME_CACHE": "0",
    "MT_SYNC_COMMANDS": "yes please",
    "MT_LOG_LEVEL": "loud",
    "MT_LOG_FORMAT": "yaml",
    "MT_HEALTH_PORT": "http",
    "MT_SHARDS": "-2",
    "MT_SHUTDOWN_GRACE": "later",
    "MT_SCHEDULE_LEASE": "0",
    "MT_DISCORD_API_BASE": "http://10.1.2.3/api",
    "MT_RENDER_WORKERS": "many",
    "MT_DISCORD_RATE": "fast",
    "MT_THINK_WORKERS": "-3",
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_each_bad_setting_is_refused_and_named(name: str) -> None:
    with pytest.raises(ConfigError) as refused:
        Config.from_env({name: BAD[name]})
    assert str(refused.value).startswith(name), refused.value


def test_every_bad_setting_is_named_at_once() -> None:
    with pytest.raises(ConfigError) as refused:
        Config.from_env(BAD)
    line = str(refused.value)
    assert "\n" not in line and line.startswith(f"{len(BAD)} settings to fix: "), line
    for name in BAD:
        assert name in line, name
    # The good ones beside them are read as given.
    assert Config.from_env({"MT_LOG_LEVEL": "debug", "MT_GAME_CACHE": "7"}).game_cache == 7


def test_the_bot_names_them_all_in_one_line_with_the_token(tmp_path: Path) -> None:
    env = bot_env(None, tmp_path / "db.sqlite3", MT_LOG_LEVEL="loud", MT_SHARDS="-2")
    env["DISCORD_TOKEN"] = "a.b"
    result = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=60, check=False,
    )  # fmt: skip
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2 and len(lines) == 1, result.stderr
    assert "3 settings to fix" in lines[0], lines
    for name in ("DISCORD_TOKEN", "MT_LOG_LEVEL", "MT_SHARDS"):
        assert name in lines[0], name


LEASES = [("0", False), ("0.5", False), ("1", True), ("3600", True), ("3601", False), ("60", True)]


@pytest.mark.parametrize(("raw", "ok"), LEASES)
def test_the_schedule_lease_has_a_range(raw: str, ok: bool) -> None:
    if ok:
        assert Config.from_env({"MT_SCHEDULE_LEASE": raw}).schedule_lease == float(raw)
        return
    with pytest.raises(ConfigError, match=r"MT_SCHEDULE_LEASE must be 1 to 3600 seconds"):
        Config.from_env({"MT_SCHEDULE_LEASE": raw})


@pytest.mark.parametrize("quote", ['"', "'"])
def test_a_quoted_token_is_said_to_be_quoted(quote: str) -> None:
    config = Config.from_env({"DISCORD_TOKEN": f"{quote}{TOKEN}{quote}"})
    with pytest.raises(ConfigError, match="wrapped in quotes") as refused:
        config.require_token()
    assert TOKEN not in str(refused.value)
    assert Config.from_env({"DISCORD_TOKEN": TOKEN}).require_token() == TOKEN


def test_a_file_in_the_way_of_the_database_directory_is_named(tmp_path: Path) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("x")
    with pytest.raises(ConfigError) as refused:
        check_database_dir(blocker / "deeper" / "games.sqlite3")
    assert f"a file is in the way at {blocker}" in str(refused.value)
    assert "File exists" not in str(refused.value) and "Not a directory" not in str(refused.value)


def test_the_readme_lists_the_log_levels_the_program_takes() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    row = next(line for line in readme.splitlines() if line.startswith("| `MT_LOG_LEVEL`"))
    listed = re.findall(r"`([A-Z]+)`", row.split("|")[3])
    assert tuple(listed) == LOG_LEVELS
