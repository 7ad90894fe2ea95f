"""``GET /healthz`` and ``GET /metrics`` on localhost, for Docker, systemd or Prometheus.

``/healthz`` answers 200 ``{"status": "ok", …}`` when the gateway is connected and the
database answers a query, else 503 with what is wrong (``starting`` before the first READY).
``/metrics`` is Prometheus's text format, written by ``prometheus_client`` from the bot's
:class:`~bot.ops.metrics.Metrics` (the list, and a scrape configuration: docs/metrics.md).

It binds ``127.0.0.1`` by default: the numbers are not secret but the endpoint is not meant
for the internet. ``python -m bot`` starts it (``MT_HEALTH_PORT``, ``off`` to disable);
tests start it on port 0 and read the port back.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import re
import socket
from typing import Any

import discord
from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from bot.ops.metrics import Metrics, Scrape
from bot.store.outage import unreachable

log = logging.getLogger(__name__)

#: How long /healthz waits for the database before calling it unreachable.
DB_TIMEOUT = 2.0


def gateway_connected(bot: discord.Client) -> bool:
    """READY seen and every gateway connection open (one per shard when sharded)."""
    if bot.is_closed() or not bot.is_ready():
        return False
    if isinstance(bot, discord.AutoShardedClient):
        shards = list(bot.shards.values())
        return bool(shards) and not any(shard.is_closed() for shard in shards)
    ws = bot.ws
    return ws is not None and ws.open


def metrics_of(bot: discord.Client) -> Metrics:
    """The bot's :class:`Metrics`. This module never imports the bot (ops sits below the
    Discord layer): it reads what it needs off the client it is given."""
    metrics = getattr(bot, "metrics", None)
    if not isinstance(metrics, Metrics):
        raise TypeError(f"{type(bot).__name__} keeps no Metrics in .metrics")
    return metrics


async def game_counts(bot: discord.Client) -> dict[str, int] | None:
    """Games by status, or None when the database does not answer (or is not open yet)."""
    try:
        service = getattr(bot, "service", None)
    except RuntimeError:  # not set up yet
        return None
    store: Any = getattr(service, "store", None)
    if store is None:
        return None
    global _DOWN
    try:
        counts: dict[str, int] = await asyncio.wait_for(store.count_games(), DB_TIMEOUT)
    except TimeoutError:  # this wait's own timeout: the database did not answer in time
        _health_down(f"no answer in {DB_TIMEOUT:g} s")
        return None
    except Exception as exc:
        reason = unreachable(exc)
        if reason is None:
            log.warning("health: the database did not answer", exc_info=True)
        else:
            _health_down(reason)
        return None
    if _DOWN:
        log.warning("health: the database answers again")
        _DOWN = False
    return counts


#: Whether the health poll last found the database out of reach (so an outage is one line,
#: however often ``/healthz`` is polled during it).
_DOWN = False


def _health_down(reason: str) -> None:
    global _DOWN
    if not _DOWN:
        log.warning("health: the database is unreachable (%s)", reason)
    _DOWN = True


class HealthServer:
    """The two endpoints for one bot; ``await start()`` binds, ``await stop()`` releases."""

    def __init__(self, bot: discord.Client, host: str = "127.0.0.1", port: int = 0) -> None:
        self.bot = bot
        self.host = host
        self.port = port
        self._runner: web.AppRunner | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/metrics", self.metrics)
        runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await runner.setup()
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((self.host, self.port))
        except OSError:
            sock.close()
            await runner.cleanup()
            raise
        self.port = sock.getsockname()[1]
        await web.SockSite(runner, sock).start()
        self._runner = runner
        log.info("health and metrics on %s/healthz and /metrics", self.url)

    async def stop(self) -> None:
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    async def healthz(self, request: web.Request) -> web.Response:
        connected = gateway_connected(self.bot)
        games = await game_counts(self.bot)
        ok = connected and games is not None
        body = {
            "status": "ok" if ok else ("starting" if not self.bot.is_ready() else "unhealthy"),
            "gateway": connected,
            "database": games is not None,
            "uptime_s": round(metrics_of(self.bot).uptime, 1),
        }
        return web.Response(
            text=json.dumps(body) + "\n",
            status=200 if ok else 503,
            content_type="application/json",
        )

    async def metrics(self, request: web.Request) -> web.Response:
        body = await render_metrics(self.bot)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})


def _pool_of(bot: discord.Client) -> Any:
    """The bot's render pool (``bot.pictures.pool``), read without importing bot.drawing."""
    return getattr(getattr(bot, "pictures", None), "pool", None)


def _cache_of(bot: discord.Client) -> dict[str, Any]:
    """The game cache's figures (``bot.service.ledger``), read without importing the service."""
    ledger = getattr(getattr(bot, "service", None), "ledger", None)
    if ledger is None:
        return {}
    return {
        "game_loads": dict(ledger.loads),
        "games_cached": ledger.cached_count,
        "game_cache_size": ledger.cache_size,
    }


async def render_metrics(bot: discord.Client) -> bytes:
    """The Prometheus text exposition of everything the bot counts (``prometheus_client``),
    with what is read at scrape time (gateway, games, render pool) read now."""
    m = metrics_of(bot)
    games = await game_counts(bot)
    pool = _pool_of(bot)
    m.scrape = Scrape(
        gateway_connected=gateway_connected(bot),
        gateway_latency=bot.latency if math.isfinite(bot.latency) else math.nan,
        games=games,
        render_queued=int(getattr(pool, "queued", 0) or 0),
        render_drawing=int(getattr(pool, "working", 0) or 0),
        render_stats=dict(getattr(pool, "stats", {}) or {}),
        **_cache_of(bot),
    )
    return bytes(generate_latest(m.registry))


_LABEL = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')


def parse_metrics(text: str) -> dict[str, float]:
    """``name{labels}`` -> value, from the text format (for tests and the soak benchmark),
    the labels in alphabetical order whatever order the client wrote them in:
    ``mexican_train_games{process="all",status="lobby"}``."""
    out: dict[str, float] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            series, _, value = line.rpartition(" ")
            name, brace, labels = series.partition("{")
            if brace:
                pairs = sorted(_LABEL.findall(labels))
                name += "{" + ",".join(f'{k}="{v}"' for k, v in pairs) + "}"
            out[name] = float(value)
    return out
