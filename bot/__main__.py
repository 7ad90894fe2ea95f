"""``python -m bot [--sync]``: run the bot; ``backup PATH``: copy the database; ``health``: ask
a running bot's ``/healthz`` (Docker's HEALTHCHECK); ``store copy SRC DST``: move the games
between an SQLite file and PostgreSQL.

Configuration comes from the environment (see :mod:`bot.config`). Anything the operator
must fix — no token, a token that cannot be one, Discord refusing it, a bad setting, a
database directory the bot cannot write, a database written by a newer release, a health
port already taken — stops the bot with ONE line on stderr and exit code 2, not a traceback:
the person reading it is setting the bot up, not debugging it. SIGTERM (``docker stop``)
finishes the moves in progress and exits 0 (:mod:`bot.ops.runner`).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.config import Config, ConfigError, check_database_dir
from bot.ops.backup import BackupError, backup
from bot.ops.logs import setup_logging

#: Exit code for a configuration the operator must fix.
EXIT_CONFIG = 2


def _fail(message: str) -> int:
    print(f"mexican-train-bot: {message}", file=sys.stderr)
    return EXIT_CONFIG


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Run the Mexican Train Discord bot (token in DISCORD_TOKEN), or back up "
        "its database.",
    )
    parser.add_argument(
        "--sync", action="store_true", help="push the slash commands to Discord at start-up"
    )
    commands = parser.add_subparsers(dest="command", metavar="{backup,health,store}")
    copy = commands.add_parser(
        "backup",
        help="write a consistent copy of the database (safe while the bot runs)",
        description="Write a consistent copy of the database, safe while the bot runs.",
    )
    copy.add_argument("path", type=Path, help="the backup file, or a directory to put one in")
    copy.add_argument("--database", type=Path, help="the database to copy (default: MT_DATABASE)")
    copy.add_argument("--force", action="store_true", help="replace an existing backup file")
    commands.add_parser(
        "health",
        help="ask the running bot's /healthz; exit 0 if it is healthy (for HEALTHCHECK)",
    )
    store = commands.add_parser("store", help="move the games between databases")
    store_commands = store.add_subparsers(dest="store_command", metavar="{copy}", required=True)
    move = store_commands.add_parser(
        "copy",
        help="copy every game and setting from SRC to DST, then check each game replays equal",
        description="Copy every game, event, seat, setting, schedule row and statistic from "
        "SRC into DST (each an SQLite file or a postgresql:// URL), then load every game "
        "from both and check they replay equal. Stop the bot first.",
    )
    move.add_argument("source", help="the database to copy (SQLite path or postgresql:// URL)")
    move.add_argument("destination", help="the database to fill (must be empty)")
    move.add_argument(
        "--replace", action="store_true", help="delete everything in DST first if it is not empty"
    )
    return parser


def _backup(args: argparse.Namespace) -> int:
    try:
        if args.database is None and Config.from_env().database_url is not None:
            return _fail(
                "MT_DATABASE is a PostgreSQL server: back it up with pg_dump "
                "(see docs/postgresql.md)"
            )
        source = args.database or Config.from_env().database
        report = backup(source, args.path, force=args.force)
    except (ConfigError, BackupError) as exc:
        return _fail(str(exc))
    print(report.line())
    return 0


def _health() -> int:
    """1 when the bot answers unhealthy or not at all; 2 when the endpoint is off."""
    import urllib.error
    import urllib.request

    try:
        config = Config.from_env()
    except ConfigError as exc:
        return _fail(str(exc))
    if config.health_port is None:
        return _fail("MT_HEALTH_PORT is off: there is no health endpoint to ask")
    host = config.health_host
    if host in ("0.0.0.0", "::", ""):  # listening everywhere: ask on loopback
        host = "127.0.0.1" if host != "::" else "::1"
    if ":" in host:
        host = f"[{host}]"
    url = f"http://{host}:{config.health_port}/healthz"
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            print(response.read().decode().strip())
            return 0
    except urllib.error.HTTPError as exc:
        print(exc.read().decode().strip(), file=sys.stderr)
    except OSError as exc:
        print(f"mexican-train-bot: {url} did not answer ({exc})", file=sys.stderr)
    return 1


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "backup":
        return _backup(args)
    if args.command == "health":
        return _health()
    if args.command == "store":
        from bot.service.storecopy import copy_main

        code, line = copy_main(args.source, args.destination, replace=args.replace)
        print(line, file=sys.stderr if code == 2 else sys.stdout)
        return code
    try:
        config = Config.from_env()
        token = config.require_token()
        if config.database_url is None:
            check_database_dir(config.database)
    except ConfigError as exc:
        return _fail(str(exc))
    if args.sync:
        config = dataclasses.replace(config, sync_commands=True)
    setup_logging(config.log_level, config.log_format)
    return _run(config, token)


def _run(config: Config, token: str) -> int:
    # discord.py and the bot are imported only now: a bad setting is reported in a blink.
    import discord

    from bot.ops.runner import serve
    from bot.store import SchemaTooNew, StoreError

    try:
        asyncio.run(serve(config, token))
    except discord.LoginFailure:
        return _fail("Discord refused DISCORD_TOKEN: reset the token in the Developer Portal")
    except discord.PrivilegedIntentsRequired:
        return _fail("Discord refused an intent this bot asked for (it needs none privileged)")
    except (SchemaTooNew, StoreError, ConfigError) as exc:
        return _fail(str(exc))
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
