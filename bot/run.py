"""The process entry: ``python -m bot``'s life — open and check the database, start the
health endpoint and the bot, stop cleanly on SIGTERM. (``bot/__main__.py`` parses the command
line and calls :func:`serve`.)

``docker stop`` (and systemd, and Ctrl-C) sends SIGTERM, then SIGKILL after a grace period
(10 s by default in Docker). On the first SIGTERM or SIGINT the bot keeps serving while it
*drains*: it waits until no interaction is being handled, no game is in the middle of a
move-and-post and no picture is being drawn, for at most ``MT_SHUTDOWN_GRACE`` seconds; then
it stops the render workers, closes the gateway and the database (which folds the WAL back
into the file) and the process exits 0. A move's transaction is atomic either way — a move
cut off by SIGKILL is simply not there — but draining means a move that was acknowledged also
got its table message posted.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import time

import discord
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.app import create_bot
from bot.config import Config
from bot.configvalues import ConfigError
from bot.ops import collector
from bot.ops.health import HealthServer
from bot.store import open_store
from bot.store.schema import upgrade_lines
from bot.ui.host import GameBot
from bot.ui.permissions import invite_permissions

log = logging.getLogger("bot.ops")


def point_at_test_discord(config: Config) -> None:
    """``MT_DISCORD_API_BASE``/``MT_DISCORD_GATEWAY`` (tests only; loopback-checked in
    :mod:`bot.config`): send REST calls and the gateway to a local fake Discord."""
    if config.discord_api_base:
        Route.BASE = config.discord_api_base.rstrip("/")
        log.warning("TEST MODE: Discord API at %s", Route.BASE)
    if config.discord_gateway:
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(config.discord_gateway)
        log.warning("TEST MODE: Discord gateway at %s", config.discord_gateway)


async def drain(bot: GameBot, grace: float) -> bool:
    """Wait until no interaction runs, no game is mid-move and no picture is being drawn
    (True), or ``grace`` passes."""
    deadline = time.monotonic() + grace
    while True:
        left = deadline - time.monotonic()
        if bot.metrics.in_flight <= 0 and bot.games_busy() == 0 and bot.pictures.busy == 0:
            return True
        if left <= 0:
            return False
        if bot.metrics.in_flight > 0:
            await bot.metrics.wait_idle(min(left, 0.5))
        else:
            await asyncio.sleep(min(left, 0.02))


def invite_url(application_id: int) -> str:
    """The link that adds the bot to a server with its slash commands and every permission
    of :data:`bot.ui.permissions.PERMISSIONS` (what games, thread games and the optional
    Manage Webhooks need; the admin may untick the optional one on Discord's page)."""
    return discord.utils.oauth_url(
        application_id, permissions=invite_permissions(), scopes=("bot", "applications.commands")
    )


def ready_line(bot: GameBot) -> str:
    """The one line an admin looks for at start-up (as Red-DiscordBot prints it): which
    account the token belongs to, how many servers it is in, and how to invite it."""
    user = bot.user
    if user is None:  # (only before the login)
        return "ready, not logged in"
    servers = len(bot.guilds)
    return (
        f"ready: logged in as {user} (id {user.id}), in {servers} "
        f"server{'' if servers == 1 else 's'}; invite link: "
        f"{invite_url(bot.application_id or user.id)}"
    )


def webhooks_line(bot: GameBot, named: int = 5) -> str | None:
    """Said once at start-up, under the ready line, where the admin who runs the bot looks:
    the servers where the bot's roles lack Manage Webhooks (None when none does). Without it
    the turn posts of moves made from DMs are the bot's own, about twice the requests on
    its global budget (docs/discord.md); never said per move nor to the players."""
    without = sorted(
        (g for g in bot.guilds if g.me is not None and not g.me.guild_permissions.manage_webhooks),
        key=lambda g: g.name,
    )
    if not without:
        return None
    names = ", ".join(g.name for g in without[:named])
    if len(without) > named:
        names += f" and {len(without) - named} more"
    return (
        f"Manage Webhooks is missing in {len(without)} of {len(bot.guilds)} "
        f"server{'' if len(bot.guilds) == 1 else 's'} ({names}): with it the turns of moves "
        "made from DMs post through the bot's own channel webhook, off its global budget of "
        "50 requests a second (about half the requests such a move costs); give it to the "
        "bot's role, or invite the bot again with the link above"
    )


async def serve(config: Config, token: str) -> None:
    """Run until Discord stops us or a signal asks us to stop; raises what start-up raises."""
    # The database first, opened and checked, before anything reaches Discord: a damaged file
    # or a PostgreSQL server that is down is reported as such, not as a login or network
    # problem, and without a token ever having been sent.
    store = await open_store(config, check=True)
    for line in upgrade_lines(store.migrated):  # an upgrade says what it changed
        log.info("database %s upgraded, %s", store, line)
    point_at_test_discord(config)
    # The bot never joins voice: do not warn at every start that voice libraries are missing.
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False
    try:
        bot = create_bot(config, store=store)  # the bot closes the store from here on
    except BaseException:
        await store.close()
        raise
    said_ready = False

    async def on_ready() -> None:  # again after each full reconnect: say it once
        nonlocal said_ready
        if not said_ready:
            said_ready = True
            log.info("%s", ready_line(bot))
            collector.keep(bot)  # no full pass of the collector while a player waits
            if (missing := webhooks_line(bot)) is not None:
                log.info("%s", missing)

    bot.add_listener(on_ready, "on_ready")
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):  # Windows: Ctrl-C still interrupts
            loop.add_signal_handler(sig, stop.set)
    health: HealthServer | None = None
    async with bot:
        if config.health_port is not None:
            health = HealthServer(bot, config.health_host, config.health_port)
            try:
                await health.start()
            except OSError as exc:
                raise ConfigError(
                    f"cannot listen on {config.health_host}:{config.health_port} for /healthz "
                    f"({exc.strerror or exc}); set MT_HEALTH_PORT to a free port, or off"
                ) from None
        try:
            runner = asyncio.create_task(bot.start(token), name="discord")
            stopper = asyncio.create_task(stop.wait(), name="signals")
            done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
            if runner in done:
                stopper.cancel()
                runner.result()  # start-up failures (bad token…) reach __main__
                return
            log.info(
                "stopping: waiting up to %ss for %d interaction(s) and %d game(s) in progress",
                config.shutdown_grace,
                bot.metrics.in_flight,
                bot.games_busy(),
            )
            draining = time.monotonic()
            if not await drain(bot, config.shutdown_grace):
                log.warning(
                    "stopping anyway after %ss: %d interaction(s) still running "
                    "(their transactions roll back)",
                    config.shutdown_grace,
                    bot.metrics.in_flight,
                )
            # The render workers go first, given what is left of the grace (nothing is left
            # to draw after a full drain); a picture asked for after this is posted as text.
            left = config.shutdown_grace - (time.monotonic() - draining)
            await bot.pictures.close(grace=max(0.0, left))
            await bot.close()
            with contextlib.suppress(asyncio.CancelledError, discord.ConnectionClosed):
                await runner
            log.info("stopped cleanly")
        finally:
            if health is not None:
                await health.stop()
