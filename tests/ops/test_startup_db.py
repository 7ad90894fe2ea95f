"""The database is opened and checked before the Discord login, and ``python -m bot init``.

A damaged SQLite file, a PostgreSQL URL that cannot be read and a server that cannot be
reached are each one line on stderr and the right exit code — never a traceback, never a
Discord error in their place. The fake Discord's address given to the bot here has nothing
listening: had the bot tried to log in first, it would have said "cannot reach Discord"
(exit 1) instead of what is wrong with its database.
"""

from __future__ import annotations

import hashlib
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.ops.helpers import ROOT, TOKEN, bot_env, free_port


def _run(env: dict[str, str], *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], cwd=ROOT, env=env, capture_output=True,
        text=True, timeout=timeout, check=False,
    )  # fmt: skip


def _nobody_listening(env: dict[str, str]) -> dict[str, str]:
    port = free_port()
    return env | {
        "MT_DISCORD_API_BASE": f"http://127.0.0.1:{port}/api/v10",
        "MT_DISCORD_GATEWAY": f"ws://127.0.0.1:{port}/gateway",
    }


def _database_with_rows(path: Path) -> None:
    """A real bot database (``init``) with enough rows to span many pages."""
    env = bot_env(None, path)
    assert _run(env, "init").returncode == 0
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("CREATE TABLE filler (n INTEGER PRIMARY KEY, text TEXT)")
        conn.executemany("INSERT INTO filler VALUES (?, ?)", ((n, "x" * 300) for n in range(400)))
        conn.execute("CREATE INDEX filler_text ON filler (text, n)")
    conn.execute("PRAGMA journal_mode = DELETE")  # everything in the one file, no -wal
    conn.close()


def _damage(kind: str, path: Path) -> None:
    if kind == "garbage":
        path.write_bytes(os.urandom(64 * 1024))
    elif kind == "text":
        path.write_text("games:\n  - this is not a database\n")
    elif kind == "zeroed header":
        _database_with_rows(path)
        data = bytearray(path.read_bytes())
        data[:100] = bytes(100)
        path.write_bytes(bytes(data))
    elif kind == "zeroed pages":  # SQLite's check lists a problem per line: still one line
        _database_with_rows(path)
        data = bytearray(path.read_bytes())
        page = int.from_bytes(data[16:18], "big")
        pages = len(data) // page
        for n in (pages - 2, pages - 1):  # the filler index: the file still opens
            data[n * page : (n + 1) * page] = bytes(page)
        path.write_bytes(bytes(data))
    elif kind == "overwritten page":
        _database_with_rows(path)
        data = bytearray(path.read_bytes())
        page = int.from_bytes(data[16:18], "big")
        middle = len(data) // page // 2
        data[middle * page : (middle + 1) * page] = os.urandom(page)
        path.write_bytes(bytes(data))


KINDS = ("garbage", "text", "zeroed header", "zeroed pages", "overwritten page")


@pytest.mark.parametrize("kind", KINDS)
def test_a_damaged_sqlite_file_is_one_line_and_exit_2_before_discord(
    tmp_path: Path, kind: str
) -> None:
    database = tmp_path / "data" / "mexican-train.sqlite3"
    database.parent.mkdir()
    _damage(kind, database)
    before = hashlib.sha256(database.read_bytes()).hexdigest()
    result = _run(_nobody_listening(bot_env(None, database)))
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2, result.stderr
    assert len(lines) == 1 and lines[0].startswith("mexican-train-bot: "), result.stderr
    assert str(database) in lines[0] and "restore a backup" in lines[0]
    assert ("is not an SQLite database" in lines[0]) or ("is damaged" in lines[0])
    assert "Discord" not in result.stderr and TOKEN not in result.stderr
    # Nothing was written to it: not switched to WAL, not migrated.
    assert hashlib.sha256(database.read_bytes()).hexdigest() == before
    assert not database.with_name(database.name + "-wal").exists()
    # init says the same, without a token.
    checked = _run(bot_env(None, database) | {"DISCORD_TOKEN": ""}, "init")
    assert checked.returncode == 2 and checked.stderr.strip() == lines[0]


def test_a_damaged_file_honours_mt_on_config_error_wait(tmp_path: Path) -> None:
    database = tmp_path / "db.sqlite3"
    _damage("zeroed header", database)
    env = _nobody_listening(bot_env(None, database, MT_ON_CONFIG_ERROR="wait"))
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot"], cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True
    )
    try:
        assert proc.stderr is not None
        assert "is not an SQLite database" in proc.stderr.readline()
        assert "waiting to be stopped" in proc.stderr.readline()
        with pytest.raises(subprocess.TimeoutExpired):
            proc.wait(timeout=1.5)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=10) == 2
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://mt:s3cret@[::1/mt",  # a bracket left open: "Invalid IPv6 URL"
        "postgresql://mt:s3cret@db:port/mt",
        "postgres://mt:s3cret@db:99999/mt",
    ],
)
def test_a_malformed_postgresql_url_is_one_line_and_exit_2(tmp_path: Path, url: str) -> None:
    env = _nobody_listening(bot_env(None, tmp_path / "unused.sqlite3", MT_DATABASE=url))
    for args in ((), ("init",)):
        result = _run(env, *args)
        lines = result.stderr.strip().splitlines()
        assert result.returncode == 2, result.stderr
        assert len(lines) == 1 and lines[0].startswith("mexican-train-bot: MT_DATABASE"), lines
        assert "s3cret" not in result.stderr and "Traceback" not in result.stderr


def test_an_unreachable_postgresql_server_is_one_line_and_exit_1(tmp_path: Path) -> None:
    """Nothing listens on the port: exit 1 (it may pass: a restart policy tries again), the
    password masked, and still before any contact with Discord."""
    url = f"postgresql://mt:s3cret@127.0.0.1:{free_port()}/mt"
    env = _nobody_listening(bot_env(None, tmp_path / "unused.sqlite3", MT_DATABASE=url))
    for args in ((), ("init",)):
        result = _run(env, *args)
        lines = result.stderr.strip().splitlines()
        assert result.returncode == 1, result.stderr
        assert len(lines) == 1, result.stderr
        assert "cannot reach the PostgreSQL server postgresql://mt:***@127.0.0.1" in lines[0]
        assert "s3cret" not in result.stderr and "Discord" not in result.stderr


def test_init_creates_then_checks_without_a_token(tmp_path: Path) -> None:
    database = tmp_path / "new" / "games.sqlite3"
    env = bot_env(None, database) | {"DISCORD_TOKEN": ""}
    first = _run(env, "init")
    assert first.returncode == 0, first.stderr
    assert first.stdout.startswith(f"database created: {database} (schema version ")
    assert "0 games" in first.stdout and database.is_file()
    again = _run(env, "init")
    assert again.returncode == 0 and again.stdout.startswith(f"database checked: {database}")
    other = tmp_path / "other.sqlite3"
    chosen = _run(env, "init", "--database", str(other))
    assert chosen.returncode == 0 and str(other) in chosen.stdout and other.is_file()


def test_the_help_names_the_database_setting_and_every_command_says_what_it_does() -> None:
    """The top-level help names MT_DATABASE and the exit codes; ``health`` and ``init`` have
    a description; ``store copy`` calls its arguments what they are called."""
    import argparse

    from bot.__main__ import _parser

    parser = _parser("mexican-train-bot")
    top = " ".join(parser.format_help().split())
    assert "MT_DATABASE" in top and "DISCORD_TOKEN" in top and "2 a setting to fix" in top
    (commands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    for name in ("try", "init", "backup", "health", "store"):
        assert commands.choices[name].description, f"{name} --help has no description"
    store = commands.choices["store"]
    (copy_commands,) = [a for a in store._actions if isinstance(a, argparse._SubParsersAction)]
    copy_help = copy_commands.choices["copy"].format_help()
    assert "SRC" not in copy_help and "DST" not in copy_help
    assert "SOURCE" in copy_help and "DESTINATION" in copy_help
