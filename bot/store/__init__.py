"""Persistence: games, seats, the append-only event log and settings, in SQLite (one file, the
default) or PostgreSQL (one server several bot processes share).

Callers type against :class:`Store` and open one with :func:`open_store`; see
:mod:`bot.store.store` for the guarantees both keep, :mod:`bot.store.schema` and
:mod:`bot.store.pgschema` for the migrations.
"""

# Importing the two stores here registers how each opens (bot.store.store.OPENERS).
from bot.store.postgres import PgStore
from bot.store.schema import MIGRATIONS, SCHEMA_VERSION
from bot.store.sqlite import SQLiteStore
from bot.store.store import (
    ChannelBusy,
    Conflict,
    DueRow,
    EventRow,
    GameRecord,
    GameRow,
    GameStatus,
    GuildSettings,
    IntegrityRefused,
    MessageRow,
    NewEvent,
    OrderRow,
    ResultRow,
    SchemaTooNew,
    SeatRow,
    Store,
    StoreError,
    StoreUnreachable,
    Tx,
    UserSettings,
    from_db_time,
    open_store,
    to_db_time,
)

__all__ = [
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "ChannelBusy",
    "Conflict",
    "DueRow",
    "EventRow",
    "GameRecord",
    "GameRow",
    "GameStatus",
    "GuildSettings",
    "IntegrityRefused",
    "MessageRow",
    "NewEvent",
    "OrderRow",
    "PgStore",
    "ResultRow",
    "SQLiteStore",
    "SchemaTooNew",
    "SeatRow",
    "Store",
    "StoreError",
    "StoreUnreachable",
    "Tx",
    "UserSettings",
    "from_db_time",
    "open_store",
    "to_db_time",
]
