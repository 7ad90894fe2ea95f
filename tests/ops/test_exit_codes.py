"""One table of exit codes (bot/exits.py, docs/admin.md#exit-codes), followed by every command
(issue 50): 0 done, 1 not now (a server unreachable: try again later), 2 fix something first,
130 interrupted; ``health`` only ever 0 or 1, since Docker's HEALTHCHECK reserves 2.

Before: an unreachable PostgreSQL gave 1 from ``init`` and the bot but 2 from ``store copy``,
and ``health`` exited 2 when the health port was off.
"""

from __future__ import annotations

import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.exits import EXIT_FIX, EXIT_INTERRUPTED, EXIT_OK, EXIT_RETRY
from tests.ops.helpers import ROOT, bot_env, free_port


def _nobody() -> str:
    """A PostgreSQL URL where nothing listens: the server cannot be reached."""
    return f"postgresql://mt:pw@127.0.0.1:{free_port()}/mt"


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mexican-train-bot: "), err
    return lines[0]


def test_an_unreachable_server_is_exit_1_from_every_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("MT_DATABASE", raising=False)
    sqlite = str(tmp_path / "games.sqlite3")
    assert main(["init", "--database", sqlite]) == EXIT_OK
    capsys.readouterr()
    for argv in (
        ["init", "--database", _nobody()],
        ["store", "copy", _nobody(), str(tmp_path / "copy.sqlite3")],
        ["store", "copy", sqlite, _nobody()],
    ):
        assert main(argv) == EXIT_RETRY, argv
        _one_line(capsys.readouterr().err)
    # The bot itself, as a process.
    env = bot_env(None, tmp_path / "unused.sqlite3", MT_DATABASE=_nobody())
    result = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == EXIT_RETRY, result.stderr
    _one_line(result.stderr)


def test_something_to_fix_is_exit_2_from_every_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MT_DATABASE", "mysql://nowhere/db")
    for argv in (
        ["init"],
        ["backup", str(tmp_path) + "/"],
        ["store", "copy", "mysql://x/y", str(tmp_path / "copy.sqlite3")],
        ["try", "--players", "11"],
    ):
        assert main(argv) == EXIT_FIX, argv
        _one_line(capsys.readouterr().err)
    env = bot_env(None, tmp_path / "db.sqlite3", MT_LOG_LEVEL="loud")
    result = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == EXIT_FIX, result.stderr
    assert "MT_LOG_LEVEL" in _one_line(result.stderr)


@pytest.mark.parametrize(
    ("env", "needle"),
    [
        ({"MT_HEALTH_PORT": "off"}, "MT_HEALTH_PORT is off"),
        ({"MT_HEALTH_PORT": "http"}, "MT_HEALTH_PORT"),
        ({"MT_HEALTH_PORT": "PORT"}, "nothing listens there"),
    ],
)
def test_health_exits_0_or_1_only_never_dockers_reserved_2(
    env: dict[str, str],
    needle: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value if value != "PORT" else str(free_port()))
    assert main(["health"]) == EXIT_RETRY
    line = _one_line(capsys.readouterr().err)
    assert needle in line
    # In our words: no urllib repr, no errno.
    assert "urlopen" not in line and "Errno" not in line and "<" not in line


def test_health_says_a_silent_server_in_our_words(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A port that accepts but never answers: a timeout, said as one."""
    import bot.__main__ as entry

    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        monkeypatch.setenv("MT_HEALTH_PORT", str(listener.getsockname()[1]))
        monkeypatch.setattr(entry, "HEALTH_TIMEOUT_S", 0.5)
        assert main(["health"]) == EXIT_RETRY
    line = _one_line(capsys.readouterr().err)
    assert "no answer within 0.5 s" in line and "timed out" not in line


def test_the_table_is_the_one_docs_and_help_give() -> None:
    admin = (ROOT / "docs" / "admin.md").read_text(encoding="utf-8")
    section = admin.split("## Exit codes", 1)[1].split("\n## ", 1)[0]
    codes = [int(code) for code in re.findall(r"^\| (\d+) \|", section, re.MULTILINE)]
    assert codes == [EXIT_OK, EXIT_RETRY, EXIT_FIX, EXIT_INTERRUPTED]
    for command in ("init", "backup", "health", "store copy", "try", "python -m bot"):
        assert f"`{command}`" in section, command
    result = subprocess.run(
        [sys.executable, "-m", "bot", "--help"], cwd=ROOT, capture_output=True, text=True,
        timeout=60, check=False,
    )  # fmt: skip
    help_text = " ".join(result.stdout.split())
    assert "2 a setting to fix" in help_text and "130 interrupted" in help_text
    assert "health exits only 0 (healthy) or 1" in help_text
