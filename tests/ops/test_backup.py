"""``python -m bot backup``: a consistent copy while another connection keeps writing moves."""

from __future__ import annotations

import asyncio
import re
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.ops.backup import BackupError, backup, destination
from bot.service import GameService
from bot.store import GameStatus, Store
from bot.store.rows import unpack_events
from tests.clock import FakeClock
from tests.ops.helpers import ROOT, bot_env
from tests.service.conftest import ALICE, BOB
from tests.service.helpers import new_game, play_turn


def _moves(path: Path) -> int:
    """Moves in the copy: the live games' events, and the finished matches' archived logs."""
    with sqlite3.connect(path) as conn:
        live = int(conn.execute("SELECT count(*) FROM events WHERE kind = 'move'").fetchone()[0])
        archived = conn.execute("SELECT game_id, events FROM event_archive").fetchall()
    return live + sum(e.kind == "move" for gid, blob in archived for e in unpack_events(gid, blob))


async def _backup_cli(db: Path, target: Path | str) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "backup", str(target),
        cwd=ROOT, env=bot_env(None, db), stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await proc.communicate()
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


async def test_backup_while_moves_are_written_is_consistent_and_replays(tmp_path: Path) -> None:
    db = tmp_path / "data" / "games.sqlite3"
    store = await Store.open(db, synchronous="NORMAL")
    svc = GameService(store)
    clock = FakeClock()
    committed = 0
    stop = asyncio.Event()

    async def keep_playing() -> None:
        """Games one after another, a committed move at a time, until told to stop."""
        nonlocal committed
        channel = 5000
        while not stop.is_set():
            channel += 1
            gid = (await new_game(svc, clock, humans=(ALICE, BOB), channel=channel)).game.id
            while not stop.is_set() and (await svc.game(gid)).status is GameStatus.ACTIVE:
                await play_turn(svc, gid, clock)
                committed += 1
                await asyncio.sleep(0)

    writer = asyncio.create_task(keep_playing())
    copies = []
    try:
        while committed < 20:
            await asyncio.sleep(0.01)
        (tmp_path / "dir").mkdir()
        for target in [tmp_path / "b1.sqlite3", tmp_path / "dir", tmp_path / "b3.sqlite3"]:
            before = committed
            code, out, err = await _backup_cli(db, target)
            assert code == 0, err
            assert out.startswith("backup written to ") and "integrity ok" in out
            written = Path(out.split("backup written to ", 1)[1].split(":", 1)[0])
            assert written.parent == (target if target.is_dir() else target.parent)
            copies.append((written, before))
        assert committed > copies[0][1], "the writer should have kept going during the backups"
    finally:
        stop.set()
        await writer
        await store.close()

    for copy, before in copies:
        assert not copy.with_name(copy.name + "-wal").exists()  # one self-contained file
        with sqlite3.connect(copy) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        assert before <= _moves(copy) <= committed
        restored = await Store.open(copy, synchronous="NORMAL")
        try:
            replayer = GameService(restored)
            games = await restored.count_games()
            assert sum(games.values()) >= 1
            for gid in range(1, sum(games.values()) + 1):
                await replayer.verify_game(gid)  # every game replays to the same state
        finally:
            await restored.close()


def test_backup_refuses_what_it_should(tmp_path: Path) -> None:
    with pytest.raises(BackupError, match="there is no database"):
        backup(tmp_path / "missing.sqlite3", tmp_path / "copy.sqlite3")
    src = tmp_path / "db.sqlite3"
    with sqlite3.connect(src) as conn:
        conn.execute("CREATE TABLE t (x)")
    dest = tmp_path / "copy.sqlite3"
    assert backup(src, dest).games == 0
    with pytest.raises(BackupError, match="already exists"):
        backup(src, dest)
    assert backup(src, dest, force=True).path == dest
    with pytest.raises(BackupError, match="itself"):
        backup(src, src, force=True)
    with pytest.raises(BackupError, match="does not exist"):
        backup(src, tmp_path / "nowhere" / "copy.sqlite3")
    when = datetime(2025, 3, 1, 4, 5, 6, tzinfo=UTC)
    assert destination(tmp_path, when).name == "mexican-train-20250301-040506.sqlite3"
    assert [p.name for p in tmp_path.iterdir() if ".partial" in p.name] == []


def _run_backup(db: Path, target: str, *extra: str) -> tuple[int, Path | None, str]:
    """``python -m bot backup TARGET`` as typed: (exit code, the file written, stderr)."""
    result = subprocess.run(
        [sys.executable, "-m", "bot", "backup", target, *extra], cwd=ROOT,
        env=bot_env(None, db), capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    written = None
    if result.returncode == 0:
        written = Path(result.stdout.split("backup written to ", 1)[1].split(": ", 1)[0])
    return result.returncode, written, result.stderr


def _small_db(path: Path) -> Path:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE games (id INTEGER PRIMARY KEY)")
        conn.execute("INSERT INTO games DEFAULT VALUES")
    return path


def test_a_path_ending_in_slash_is_a_folder_created_and_filled_every_run(tmp_path: Path) -> None:
    db = _small_db(tmp_path / "db.sqlite3")
    folder = tmp_path / "backups" / "daily"  # neither exists yet
    written = []
    for _ in range(3):  # the cron line, run again and again (here within one second)
        code, path, err = _run_backup(db, f"{folder}/")
        assert code == 0, err
        assert path is not None and path.parent == folder and path.is_file()
        assert re.fullmatch(r"mexican-train-\d{8}-\d{6}(-\d+)?\.sqlite3", path.name)
        written.append(path)
    assert folder.is_dir() and len(set(written)) == 3
    assert sorted(folder.iterdir()) == sorted(written)  # no partial files left behind


def test_an_existing_folder_without_slash_gets_a_timestamped_file(tmp_path: Path) -> None:
    db = _small_db(tmp_path / "db.sqlite3")
    (tmp_path / "existing").mkdir()
    code, path, err = _run_backup(db, str(tmp_path / "existing"))
    assert code == 0, err
    assert path is not None and path.parent == tmp_path / "existing"
    assert path.name.startswith("mexican-train-")


def test_a_plain_file_path_is_written_once_then_refused_unless_forced(tmp_path: Path) -> None:
    db = _small_db(tmp_path / "db.sqlite3")
    target = tmp_path / "copy.sqlite3"
    code, path, err = _run_backup(db, str(target))
    assert (code, path) == (0, target), err
    code, path, err = _run_backup(db, str(target))
    assert code == 2 and path is None
    assert err.strip().splitlines() == [
        f"mexican-train-bot: {target} already exists (pass --force to replace it)"
    ]
    code, path, err = _run_backup(db, str(target), "--force")
    assert (code, path) == (0, target), err
    # A file path whose folder is missing is a typo more often than a wish: refused.
    code, _, err = _run_backup(db, str(tmp_path / "nowhere" / "copy.sqlite3"))
    assert code == 2 and "does not exist" in err
