"""``python -m bot [--sync]``: run the bot with the token from ``DISCORD_TOKEN``.

Configuration comes from the environment (see :mod:`bot.config`). Anything the operator
must fix — no token, a token that cannot be one, Discord refusing it, a bad setting, a
database written by a newer release — stops the bot with ONE line on stderr and exit code 2,
not a traceback: the person reading it is setting the bot up, not debugging it.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import logging
import sys
from collections.abc import Sequence

import discord

from bot.app import create_bot
from bot.config import Config, ConfigError
from bot.store import SchemaTooNew, StoreError

#: Exit code for a configuration the operator must fix.
EXIT_CONFIG = 2


def _fail(message: str) -> int:
    print(f"mexican-train-bot: {message}", file=sys.stderr)
    return EXIT_CONFIG


async def _run(config: Config, token: str) -> None:
    bot = create_bot(config)
    async with bot:
        await bot.start(token)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sync", action="store_true", help="push the slash commands to Discord at start-up"
    )
    args = parser.parse_args(argv)
    try:
        config = Config.from_env()
        token = config.require_token()
    except ConfigError as exc:
        return _fail(str(exc))
    if args.sync:
        config = dataclasses.replace(config, sync_commands=True)
    discord.utils.setup_logging(level=getattr(logging, config.log_level))
    try:
        asyncio.run(_run(config, token))
    except discord.LoginFailure:
        return _fail("Discord refused DISCORD_TOKEN: reset the token in the Developer Portal")
    except discord.PrivilegedIntentsRequired:
        return _fail("Discord refused an intent this bot asked for (it needs none privileged)")
    except (SchemaTooNew, StoreError) as exc:
        return _fail(str(exc))
    except ConfigError as exc:
        return _fail(str(exc))
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
