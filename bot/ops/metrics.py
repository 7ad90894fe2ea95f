"""What the bot counts about itself, for ``/metrics`` (Prometheus) and ``/healthz``, and the
one record per interaction that feeds it and writes the interaction's log line.

One :class:`Metrics` per bot, each with its own ``prometheus_client`` registry (tests run
several bots in one process). It is fed as things happen: once per interaction by its
:class:`InteractionRecord` (:func:`track`: outcome, refusal code, latency into a histogram;
the same record logs the interaction's one line, see :mod:`bot.ops.logs`), once per picture
by :class:`bot.ui.pictures.Pictures` (drawing time, or a fallback to text), once per computer
decision by the thinking pool (:meth:`Metrics.decision`), and by whatever waits on a Discord
rate limit (:meth:`Metrics.rate_limit_wait`). What is read rather than
counted — the gateway, the games in the database, the render pool's queue and counters — is
collected at scrape time from the :class:`Scrape` that ``/metrics`` hands over
(:mod:`bot.ops.health`). Histograms, not quantiles computed here: Prometheus adds buckets up
across processes and over any window, which precomputed quantiles cannot do.

Every series carries a ``process`` label (:func:`process_label`): the shards this process
runs in a cluster (``0,1``), ``all`` when it runs every shard; so the processes of a cluster
stay apart in a query even when they are scraped through one address.

The in-process figures (``interactions``, ``outcomes``, ``refusals``, ``errors``, the latency
window and :meth:`Metrics.latency_percentiles`) stay for the SIGTERM drain, the soak benchmark
and tests. Everything runs on the event loop, so no locks.
"""

from __future__ import annotations

import asyncio
import collections
import contextvars
import dataclasses
import json
import logging
import math
import time
from collections.abc import Callable, Iterable, Mapping
from types import TracebackType
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram, disable_created_metrics
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from bot.config import Config
from bot.digits import read_id

# The ``_created`` series (one timestamp per counter) double every counter's lines for
# nothing a dashboard of this bot reads.
disable_created_metrics()  # type: ignore[no-untyped-call]

PREFIX = "mexican_train"
#: Latency percentiles (in-process only) are over the latest this many interactions.
LATENCY_WINDOW = 1000
#: Game statuses, each a ``games`` series even at zero.
STATUSES = ("lobby", "active", "finished", "abandoned")
#: Interaction handling time: Discord wants an answer within 3 s, hence a 3 s bucket.
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
#: An interaction's age when the bot acknowledged it: Discord drops it past 3 s, and the bot
#: answers "busy" past 2 s (``SHED_AFTER``), hence the fine buckets up to 3 s.
ACK_BUCKETS = (0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0)
#: A table takes ~0.1 s to draw, a replay GIF seconds.
PICTURE_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
#: A computer decision: Easy and Normal well under a millisecond, Hard milliseconds, the
#: Expert up to its 0.8 s CPU budget (issue 35: p99 <= 1 s); a worker's wall-clock limit is
#: 10 s, and the wall time adds the wait for a free worker.
DECISION_BUCKETS = (
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 0.8, 1.0, 2.0, 5.0, 10.0, 30.0
)  # fmt: skip
#: Discord's rate limits reset within seconds; a global one may last a minute.
RATE_LIMIT_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
#: The render pool's ``stats`` keys that leave the process, and as what.
POOL_FAILURES = ("failed", "timed_out", "crashed")
#: How the game cache served a load (see ``bot.service.commit.Ledger.loads``).
GAME_READS = ("hit", "tail", "whole")


def percentile(ordered: list[float], q: float) -> float:
    """The nearest-rank ``q`` quantile (0 < q <= 1) of an already sorted list (0 if empty)."""
    if not ordered:
        return 0.0
    rank = max(1, min(len(ordered), math.ceil(round(q * len(ordered), 9))))
    return ordered[rank - 1]


def process_label(config: Config) -> str:
    """The ``process`` label: the shards this process runs when other processes run the
    rest (``MT_SHARD_IDS``), else ``all``."""
    if config.clustered and config.shard_ids is not None:
        return ",".join(str(shard) for shard in config.shard_ids)
    return "all"


@dataclasses.dataclass(frozen=True, slots=True)
class Scrape:
    """What ``/metrics`` reads off the bot at scrape time (ops never imports the bot)."""

    gateway_connected: bool = False
    #: Heartbeat round trip in seconds; NaN before the first heartbeat.
    gateway_latency: float = math.nan
    #: Games by status; None when the database did not answer.
    games: Mapping[str, int] | None = None
    #: Pictures waiting for a render worker, and being drawn now.
    render_queued: int = 0
    render_drawing: int = 0
    #: The render pool's cumulative counters (``WorkerPool.stats`` of the render pool).
    render_stats: Mapping[str, int] = dataclasses.field(default_factory=dict)
    #: The game cache's cumulative loads by read (``Ledger.loads``: hit, tail, whole), and
    #: how many games it holds now and at most (``MT_GAME_CACHE``).
    game_loads: Mapping[str, int] = dataclasses.field(default_factory=dict)
    games_cached: int = 0
    game_cache_size: int = 0


class _ScrapeCollector(Collector):
    """The series read at scrape time, from the latest :class:`Scrape`."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def describe(self) -> Iterable[Metric]:
        return []  # nothing to check for clashes at registration: the names are fixed here

    def collect(self) -> Iterable[Metric]:
        m = self.metrics
        s = m.scrape
        label = [m.process]

        def gauge(name: str, text: str, value: float) -> GaugeMetricFamily:
            family = GaugeMetricFamily(f"{PREFIX}_{name}", text, labels=["process"])
            family.add_metric(label, value)
            return family

        yield gauge("up", "1 while the process serves", 1)
        yield gauge("uptime_seconds", "seconds since the bot started", m.uptime)
        yield gauge(
            "gateway_connected",
            "1 when the Discord gateway is connected (every shard)",
            int(s.gateway_connected),
        )
        yield gauge("gateway_latency_seconds", "heartbeat round trip to Discord", s.gateway_latency)
        yield gauge("database_up", "1 when the database answered", int(s.games is not None))
        games = GaugeMetricFamily(
            f"{PREFIX}_games", "games in the database by status", labels=["process", "status"]
        )
        for status in STATUSES:
            games.add_metric([m.process, status], (s.games or {}).get(status, 0))
        yield games
        yield gauge("interactions_in_flight", "interactions being handled now", m.in_flight)
        yield gauge("render_queue", "pictures waiting for a render worker", s.render_queued)
        yield gauge("render_drawing", "pictures being drawn now", s.render_drawing)

        def counter(name: str, text: str, value: float) -> CounterMetricFamily:
            family = CounterMetricFamily(f"{PREFIX}_{name}", text, labels=["process"])
            family.add_metric(label, value)
            return family

        stats = s.render_stats
        yield counter(
            "render_superseded",
            "tables not drawn because a newer table of the same channel replaced them",
            stats.get("superseded", 0),
        )
        yield counter(
            "render_worker_restarts",
            "render worker processes replaced after a crash or an overrun",
            stats.get("restarts", 0),
        )
        failures = CounterMetricFamily(
            f"{PREFIX}_render_failures",
            "pictures a worker could not draw, by reason",
            labels=["process", "reason"],
        )
        for reason in POOL_FAILURES:
            failures.add_metric([m.process, reason], stats.get(reason, 0))
        yield failures
        loads = CounterMetricFamily(
            f"{PREFIX}_game_loads",
            "games the service used: from the cache (hit), read from the current round's "
            "snapshot (tail) or from the whole log (whole)",
            labels=["process", "read"],
        )
        for read in GAME_READS:
            loads.add_metric([m.process, read], s.game_loads.get(read, 0))
        yield loads
        yield gauge("games_cached", "games kept replayed in memory now", s.games_cached)
        yield gauge(
            "game_cache_size", "games the cache holds at most (MT_GAME_CACHE)", s.game_cache_size
        )


class Metrics:
    """The bot's counters, histograms and latency window; see the module's docstring."""

    def __init__(
        self,
        *,
        window: int = LATENCY_WINDOW,
        clock: Callable[[], float] = time.monotonic,
        process: str = "all",
    ) -> None:
        self._clock = clock
        self.started = clock()
        self.process = process
        self.interactions = 0
        self.outcomes: collections.Counter[str] = collections.Counter()
        self.refusals: collections.Counter[str] = collections.Counter()
        self.errors = 0
        self.window: collections.deque[float] = collections.deque(maxlen=window)
        self.in_flight = 0
        self._idle: asyncio.Event | None = None
        #: What ``/metrics`` read off the bot last (set just before each scrape).
        self.scrape = Scrape()
        self.registry = CollectorRegistry()
        p = PREFIX
        self._interactions = Counter(
            f"{p}_interactions", "commands and clicks handled since start", ["process"],
            registry=self.registry,
        )  # fmt: skip
        self._outcomes = Counter(
            f"{p}_interaction_outcomes", "interactions by outcome", ["process", "outcome"],
            registry=self.registry,
        )  # fmt: skip
        self._refusals = Counter(
            f"{p}_refusals", "refused requests by reason code (nothing changed)",
            ["process", "code"], registry=self.registry,
        )  # fmt: skip
        self._errors = Counter(
            f"{p}_errors", "interactions that hit a bug", ["process"], registry=self.registry
        )
        self._latency = Histogram(
            f"{p}_interaction_latency_seconds", "time to handle a command or click",
            ["process"], buckets=LATENCY_BUCKETS, registry=self.registry,
        )  # fmt: skip
        self._acks = Histogram(
            f"{p}_interaction_ack_seconds",
            "an interaction's age (since Discord made it) when the bot acknowledged it; "
            "Discord drops it past 3 s",
            ["process"], buckets=ACK_BUCKETS, registry=self.registry,
        )  # fmt: skip
        self._pictures = Histogram(
            f"{p}_picture_seconds",
            "time to get a picture, from asking the render pool to the PNG (queue included)",
            ["process", "kind"], buckets=PICTURE_BUCKETS, registry=self.registry,
        )  # fmt: skip
        self._fallbacks = Counter(
            f"{p}_picture_fallbacks",
            "pictures that could not be drawn, posted as text instead",
            ["process", "kind"], registry=self.registry,
        )  # fmt: skip
        self._rate_limits = Histogram(
            f"{p}_rate_limit_wait_seconds",
            "time spent waiting on a Discord rate limit before a request, by scope",
            ["process", "scope"], buckets=RATE_LIMIT_BUCKETS, registry=self.registry,
        )  # fmt: skip
        self._decisions = Counter(
            f"{p}_computer_decisions",
            "computer moves chosen, by level and where: worker (a thinking process), inline "
            "(on the event loop: the cheap levels) or fallback (the worker failed: Hard's move)",
            ["process", "level", "where"], registry=self.registry,
        )  # fmt: skip
        self._decision_cpu = Histogram(
            f"{p}_computer_decision_cpu_seconds",
            "CPU time of a computer decision, measured on the thread that made it",
            ["process", "level"], buckets=DECISION_BUCKETS, registry=self.registry,
        )  # fmt: skip
        self._decision_wall = Histogram(
            f"{p}_computer_decision_seconds",
            "wall time of a computer decision as the game waited on it (a worker's queue and "
            "round trip included)",
            ["process", "level"], buckets=DECISION_BUCKETS, registry=self.registry,
        )  # fmt: skip
        self.registry.register(_ScrapeCollector(self))
        for outcome in ("ok", "refused", "error"):  # every outcome a series from the start
            self._outcomes.labels(process, outcome)
        self._interactions.labels(process)
        self._errors.labels(process)
        self._latency.labels(process)
        self._acks.labels(process)

    @property
    def uptime(self) -> float:
        return self._clock() - self.started

    def begin(self) -> None:
        self.in_flight += 1

    def end(self, outcome: str, seconds: float) -> None:
        """One interaction finished: ``ok``, ``refused:<code>`` or ``error``."""
        self.in_flight -= 1
        self.interactions += 1
        kind, _, code = outcome.partition(":")
        self.outcomes[kind] += 1
        self._interactions.labels(self.process).inc()
        self._outcomes.labels(self.process, kind).inc()
        if kind == "refused":
            self.refusals[code or "unknown"] += 1
            self._refusals.labels(self.process, code or "unknown").inc()
        elif kind == "error":
            self.errors += 1
            self._errors.labels(self.process).inc()
        self.window.append(seconds)
        self._latency.labels(self.process).observe(seconds)
        if self.in_flight == 0 and self._idle is not None:
            self._idle.set()

    def acknowledged(self, seconds: float) -> None:
        """An interaction was acknowledged (deferred, or answered "busy") ``seconds`` after
        Discord made it."""
        self._acks.labels(self.process).observe(max(0.0, seconds))

    def picture(self, kind: str, seconds: float) -> None:
        """A picture (``table``, ``hand``, ``replay``, ``chart``) came back after ``seconds``."""
        self._pictures.labels(self.process, kind).observe(seconds)

    def picture_fallback(self, kind: str) -> None:
        """A picture could not be drawn: its message went out as text."""
        self._fallbacks.labels(self.process, kind).inc()

    def decision(self, level: str, where: str, cpu: float, wall: float) -> None:
        """A computer player of ``level`` chose a move (``where``: ``worker``, ``inline`` or
        ``fallback``) in ``cpu`` CPU seconds, the game waiting ``wall`` seconds for it."""
        self._decisions.labels(self.process, level, where).inc()
        self._decision_cpu.labels(self.process, level).observe(max(0.0, cpu))
        self._decision_wall.labels(self.process, level).observe(max(0.0, wall))

    def rate_limit_wait(self, scope: str, seconds: float) -> None:
        """A request waited ``seconds`` on a Discord rate limit before it was sent.

        ``scope`` names the limit — keep it to a handful of values (``global``, ``channel``,
        ``interaction``, ``dm``…), never an id: each value is a series of its own.
        """
        self._rate_limits.labels(self.process, scope).observe(max(0.0, seconds))

    def latency_percentiles(self) -> dict[str, float]:
        """p50/p90/p99 in seconds over the window (in-process; /metrics has histograms)."""
        ordered = sorted(self.window)
        quantiles = (("p50", 0.5), ("p90", 0.9), ("p99", 0.99))
        return {name: percentile(ordered, q) for name, q in quantiles}

    async def wait_idle(self, timeout: float) -> bool:
        """Wait until no interaction is running (True) or ``timeout`` passes (False)."""
        if self.in_flight <= 0:
            return True
        self._idle = asyncio.Event()
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            return self.in_flight <= 0
        return True


# ---------------------------------------------------------------------- one interaction


log = logging.getLogger("bot.interactions")

#: The longest ``custom_id`` Discord sends (a longer forged one is cut for the log line).
CUSTOM_ID = 100
#: The fields of an interaction line, in order.
FIELDS = ("game", "user", "command", "outcome", "latency_ms")

_current: contextvars.ContextVar[InteractionRecord | None] = contextvars.ContextVar(
    "mt_interaction", default=None
)


def note_game(game_id: int) -> None:
    """Tell the running interaction (if any) which game it acts on, for its log line."""
    record = _current.get()
    if record is not None and record.game is None:
        record.game = game_id


def command_of(interaction: Any) -> tuple[str, int | None]:
    """The command's name (``mt new``, ``play``) or a button's action (``mt:lobby:join``,
    ``mt:play``), and the game id a button carries in its ``custom_id``."""
    command = getattr(interaction, "command", None)
    if command is not None:
        return str(getattr(command, "qualified_name", command)), None
    data = getattr(interaction, "data", None) or {}
    custom_id = str(data.get("custom_id", "")) if isinstance(data, dict) else ""
    if not custom_id:
        return "unknown", None
    # Any client can send any custom_id (up to 100 characters): only ASCII digits are a
    # number (int("²") raises, int("٣") is 3), and the line quotes the rest (key_values).
    parts = custom_id[:CUSTOM_ID].split(":")
    game = read_id(parts[1]) if len(parts) > 1 and parts[0] == "mt" else None  # mt:<game>:…
    return ":".join(p for p in parts if read_id(p) is None), game


class InteractionRecord:
    """One interaction in progress: ``outcome`` stays ``ok`` unless the funnel says otherwise."""

    def __init__(self, interaction: Any, metrics: Metrics | None) -> None:
        self.command, self.game = command_of(interaction)
        user = getattr(interaction, "user", None)
        self.user: int | None = getattr(user, "id", None)
        self.outcome = "ok"
        self._metrics = metrics
        self._started = 0.0
        self._token: contextvars.Token[InteractionRecord | None] | None = None

    def __enter__(self) -> InteractionRecord:
        self._started = time.perf_counter()
        self._token = _current.set(self)
        if self._metrics is not None:
            self._metrics.begin()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        seconds = time.perf_counter() - self._started
        if error is not None:
            self.outcome = "error"  # cancelled or escaped the funnel
        if self._token is not None:
            _current.reset(self._token)
        if self._metrics is not None:
            self._metrics.end(self.outcome, seconds)
        fields = {
            "game": self.game,
            "user": self.user,
            "command": self.command,
            "outcome": self.outcome,
            "latency_ms": round(seconds * 1000, 1),
        }
        log.info("interaction %s", key_values(fields), extra={"mt_fields": fields})


def track(interaction: Any) -> InteractionRecord:
    """``with track(interaction) as record:`` around one interaction's handling: counts it in
    the client's ``metrics`` (if it has one) and logs its line when it ends."""
    metrics = getattr(interaction.client, "metrics", None)
    return InteractionRecord(interaction, metrics if isinstance(metrics, Metrics) else None)


def key_values(fields: Mapping[str, object]) -> str:
    """``key=value`` pairs on one line; a value with a space, a quote, ``=``, a backslash or
    any control, separator or invisible character (a newline or tab in a forged
    ``custom_id``) is JSON-quoted, every such character escaped: a value never starts a
    line of its own nor reads as another field."""
    out = []
    for key, value in fields.items():
        text = "-" if value is None else str(value)
        if not text or any(c in text for c in ' "=\\') or not text.isprintable():
            text = json.dumps(text)
        out.append(f"{key}={text}")
    return " ".join(out)
