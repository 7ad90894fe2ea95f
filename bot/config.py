"""Configuration read from the environment, once, at start-up.

Everything the bot needs to know about its surroundings lives in one frozen :class:`Config`
built by :meth:`Config.from_env`, so tests build their own value instead of patching globals.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

#: Where the games live unless ``MT_DATABASE`` says otherwise (relative to the working dir).
DEFAULT_DATABASE = Path("data/mexican-train.sqlite3")
#: How many games stay replayed in memory (``MT_GAME_CACHE``).
DEFAULT_GAME_CACHE = 512

Synchronous = Literal["NORMAL", "FULL"]


class ConfigError(ValueError):
    """An environment variable with a value the bot cannot use."""


@dataclasses.dataclass(frozen=True, slots=True)
class Config:
    #: The SQLite file (``MT_DATABASE``); its directory is created on open.
    database: Path = DEFAULT_DATABASE
    #: ``MT_SQLITE_SYNCHRONOUS``: FULL (default) fsyncs the WAL on every commit, so a move the
    #: bot has acknowledged survives a power cut too; NORMAL survives a killed process but may
    #: lose the last commits on a power cut or OS crash (never corrupting the file).
    synchronous: Synchronous = "FULL"
    #: ``MT_SQLITE_BUSY_MS``: how long a connection waits for another writer's lock.
    busy_timeout_ms: int = 5000
    #: ``MT_GAME_CACHE``: games kept replayed in memory (least recently used are dropped).
    game_cache: int = DEFAULT_GAME_CACHE

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Config:
        env = os.environ if env is None else env
        sync = env.get("MT_SQLITE_SYNCHRONOUS", "FULL").strip().upper()
        if sync not in ("NORMAL", "FULL"):
            raise ConfigError(f"MT_SQLITE_SYNCHRONOUS must be NORMAL or FULL, not {sync!r}")
        return cls(
            database=Path(env.get("MT_DATABASE") or DEFAULT_DATABASE),
            synchronous="FULL" if sync == "FULL" else "NORMAL",
            busy_timeout_ms=_int(env, "MT_SQLITE_BUSY_MS", 5000, low=0),
            game_cache=_int(env, "MT_GAME_CACHE", DEFAULT_GAME_CACHE, low=1),
        )


def _int(env: Mapping[str, str], name: str, default: int, *, low: int) -> int:
    raw = env.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number, not {raw!r}") from None
    if value < low:
        raise ConfigError(f"{name} must be at least {low}, not {value}")
    return value
