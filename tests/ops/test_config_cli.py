"""Configuration is read and checked once: a bad value is one line on stderr and exit 2."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import Config, check_database_dir, config_error_policy
from bot.configvalues import ConfigError
from tests.ops.helpers import ROOT, TOKEN, bot_env


def test_ops_settings_parse_with_defaults_and_refuse_nonsense() -> None:
    cfg = Config.from_env({})
    assert (cfg.health_host, cfg.health_port, cfg.log_format) == ("127.0.0.1", 8321, "text")
    assert cfg.shards is None and cfg.shutdown_grace == 8.0 and cfg.discord_api_base is None
    cfg = Config.from_env(
        {"MT_HEALTH_PORT": "9000", "MT_LOG_FORMAT": "JSON", "MT_SHARDS": "auto",
         "MT_SHUTDOWN_GRACE": "2.5", "MT_DISCORD_API_BASE": "http://127.0.0.1:5/api/v10",
         "MT_DISCORD_GATEWAY": "ws://localhost:5/gateway"}
    )  # fmt: skip
    assert (cfg.health_port, cfg.log_format, cfg.shards, cfg.shutdown_grace) == (
        9000, "json", "auto", 2.5,
    )  # fmt: skip
    assert Config.from_env({"MT_SHARDS": "3"}).shards == 3
    assert Config.from_env({"MT_HEALTH_PORT": "off"}).health_port is None
    assert Config.from_env({"MT_HEALTH_PORT": "0"}).health_port is None
    for env, needle in [
        ({"MT_HEALTH_PORT": "70000"}, "MT_HEALTH_PORT"),
        ({"MT_LOG_FORMAT": "xml"}, "MT_LOG_FORMAT"),
        ({"MT_SHARDS": "0"}, "MT_SHARDS"),
        ({"MT_SHARDS": "many"}, "MT_SHARDS"),
        ({"MT_SHUTDOWN_GRACE": "-1"}, "MT_SHUTDOWN_GRACE"),
        ({"MT_SHUTDOWN_GRACE": "nan"}, "MT_SHUTDOWN_GRACE"),
        # The token goes wherever the API base points: only loopback, only for tests.
        ({"MT_DISCORD_API_BASE": "https://discord.com/api/v10"}, "loopback"),
        ({"MT_DISCORD_GATEWAY": "http://127.0.0.1:5/"}, "MT_DISCORD_GATEWAY"),
    ]:
        with pytest.raises(ConfigError, match=needle):
            Config.from_env(env)


def _unwritable_dir(tmp_path: Path) -> Path:
    """A directory this process cannot create files in (root ignores mode bits: use /sys)."""
    if os.geteuid() == 0:
        return Path("/sys")
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    return locked


def test_database_directory_is_created_and_checked(tmp_path: Path) -> None:
    fresh = tmp_path / "a" / "b" / "games.sqlite3"
    check_database_dir(fresh)
    assert fresh.parent.is_dir() and list(fresh.parent.iterdir()) == []  # probe cleaned up
    a_file = tmp_path / "file"
    a_file.write_text("x")
    with pytest.raises(ConfigError, match="cannot create the database directory"):
        check_database_dir(a_file / "games.sqlite3")
    with pytest.raises(ConfigError, match="cannot write to"):
        check_database_dir(_unwritable_dir(tmp_path) / "games.sqlite3")


@pytest.mark.parametrize(
    ("extra", "needle"),
    [
        ({"MT_DATABASE": "UNWRITABLE"}, "cannot write to"),
        ({"MT_DATABASE": "NOT_A_DIR"}, "cannot create the database directory"),
        ({"MT_HEALTH_PORT": "http"}, "MT_HEALTH_PORT"),
        ({"MT_LOG_FORMAT": "yaml"}, "MT_LOG_FORMAT"),
        ({"MT_SHARDS": "-2"}, "MT_SHARDS"),
        ({"MT_DISCORD_API_BASE": "http://10.1.2.3/api"}, "loopback"),
    ],
)
def test_python_m_bot_stops_with_one_line_and_exit_2(
    tmp_path: Path, extra: dict[str, str], needle: str
) -> None:
    env = bot_env(None, tmp_path / "data" / "db.sqlite3") | extra
    if env["MT_DATABASE"] == "UNWRITABLE":
        env["MT_DATABASE"] = str(_unwritable_dir(tmp_path) / "db.sqlite3")
    elif env["MT_DATABASE"] == "NOT_A_DIR":
        (tmp_path / "file").write_text("x")
        env["MT_DATABASE"] = str(tmp_path / "file" / "db.sqlite3")
    result = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=60, check=False,
    )  # fmt: skip
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2, result.stderr
    assert len(lines) == 1 and needle in lines[0], result.stderr
    assert lines[0].startswith("mexican-train-bot: ") and TOKEN not in result.stderr


def test_health_port_in_use_is_one_line_too(tmp_path: Path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = bot_env(None, tmp_path / "db.sqlite3", MT_HEALTH_PORT=str(port))
        result = subprocess.run(
            [sys.executable, "-m", "bot"], cwd=ROOT, env=env, capture_output=True, text=True,
            timeout=60, check=False,
        )  # fmt: skip
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot listen on 127.0.0.1" in lines[0], result.stderr


def test_on_config_error_wait_stays_up_until_stopped_then_exits_2(tmp_path: Path) -> None:
    """compose.yaml's MT_ON_CONFIG_ERROR=wait: one line, then idle until SIGTERM (Docker's
    restart policy then has nothing to restart); without it, the usual one line and exit 2."""
    env = bot_env(None, tmp_path / "db.sqlite3", MT_LOG_FORMAT="yaml", MT_ON_CONFIG_ERROR="wait")
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot"], cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True
    )
    try:
        assert proc.stderr is not None
        first = proc.stderr.readline()
        assert first.startswith("mexican-train-bot: MT_LOG_FORMAT must be text or json"), first
        assert "waiting to be stopped" in proc.stderr.readline()
        with pytest.raises(subprocess.TimeoutExpired):
            proc.wait(timeout=1.5)  # still there: nothing for a restart policy to restart
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=10) == 2
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    with pytest.raises(ConfigError, match="MT_ON_CONFIG_ERROR must be exit or wait"):
        config_error_policy({"MT_ON_CONFIG_ERROR": "retry"})
    assert config_error_policy({}) == "exit"
