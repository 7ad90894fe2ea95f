"""Start-up checks what can still change, not the years of history (issue 39).

Start-up (and ``init``) run SQLite's ``quick_check`` on every table but the finished matches'
archived logs, so its time follows the live data; ``init --full`` reads everything. Here a
page of the archive is overwritten: start-up's check lets the file through, the full check
names it damaged.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from tests.ops.helpers import ROOT, bot_env


def _run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], cwd=ROOT, env=env, capture_output=True,
        text=True, timeout=60, check=False,
    )  # fmt: skip


def test_start_up_leaves_the_archive_to_the_full_check(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    env = bot_env(None, database) | {"DISCORD_TOKEN": ""}
    assert _run(env, "init").returncode == 0
    conn = sqlite3.connect(database)
    with conn:  # a long history: archived logs fill most of the file
        conn.executemany(
            "INSERT INTO event_archive (game_id, events, count) VALUES (?, ?, 1)",
            ((n, os.urandom(3000)) for n in range(1, 401)),
        )
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.close()
    assert _run(env, "init", "--full").returncode == 0  # sound before the damage
    data = bytearray(database.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    middle = len(data) // page // 2  # a page of the archive (it is most of the file)
    data[middle * page : (middle + 1) * page] = os.urandom(page)
    database.write_bytes(bytes(data))
    quick = _run(env, "init")
    assert quick.returncode == 0, quick.stderr  # the live tables are sound
    full = _run(env, "init", "--full")
    assert full.returncode == 2 and "failed the full integrity check" in full.stderr, full
