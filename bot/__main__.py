"""``python -m bot [--sync]`` (or ``mexican-train-bot``): run the bot; ``try``: a game in the
terminal; ``init``: create and check the database (no token); ``backup PATH``: copy the
database; ``health``: ask a running bot's ``/healthz`` (Docker's HEALTHCHECK); ``store copy
SOURCE DESTINATION``: move the games between an SQLite file and PostgreSQL.

Configuration comes from the environment (see :mod:`bot.config`). Anything the operator
must fix — no token, a token that cannot be one, Discord refusing it, a bad setting, a
database directory the bot cannot write, a file that is not a database or fails its quick
check, a PostgreSQL URL that cannot be read or a server that refuses the login, a database
written by a newer release, a health port already taken — stops the bot with ONE line on
stderr and exit code 2, not a traceback: the person reading it is setting the bot up, not
debugging it. The database is opened and checked before the Discord login. No network to
Discord, or a PostgreSQL server that cannot be reached, at start is one line too, with exit
code 1: it may pass, so a restart policy should try again (:mod:`bot.ops.network`). SIGTERM
(``docker stop``) finishes the moves in progress and exits 0 (:mod:`bot.run`).
"""

from __future__ import annotations

import signal
import sys

if __name__ == "__main__":  # Ctrl-C while the imports below load: exit 130, no traceback
    signal.signal(signal.SIGINT, lambda signum, frame: sys.exit(130))

import argparse  # (after the handler above, on purpose)
import asyncio
import dataclasses
import os
from collections.abc import Sequence
from pathlib import Path

import bot
from bot.config import Config, check_database_dir, config_error_policy, parse_database
from bot.configvalues import ConfigError
from bot.console import degrade_gracefully
from bot.digits import whole_number
from bot.engine import PRESETS
from bot.engine.ai import Level
from bot.exits import EXIT_FIX, EXIT_INTERRUPTED, EXIT_OK, EXIT_RETRY
from bot.ops.backup import BackupError, backup
from bot.ops.logs import setup_logging

#: Exit code for a configuration the operator must fix (the table: bot/exits.py).
EXIT_CONFIG = EXIT_FIX


def _fail(message: str) -> int:
    print(f"mexican-train-bot: {message}", file=sys.stderr)
    return EXIT_CONFIG


#: How each entry point is typed, for ``--help``'s usage line: the console script that
#: ``pip install .`` puts on the PATH, and the module form (``if __name__ == "__main__"``).
CONSOLE_SCRIPT = "mexican-train-bot"
MODULE = "python -m bot"


def _parser(prog: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Run the Mexican Train Discord bot (token in DISCORD_TOKEN), play a game "
        "in the terminal, or create, back up and move its database.",
        epilog="Settings come from the environment: DISCORD_TOKEN (the bot's token), "
        "MT_DATABASE (the SQLite file, default data/mexican-train.sqlite3, or a "
        "postgresql:// URL), MT_SYNC_COMMANDS, MT_HEALTH_PORT, MT_LOG_LEVEL… (the README's "
        "Configuration table lists them all). Exit codes: 0 stopped on request, 1 Discord or "
        "the database server unreachable (try again later), 2 a setting to fix, 130 "
        "interrupted; health exits only 0 (healthy) or 1 (docs/admin.md#exit-codes).",
    )
    parser.add_argument(
        "--sync", action="store_true", help="push the slash commands to Discord at start-up"
    )
    parser.add_argument(
        "--version", action="version", version=f"{CONSOLE_SCRIPT} {bot.__version__}"
    )
    commands = parser.add_subparsers(
        dest="command", metavar="{try,init,backup,health,store,rebuild}"
    )
    game = commands.add_parser(
        "try",
        help="play a game in this terminal against computer players (no token, no network)",
        description="Play Mexican Train in this terminal against computer players, through "
        "the bot's own rules, service and messages, on a temporary database. No Discord token "
        "and no network needed. Moves in the notation of docs/players.md (12-5 mexican, 5-7 @2, "
        "draw, pass); a picture of the table is saved after every move.",
    )
    game.add_argument(
        "--players", type=whole_number, default=3, metavar="N",
        help=f"players at the table, you included (default 3): {players_limits()}",
    )  # fmt: skip
    game.add_argument(
        "--level", choices=[level.value for level in Level], default="normal",
        help="the computer players' strength (default normal)",
    )  # fmt: skip
    game.add_argument(
        "--preset", choices=sorted(PRESETS), default="standard",
        help="the rules (default standard: 13 rounds; quick: one round)",
    )  # fmt: skip
    game.add_argument("--seed", type=whole_number, help="the same seed deals the same game")
    game.add_argument("--name", help="your name at the table (default Player, in French Joueur)")
    game.add_argument("--language", choices=["en", "fr"], default="en", help="en or fr")
    game.add_argument(
        "--pictures", type=Path, metavar="DIR",
        help="keep a picture of the table per move in DIR (default: one picture, redrawn "
        "after every move in a temporary folder and deleted at the end)",
    )  # fmt: skip
    init = commands.add_parser(
        "init",
        help="create (or upgrade) and check the database, without Discord",
        description="Create the database MT_DATABASE names (or upgrade it to this release), "
        "check it as the bot's start-up does, and print what is in it. No token, no network: "
        "run it before the first start to rehearse a backup and a restore, or after a "
        "restore to check the file.",
    )
    init.add_argument(
        "--database", help="the SQLite file or postgresql:// URL (default: MT_DATABASE)"
    )
    init.add_argument(
        "--full", action="store_true",
        help="also check every page, finished matches' archived logs included (start-up "
        "checks only the tables that still change; this reads the whole file)",
    )  # fmt: skip
    copy = commands.add_parser(
        "backup",
        help="write a consistent copy of the database (safe while the bot runs)",
        description="Write a consistent copy of the database, safe while the bot runs.",
    )
    # A str, not a Path: Path("backups/") would drop the slash that says "a folder".
    copy.add_argument(
        "path",
        help="the backup file, or a folder (ending in / or existing; created if need be) to "
        "put a timestamped one in",
    )
    copy.add_argument(
        "--database", help="the SQLite file to copy, as MT_DATABASE names it (default: MT_DATABASE)"
    )
    copy.add_argument("--force", action="store_true", help="replace an existing backup file")
    commands.add_parser(
        "health",
        help="ask the running bot's /healthz; exit 0 if it is healthy (for HEALTHCHECK)",
        description="Ask the bot running on this machine (MT_HEALTH_HOST, MT_HEALTH_PORT) "
        "whether it is healthy: its Discord gateway connected and its database answering. "
        "Prints the answer; exit 0 when healthy, 1 otherwise (unhealthy, not answering, "
        "MT_HEALTH_PORT off). It is the Docker image's HEALTHCHECK.",
    )
    rebuild = commands.add_parser(
        "rebuild",
        help="recompute the statistics and the ratings from the event log",
        description="Recompute every finished match's statistics and every server's ratings "
        "from the event log (derived data: the same numbers again). Safe while the bot runs: "
        "each server's ratings are refolded under its rating lock.",
    )
    rebuild.add_argument(
        "--database", help="the SQLite file or postgresql:// URL (default: MT_DATABASE)"
    )
    store = commands.add_parser(
        "store",
        help="move the games between databases",
        description="Move the games between an SQLite file and a PostgreSQL database "
        "(store copy SOURCE DESTINATION; docs/postgresql.md).",
    )
    store_commands = store.add_subparsers(dest="store_command", metavar="{copy}", required=True)
    move = store_commands.add_parser(
        "copy",
        help="copy every game and setting from SOURCE to DESTINATION, then check each game "
        "replays equal",
        description="Copy every game, event, seat, setting, schedule row and statistic from "
        "SOURCE into DESTINATION (each an SQLite file or a postgresql:// URL), then load "
        "every game from both and check they replay equal. Stop the bot first.",
    )
    move.add_argument("source", help="the database to copy (SQLite path or postgresql:// URL)")
    move.add_argument("destination", help="the database to fill (must be empty)")
    move.add_argument(
        "--replace",
        action="store_true",
        help="delete everything in DESTINATION first if it is not empty",
    )
    return parser


def _backup(args: argparse.Namespace) -> int:
    """``backup``: ``--database`` is read as ``MT_DATABASE`` is (a path or a URL)."""
    try:
        if args.database is None:
            name, config = "MT_DATABASE", Config.from_env()
            source, url = config.database, config.database_url
        else:
            name = "--database"
            source, url = parse_database(args.database, name)
        if url is not None:
            return _fail(
                f"{name} is a PostgreSQL server: back it up with pg_dump (see docs/postgresql.md)"
            )
        report = backup(source, args.path, force=args.force)
    except (ConfigError, BackupError) as exc:
        return _fail(str(exc))
    print(report.line())
    return 0


def _init(args: argparse.Namespace) -> int:
    """``init``: one line saying what is there (exit 0), or what is wrong (exit 2; 1 when a
    PostgreSQL server cannot be reached)."""
    from bot.ops.dbinit import init_database
    from bot.store import StoreError, StoreUnreachable

    try:
        env = dict(os.environ)
        if args.database is not None:
            parse_database(args.database, "--database")  # its mistakes named as typed
            env["MT_DATABASE"] = args.database
        report = asyncio.run(init_database(Config.from_env(env), full=args.full))
    except StoreUnreachable as exc:
        print(f"mexican-train-bot: {exc}", file=sys.stderr)
        return EXIT_RETRY
    except (ConfigError, StoreError) as exc:
        return _fail(str(exc))
    print(report.line())
    return 0


def _rebuild(args: argparse.Namespace) -> int:
    """``rebuild``: statistics and ratings again from the log; one line of what was done."""
    from bot.service import GameService
    from bot.store import Store, StoreError, StoreUnreachable

    async def run(target: str | Path) -> str:
        async with await Store.open(target) as store:
            svc = GameService(store)
            games = await svc.rebuild_stats(only_missing=False)
            servers = await svc.rebuild_ratings(only_missing=False)
        return f"rebuilt: statistics of {games} finished game(s), ratings of {servers} server(s)"

    try:
        if args.database is None:
            config = Config.from_env()
            target: str | Path = config.database_url or config.database
        else:
            source, url = parse_database(args.database, "--database")
            target = url or source
        print(asyncio.run(run(target)))
    except StoreUnreachable as exc:
        print(f"mexican-train-bot: {exc}", file=sys.stderr)
        return 1
    except (ConfigError, StoreError) as exc:
        return _fail(str(exc))
    return 0


def _try(args: argparse.Namespace) -> int:
    """A game in the terminal: no configuration, no token, no Discord client."""
    from bot.tryit import TryOptions, run

    _python_sigint()

    low, high = PRESETS[args.preset].player_range
    if not low <= args.players <= high:
        return _fail(
            f"--players {args.players}: the {args.preset} rules seat {low} to {high} players, "
            f"you included (by preset: {players_limits()})"
        )
    name = (args.name or "").strip()[:32] or None
    options = TryOptions(
        players=args.players, level=Level(args.level), preset=args.preset, seed=args.seed,
        name=name, language=args.language, pictures=args.pictures,
    )  # fmt: skip
    try:
        return asyncio.run(run(options))
    except KeyboardInterrupt:  # Ctrl-C: asyncio.run cancelled the game (its folder is gone)
        print(file=sys.stderr)
        return EXIT_INTERRUPTED


def _python_sigint() -> None:
    """Ctrl-C back to Python's own KeyboardInterrupt (and so to ``asyncio.run``'s handling,
    which installs itself only over that one), once the imports are done."""
    signal.signal(signal.SIGINT, signal.default_int_handler)


def players_limits() -> str:
    """How many players each preset seats, as ``--help``, the refusal and the README say it:
    "2 to 8; 2 to 4 with double-9; 2 to 10 with double-15, double-18, rules-site"."""
    by_range: dict[tuple[int, int], list[str]] = {}
    for preset, rules in sorted(PRESETS.items()):
        by_range.setdefault(rules.player_range, []).append(preset)
    usual = PRESETS["standard"].player_range
    parts = [f"{usual[0]} to {usual[1]}"]
    for (low, high), names in sorted(by_range.items()):
        if (low, high) != usual:
            parts.append(f"{low} to {high} with {', '.join(names)}")
    return "; ".join(parts)


#: How long ``health`` waits for the bot's answer (Docker's HEALTHCHECK allows more).
HEALTH_TIMEOUT_S = 5.0


def _health() -> int:
    """0 when healthy; 1 for anything else, the endpoint off included: Docker's HEALTHCHECK
    reserves 2 (bot/exits.py)."""
    import urllib.error
    import urllib.request

    try:
        config = Config.from_env()
    except ConfigError as exc:
        _fail(str(exc))
        return EXIT_RETRY
    if config.health_port is None:
        _fail("MT_HEALTH_PORT is off: there is no health endpoint to ask")
        return EXIT_RETRY
    host = config.health_host
    if host in ("0.0.0.0", "::", ""):  # listening everywhere: ask on loopback
        host = "127.0.0.1" if host != "::" else "::1"
    if ":" in host:
        host = f"[{host}]"
    url = f"http://{host}:{config.health_port}/healthz"
    try:
        with urllib.request.urlopen(url, timeout=HEALTH_TIMEOUT_S) as response:
            print(response.read().decode().strip())
            return EXIT_OK
    except urllib.error.HTTPError as exc:
        print(exc.read().decode().strip(), file=sys.stderr)
    except OSError as exc:
        print(f"mexican-train-bot: {url} did not answer: {no_answer(exc)}", file=sys.stderr)
    return EXIT_RETRY


def no_answer(exc: OSError) -> str:
    """Why ``health`` got no answer, in our words (not ``<urlopen error [Errno 111] …>``)."""
    import urllib.error

    reason = exc.reason if isinstance(exc, urllib.error.URLError) else exc
    if isinstance(reason, ConnectionRefusedError):
        return (
            "nothing listens there (is the bot running, with this MT_HEALTH_HOST and "
            "MT_HEALTH_PORT?)"
        )
    if isinstance(reason, TimeoutError):
        return f"no answer within {HEALTH_TIMEOUT_S:g} s (the bot may be stuck or overloaded)"
    if isinstance(reason, ConnectionResetError):
        return "the connection was dropped before an answer"
    if isinstance(reason, str):
        return reason
    return (getattr(reason, "strerror", None) or type(reason).__name__).lower()


def main(argv: Sequence[str] | None = None, prog: str = CONSOLE_SCRIPT) -> int:
    """The ``mexican-train-bot`` console script (``python -m bot`` passes its own ``prog``)."""
    args = _parser(prog).parse_args(argv)
    degrade_gracefully(sys.stdout, sys.stderr)  # a cp1252 console: "->" for "→", no crash
    if args.command != "try":  # (which first loads the game: see _try)
        _python_sigint()
    if args.command == "backup":
        return _backup(args)
    if args.command == "health":
        return _health()
    if args.command == "init":
        return _init(args)
    if args.command == "try":
        return _try(args)
    if args.command == "rebuild":
        return _rebuild(args)
    if args.command == "store":
        from bot.service.storecopy import copy_main

        code, line = copy_main(args.source, args.destination, replace=args.replace)
        print(line, file=sys.stderr if line.startswith("mexican-train-bot: ") else sys.stdout)
        return code
    try:
        policy = config_error_policy(os.environ)
    except ConfigError as exc:
        return _fail(str(exc))
    code = _start(args)
    if code == EXIT_CONFIG and policy == "wait":
        return _wait_for_stop()
    return code


def _wait_for_stop() -> int:
    """``MT_ON_CONFIG_ERROR=wait``: stay up, idle, until stopped, then exit 2.

    Docker's restart policies cannot say "except on exit code 2": an exit would have the bot
    started again and again with the same bad settings (the log filling with the same line).
    Waiting leaves the one line in the log and a container the health check calls unhealthy.
    """
    print(
        "mexican-train-bot: waiting to be stopped (MT_ON_CONFIG_ERROR=wait) so that it is not "
        "restarted with the same settings: fix them, then recreate it (docker compose up -d)",
        file=sys.stderr,
        flush=True,
    )
    stops = {signal.SIGTERM, signal.SIGINT}
    signal.pthread_sigmask(signal.SIG_BLOCK, stops)
    signal.sigwait(stops)
    return EXIT_CONFIG


def _start(args: argparse.Namespace) -> int:
    try:
        config = Config.from_env(token=True)  # every bad setting named at once
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

    from bot.ops.network import EXIT_UNREACHABLE, install_one_line_reconnects, unreachable_line
    from bot.run import serve
    from bot.store import SchemaTooNew, StoreError, StoreUnreachable

    install_one_line_reconnects()
    try:
        asyncio.run(serve(config, token))
    except StoreUnreachable as exc:
        print(
            f"mexican-train-bot: {exc}; check that the server runs and this machine can reach "
            f"it — exit code {EXIT_UNREACHABLE}, so a restart policy tries again",
            file=sys.stderr,
        )
        return EXIT_UNREACHABLE
    except discord.LoginFailure:
        return _fail("Discord refused DISCORD_TOKEN: reset the token in the Developer Portal")
    except discord.PrivilegedIntentsRequired:
        return _fail("Discord refused an intent this bot asked for (it needs none privileged)")
    except (SchemaTooNew, StoreError, ConfigError) as exc:
        return _fail(str(exc))
    except KeyboardInterrupt:
        return 0
    except Exception as exc:
        line = unreachable_line(exc, config.discord_api_base)
        if line is None:
            raise
        print(f"mexican-train-bot: {line}", file=sys.stderr)
        return EXIT_UNREACHABLE
    return 0


if __name__ == "__main__":
    sys.exit(main(prog=MODULE))
