"""How long the store keeps a caller waiting when the database hangs or is locked (issue 50).

Two real faults, the default settings, one JSON line:

- SQLite: another process holds the file with ``BEGIN EXCLUSIVE``; ``--writers`` writes are
  queued at once. Each one's wait before it fails (the busy timeout bounds the whole wait,
  this process's own queue included; it used to be 5, 10, 15 s for three).
- PostgreSQL: a throwaway server (tests/pg.py) stopped with SIGSTOP; a read and a
  transaction are sent. Each one's wait before it fails as unreachable (4 s per operation;
  it used to be 60 s for a transaction whose connection had to roll back).

    python -m benchmarks.outage_wait [--writers 3]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.store import Store, open_store
from bot.store.outage import unreachable
from tests import pg


async def _fails_after(action: Callable[[], Awaitable[Any]]) -> float:
    """Seconds until ``action`` failed as an outage (anything else is a bug here)."""
    t = time.monotonic()
    try:
        await action()
    except Exception as exc:
        if unreachable(exc) is None:
            raise
        return round(time.monotonic() - t, 2)
    raise AssertionError("the database answered")


async def _write(store: Store) -> None:
    async with store.transaction() as tx:
        await tx.put_meta("outage_wait", "x")


async def sqlite_waits(writers: int) -> list[float]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "games.sqlite3"
        store = await open_store(path)
        holder = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            "import sqlite3, sys\n"
            f"c = sqlite3.connect({str(path)!r}, isolation_level=None)\n"
            "c.execute('BEGIN EXCLUSIVE'); print('locked', flush=True); sys.stdin.readline()\n",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        assert holder.stdin is not None and holder.stdout is not None
        try:
            await holder.stdout.readline()
            return list(
                await asyncio.gather(*(_fails_after(lambda: _write(store)) for _ in range(writers)))
            )
        finally:
            holder.stdin.write(b"go\n")
            await holder.stdin.drain()
            await holder.wait()
            await store.close()


def _server_pids(server: pg.PgServer) -> list[int]:
    main = int((server.folder / "data" / "postmaster.pid").read_text().split()[0])
    pids = [main]
    for entry in os.listdir("/proc"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            if int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1]) == main:
                pids.append(int(entry))
    return pids


async def postgres_waits() -> dict[str, float]:
    with pg.start() as server:
        store = await open_store(server.url)
        try:
            await store.version(1)  # the pool is up and warm
            pids = _server_pids(server)
            for pid in pids:
                os.kill(pid, signal.SIGSTOP)
            try:
                read, write = await asyncio.gather(
                    _fails_after(lambda: store.version(1)), _fails_after(lambda: _write(store))
                )
            finally:
                for pid in pids:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGCONT)
            return {"pg_sigstop_read_s": read, "pg_sigstop_transaction_s": write}
        finally:
            await store.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writers", type=int, default=3)
    args = parser.parse_args()
    result: dict[str, Any] = {"sqlite_queued_write_waits_s": await sqlite_waits(args.writers)}
    try:
        result.update(await postgres_waits())
    except pg.Unavailable as exc:
        result["postgresql"] = f"skipped: {exc}"
    print(json.dumps(result))


if __name__ == "__main__":
    asyncio.run(main())
