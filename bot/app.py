"""The bot itself: :class:`MexicanTrainBot` and :func:`create_bot`, i.e. start-up.

All one-time work happens in :meth:`MexicanTrainBot.setup_hook` (``on_ready`` fires again
after reconnects): start the render pool (its workers warm, so the first move's picture is
not the slow one) and the computer players' thinking pool, take the store ``python -m bot``
opened and checked before logging in to Discord (or open it), build the services, install
the command translator and the servers' languages, load the cogs as extensions by name (each
registers its persistent ``DynamicItem`` buttons, so messages posted before a restart keep
working), install the one error funnel on the command tree (with the check of every
command's options, and the answer to clicks no button claims), and, only when asked
(``MT_SYNC_COMMANDS=1`` or ``--sync``), push the slash commands. Then any game left waiting
on a computer player when the bot stopped carries on, through the announcer like every other
move.

This module sits above the Discord layer: it imports ``bot.ui`` and names the ``bot.cogs``
extensions; nothing there imports it (they are handed a :class:`~bot.ui.host.GameBot`).
Time comes from ``clock`` (tests pass a fake one) and the deal's shuffle from ``rng``.
"""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Config
from bot.service import GameService
from bot.service.schedule import ScheduleService
from bot.store import Store, open_store
from bot.store.outage import log_failure
from bot.ui import announcer, components, language, options
from bot.ui.deliver import Deliverer
from bot.ui.host import Clock, GameBot
from bot.ui.interactions import answer_tree_error
from bot.ui.tileupload import keep_tile_emojis
from bot.ui.translator import CatalogTranslator

log = logging.getLogger(__name__)

#: Old finished matches compacted per batch at start-up, and the pause between batches.
COMPACT_BATCH = 10
COMPACT_PAUSE = 0.5

#: The cogs, loaded as extensions in this order (the order of the top-level commands Discord
#: is sent; ``/mt``'s own subcommands keep ``bot.ui.mt.ORDER`` whatever the load order).
EXTENSIONS = (
    "bot.cogs.lobby",
    "bot.cogs.play",
    "bot.cogs.orders",
    "bot.cogs.admin",
    "bot.cogs.history",
    "bot.cogs.catchup",
    "bot.cogs.stats",
    "bot.cogs.rating",
    "bot.cogs.seasons",
    "bot.cogs.schedule",
    "bot.cogs.places",
)


#: What the gateway sends: servers, their channels and threads (for permissions and the
#: game's thread), nothing more. The bot reads no message (slash commands and buttons come as
#: interactions), so it asks for no message events: a busy bot would otherwise parse an event
#: for every post and edit it makes itself. No privileged intent (members, message content).
INTENTS = discord.Intents.none()
INTENTS.guilds = True


class MexicanTrainBot(GameBot):
    """Mexican Train over Discord: a thin layer of cogs over :class:`GameService`."""

    def __init__(
        self,
        config: Config,
        *,
        clock: Clock | None = None,
        rng: random.Random | None = None,
        store: Store | None = None,
        **options: Any,
    ) -> None:
        super().__init__(
            config,
            clock=clock,
            command_prefix=commands.when_mentioned,
            intents=INTENTS,
            # Nothing reads the message cache: interactions carry the message they are about.
            max_messages=None,
            help_command=None,
            # Declared, not left to Discord's default (apps made since mid-2024 default to
            # user installs too, which would offer the commands in group DMs and in servers
            # without the bot): installed to servers only, used in servers; /hand and /mt add
            # the bot's DM (bot.ui.interactions.IN_DMS), where a player may ask about their game.
            allowed_installs=app_commands.AppInstallationType(guild=True, user=False),
            allowed_contexts=app_commands.AppCommandContext(guild=True),
            **options,
        )
        self._rng = rng
        #: Opened (and checked) before the Discord login by ``bot.run.serve``; opened here in
        #: ``setup_hook`` when none is given (tests build bots without one).
        self._store: Store | None = store
        #: Pays what committed moves still owe (``bot/ui/deliver.py``), from ``setup_hook``.
        self.deliverer: Deliverer | None = None

    async def setup_hook(self) -> None:
        cfg = self.config
        await self.pictures.start()  # MT_RENDER_WORKERS processes, warm before any move
        await self.thinker.start()  # MT_THINK_WORKERS processes, each warm with one decision
        if self._store is None:
            self._store = await open_store(cfg)
        service = GameService(
            self._store, cache_size=cfg.game_cache, rng=self._rng, chooser=self.thinker
        )
        self.attach(service, ScheduleService(service))
        await self.tree.set_translator(CatalogTranslator())
        await language.load(self, self.service)
        for name in EXTENSIONS:
            await self.load_extension(name)
        self.tree.on_error = self._on_tree_error  # type: ignore[method-assign]
        options.install(self.tree)  # every option checked against its command first
        self.add_listener(components.unclaimed, "on_interaction")  # clicks nothing claims
        self.deliverer = Deliverer(self)
        self.add_listener(self._on_mt_owed, "on_mt_owed")  # a send failed: retry it soon
        if cfg.sync_commands:  # only when the commands changed since the last sync
            from bot.ops.sync import sync_if_changed

            await sync_if_changed(self, self.tree, self._store, cfg.dev_guild)
        self.spawn(self._resume_games())
        self.spawn(self._compact_old_matches())
        if cfg.tile_emojis:  # the tiles as pictures on the controls, uploaded once, paced
            self.spawn(keep_tile_emojis(self))

    async def close(self) -> None:
        self.cancel_background()
        if self.deliverer is not None and self._store is not None:
            await self.deliverer.release()
        await self.pictures.close(grace=1.0)  # already closed after a SIGTERM drain (bot.run)
        await self.thinker.close(grace=1.0)  # nothing to think about after the drain
        await super().close()
        if self._store is not None:
            await self.posts.close()  # the table posts not written yet, while the store is open
            store, self._store = self._store, None
            self.detach()
            await store.close()

    async def _on_tree_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        await answer_tree_error(interaction, error)

    async def _on_mt_owed(self, game_id: int) -> None:
        if self.deliverer is not None:
            self.deliverer.wake()

    async def _compact_old_matches(self) -> None:
        """Matches finished before their last move compacted them (issue 39: matches of an
        older version) are compacted in the background, a few at a time with pauses between,
        so the database shrinks to its bounded size without a maintenance step and the
        players' interactions keep the event loop (each match is a read, a compression and a
        write: a few ms)."""
        try:
            while self._store is not None and await self._store.compact_finished(COMPACT_BATCH):
                await asyncio.sleep(COMPACT_PAUSE)
        except Exception as exc:  # the next start-up takes over where this one stopped
            log.warning("could not compact old finished matches: %s", exc)

    async def _resume_games(self) -> None:
        """First what committed moves still owe the players (a crash between a commit and
        its post: issue 37), then games whose computer player was to move when the bot
        stopped: play on; then the deliverer keeps watch."""
        await self.wait_until_ready()
        assert self.deliverer is not None
        try:
            # One process alone has nothing of its own in flight: everything owed is due.
            await self.deliverer.drain(all_due=self.config.shard_count is None)
        except Exception as exc:
            log.error("could not deliver what games owe at start-up: %s", exc)
        self.spawn(self.deliverer.run(all_due_first=False))
        try:
            waiting = await self.service.computer_turns()
        except Exception as exc:
            log_failure(log, logging.ERROR, "could not list games waiting on computers", exc)
            return
        for game_id in waiting:
            try:
                # In a cluster, the process running the game's server resumes it (once).
                if not self.config.runs_guild((await self.service.where(game_id))[0]):
                    continue
                async with self.game_lock(game_id):
                    await announcer.run_computers(self, game_id, None)
            except Exception as exc:
                log_failure(log, logging.ERROR, "game %s: computers not resumed", exc, game_id)


class ShardedMexicanTrainBot(MexicanTrainBot, commands.AutoShardedBot):
    """The same bot on ``AutoShardedBot`` (``MT_SHARDS``): one gateway connection per shard,
    all in this process and on this one database (see docs/admin.md, Scaling)."""


def create_bot(
    config: Config | None = None,
    *,
    clock: Clock | None = None,
    rng: random.Random | None = None,
    store: Store | None = None,
    **options: Any,
) -> MexicanTrainBot:
    """The bot for ``config`` (default: from the environment); sharded when ``MT_SHARDS`` is
    set (``auto``: as many shards as Discord recommends), or ``MT_SHARD_COUNT`` (this
    process runs ``MT_SHARD_IDS`` of them). ``store``: the database, already open (the bot
    then closes it); else ``setup_hook`` opens the one ``config`` names."""
    config = config or Config.from_env()
    options["store"] = store
    if config.shard_count is not None:  # MT_SHARD_COUNT/MT_SHARD_IDS: one of a cluster
        options.setdefault("shard_count", config.shard_count)
        ids = None if config.shard_ids is None else list(config.shard_ids)
        options.setdefault("shard_ids", ids)
        return ShardedMexicanTrainBot(config, clock=clock, rng=rng, **options)
    if config.shards is None:
        return MexicanTrainBot(config, clock=clock, rng=rng, **options)
    options.setdefault("shard_count", None if config.shards == "auto" else config.shards)
    return ShardedMexicanTrainBot(config, clock=clock, rng=rng, **options)
