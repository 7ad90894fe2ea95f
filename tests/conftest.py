"""Shared fixtures: ``fake_discord`` (a loopback fake Discord, see tests/fakediscord), the
fake ``clock`` every layer takes, ``db_path``, a fresh database file's place,
``pg_server``/``pg_url``: a throwaway PostgreSQL server for the session (see tests/pg.py) and
a fresh, migrated database on it per test, and ``db_target``: either of the two, parametrized
(``store_kind``), for tests that must hold for both stores. Without PostgreSQL binaries (or
with ``MT_TEST_POSTGRES=0``) the PostgreSQL cases are skipped with the reason."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from tests import errorlog, pg
from tests.clock import FakeClock
from tests.fakediscord import FakeDiscord
from tests.fakediscord import fake_discord as _start_fake_discord

#: The migrated database every test database is copied from (copying beats migrating).
PG_TEMPLATE = "mt_template"


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A fake Discord on a free 127.0.0.1 port; discord.py is pointed at it for the test.

    Strict: the test fails if the bot called a route the fake does not know.
    """
    async with _start_fake_discord() as fake:
        yield fake


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "games.sqlite3"


async def _make_template(server: pg.PgServer) -> None:
    import asyncpg

    from bot.store import open_store

    conn = await asyncpg.connect(server.url)
    try:
        await conn.execute(f'CREATE DATABASE "{PG_TEMPLATE}" TEMPLATE template0')
    finally:
        await conn.close()
    store = await open_store(server.url_for(PG_TEMPLATE))
    await store.close()


@pytest.fixture(scope="session")
def pg_server() -> Iterator[pg.PgServer]:
    """One PostgreSQL server for the whole session (started on first use), with a migrated
    template database; skips the asking test when no server can run here."""
    if os.environ.get("MT_TEST_POSTGRES", "1").strip() == "0":
        pytest.skip("PostgreSQL tests turned off (MT_TEST_POSTGRES=0)")
    try:
        with pg.start() as server:
            asyncio.run(_make_template(server))
            yield server
    except pg.Unavailable as exc:
        pytest.skip(f"PostgreSQL unavailable: {exc}")


@pytest.fixture
async def pg_url(pg_server: pg.PgServer) -> AsyncIterator[str]:
    """A fresh database (the current schema, no rows) for one test: its URL."""
    url = await pg.new_database(pg_server, template=PG_TEMPLATE)
    try:
        yield url
    finally:
        await pg.drop_database(pg_server, url)


STORE_KINDS = ("sqlite", "postgresql")


@pytest.fixture(params=STORE_KINDS)
def store_kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def db_target(store_kind: str, request: pytest.FixtureRequest) -> str | Path:
    """What ``Store.open`` takes for this test's fresh database: the SQLite file's path, or
    the URL of a fresh PostgreSQL database. Opening it twice gives two stores over one
    database (two processes, as far as the database can tell)."""
    if store_kind == "sqlite":
        path: Path = request.getfixturevalue("db_path")
        return path
    url: str = request.getfixturevalue("pg_url")
    return url


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "expect_errors(logger, match): this test makes the bot log an ERROR on purpose "
        "(one marker per expected ERROR; see tests/errorlog.py)",
    )


@pytest.fixture(autouse=True)
def error_log(request: pytest.FixtureRequest) -> Iterator[errorlog.ErrorLog]:
    """Fails the test if the bot logged an ERROR it did not declare (tests/errorlog.py).

    Autouse, so it is set up before and torn down after the test's other fixtures: an
    ERROR logged while the bot shuts down in a fixture's teardown is seen too."""
    log = errorlog.install(request.node)
    try:
        yield log
    finally:
        errorlog.uninstall(log)
    problems = log.problems()
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)
