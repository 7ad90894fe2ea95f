"""Every command that takes a database reads it as ``MT_DATABASE`` does, and no message, log
line or exception from any of them carries the password (issue 36).

The sweep runs each command's error paths in this process (``main(argv)``, as the console
script does) with URLs whose passwords hold the characters that break URL parsing (``/``,
``#``, ``@``, ``?``, a percent-encoded one), and checks stdout, stderr and the log. The bot's
own start-up with such an ``MT_DATABASE`` runs as a subprocess (it installs handlers).
"""

from __future__ import annotations

import logging
import sqlite3
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote

import pytest

from bot.__main__ import main
from bot.store.postgres import PgStore, connectable, safe_url, scrub
from tests.ops.helpers import ROOT, bot_env, free_port

PASSWORDS = ("plainSECRET1", "sl/ashSECRET2", "ha#shSECRET3", "a@tSECRET4", "q?mSECRET5",
             "pct%2FSECRET6")  # fmt: skip


def _urls(password: str) -> list[str]:
    """One URL per way it goes wrong: nobody listening, a bracket left open, a bad port, a
    scheme the bot does not store in."""
    return [
        f"postgresql://mt:{password}@127.0.0.1:{free_port()}/mt",
        f"postgresql://mt:{password}@[::1/mt",
        f"postgres://mt:{password}@db:99999/mt",
        f"mysql://mt:{password}@db/mt",
    ]


def _commands(url: str, tmp: Path) -> list[tuple[list[str], dict[str, str]]]:
    """Every command that takes a database, given ``url`` each way it can be given."""
    sqlite = tmp / "games.sqlite3"
    return [
        (["backup", str(tmp / "backups") + "/", "--database", url], {}),
        (["backup", str(tmp / "backups") + "/"], {"MT_DATABASE": url}),
        (["init", "--database", url], {}),
        (["init"], {"MT_DATABASE": url}),
        (["store", "copy", url, str(tmp / "copy.sqlite3")], {}),
        (["store", "copy", str(sqlite), url], {}),
        (["store", "copy", url, url.replace("/mt", "/other")], {}),
    ]


def _leaks(text: str, password: str) -> bool:
    secret = password[password.index("SECRET") :]
    return any(form in text for form in (password, unquote(password), secret))


@pytest.mark.parametrize("password", PASSWORDS)
def test_no_command_error_says_the_password(
    password: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sqlite3.connect(tmp_path / "games.sqlite3").close()
    caplog.set_level(logging.DEBUG)
    checked = 0
    for url in _urls(password):
        for argv, env in _commands(url, tmp_path):
            monkeypatch.delenv("MT_DATABASE", raising=False)
            for name, value in env.items():
                monkeypatch.setenv(name, value)
            code = main(argv)
            out, err = capsys.readouterr()
            said = out + err + caplog.text
            assert code in (1, 2), (argv, env, said)
            assert err.count("\n") == 1 and err.startswith("mexican-train-bot: "), (argv, err)
            assert not _leaks(said, password), (argv, env, said)
            caplog.clear()
            checked += 1
    assert checked == 4 * 7


@pytest.mark.parametrize("password", PASSWORDS)
def test_the_bot_itself_never_says_the_password(password: str, tmp_path: Path) -> None:
    for url in _urls(password):
        env = bot_env(None, tmp_path / "unused.sqlite3", MT_DATABASE=url)
        result = subprocess.run(
            [sys.executable, "-m", "bot"], cwd=ROOT, env=env, capture_output=True, text=True,
            timeout=60, check=False,
        )  # fmt: skip
        assert result.returncode in (1, 2), result.stderr
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert not _leaks(result.stdout + result.stderr, password), result.stderr


def test_a_url_given_to_a_command_is_read_as_mt_database_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """backup was given a file path where it was a URL ("there is no database at
    postgresql:/u:..."): now it says what MT_DATABASE would, and how to back one up."""
    url = f"postgresql://u:secretpw@127.0.0.1:{free_port()}/db"
    assert main(["backup", str(tmp_path) + "/", "--database", url]) == 2
    err = capsys.readouterr().err
    assert err == (
        "mexican-train-bot: --database is a PostgreSQL server: back it up with pg_dump "
        "(see docs/postgresql.md)\n"
    )
    # Surrounding spaces are what MT_DATABASE forgives too; another scheme is refused alike.
    assert main(["backup", str(tmp_path) + "/", "--database", f"  {url} "]) == 2
    assert "pg_dump" in capsys.readouterr().err
    assert main(["store", "copy", "sqlite:///x.db", str(tmp_path / "y.sqlite3")]) == 2
    assert "SOURCE is a sqlite:// URL, but the bot stores games only in" in (
        capsys.readouterr().err
    )


def test_passwords_are_masked_however_the_url_is_broken() -> None:
    for password in PASSWORDS:
        for url in _urls(password):
            assert not _leaks(safe_url(url), password), safe_url(url)
            message = f"could not connect to {url}: password {password} refused"
            assert not _leaks(scrub(message, url), password)
    assert safe_url("postgresql://mt@db/mt") == "postgresql://mt@db/mt"  # nothing to hide
    assert safe_url("postgresql://db/mt?password=pw1&sslmode=require") == (
        "postgresql://db/mt?password=***&sslmode=require"
    )


def test_a_password_holding_an_at_sign_reaches_the_right_server() -> None:
    """asyncpg cuts the address at its first ``@``: the user and password are encoded."""
    assert connectable("postgresql://mt:p@ss@db:5432/mt") == "postgresql://mt:p%40ss@db:5432/mt"
    assert connectable("postgresql://mt:p%40ss@db/mt") == "postgresql://mt:p%40ss@db/mt"
    assert connectable("postgresql://db/mt") == "postgresql://db/mt"


async def test_a_server_reached_with_any_password(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The real server, reached with a password holding ``@`` in the URL, and with the
    password in PGPASSWORD and the user in PGUSER beside a URL without them (how
    compose.cluster.yaml passes them: any password then works)."""
    user, _, where = pg_url.removeprefix("postgresql://").partition("@")
    store = await PgStore.connect(f"postgresql://{user}:a@b/c#d?e@{where}")
    assert await store.is_empty()
    await store.close()
    monkeypatch.setenv("PGUSER", user)
    monkeypatch.setenv("PGPASSWORD", "a/b#c@d?e f")
    store = await PgStore.connect(f"postgresql://{where}")
    assert await store.is_empty()
    await store.close()
