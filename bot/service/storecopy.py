"""``python -m bot store copy SRC DST``: move a bot's games and settings between stores.

SRC and DST are each an SQLite file's path or a ``postgresql://`` URL, so the same command
moves a server from SQLite into PostgreSQL and back. Every row of every table a game or a
setting lives in (:data:`bot.store.store.COPY_TABLES`: games, seats, the event log, snapshots,
messages, results, statistics, schedule rows, user and server settings) is copied with its ids,
in one destination transaction: a copy that fails leaves the destination as it was. Then every
game is loaded from both stores through the service's replay and compared (position, events,
history, summary), and the destination's own load is checked against a full replay: a copy
that says "replay equal" is one the bot can run on. (It lives with the use cases because it
replays games through :class:`~bot.service.GameService`; the command line calls it.) The
destination must be empty unless ``replace`` is given (then it is emptied first). Stop the bot
while copying: a running bot keeps writing to the source.
"""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path
from typing import Any

from bot.config import is_postgres_url, parse_database
from bot.configvalues import ConfigError
from bot.engine.position import to_position
from bot.exits import EXIT_FIX, EXIT_OK, EXIT_RETRY
from bot.service import errors
from bot.service.games import GameService
from bot.store import Store, StoreError, StoreUnreachable, open_store
from bot.store.store import COPY_TABLES

#: Rows per INSERT batch: large enough to be quick, small enough to keep memory flat.
BATCH = 2000

#: Columns of one store that the other does not have and that need not travel: the
#: PostgreSQL lease on scheduled work (a copy starts with nothing claimed).
TRANSIENT = {("due_work", "claimed_by"), ("due_work", "claimed_until")}


class CopyError(Exception):
    """Why nothing was copied (one line for the operator)."""


@dataclasses.dataclass(frozen=True, slots=True)
class CopyReport:
    source: str
    destination: str
    games: int
    rows: int
    tables: int
    equal: int
    different: tuple[str, ...]
    seconds: float

    @property
    def ok(self) -> bool:
        return not self.different

    def line(self) -> str:
        verdict = (
            f"{self.equal} of {games(self.games)} {'replays' if self.games == 1 else 'replay'} "
            "equal"
            if self.ok
            else f"{len(self.different)} of {games(self.games)} "
            f"{'DIFFERS' if self.games == 1 else 'DIFFER'}: " + "; ".join(self.different[:5])
        )
        return (
            f"copied {games(self.games)} ({self.rows} rows in {self.tables} tables) from "
            f"{self.source} to {self.destination}; {verdict}; {self.seconds:.2f} s"
        )


def games(count: int) -> str:
    """``1 game``, ``2 games``: the operator's lines count games."""
    return f"{count} game" if count == 1 else f"{count} games"


async def copy_store(
    source: str | Path, destination: str | Path, *, replace: bool = False
) -> CopyReport:
    """Copy everything from ``source`` into ``destination`` and verify every game."""
    started = time.perf_counter()
    src_name, dst_name = _name(source), _name(destination)
    if src_name == dst_name:
        raise CopyError("the source and the destination are the same database")
    if not is_postgres_url(str(source)) and not Path(source).is_file():
        raise CopyError(f"there is no database at {source}")
    src = await open_store(source)
    src.deadline = None  # whole tables: no per-operation limit (a hang is the admin's to see)
    try:
        dst = await _open_destination(destination, replace)
        try:
            tables, rows = await _copy_rows(src, dst)
            equal, different = await verify_copy(src, dst)
            return CopyReport(
                str(src), str(dst), equal + len(different), rows, tables, equal,
                tuple(different), time.perf_counter() - started,
            )  # fmt: skip
        finally:
            await dst.close()
    finally:
        await src.close()


def _name(target: str | Path) -> str:
    text = str(target)
    return text if is_postgres_url(text) else str(Path(text).resolve())


async def _open_destination(target: str | Path, replace: bool) -> Store:
    dst = await open_store(target)
    dst.deadline = None
    if await dst.is_empty():
        return dst
    if not replace:
        await dst.close()
        raise CopyError(
            f"{dst} already holds games or settings; copy into an empty database, or pass "
            "--replace to delete everything in it first"
        )
    from bot.store.postgres import PgStore

    if isinstance(dst, PgStore):
        await dst.erase()
        return dst
    # An SQLite destination is replaced whole: its log refuses deletes, and a new file is
    # exactly "empty".
    await dst.close()
    path = Path(target)
    for extra in ("", "-wal", "-shm"):
        Path(f"{path}{extra}").unlink(missing_ok=True)
    return await open_store(path)


async def _copy_rows(src: Store, dst: Store) -> tuple[int, int]:
    tables = rows = 0
    async with dst.transaction() as tx:
        for table in COPY_TABLES:
            src_cols = await src.columns(table)
            if not src_cols:
                continue  # an older source without this table
            dst_cols = set(await dst.columns(table))
            cols = [c for c in src_cols if c in dst_cols]
            lost = [c for c in src_cols if c not in dst_cols and (table, c) not in TRANSIENT]
            data = await src.table_rows(table, cols or src_cols)
            if data and (not dst_cols or lost):
                raise CopyError(
                    f"the destination has no place for {table}"
                    + (f".{', '.join(lost)}" if lost else "")
                    + ": upgrade it (run the newer release on it once) and copy again"
                )
            if not cols:
                continue  # nothing to copy into a table the destination does not have
            if table == "due_work":
                await tx.clear_table(table)  # the games' triggers planned stall rows on insert
            for i in range(0, len(data), BATCH):
                await tx.insert_rows(table, cols, [tuple(r) for r in data[i : i + BATCH]])
            tables += 1
            rows += len(data)
    await dst.finish_import()
    return tables, rows


async def verify_copy(src: Store, dst: Store) -> tuple[int, list[str]]:
    """Every game through both stores' replay: (games equal, what differed)."""
    a = GameService(src, cache_size=1)
    b = GameService(dst, cache_size=1)
    ids = await src.game_ids()
    if ids != await dst.game_ids():
        return 0, [f"the game ids differ ({len(ids)} in the source)"]
    equal = 0
    different: list[str] = []
    for gid in ids:
        mine, theirs = await _replayed(a, gid), await _replayed(b, gid)
        if mine != theirs:
            different.append(f"game {gid}")
            continue
        try:
            await b.verify_game(gid)
        except errors.ServiceError as exc:
            different.append(f"game {gid}: {exc}")
            continue
        equal += 1
    return equal, different


async def _replayed(service: GameService, gid: int) -> Any:
    """What a load of the game gives: summary, history, position and events (or the error)."""
    summary = await service.game(gid)
    try:
        history = await service.history(gid)
    except errors.GameCorrupt as exc:
        return (summary, f"unreadable: {exc}")
    match = service.cached(gid)
    position = None if match is None else (to_position(match), match.event_dicts())
    return (summary, history, position)


def _target(raw: str, name: str) -> str | Path:
    if not raw.strip():
        raise ConfigError(f"{name} is empty: name an SQLite file or a postgresql:// URL")
    path, url = parse_database(raw, name)
    return url if url is not None else path


def copy_main(source: str, destination: str, *, replace: bool) -> tuple[int, str]:
    """Run a copy for the command line: (exit code, the one line to print)."""
    import asyncio

    try:
        # Each read as MT_DATABASE is: a path, or a postgresql:// URL checked the same way.
        src, dst = _target(source, "SOURCE"), _target(destination, "DESTINATION")
        report = asyncio.run(copy_store(src, dst, replace=replace))
    except StoreUnreachable as exc:  # it may pass: try again later (bot/exits.py)
        return EXIT_RETRY, f"mexican-train-bot: store copy: {exc}"
    except (CopyError, StoreError, ConfigError) as exc:
        return EXIT_FIX, f"mexican-train-bot: store copy: {exc}"
    return (EXIT_OK if report.ok else EXIT_RETRY), report.line()
