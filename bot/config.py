"""Configuration read from the environment, once, at start-up.

Everything the bot needs to know about its surroundings lives in one frozen :class:`Config`
built by :meth:`Config.from_env`, so tests build their own value instead of patching globals.
"""

from __future__ import annotations

import dataclasses
import os
import re
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Literal
from urllib.parse import quote, unquote, urlsplit

from bot.configvalues import (
    ConfigError,
    LogFormat,
    setting_flag,
    setting_health_port,
    setting_int,
    setting_log_format,
    setting_log_level,
    setting_loopback_url,
    setting_rate,
    setting_seconds,
    setting_shard_plan,
    setting_shards,
)

#: Where the games live unless ``MT_DATABASE`` says otherwise (relative to the working dir).
DEFAULT_DATABASE = Path("data/mexican-train.sqlite3")
#: How many games stay replayed in memory (``MT_GAME_CACHE``).
DEFAULT_GAME_CACHE = 512

#: The health/metrics endpoint's port (``MT_HEALTH_PORT``; ``0`` or ``off`` turns it off).
DEFAULT_HEALTH_PORT = 8321
#: Discord's global limit: requests per second per bot token, whatever the number of
#: processes (interaction answers and their followups are exempt).
DISCORD_GLOBAL_RATE = 50.0
#: The part of it the bot plans to use: the rest is a margin for the clocks of Discord and of
#: this machine not agreeing on where a second starts.
DEFAULT_REQUEST_RATE = 45.0
#: Seconds a stopping bot waits for moves in progress (``MT_SHUTDOWN_GRACE``): below Docker's
#: default 10 s between SIGTERM and SIGKILL.
DEFAULT_SHUTDOWN_GRACE = 8.0

Synchronous = Literal["NORMAL", "FULL"]

#: A bot token is three base64url parts joined by dots (user id, timestamp, signature).
_TOKEN_RE = re.compile(r"[A-Za-z0-9_-]{17,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}")


@dataclasses.dataclass(frozen=True, slots=True)
class Config:
    #: The SQLite file (``MT_DATABASE``); its directory is created on open.
    database: Path = DEFAULT_DATABASE
    #: ``MT_DATABASE=postgresql://…`` (or ``postgres://``): the PostgreSQL server to use
    #: instead of the SQLite file (see docs/postgresql.md). Kept out of ``repr``: a URL may
    #: carry a password.
    database_url: str | None = dataclasses.field(default=None, repr=False)
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
    #: ``MT_TILE_EMOJIS``: the tiles as application emojis on the controls (issue 47; on
    #: unless ``0``, read by :meth:`from_env`; off for a ``Config`` built in code, as the
    #: tests' bots are, so only a test that asks uploads them): bot/ui/tileemoji.py.
    tile_emojis: bool = False
    #: ``MT_DEV_GUILD``: a test server whose copy of the commands syncs instantly.
    dev_guild: int | None = None
    #: ``MT_LOG_LEVEL``: DEBUG, INFO (default), WARNING, ERROR or CRITICAL.
    log_level: str = "INFO"
    #: ``MT_LOG_FORMAT``: ``text`` (default) or ``json`` (one object per line).
    log_format: LogFormat = "text"
    #: ``MT_HEALTH_HOST``/``MT_HEALTH_PORT``: where ``/healthz`` and ``/metrics`` listen
    #: (``python -m bot`` only); ``None`` port: off.
    health_host: str = "127.0.0.1"
    health_port: int | None = DEFAULT_HEALTH_PORT
    #: ``MT_SHARDS``: ``None`` runs a plain ``Bot``; ``"auto"`` (Discord's recommended count)
    #: or a number runs ``AutoShardedBot``.
    shards: int | Literal["auto"] | None = None
    #: ``MT_SHARD_COUNT``/``MT_SHARD_IDS``: a cluster of processes over one PostgreSQL; this
    #: process runs shards ``shard_ids`` (all of them when None) of ``shard_count``
    #: (docs/postgresql.md, "Running several processes"). Overrides ``shards``.
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    #: ``MT_SHUTDOWN_GRACE``: seconds SIGTERM waits for moves in progress before closing.
    shutdown_grace: float = DEFAULT_SHUTDOWN_GRACE
    #: ``MT_SCHEDULE_LEASE``: seconds a process keeps the scheduled work it claimed (a cluster:
    #: the work of a process that died waits at most this long for another to take it).
    schedule_lease: float = 60.0
    #: ``MT_DISCORD_API_BASE``/``MT_DISCORD_GATEWAY``: FOR TESTS ONLY — point the bot at a
    #: loopback fake Discord; anything but a loopback address is refused (the token goes there).
    discord_api_base: str | None = None
    discord_gateway: str | None = None
    #: ``MT_RENDER_WORKERS``: processes drawing pictures; unset: one per CPU, at most 4
    #: (``bot.workers.default_workers``); ``0``: draw in a thread of the bot's own process.
    render_workers: int | None = None
    #: ``MT_THINK_WORKERS``: processes choosing Hard's and the Expert's moves
    #: (``bot.thinking``); unset: one per CPU, at most 2; ``0``: on the event loop. A Config
    #: built in code (tests, scripts) thinks on the event loop unless it says otherwise.
    think_workers: int | None = 0
    #: ``MT_REVIEW_CPU``: CPU seconds one player's review of a finished match may spend
    #: (issue 49: ``/mt review``; computed once, then kept).
    review_cpu: int = 60
    #: ``MT_DISCORD_RATE``: requests per second this process may send that count against
    #: Discord's global limit (50 per bot token, shared by every process). Unset: 45, or in a
    #: cluster 45 times the share of the shards this process runs (see :attr:`request_rate`).
    discord_rate: float | None = None

    @property
    def request_rate(self) -> float:
        """This process's share of the global request budget (``MT_DISCORD_RATE``, else 45
        requests/s split between a cluster's processes by the shards each runs)."""
        if self.discord_rate is not None:
            return self.discord_rate
        if self.shard_ids is not None and self.shard_count:
            return DEFAULT_REQUEST_RATE * len(self.shard_ids) / self.shard_count
        return DEFAULT_REQUEST_RATE

    @property
    def clustered(self) -> bool:
        """Whether other processes run the rest of the bot's shards (``MT_SHARD_IDS``)."""
        return self.shard_ids is not None and len(self.shard_ids) != self.shard_count

    def runs_guild(self, guild_id: int | None) -> bool:
        """Whether this process's gateway carries ``guild_id`` (None: DMs, which Discord
        sends to shard 0): always, unless ``MT_SHARD_IDS`` gives it only some shards."""
        if self.shard_ids is None or self.shard_count is None:
            return True
        shard = 0 if guild_id is None else (guild_id >> 22) % self.shard_count
        return shard in self.shard_ids

    def require_token(self) -> str:
        """The token, or :class:`ConfigError` saying what is wrong with it (never echoing it)."""
        token = (self.token or "").strip()
        if not token:
            raise ConfigError("DISCORD_TOKEN is not set: put the bot's token in the environment")
        if len(token) > 1 and token[0] == token[-1] and token[0] in "\"'":  # --env-file keeps them
            raise ConfigError(
                "DISCORD_TOKEN is wrapped in quotes, which are then part of the value: remove "
                "them (in an --env-file or .env, write DISCORD_TOKEN=the-token, no quotes)"
            )
        if token.lower().startswith("bot "):
            token = token[4:].strip()
        parts = token.split(".")
        if len(parts) != 3:
            raise ConfigError(
                f"DISCORD_TOKEN does not look like a bot token: a token has three dot-separated "
                f"parts, this value has {len(parts)}; copy it again from the Developer Portal's "
                "Bot page"
            )
        if not _TOKEN_RE.fullmatch(token):
            # Three parts, but too short or with characters a token never holds (a pasted
            # placeholder such as a.b.c, quotes, a stray space): say that, not the part count.
            raise ConfigError(
                "DISCORD_TOKEN does not look like a bot token: its three parts are too short or "
                "hold characters other than letters, digits, - and _ (a real token is about 70 "
                "characters); copy it again from the Developer Portal's Bot page"
            )
        return token

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, *, token: bool = False) -> Config:
        """The settings in ``env`` (default: os.environ); every bad one named at once, in one
        :class:`ConfigError` line (``token``: the token's problem too)."""
        env = os.environ if env is None else env
        problems: list[str] = []
        left = dict(env)
        while True:
            try:
                config = cls._read(left)
                break
            except ConfigError as exc:
                problems.append(str(exc))
                if (name := str(exc).split(" ", 1)[0]) not in left:  # not one setting's
                    raise ConfigError(_all(problems)) from None
                del left[name]  # read the others as if this one were unset
        if token:
            try:
                config.require_token()
            except ConfigError as exc:
                problems.insert(0, str(exc))
        if problems:
            raise ConfigError(_all(problems))
        return config

    @classmethod
    def _read(cls, env: Mapping[str, str]) -> Config:
        sync = env.get("MT_SQLITE_SYNCHRONOUS", "FULL").strip().upper()
        if sync not in ("NORMAL", "FULL"):
            raise ConfigError(f"MT_SQLITE_SYNCHRONOUS must be NORMAL or FULL, not {sync!r}")
        database, database_url = _database(env.get("MT_DATABASE"))
        shard_count, shard_ids = setting_shard_plan(env)
        if shard_ids is not None and len(shard_ids) != shard_count and database_url is None:
            raise ConfigError(
                "MT_SHARD_IDS runs only some shards here, so other processes run the rest: they "
                "must share a PostgreSQL database (MT_DATABASE=postgresql://…), not an SQLite file"
            )
        return cls(
            database=database,
            database_url=database_url,
            synchronous="FULL" if sync == "FULL" else "NORMAL",
            busy_timeout_ms=setting_int(env, "MT_SQLITE_BUSY_MS", 5000, low=0),
            game_cache=setting_int(env, "MT_GAME_CACHE", DEFAULT_GAME_CACHE, low=1),
            token=env.get("DISCORD_TOKEN") or None,
            sync_commands=setting_flag(env, "MT_SYNC_COMMANDS"),
            tile_emojis=not env.get("MT_TILE_EMOJIS", "").strip()
            or setting_flag(env, "MT_TILE_EMOJIS"),
            dev_guild=setting_int(env, "MT_DEV_GUILD", 0, low=0) or None,
            log_level=setting_log_level(env.get("MT_LOG_LEVEL", "INFO")),
            log_format=setting_log_format(env.get("MT_LOG_FORMAT", "text")),
            health_host=(env.get("MT_HEALTH_HOST") or "127.0.0.1").strip(),
            health_port=setting_health_port(env.get("MT_HEALTH_PORT"), DEFAULT_HEALTH_PORT),
            shards=setting_shards(env.get("MT_SHARDS")),
            shard_count=shard_count,
            shard_ids=shard_ids,
            shutdown_grace=setting_seconds(env, "MT_SHUTDOWN_GRACE", DEFAULT_SHUTDOWN_GRACE),
            schedule_lease=_lease(env),
            discord_api_base=setting_loopback_url(env, "MT_DISCORD_API_BASE", ("http", "https")),
            discord_gateway=setting_loopback_url(env, "MT_DISCORD_GATEWAY", ("ws", "wss")),
            render_workers=(
                setting_int(env, "MT_RENDER_WORKERS", 0, low=0)
                if (env.get("MT_RENDER_WORKERS") or "").strip()
                else None
            ),
            discord_rate=setting_rate(env.get("MT_DISCORD_RATE"), DISCORD_GLOBAL_RATE),
            think_workers=(
                setting_int(env, "MT_THINK_WORKERS", 0, low=0)
                if (env.get("MT_THINK_WORKERS") or "").strip()
                else None
            ),
            review_cpu=setting_int(env, "MT_REVIEW_CPU", 60, low=1),
        )


def _all(problems: list[str]) -> str:
    """Several settings' problems as one line: "3 settings to fix: …; …; …"."""
    many = f"{len(problems)} settings to fix: " if len(problems) > 1 else ""
    return many + "; ".join(problems)


def _lease(env: Mapping[str, str]) -> float:
    """``MT_SCHEDULE_LEASE``, 1 s (a shorter lease than a delivery lets two processes take one
    reminder) to an hour (a dead process's reminders wait that long)."""
    if not 1 <= (value := setting_seconds(env, "MT_SCHEDULE_LEASE", 60.0)) <= 3600:
        raise ConfigError(f"MT_SCHEDULE_LEASE must be 1 to 3600 seconds, not {value:g}")
    return value


def config_error_policy(env: Mapping[str, str]) -> Literal["exit", "wait"]:
    """``MT_ON_CONFIG_ERROR``: on a configuration error, ``exit`` with code 2 (the default;
    systemd's ``RestartPreventExitStatus=2`` then stops there) or ``wait`` to be stopped
    (containers: Docker's restart policy would otherwise start it again and again).

    Read apart from :class:`Config`: it must hold even when another setting is what failed.
    """
    raw = env.get("MT_ON_CONFIG_ERROR", "").strip().lower()
    if raw in ("", "exit"):
        return "exit"
    if raw == "wait":
        return "wait"
    raise ConfigError(f"MT_ON_CONFIG_ERROR must be exit or wait, not {raw!r}")


#: The URL schemes that choose the PostgreSQL store (libpq's two spellings).
POSTGRES_SCHEMES = ("postgresql", "postgres")


def is_postgres_url(target: str) -> bool:
    """Whether ``MT_DATABASE`` names a PostgreSQL server rather than an SQLite file."""
    scheme, sep, _ = target.strip().partition("://")
    return bool(sep) and scheme.lower() in POSTGRES_SCHEMES


def _database(raw: str | None) -> tuple[Path, str | None]:
    return parse_database(raw, "MT_DATABASE")


def parse_database(raw: str | None, name: str) -> tuple[Path, str | None]:
    """A database as ``MT_DATABASE`` or a command's argument names it (``name`` says which,
    in the message): a path (SQLite) or a ``postgresql://`` URL; another URL is refused
    rather than taken for a strangely named file. Every command that takes a database reads
    it here, so a URL means the same wherever it is typed."""
    value = (raw or "").strip()
    if not value:
        return DEFAULT_DATABASE, None
    if is_postgres_url(value):
        # The URL is never echoed: it may carry a password. What was wrong with it is.
        try:
            parts = urlsplit(connectable(value))
        except ValueError as exc:  # "Invalid IPv6 URL": a bracket left open
            raise ConfigError(
                f"{name} is not a valid PostgreSQL URL ({exc}); write it as "
                "postgresql://user:password@host:5432/dbname (an IPv6 host in brackets: "
                "[::1]:5432)"
            ) from None
        try:
            parts.port  # noqa: B018 - parsing the port is the check
        except ValueError:
            raise ConfigError(
                f"{name} has a PostgreSQL URL with a bad port; write it as "
                "postgresql://user:password@host:5432/dbname (a password holding / # @ ? "
                "percent-encoded, or given in PGPASSWORD)"
            ) from None
        return DEFAULT_DATABASE, value
    scheme, sep, _ = value.partition("://")
    if sep and scheme.isidentifier():
        raise ConfigError(
            f"{name} is a {scheme}:// URL, but the bot stores games only in SQLite (a file "
            "path) or PostgreSQL (a postgresql:// URL)"
        )
    return Path(value), None


def _credentials(url: str) -> tuple[str, str, str | None, str]:
    """``(scheme://, user, password or None, host and the rest)``, read as a person writes the
    URL: the user and password run to the LAST ``@`` of the address (a password may hold one;
    libpq's and asyncpg's parsers stop at the first)."""
    scheme, sep, rest = url.partition("://")
    netloc_end = len(rest)
    for stop in "/?#":
        found = rest.find(stop, rest.rfind("@") + 1)
        if found >= 0:
            netloc_end = min(netloc_end, found)
    netloc, tail = rest[:netloc_end], rest[netloc_end:]
    userinfo, at, host = netloc.rpartition("@")
    if not at:
        return scheme + sep, "", None, rest
    user, colon, password = userinfo.partition(":")
    return scheme + sep, user, password if colon else None, host + tail


def safe_url(url: str) -> str:
    """The URL with any password masked, for messages and logs. Masks generously: all that
    may be a password (up to the address's last ``@``, and a ``password=`` parameter), even
    in a URL that cannot be parsed (a ``/`` or ``#`` in an unencoded password)."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        return url
    userinfo, at, host = rest.rpartition("@")
    if at and ":" in userinfo:
        rest = f"{userinfo.partition(':')[0]}:***@{host}"
    return scheme + sep + re.sub(r"(?i)(password=)[^&#]*", r"\1***", rest)


def scrub(text: str, url: str) -> str:
    """``text`` (a driver's error message) with the URL's password masked wherever it
    appears, as typed or percent-decoded: no message may carry a password."""
    secrets: set[str] = set()
    rest = url.partition("://")[2]
    userinfo = rest.rpartition("@")[0]
    if ":" in userinfo:
        secrets.add(userinfo.partition(":")[2])
    secrets.update(re.findall(r"(?i)password=([^&#]*)", rest))
    for secret in sorted(secrets, key=len, reverse=True):
        for form in {secret, unquote(secret)}:
            if form:
                text = text.replace(form, "***")
    return safe_url(text) if "://" in text else text


def connectable(url: str) -> str:
    """The URL as libpq and asyncpg read it: a password holding ``@ / # ?`` (which their
    parsers take for the end of the address) percent-encoded, so it works as typed."""
    scheme, user, password, rest = _credentials(url)
    if password is None or not set(password) & set("@/#?"):
        return url

    def encode(text: str) -> str:
        return quote(text, safe="")

    return f"{scheme}{encode(unquote(user))}:{encode(unquote(password))}@{rest}"


def check_database_dir(database: Path) -> None:
    """Create the database's directory and prove the bot can write there, or say why not.

    Done once at start so an unwritable volume (a Docker volume owned by root, a read-only
    mount) is one clear line instead of a SQLite traceback at the first move.
    """
    directory = database.parent
    blocker = next((p for p in (directory, *directory.parents) if p.is_file()), None)
    if blocker is not None:
        raise ConfigError(
            f"cannot create the database directory {directory}: a file is in the way at "
            f"{blocker}; move it, or set MT_DATABASE to another place"
        )
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(
            f"cannot create the database directory {directory} ({exc.strerror or exc}); "
            "set MT_DATABASE to a writable place"
        ) from None
    try:
        with tempfile.TemporaryFile(dir=directory, prefix=".mt-write-test-"):
            pass
        if database.exists():
            with database.open("r+b"):
                pass
    except OSError as exc:
        raise ConfigError(
            f"cannot write to {database if database.exists() else directory} "
            f"({exc.strerror or exc}); give the bot's user write access or set MT_DATABASE "
            "(SQLite also writes -wal and -shm files beside the database)"
        ) from None
