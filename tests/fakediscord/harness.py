"""Runs a real ``commands.Bot`` against a ``FakeDiscord``, and the pytest fixture for it.

``running_bot`` does what ``Bot.start`` does (log in, connect) but waits for ``on_ready``
and closes cleanly afterwards, so a test body runs against a connected bot. The bot's own
code paths are untouched: discord.py is only pointed at the fake's URLs, which
``FakeDiscord.start`` sets and ``stop`` restores.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import discord
from discord.ext import commands

from .server import FakeDiscord

# discord.py waits this long after the last GUILD_CREATE before on_ready (2 s by default).
GUILD_READY_TIMEOUT = 0.05


@contextlib.asynccontextmanager
async def fake_discord(**options: object) -> AsyncIterator[FakeDiscord]:
    """A started fake; on exit stops it, restores discord.py's URLs and runs ``check()``."""
    fake = FakeDiscord(**options)  # type: ignore[arg-type]
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()
    if fake.strict:
        fake.check()


@contextlib.asynccontextmanager
async def running_bot(
    fake: FakeDiscord, bot: commands.Bot, *, sync: bool = True, timeout: float = 30.0
) -> AsyncIterator[commands.Bot]:
    """Log ``bot`` in to ``fake``, wait for ready, optionally sync its commands, then close.

    ``sync`` pushes the global commands and, for the fake's guild, any guild commands:
    the fake (like Discord) only sends interactions for synced commands.
    """
    # A test guild arrives at once; do not wait discord.py's default 2 s for more guilds.
    state = bot._connection
    state.guild_ready_timeout = min(state.guild_ready_timeout, GUILD_READY_TIMEOUT)
    await bot.login("fake-token")
    runner = asyncio.create_task(bot.connect(reconnect=True), name="fake-discord-bot")
    try:
        ready = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait(
            {ready, runner}, timeout=timeout, return_when="FIRST_COMPLETED"
        )
        if ready not in done:
            ready.cancel()
            if runner in done:
                runner.result()  # re-raise why the bot stopped
            raise TimeoutError(f"bot was not ready after {timeout}s")
        if sync:
            await bot.tree.sync()
            guild = discord.Object(fake.guild_id)
            if bot.tree.get_commands(guild=guild):
                await bot.tree.sync(guild=guild)
        fake.bots.append(bot)
        yield bot
    finally:
        if bot in fake.bots:
            fake.bots.remove(bot)
        await _drain(bot, timeout)
        await bot.close()
        with contextlib.suppress(asyncio.CancelledError, discord.ConnectionClosed):
            await asyncio.wait_for(runner, timeout)
    if fake.strict:
        fake.check()  # an unknown route fails the test here, not only at fixture teardown


async def _drain(bot: commands.Bot, timeout: float) -> None:
    """Our bot stops as it does on SIGTERM (``bot.run.drain``): interactions in flight, a game
    mid-move and pictures being drawn finish first. A test that has seen what it waited for
    may leave the rest of a move's work (the next player's ping) still running; closing under
    it would make the bot fail in a way no player meets ("Session is closed"). Work that has
    not finished within ``timeout`` is cut off by the close, and any ERROR it logs is seen."""
    from bot.ui.host import GameBot

    if isinstance(bot, GameBot):
        from bot.run import drain

        await drain(bot, timeout)
