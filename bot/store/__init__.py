"""Persistence: one SQLite file holding games, seats, the append-only event log and settings.

See :mod:`bot.store.store` for the guarantees and :mod:`bot.store.schema` for the migrations.
"""

from bot.store.schema import MIGRATIONS, SCHEMA_VERSION
from bot.store.store import (
    ChannelBusy,
    Conflict,
    EventRow,
    GameRecord,
    GameRow,
    GameStatus,
    GuildSettings,
    MessageRow,
    NewEvent,
    ResultRow,
    SchemaTooNew,
    SeatRow,
    Store,
    StoreError,
    Tx,
    UserSettings,
    from_db_time,
    to_db_time,
)

__all__ = [
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "ChannelBusy",
    "Conflict",
    "EventRow",
    "GameRecord",
    "GameRow",
    "GameStatus",
    "GuildSettings",
    "MessageRow",
    "NewEvent",
    "ResultRow",
    "SchemaTooNew",
    "SeatRow",
    "Store",
    "StoreError",
    "Tx",
    "UserSettings",
    "from_db_time",
    "to_db_time",
]
