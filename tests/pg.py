"""A throwaway PostgreSQL server for the tests: ``initdb`` into a temporary folder, ``pg_ctl``
start listening on a unix socket there (and a free 127.0.0.1 port), stop and delete at the end.

The server binaries are found through ``pg_config --bindir`` (Debian keeps them out of PATH, in
``/usr/lib/postgresql/<version>/bin``), else any ``/usr/lib/postgresql/*/bin``, else PATH.
initdb and postgres refuse to run as root; as root, they run as the ``postgres`` system user
(``runuser``), which owns the temporary folder. Where this cannot work, :func:`start` raises
:class:`Unavailable` with one line saying why, and the tests that need the server are skipped.
"""

from __future__ import annotations

import contextlib
import dataclasses
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path


class Unavailable(Exception):
    """No PostgreSQL server can be started here (the reason is the message)."""


@dataclasses.dataclass(frozen=True)
class PgServer:
    """A running throwaway server. ``url`` reaches its ``postgres`` database over TCP."""

    folder: Path
    port: int
    user: str

    @property
    def url(self) -> str:
        return self.url_for("postgres")

    def url_for(self, database: str) -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{database}"


def _bindir() -> Path:
    found = shutil.which("pg_config")
    candidates: list[Path] = []
    if found:
        with contextlib.suppress(OSError, subprocess.CalledProcessError):
            out = subprocess.run([found, "--bindir"], capture_output=True, text=True, check=True)
            candidates.append(Path(out.stdout.strip()))
    candidates += [Path(p) for p in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)]
    initdb = shutil.which("initdb")
    if initdb:
        candidates.append(Path(initdb).parent)
    for d in candidates:
        if (d / "initdb").is_file() and (d / "pg_ctl").is_file():
            return d
    raise Unavailable("no PostgreSQL server binaries (initdb, pg_ctl) on this machine")


def _runner(folder: Path) -> tuple[list[str], str]:
    """The command prefix that runs server binaries as a non-root user, and that user."""
    if os.geteuid() != 0:
        return [], pwd.getpwuid(os.geteuid()).pw_name
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        raise Unavailable("running as root and there is no 'postgres' user to run initdb") from None
    runuser = shutil.which("runuser")
    if runuser is None:
        raise Unavailable("running as root and runuser is missing (initdb refuses root)")
    shutil.chown(folder, "postgres", "postgres")
    return [runuser, "-u", "postgres", "--"], "postgres"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def start(*, durable: bool = False) -> Iterator[PgServer]:
    """Start a server in a new temporary folder; stop it and delete the folder afterwards.

    Tests want speed, not durability (the cluster is deleted at the end anyway), so commits
    are not flushed unless ``durable`` (benchmarks comparing commit latency with SQLite's
    ``synchronous=FULL`` must flush too)."""
    bindir = _bindir()
    folder = Path(tempfile.mkdtemp(prefix="mt-pg-"))
    try:
        folder.chmod(0o700)
        prefix, user = _runner(folder)
        data = folder / "data"
        run = subprocess.run(
            [*prefix, str(bindir / "initdb"), "-D", str(data), "-U", user, "-A", "trust",
             "-E", "UTF8", "--locale=C", "--no-sync"],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        if run.returncode != 0:
            raise Unavailable(f"initdb failed: {run.stderr.strip().splitlines()[-1:]}")
        port = _free_port()
        options = (
            f"-c listen_addresses=127.0.0.1 -c port={port} -c unix_socket_directories={folder} "
            "-c max_connections=200 -c shared_buffers=32MB"
        )
        if not durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        run = subprocess.run(
            [*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-l", str(folder / "log"),
             "-o", options, "-w", "-t", "60", "start"],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        if run.returncode != 0:
            log = (folder / "log").read_text(errors="replace") if (folder / "log").exists() else ""
            raise Unavailable(f"pg_ctl start failed: {(run.stderr or log).strip()[-300:]}")
        try:
            yield PgServer(folder, port, user)
        finally:
            subprocess.run(
                [*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w",
                 "stop"],
                capture_output=True, check=False,
            )  # fmt: skip
    finally:
        shutil.rmtree(folder, ignore_errors=True)


async def new_database(server: PgServer, template: str = "template0") -> str:
    """A fresh database on ``server`` copied from ``template`` (one per test keeps tests
    apart); its URL."""
    import asyncpg

    name = f"t_{uuid.uuid4().hex[:12]}"
    conn = await asyncpg.connect(server.url)
    try:
        await conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    finally:
        await conn.close()
    return server.url_for(name)


async def drop_database(server: PgServer, url: str) -> None:
    import asyncpg

    name = url.rsplit("/", 1)[1]
    conn = await asyncpg.connect(server.url)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()
