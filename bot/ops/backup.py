"""``python -m bot backup PATH``: a consistent copy of the database, while the bot runs.

SQLite's online backup API copies every page inside one read transaction, so the copy is the
database as of one instant — never half a move — even while the bot keeps committing moves
(WAL lets readers and the writer work at once). The copy is written beside its destination
under a temporary name, switched from WAL to a plain rollback journal (one self-contained
file: no ``-wal``/``-shm`` to forget), checked with ``PRAGMA integrity_check``, flushed to
disk, and only then renamed into place: a backup that exists is a good one.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import sqlite3
import time
from datetime import UTC, datetime
from pathlib import Path


def one_line(check: str) -> str:
    """SQLite's check verdict on one line: it lists a problem per line under a
    ``*** in database main ***`` heading, and an operator's message is one line."""
    problems = [" ".join(line.split()) for line in check.splitlines()]
    return "; ".join(p for p in problems if p and not p.startswith("***")) or check.strip()


class BackupError(Exception):
    """Why no backup was written (one line for the operator)."""


@dataclasses.dataclass(frozen=True, slots=True)
class BackupReport:
    path: Path
    bytes: int
    games: int
    schema_version: int
    seconds: float

    def line(self) -> str:
        return (
            f"backup written to {self.path}: {self.games} game{'' if self.games == 1 else 's'}, "
            f"schema {self.schema_version}, "
            f"{self.bytes / 1_000_000:.1f} MB, integrity ok, {self.seconds:.2f} s"
        )


def is_folder(dest: str | os.PathLike[str]) -> bool:
    """A destination names a folder when it ends with a slash or is an existing directory.

    Taken from the text as typed: ``Path("backups/")`` drops the slash, which once turned
    ``backup backups/`` into a FILE named ``backups`` (and the next day's run into "already
    exists").
    """
    text = os.fspath(dest)
    return text.endswith(("/", os.sep)) or Path(text).is_dir()


def destination(dest: str | os.PathLike[str], now: datetime | None = None) -> Path:
    """``dest`` itself, or inside a folder a timestamped name (for cron jobs), made unique
    with ``-2``, ``-3``… when two backups land in the same second."""
    if not is_folder(dest):
        return Path(dest)
    folder = Path(dest)
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%d-%H%M%S")
    target = folder / f"mexican-train-{stamp}.sqlite3"
    n = 1
    while target.exists():
        n += 1
        target = folder / f"mexican-train-{stamp}-{n}.sqlite3"
    return target


def backup(source: Path, dest: str | os.PathLike[str], *, force: bool = False) -> BackupReport:
    """Copy the database ``source`` to ``dest``: a file, or a folder (ending in ``/`` or
    existing; created if need be) to put a timestamped file in."""
    started = time.perf_counter()
    if not source.is_file():
        raise BackupError(f"there is no database at {source} (set MT_DATABASE or --database)")
    if is_folder(dest) and not Path(dest).is_dir():
        try:
            Path(dest).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise BackupError(f"cannot create the folder {dest} ({exc.strerror or exc})") from None
    target = destination(dest)
    if target.exists() and not force:
        raise BackupError(f"{target} already exists (pass --force to replace it)")
    if target.resolve() == source.resolve():
        raise BackupError("the backup cannot overwrite the database itself")
    if not target.parent.is_dir():
        raise BackupError(f"the directory {target.parent} does not exist")
    partial = target.with_name(f".{target.name}.partial-{os.getpid()}")
    try:
        # mode=rw never creates a file; query_only: the backup writes nothing to the database.
        # (Not mode=ro: a read-only connection would leave -wal/-shm beside a stopped bot's
        # file, where a read-write one cleans up after itself like the bot does.)
        src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=rw", uri=True, timeout=30)
        try:
            src.execute("PRAGMA query_only = ON")
            out = sqlite3.connect(partial)
            try:
                src.backup(out)  # all pages in one step: one read transaction, one instant
                out.execute("PRAGMA journal_mode = DELETE")
                check = out.execute("PRAGMA integrity_check").fetchone()[0]
                if check != "ok":
                    raise BackupError(f"the copy failed its integrity check: {one_line(check)}")
                version = int(out.execute("PRAGMA user_version").fetchone()[0])
                games = _count_games(out)
            finally:
                out.close()
        finally:
            src.close()
        with partial.open("rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(partial, target)
        _fsync_dir(target.parent)
    except sqlite3.Error as exc:
        raise BackupError(f"SQLite could not back up {source}: {exc}") from None
    except OSError as exc:
        raise BackupError(f"could not write {target}: {exc.strerror or exc}") from None
    finally:
        with contextlib.suppress(OSError):
            partial.unlink()
    return BackupReport(
        path=target,
        bytes=target.stat().st_size,
        games=games,
        schema_version=version,
        seconds=time.perf_counter() - started,
    )


def _count_games(conn: sqlite3.Connection) -> int:
    try:
        return int(conn.execute("SELECT count(*) FROM games").fetchone()[0])
    except sqlite3.OperationalError:  # not (yet) a bot database: still a faithful copy
        return 0


def _fsync_dir(directory: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
