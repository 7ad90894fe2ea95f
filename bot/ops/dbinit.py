"""``python -m bot init``: create (or upgrade) and check the database, without Discord.

An admin setting the bot up should be able to rehearse a backup and a restore before the bot
has ever connected: ``backup`` needs a database to copy, and until now only a running bot
made one. This opens the database exactly as the bot's start-up does — the directory created
and test-written, the file checked with ``PRAGMA quick_check`` before anything is written,
the migrations applied — then closes it, and says in one line what is there. It needs no
token and no network; run again, it is a check (a restored backup is read through before the
bot is started on it).
"""

from __future__ import annotations

import dataclasses
import time

from bot.config import Config, check_database_dir
from bot.store import SCHEMA_VERSION, StoreError, open_store
from bot.store.pgschema import PG_SCHEMA_VERSION
from bot.store.schema import upgrade_lines


@dataclasses.dataclass(frozen=True, slots=True)
class InitReport:
    #: The SQLite file, or the PostgreSQL URL with its password masked.
    where: str
    created: bool
    schema_version: int
    games: int
    seconds: float
    #: The migrations this run applied, by number (an upgrade; empty when current).
    migrated: tuple[int, ...] = ()

    def line(self) -> str:
        """What is there, in one line — after one line per migration an upgrade applied."""
        upgrades = upgrade_lines(self.migrated)
        what = "upgraded" if upgrades else "created" if self.created else "checked"
        games = "1 game" if self.games == 1 else f"{self.games} games"
        version = f"schema version {self.schema_version}"
        if upgrades:
            version = f"schema version {self.migrated[0] - 1} -> {self.schema_version}"
        summary = f"database {what}: {self.where} ({version}, {games}, {self.seconds:.2f} s)"
        return "\n".join([*upgrades, summary])


async def init_database(config: Config, *, full: bool = False) -> InitReport:
    """Open ``config``'s database as start-up does (created when missing, checked, migrated),
    count its games, close it. ``full``: also the whole database's integrity check, which
    start-up leaves out (it reads every finished match's archived log too: seconds per GB).
    Raises :class:`~bot.configvalues.ConfigError` or :class:`~bot.store.StoreError` (one line
    each) when it cannot be used."""
    started = time.perf_counter()
    # A PostgreSQL database is made by the server's admin (docs/postgresql.md); only its
    # tables are ours, so there it is always "checked".
    created = False
    version = PG_SCHEMA_VERSION
    if config.database_url is None:
        check_database_dir(config.database)
        created = not config.database.exists() or config.database.stat().st_size == 0
        version = SCHEMA_VERSION
    store = await open_store(config, check=True)
    try:
        if full:
            verdict = await store.integrity_check()
            if verdict != "ok":
                raise StoreError(f"{store} failed the full integrity check: {verdict}")
        games = sum((await store.count_games()).values())
    finally:
        await store.close()
    return InitReport(
        where=str(store),
        created=created,
        schema_version=version,
        games=games,
        seconds=time.perf_counter() - started,
        migrated=store.migrated,
    )
