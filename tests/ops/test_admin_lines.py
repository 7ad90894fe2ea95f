"""What an admin meets: counts in words ("1 game", never "1 games"), and the admin
guide's restore rehearsal and systemd unit working as written."""

from __future__ import annotations

import asyncio
import configparser
import os
import re
import signal
import sqlite3
import subprocess
import sys
import tomllib
from pathlib import Path

import discord

from bot.ops.backup import BackupReport
from bot.service.storecopy import CopyReport
from tests.fakediscord import FakeDiscord
from tests.ops.helpers import ROOT, bot_env, free_port, start_bot, wait_healthy


def test_backup_counts_its_games_in_words() -> None:
    def line(games: int) -> str:
        return BackupReport(Path("b.sqlite3"), 2_000_000, games, 9, 0.1).line()

    assert ": 1 game, schema 9," in line(1)
    assert ": 0 games, schema 9," in line(0) and ": 2 games, schema 9," in line(2)


def test_store_copy_counts_its_games_in_words() -> None:
    def line(games: int, different: tuple[str, ...] = ()) -> str:
        equal = games - len(different)
        return CopyReport("a", "b", games, 40, 9, equal, different, 0.5).line()

    assert line(1).startswith("copied 1 game (40 rows in 9 tables) from a to b; ")
    assert "; 1 of 1 game replays equal;" in line(1)
    assert "copied 2 games" in line(2) and "; 2 of 2 games replay equal;" in line(2)
    assert "; 1 of 1 game DIFFERS: game 7;" in line(1, ("game 7",))
    assert "; 1 of 3 games DIFFER: game 7;" in line(3, ("game 7",))


def _guide_block(heading: str, fence: str) -> str:
    """A fenced block of the admin's guide (docs/admin.md), after ``heading``."""
    text = (ROOT / "docs" / "admin.md").read_text()
    match = re.search(rf"```{fence}\n(.*?)```", text[text.index(heading) :], re.S)
    assert match is not None, f"no {fence} block after {heading!r}"
    return match.group(1)


def test_the_restore_rehearsal_runs_again_when_backups_holds_several(tmp_path: Path) -> None:
    """The admin guide's rehearsal, run twice in one folder: the second time backups/ holds two
    files (``cp backups/*.sqlite3 FILE`` then failed: "not a directory"), and the newest one
    is the one put back."""
    block = _guide_block("Rehearse a backup and a restore", "sh")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "python"  # the package on the path as after `pip install`
    wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    wrapper.chmod(0o755)
    work = tmp_path / "clone"
    work.mkdir()
    env = {
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}",
        "PYTHONPATH": str(ROOT),
    }
    for run in (1, 2):
        result = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", block], cwd=work, env=env, capture_output=True,
            text=True, timeout=120, check=False,
        )  # fmt: skip
        assert result.returncode == 0, (run, result.stderr)
        assert result.stderr == "" and "database checked" in result.stdout.splitlines()[-1]
        assert len(list((work / "backups").iterdir())) == run
        # The newest backup is the one put back: only it holds what run 1 left behind.
        conn = sqlite3.connect(work / "data" / "mexican-train.sqlite3")
        try:
            marks = conn.execute(
                "SELECT count(*) FROM sqlite_master WHERE name = 'rehearsal_mark'"
            ).fetchone()[0]
            assert marks == run - 1
            conn.execute("CREATE TABLE IF NOT EXISTS rehearsal_mark (n INTEGER)")
            conn.commit()
        finally:
            conn.close()


def test_the_systemd_unit_can_be_enabled_as_given() -> None:
    """``systemctl enable`` needs an [Install] section; the admin guide's unit has one, starts
    after the network and keeps restarting except on exit 2 (a setting to fix)."""
    unit = configparser.ConfigParser(strict=True, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read_string(_guide_block("a systemd unit is enough", "ini"))
    assert unit["Install"]["WantedBy"] == "multi-user.target"
    assert unit["Unit"]["After"] == "network-online.target"
    service = unit["Service"]
    assert service["ExecStart"].endswith("/.venv/bin/python -m bot")
    assert service["Restart"] == "on-failure" and service["RestartPreventExitStatus"] == "2"
    text = (ROOT / "docs" / "admin.md").read_text()
    assert "systemctl enable --now mexican-train-bot" in text


def test_version_prints_the_release() -> None:
    import bot

    for command in (["-m", "bot", "--version"],):
        result = subprocess.run(
            [sys.executable, *command], cwd=ROOT, capture_output=True, text=True, timeout=60,
            check=True,
        )  # fmt: skip
        assert result.stdout == f"mexican-train-bot {bot.__version__}\n"
    assert re.fullmatch(r"\d+\.\d+\.\d+", bot.__version__)
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert pyproject["project"]["dynamic"] == ["version"]  # read from bot.__version__
    assert pyproject["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "bot.__version__"}


async def test_start_up_says_who_the_bot_is_where_and_how_to_invite_it(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    fake.guild("Second server")
    port = free_port()
    env = bot_env(fake, tmp_path / "games.sqlite3", MT_HEALTH_PORT=str(port))
    proc = await start_bot(env)
    try:
        await wait_healthy(f"http://127.0.0.1:{port}", proc, timeout=60)
        proc.send_signal(signal.SIGTERM)
        await asyncio.wait_for(proc.wait(), 60)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert proc.stderr is not None
    log = (await proc.stderr.read()).decode()
    ready = [line for line in log.splitlines() if "ready: logged in as" in line]
    needed = discord.Permissions(  # bot/ui/permissions.py (Manage Webhooks: optional)
        view_channel=True, send_messages=True, embed_links=True, attach_files=True,
        read_message_history=True, create_public_threads=True, send_messages_in_threads=True,
        manage_webhooks=True,
    )  # fmt: skip
    assert len(ready) == 1, log
    assert ready[0].endswith(
        f"ready: logged in as TrainBot (id {fake.bot_user.id}), in 2 servers; invite link: "
        f"https://discord.com/oauth2/authorize?client_id={fake.application_id}&scope=bot+"
        f"applications.commands&permissions={needed.value}"
    ), ready[0]
    # The fake's bot role lacks Manage Webhooks: said once, on the line after.
    lines = log.splitlines()
    after = lines[lines.index(next(ln for ln in lines if ln.endswith(ready[0]))) + 1]
    assert "Manage Webhooks is missing in 2 of 2 servers (Mexican Train Club, Second " in after
    assert sum("Manage Webhooks" in line for line in lines) == 1, log
