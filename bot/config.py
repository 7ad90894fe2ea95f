"""Configuration read from the environment, once, at start-up.

Everything the bot needs to know about its surroundings lives in one frozen :class:`Config`
built by :meth:`Config.from_env`, so tests build their own value instead of patching globals.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

#: Where the games live unless ``MT_DATABASE`` says otherwise (relative to the working dir).
DEFAULT_DATABASE = Path("data/mexican-train.sqlite3")
#: How many games stay replayed in memory (``MT_GAME_CACHE``).
DEFAULT_GAME_CACHE = 512

Synchronous = Literal["NORMAL", "FULL"]

#: A bot token is three base64url parts joined by dots (user id, timestamp, signature).
_TOKEN_RE = re.compile(r"[A-Za-z0-9_-]{17,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}")
_LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


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
    #: ``DISCORD_TOKEN``: the bot's secret; kept out of ``repr`` so it never lands in a log.
    token: str | None = dataclasses.field(default=None, repr=False)
    #: ``MT_SYNC_COMMANDS=1`` (or ``--sync``): push the slash commands at start-up. Off by
    #: default: Discord rate-limits syncs, and commands only change with a release.
    sync_commands: bool = False
    #: ``MT_DEV_GUILD``: a test server whose copy of the commands syncs instantly.
    dev_guild: int | None = None
    #: ``MT_LOG_LEVEL``: DEBUG, INFO (default), WARNING, ERROR or CRITICAL.
    log_level: str = "INFO"

    def require_token(self) -> str:
        """The token, or :class:`ConfigError` saying what is wrong with it (never echoing it)."""
        token = (self.token or "").strip()
        if not token:
            raise ConfigError("DISCORD_TOKEN is not set: put the bot's token in the environment")
        if token.lower().startswith("bot "):
            token = token[4:].strip()
        if not _TOKEN_RE.fullmatch(token):
            raise ConfigError(
                "DISCORD_TOKEN does not look like a bot token (three dot-separated parts); "
                "copy it again from the Developer Portal's Bot page"
            )
        return token

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
            token=env.get("DISCORD_TOKEN") or None,
            sync_commands=_flag(env, "MT_SYNC_COMMANDS"),
            dev_guild=_int(env, "MT_DEV_GUILD", 0, low=0) or None,
            log_level=_log_level(env.get("MT_LOG_LEVEL", "INFO")),
        )


def _flag(env: Mapping[str, str], name: str) -> bool:
    raw = env.get(name, "").strip().lower()
    if raw in ("", "0", "false", "no", "off"):
        return False
    if raw in ("1", "true", "yes", "on"):
        return True
    raise ConfigError(f"{name} must be 1 or 0, not {raw!r}")


def _log_level(raw: str) -> str:
    level = raw.strip().upper() or "INFO"
    if level not in _LOG_LEVELS or not isinstance(logging.getLevelName(level), int):
        raise ConfigError(f"MT_LOG_LEVEL must be one of {', '.join(_LOG_LEVELS)}, not {raw!r}")
    return level


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
