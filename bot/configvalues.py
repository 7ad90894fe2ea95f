"""One setting's text read as a value, strictly, or a :class:`ConfigError` naming it.

:class:`bot.config.Config` says what the bot's settings are and what they mean together;
here is how one environment variable's text becomes a value — a flag, a whole number, seconds,
a port, a log level, the shards, a loopback URL for tests — refusing any other text in one
line that names the variable and quotes what it held (numbers through :mod:`bot.digits`, so
no other script's digits and no ``1_000``). Apart from the fields so each reads on its own.
"""

from __future__ import annotations

import ipaddress
import logging
import math
from collections.abc import Mapping
from typing import Literal
from urllib.parse import urlsplit

from bot.digits import read_decimal, read_int

LogFormat = Literal["text", "json"]
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class ConfigError(ValueError):
    """An environment variable with a value the bot cannot use."""


def setting_flag(env: Mapping[str, str], name: str) -> bool:
    raw = env.get(name, "").strip().lower()
    if raw in ("", "0", "false", "no", "off"):
        return False
    if raw in ("1", "true", "yes", "on"):
        return True
    raise ConfigError(f"{name} must be 1 or 0, not {raw!r}")


def setting_log_level(raw: str) -> str:
    level = raw.strip().upper() or "INFO"
    if level not in LOG_LEVELS or not isinstance(logging.getLevelName(level), int):
        raise ConfigError(f"MT_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {raw!r}")
    return level


def setting_log_format(raw: str) -> LogFormat:
    value = raw.strip().lower() or "text"
    if value == "json":
        return "json"
    if value == "text":
        return "text"
    raise ConfigError(f"MT_LOG_FORMAT must be text or json, not {raw!r}")


def setting_health_port(raw: str | None, default: int) -> int | None:
    """``MT_HEALTH_PORT``: a port, ``default`` when unset, None for ``0``/``off``."""
    value = (raw or "").strip().lower()
    if not value:
        return default
    if value in ("0", "off", "no", "false"):
        return None
    port = read_int(value, max_digits=5)
    if port is None:
        raise ConfigError(f"MT_HEALTH_PORT must be a port number or off, not {raw!r}")
    if not 0 < port < 65536:
        raise ConfigError(f"MT_HEALTH_PORT must be between 1 and 65535 (or off), not {port}")
    return port


def setting_shards(raw: str | None) -> int | Literal["auto"] | None:
    value = (raw or "").strip().lower()
    if not value:
        return None
    if value == "auto":
        return "auto"
    count = read_int(value, signed=True)
    if count is None:
        raise ConfigError(f"MT_SHARDS must be auto or a number of shards, not {raw!r}")
    if count < 1:
        raise ConfigError(f"MT_SHARDS must be auto or at least 1, not {count}")
    return count


def setting_shard_plan(env: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """``MT_SHARD_COUNT`` and ``MT_SHARD_IDS``: which of the bot's shards this process runs.

    Every process of a cluster gets the same count and its own ids; Discord sends a server's
    events to shard ``(server_id >> 22) % count``, so the ids of all processes together must
    cover 0…count-1 once (each process can only check its own share)."""
    raw_count = (env.get("MT_SHARD_COUNT") or "").strip()
    raw_ids = (env.get("MT_SHARD_IDS") or "").strip()
    if not raw_count:
        if raw_ids:
            raise ConfigError(
                "MT_SHARD_IDS needs MT_SHARD_COUNT: set the total number of shards of all the "
                "bot's processes, e.g. MT_SHARD_COUNT=4 MT_SHARD_IDS=0,1"
            )
        return None, None
    if (env.get("MT_SHARDS") or "").strip():
        raise ConfigError(
            "set either MT_SHARDS (one process runs every shard) or MT_SHARD_COUNT (with "
            "MT_SHARD_IDS: a cluster of processes), not both"
        )
    count = read_int(raw_count, signed=True)
    if count is None:
        raise ConfigError(f"MT_SHARD_COUNT must be a number of shards, not {raw_count!r}")
    if count < 1:
        raise ConfigError(f"MT_SHARD_COUNT must be at least 1, not {count}")
    if not raw_ids or raw_ids.lower() == "all":
        return count, None
    ids: list[int] = []
    for part in raw_ids.split(","):
        shard = read_int(part.strip(), signed=True)
        if shard is None:
            raise ConfigError(
                f"MT_SHARD_IDS must be shard numbers separated by commas (e.g. 0,1), not "
                f"{raw_ids!r}"
            )
        if not 0 <= shard < count:
            raise ConfigError(
                f"MT_SHARD_IDS has shard {shard}, but with MT_SHARD_COUNT={count} shards are "
                f"numbered 0 to {count - 1}"
            )
        if shard in ids:
            raise ConfigError(f"MT_SHARD_IDS names shard {shard} twice")
        ids.append(shard)
    return count, tuple(sorted(ids))


def setting_seconds(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name)
    if raw is None or not raw.strip():
        return default
    value = read_decimal(raw.strip(), signed=True)
    if value is None:
        raise ConfigError(f"{name} must be a number of seconds, not {raw!r}")
    if not math.isfinite(value) or value < 0:
        raise ConfigError(f"{name} must be zero or more seconds, not {raw!r}")
    return value


def setting_rate(raw: str | None, most: float) -> float | None:
    """``MT_DISCORD_RATE``: requests per second, more than 0 and at most ``most`` (Discord's
    50)."""
    if raw is None or not raw.strip():
        return None
    value = read_decimal(raw.strip(), signed=True)
    if value is None:
        raise ConfigError(f"MT_DISCORD_RATE must be a number of requests per second, not {raw!r}")
    if not math.isfinite(value) or not 0 < value <= most:
        raise ConfigError(
            f"MT_DISCORD_RATE must be more than 0 and at most {most:g} (Discord's "
            f"global limit per bot token), not {raw!r}"
        )
    return value


def setting_loopback_url(env: Mapping[str, str], name: str, schemes: tuple[str, ...]) -> str | None:
    raw = (env.get(name) or "").strip()
    if not raw:
        return None
    parts = urlsplit(raw)
    host = parts.hostname or ""
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if parts.scheme not in schemes or not loopback:
        raise ConfigError(
            f"{name} is for tests against a local fake Discord: it must be a "
            f"{'/'.join(schemes)} URL on a loopback address, not {raw!r}"
        )
    return raw


def setting_int(env: Mapping[str, str], name: str, default: int, *, low: int) -> int:
    raw = env.get(name)
    if raw is None or not raw.strip():
        return default
    value = read_int(raw.strip(), signed=True)
    if value is None:
        raise ConfigError(f"{name} must be a whole number, not {raw!r}")
    if value < low:
        raise ConfigError(f"{name} must be at least {low}, not {value}")
    return value
