"""``GET /healthz`` and ``GET /metrics`` on localhost, for Docker, systemd or Prometheus.

``/healthz`` answers 200 ``{"status": "ok", …}`` when the gateway is connected and the
database answers a query, else 503 with what is wrong (``starting`` before the first READY).
``/metrics`` is Prometheus's text format: games by status, interactions by outcome, refusals
by code, errors, interactions running now, latency quantiles over the latest
:data:`~bot.ops.metrics.LATENCY_WINDOW` interactions, gateway latency and uptime.

It binds ``127.0.0.1`` by default: the numbers are not secret but the endpoint is not meant
for the internet. ``python -m bot`` starts it (``MT_HEALTH_PORT``, ``off`` to disable);
tests start it on port 0 and read the port back.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import socket
from typing import Any

import discord
from aiohttp import web

from bot.ops.metrics import LATENCY_WINDOW, Metrics

log = logging.getLogger(__name__)

#: How long /healthz waits for the database before calling it unreachable.
DB_TIMEOUT = 2.0
PREFIX = "mexican_train"
STATUSES = ("lobby", "active", "finished", "abandoned")


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
    try:
        return await asyncio.wait_for(store.count_games(), DB_TIMEOUT)
    except Exception:
        log.warning("health: the database did not answer", exc_info=True)
        return None


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
        text = await render_metrics(self.bot)
        return web.Response(
            body=text.encode(), headers={"Content-Type": "text/plain; version=0.0.4"}
        )


def _number(value: float) -> str:
    if math.isnan(value):
        return "NaN"
    return repr(round(value, 6)) if isinstance(value, float) else str(value)


async def render_metrics(bot: discord.Client) -> str:
    """The Prometheus text exposition of everything the bot counts."""
    m = metrics_of(bot)
    games = await game_counts(bot)
    lines: list[str] = []

    def metric(name: str, kind: str, help_text: str, samples: list[tuple[str, float]]) -> None:
        lines.append(f"# HELP {PREFIX}_{name} {help_text}")
        lines.append(f"# TYPE {PREFIX}_{name} {kind}")
        lines.extend(f"{PREFIX}_{name}{labels} {_number(v)}" for labels, v in samples)

    metric("up", "gauge", "1 while the process serves", [("", 1)])
    metric("uptime_seconds", "gauge", "seconds since the bot started", [("", m.uptime)])
    metric(
        "gateway_connected",
        "gauge",
        "1 when the Discord gateway is connected (every shard)",
        [("", int(gateway_connected(bot)))],
    )
    metric(
        "gateway_latency_seconds",
        "gauge",
        "heartbeat round trip to Discord",
        [("", bot.latency if math.isfinite(bot.latency) else math.nan)],
    )
    metric("database_up", "gauge", "1 when the database answered", [("", int(games is not None))])
    counts = games or {}
    metric(
        "games",
        "gauge",
        "games in the database by status",
        [(f'{{status="{s}"}}', counts.get(s, 0)) for s in STATUSES],
    )
    metric(
        "interactions_total",
        "counter",
        "commands and clicks handled since start",
        [("", m.interactions)],
    )
    metric(
        "interaction_outcomes_total",
        "counter",
        "interactions by outcome",
        [(f'{{outcome="{k}"}}', m.outcomes.get(k, 0)) for k in ("ok", "refused", "error")],
    )
    metric(
        "refusals_total",
        "counter",
        "refused requests by reason code (nothing changed)",
        [(f'{{code="{code}"}}', n) for code, n in sorted(m.refusals.items())],
    )
    metric("errors_total", "counter", "interactions that hit a bug", [("", m.errors)])
    metric("interactions_in_flight", "gauge", "interactions being handled now", [("", m.in_flight)])
    pct = m.latency_percentiles()
    metric(
        "interaction_latency_seconds",
        "summary",
        f"handling time; quantiles over the latest {LATENCY_WINDOW} interactions",
        [
            ('{quantile="0.5"}', pct["p50"]),
            ('{quantile="0.9"}', pct["p90"]),
            ('{quantile="0.99"}', pct["p99"]),
        ],
    )
    lines.append(f"{PREFIX}_interaction_latency_seconds_sum {_number(m.latency_sum)}")
    lines.append(f"{PREFIX}_interaction_latency_seconds_count {m.interactions}")
    return "\n".join(lines) + "\n"


def parse_metrics(text: str) -> dict[str, float]:
    """``name{labels}`` -> value, from the text format (for tests and the soak benchmark)."""
    out: dict[str, float] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            out[name] = float(value)
    return out
