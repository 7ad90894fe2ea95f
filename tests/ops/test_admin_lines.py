"""What an admin meets: counts in words ("1 game", never "1 games"), and the README's
restore rehearsal and systemd unit working as written."""

from __future__ import annotations

import configparser
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

from bot.ops.backup import BackupReport
from bot.service.storecopy import CopyReport
from tests.ops.helpers import ROOT


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


def _readme_block(heading: str, fence: str) -> str:
    text = (ROOT / "README.md").read_text()
    match = re.search(rf"```{fence}\n(.*?)```", text[text.index(heading) :], re.S)
    assert match is not None, f"no {fence} block after {heading!r}"
    return match.group(1)


def test_the_restore_rehearsal_runs_again_when_backups_holds_several(tmp_path: Path) -> None:
    """The README's rehearsal, run twice in one folder: the second time backups/ holds two
    files (``cp backups/*.sqlite3 FILE`` then failed: "not a directory"), and the newest one
    is the one put back."""
    block = _readme_block("Rehearse a backup and a restore", "sh")
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
    """``systemctl enable`` needs an [Install] section; the README's unit has one, starts
    after the network and keeps restarting except on exit 2 (a setting to fix)."""
    unit = configparser.ConfigParser(strict=True, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read_string(_readme_block("a systemd unit is enough", "ini"))
    assert unit["Install"]["WantedBy"] == "multi-user.target"
    assert unit["Unit"]["After"] == "network-online.target"
    service = unit["Service"]
    assert service["ExecStart"].endswith("/.venv/bin/python -m bot")
    assert service["Restart"] == "on-failure" and service["RestartPreventExitStatus"] == "2"
    text = (ROOT / "README.md").read_text()
    assert "systemctl enable --now mexican-train-bot" in text
