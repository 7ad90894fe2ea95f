"""The bot itself: a ``commands.Bot`` that owns the store and the game service.

All one-time work happens in :meth:`MexicanTrainBot.setup_hook` (``on_ready`` fires again
after reconnects): open the SQLite store, build the service, load the cogs as extensions
(each registers its persistent ``DynamicItem`` buttons, so messages posted before a restart
keep working), install the one error funnel on the command tree, and, only when asked
(``MT_SYNC_COMMANDS=1`` or ``--sync``), push the slash commands. Then any game left waiting
on a computer player when the bot stopped carries on.

Time comes from ``clock`` (tests pass a fake one) and the deal's shuffle from ``rng``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import weakref
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Config
from bot.ops.logs import note_game
from bot.ops.metrics import Metrics
from bot.service import GameService
from bot.store import Store, open_store

log = logging.getLogger(__name__)

#: The cogs, loaded as extensions in this order.
EXTENSIONS = ("bot.cogs.lobby", "bot.cogs.play", "bot.cogs.extras", "bot.cogs.schedule")

Clock = Callable[[], datetime]


def _utc_now() -> datetime:
    return datetime.now(UTC)


class MexicanTrainBot(commands.Bot):
    """Mexican Train over Discord: a thin layer of cogs over :class:`GameService`."""

    def __init__(
        self,
        config: Config,
        *,
        clock: Clock | None = None,
        rng: random.Random | None = None,
        **options: Any,
    ) -> None:
        # Slash commands and components need no privileged intent; no members intent
        # (it would download every member list at start-up).
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            help_command=None,
            **options,
        )
        self.config = config
        self.now: Clock = clock or _utc_now
        self._rng = rng
        self._store: Store | None = None
        self._service: GameService | None = None
        self._game_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        self._background: set[asyncio.Task[None]] = set()
        #: What ``/metrics`` reports and graceful shutdown waits on (bot/ops).
        self.metrics = Metrics()

    @property
    def service(self) -> GameService:
        if self._service is None:
            raise RuntimeError("the bot has not been set up yet (setup_hook opens the store)")
        return self._service

    async def setup_hook(self) -> None:
        cfg = self.config
        self._store = await open_store(cfg)
        self._service = GameService(self._store, cache_size=cfg.game_cache, rng=self._rng)
        for name in EXTENSIONS:
            await self.load_extension(name)
        self.tree.on_error = self._on_tree_error  # type: ignore[method-assign]
        if cfg.sync_commands:
            await self.sync_commands()
        self._spawn(self._resume_games())

    async def close(self) -> None:
        for task in list(self._background):
            task.cancel()
        await super().close()
        if self._store is not None:
            store, self._store, self._service = self._store, None, None
            await store.close()

    def games_busy(self) -> int:
        """Games whose move-and-post is running now (graceful shutdown waits for them)."""
        return sum(1 for lock in list(self._game_locks.values()) if lock.locked())

    @contextlib.asynccontextmanager
    async def game_lock(self, game_id: int) -> AsyncIterator[None]:
        """Serialises one game's move-and-post, so its messages appear in move order."""
        note_game(game_id)
        lock = self._game_locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._game_locks[game_id] = lock
        async with lock:
            yield

    async def sync_commands(self) -> list[str]:
        """Push the commands: globally, and instantly to ``MT_DEV_GUILD`` if set."""
        done = [f"{len(await self.tree.sync())} global"]
        if self.config.dev_guild is not None:
            guild = discord.Object(self.config.dev_guild)
            self.tree.copy_global_to(guild=guild)
            done.append(f"{len(await self.tree.sync(guild=guild))} in guild {guild.id}")
        log.info("synced commands: %s", ", ".join(done))
        return done

    async def _on_tree_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        from bot.cogs.common import answer_error

        await answer_error(interaction, error)

    def _spawn(self, coro: Any) -> None:
        task: asyncio.Task[None] = asyncio.create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _resume_games(self) -> None:
        """Games whose computer player was to move when the bot stopped: play on."""
        from bot.cogs.actions import run_computers

        await self.wait_until_ready()
        try:
            waiting = await self.service.computer_turns()
        except Exception:
            log.exception("could not list games waiting on computer players")
            return
        for game_id in waiting:
            try:
                async with self.game_lock(game_id):
                    await run_computers(self, game_id, None)
            except Exception:
                log.exception("game %s: could not resume computer players", game_id)


class ShardedMexicanTrainBot(MexicanTrainBot, commands.AutoShardedBot):
    """The same bot on ``AutoShardedBot`` (``MT_SHARDS``): one gateway connection per shard,
    all in this process and on this one database (see the README's Scaling section)."""


def create_bot(
    config: Config | None = None,
    *,
    clock: Clock | None = None,
    rng: random.Random | None = None,
    **options: Any,
) -> MexicanTrainBot:
    """The bot for ``config`` (default: from the environment); sharded when ``MT_SHARDS`` is
    set (``auto``: as many shards as Discord recommends)."""
    config = config or Config.from_env()
    if config.shards is None:
        return MexicanTrainBot(config, clock=clock, rng=rng, **options)
    options.setdefault("shard_count", None if config.shards == "auto" else config.shards)
    return ShardedMexicanTrainBot(config, clock=clock, rng=rng, **options)
