"""End-to-end load: many concurrent games through the fake Discord, our real bot, real SQLite.

Each game has its own channel and players; every player's move goes through Discord as a
person's client sends it (``/play`` with a tile and train, ``/draw``, ``/pass``), chosen from
the legal moves the service reports. We time, per move, from pushing INTERACTION_CREATE to
(a) the bot's first answer (its deferral: what the player waits for before "thinking…"),
(b) the mover's own answer (the "✅"), (c) the turn post appearing in the channel and (d) the
next player's ping (a DM, or a mention) — each timed on its own. A move whose answer or post never
came stops its game there; ``answer_p50_ms_of_tried``/``_p99_`` count it as slower than any
answer (``unanswered_moves``: how many; null when the quantile falls among them), so a bot that
drops part of a burst is not timed on the moves that got through alone. A player moves when the bot
has told them it is their turn, as people do (``--eager``: as soon as the service says so, so
nothing waits for the ping). Prints ONE JSON line.

The fake Discord rate-limits like Discord (``--no-rate-limits`` turns it off): 50 requests per
second per bot token for everything but the interaction endpoints, and per-route buckets (see
tests/fakediscord/README.md). The line says what the moves spent of that budget: requests per
move, global-limited and exempt (in total and per route), DM channel opens per move, the 429s
the bot received by scope, and the violations (requests sent into a bucket Discord had said
was empty), beside moves/s under the limit.

The bot runs in its own process, as in a deployment: this process holds only the fake
Discord and the driver (which reads the legal moves through its own ``GameService`` on the
same SQLite file). So ``bot_cpu_ms_per_move`` is the bot's CPU alone, read from ``/proc``:
its event-loop thread, its other threads (SQLite, ``asyncio.to_thread`` renders) and its
child processes (render workers), split in the JSON line; the harness's own CPU is reported
beside it, not inside it.

The fake Discord still runs in this process, beside the driver (which reads its pings, posts
and requests on every move: out of process, each read would be a round trip of its own). What
that costs the measure is measured instead: this process's stalls — garbage-collector pauses
and any time its event loop did not run, seen by a 5 ms ticker — during which the fake reads
no request and stamps no answer. They are taken off each first answer's time
(``first_answer_*_less_stalls``: what is left is the bot's), and the set-up's objects are
frozen out of the collector (``gc.freeze``) and no pass is made while timed (see below), as
the serving bot keeps its own (``bot/ops/collector.py``).

The bot's own share of the first answer is measured in its process (``bot_ack_*``: from the
interaction's gateway event to its deferral done, as ``/metrics`` counts it), with its event
loop's lateness and its garbage collector's pauses (``bot_loop_lag_*``, ``bot_gc_pause_*``).

While timed, the harness makes no collector pass at all (a burst's minute; not with
``--match`` or ``--gaps realistic``, whose timed part is long) and has read each game's first
mover beforehand: its young passes and the driver's replays stalled the fake for up to 40 ms
in the first burst, a gap in the gateway's stream Discord would not make
(``--harness-as-before`` keeps both as they were; ``harness_rss_growth_mb``: its memory's
growth meanwhile).

Where the slowest 1% of first answers spent their time: the share of it the bot's and the
harness's event-loop threads ran, and waited for a CPU (``slowest_first_answers_*_share``,
from each thread's ``/proc/.../schedstat`` read on the 5 ms ticker; ``timed_*_share`` is the
same over the whole timed part), and when in the run they were sent
(``slowest_first_answers_began_s``: the first and last, in seconds after the first move: a
burst's start, or spread over the run).

``--bot-tree DIR`` runs the bot of another checkout (an older release) under this driver and
this fake Discord, for an A/B of two bots under one harness.

``--match`` plays every game's whole 13-round match, step by step (rounds 1-3, 4-10, 11-12,
13: every game ends a step before any starts the next), reading the bot's CPU between steps:
``bot_cpu_ms_per_move_early`` (rounds 1-3) against ``_late`` (rounds 11-13).

``--gaps realistic`` plays at the players' pace: the games move in steps, every game one move
a step, and between two steps Discord's clock skips a gap drawn like the players' in
``scripts/play_through_fake.py`` (log-normal, median 45 minutes; docs/discord.md). The bot's
process keeps the same clock (``--clock-*``: the fake's start, its monotonic origin, and a
file holding the time skipped), so tokens expire between moves and posts are hours old, as
in real asynchronous play. The line adds ``discord_days``.

    python benchmarks/bot_load.py --games 100 --moves 15
    python benchmarks/bot_load.py --games 20 --moves 15 --gaps realistic
``--computer LEVEL`` seats one computer player of that level at every table (added by the
driver through the service, as the lobby's select would, so a level not offered yet can be
measured); its moves follow the humans' as in any game. The line adds the bot's computer
decisions (``decisions``: by level and where they were made, their CPU time measured where
they ran and the wall time the game waited, p50/p99/max in ms). ``--think-workers`` is the
bot's ``MT_THINK_WORKERS`` (default: its own default, one per CPU at most 2). Their CPU is in
``render_workers_cpu_ms_per_move`` (every child process of the bot).

    python benchmarks/bot_load.py --games 4 --match
    python benchmarks/bot_load.py --games 6 --players 2 --moves 20 --computer expert
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import collections
import contextlib
import datetime
import gc
import json
import logging
import math
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# ``--bot-tree``: the bot's process imports the bot from that checkout instead (an older
# release, say), while the driver and the fake Discord stay this tree's: an A/B of two bots
# under one harness.
sys.path.insert(0, os.environ.get("BOT_LOAD_BOT_TREE") or str(Path(__file__).resolve().parents[1]))

from bot.config import Config
from bot.engine import Play
from bot.engine.ai import Level
from bot.service import GameService
from bot.store import Store
from tests.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser, fake_discord
from tests.fakediscord.clock import DiscordClock
from tests.fakediscord.ratelimit import EXEMPT_ROUTES
from tests.fakediscord.server import API_PREFIX

TICK = os.sysconf("SC_CLK_TCK")


def pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def pct_of_tried(values: list[float], missing: int, q: float) -> float | None:
    """The ``q`` quantile in ms over every move tried, ``missing`` of them never answered
    (slower than any answer): None when the quantile falls among those."""
    tried = len(values) + missing
    if not tried:
        return 0.0
    k = min(tried - 1, int(q * tried))
    ordered = sorted(values)
    return round(ordered[k] * 1000, 2) if k < len(ordered) else None


# ---------------------------------------------------------------------- CPU from /proc


def _stat(path: str) -> list[str] | None:
    """Fields of a /proc stat file after the ``(comm)`` (which may hold spaces)."""
    try:
        with open(path) as f:
            raw = f.read()
    except OSError:
        return None
    return raw[raw.rindex(")") + 2 :].split()


def _schedstat(path: str) -> tuple[float, float] | None:
    """A thread's seconds on a CPU and waiting on a run queue, so far (``schedstat``)."""
    try:
        with open(path) as f:
            ran, waited, _slices = f.read().split()
    except (OSError, ValueError):
        return None
    return int(ran) / 1e9, int(waited) / 1e9


def _cpu(fields: list[str], children: bool = False) -> float:
    # After "(comm)": state=0 ppid=1 ... utime=11 stime=12 cutime=13 cstime=14 (in ticks).
    used = int(fields[11]) + int(fields[12])
    if children:
        used += int(fields[13]) + int(fields[14])
    return used / TICK


@dataclass(frozen=True)
class CpuSample:
    """CPU seconds used so far by the bot process, its main thread and its descendants."""

    process: float
    event_loop: float
    descendants: dict[int, float]

    @classmethod
    def of(cls, pid: int) -> CpuSample:
        own = _stat(f"/proc/{pid}/stat")
        main = _stat(f"/proc/{pid}/task/{pid}/stat")
        if own is None or main is None:
            raise RuntimeError(f"the bot process {pid} is gone")
        parents: dict[int, int] = {}
        for entry in os.listdir("/proc"):
            if entry.isdigit() and (fields := _stat(f"/proc/{entry}/stat")) is not None:
                parents[int(entry)] = int(fields[1])
        tree, frontier = set(), {pid}
        while frontier:
            frontier = {child for child, parent in parents.items() if parent in frontier}
            tree |= frontier
        descendants = {}
        for child in tree:
            if (fields := _stat(f"/proc/{child}/stat")) is not None:
                descendants[child] = _cpu(fields, children=True)
        # The process's cutime covers children it already reaped (a replaced worker).
        return cls(_cpu(own, children=True), _cpu(main), descendants)

    def since(self, before: CpuSample) -> dict[str, float]:
        workers = sum(
            used - before.descendants.get(child, 0.0) for child, used in self.descendants.items()
        )
        process = self.process - before.process
        event_loop = self.event_loop - before.event_loop
        return {
            "event_loop": event_loop,
            "other_threads": max(0.0, process - event_loop),
            "render_workers": workers,
        }


# ---------------------------------------------------------------------- the harness's pauses


class HarnessStalls:
    """When this process (the fake Discord and the driver) was not running its event loop:
    its garbage collector's pauses (``gc.callbacks``) and every other stall a ticker sees
    (it sleeps ``every`` and notes how late it woke). While the harness is stalled the fake
    reads no request and stamps no answer, so a bot answer that arrived during a stall is
    timed late, and requests the bot sent evenly are stamped "at once" after it. The stalls
    are subtracted from each first answer's time (``first_answer_*_less_stalls``), and the
    answers still late after that are the bot's."""

    def __init__(self, every: float = 0.005, threshold: float = 0.005) -> None:
        self.every, self.threshold = every, threshold
        self.gc_pauses: list[float] = []
        self.stalls: list[tuple[float, float]] = []  # (start, end), in time order
        self._gc_started = 0.0
        self.bot_pid: int | None = None
        #: (when, bot loop ran, bot loop waited for a CPU, harness ran, harness waited), the
        #: two event-loop threads' cumulative seconds from ``schedstat`` on each tick.
        self.sched: list[tuple[float, float, float, float, float]] = []

    def _gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
        else:
            self.gc_pauses.append(time.perf_counter() - self._gc_started)

    @contextlib.asynccontextmanager
    async def watching(self) -> Any:
        gc.callbacks.append(self._gc)
        ticker = asyncio.create_task(self._tick())
        try:
            yield self
        finally:
            ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ticker
            gc.callbacks.remove(self._gc)

    async def _tick(self) -> None:
        own = f"/proc/{os.getpid()}/task/{os.getpid()}/schedstat"
        bot = f"/proc/{self.bot_pid}/task/{self.bot_pid}/schedstat" if self.bot_pid else None
        while True:
            due = time.perf_counter() + self.every
            await asyncio.sleep(self.every)
            woke = time.perf_counter()
            if woke - due > self.threshold:
                self.stalls.append((due, woke))
            if bot is not None and (b := _schedstat(bot)) and (h := _schedstat(own)):
                self.sched.append((woke, *b, *h))

    def cpu_shares(self, start: float, end: float) -> tuple[float, float, float, float]:
        """Of ``start``..``end``: the share the bot's loop ran, waited for a CPU, and the
        same for the harness's loop (the nearest ticks around it; zeros when unsampled)."""
        first = bisect.bisect_right(self.sched, (start, 9e9)) - 1
        last = bisect.bisect_left(self.sched, (end, -1.0))
        if first < 0 or last >= len(self.sched) or last <= first:
            return (0.0, 0.0, 0.0, 0.0)
        a, b = self.sched[first], self.sched[last]
        span = b[0] - a[0]
        return tuple((b[i] - a[i]) / span for i in range(1, 5))  # type: ignore[return-value]

    def within(self, start: float, end: float) -> float:
        """Seconds of stall between ``start`` and ``end``."""
        first = bisect.bisect_left(self.stalls, (start - 60.0, 0.0))
        total = 0.0
        for s_start, s_end in self.stalls[first:]:
            if s_start >= end:
                break
            total += max(0.0, min(end, s_end) - max(start, s_start))
        return total

    def figures(self, timings: Timings, elapsed: float) -> dict[str, object]:
        net = [
            first - self.within(started, started + first)
            for first, started in zip(timings.first, timings.first_started, strict=True)
        ]
        stalled = sum(end - start for start, end in self.stalls)
        # The slowest 1% of first answers: was either loop running, or waiting for a CPU?
        slow = sorted(zip(timings.first, timings.first_started, strict=True), reverse=True)
        slow = slow[: max(1, len(slow) // 100)] if slow else []
        shares = [self.cpu_shares(started, started + first) for first, started in slow]
        names = ("bot_loop_ran", "bot_loop_waited_cpu", "harness_ran", "harness_waited_cpu")
        slowest = {
            f"slowest_first_answers_{name}_share": round(statistics.fmean(s[i] for s in shares), 3)
            for i, name in enumerate(names)
            if shares
        }
        if slow:  # when in the run they began (s after the first move): a burst's start?
            begun = min(timings.first_started)
            slowest["slowest_first_answers_began_s"] = [
                round(min(started for _, started in slow) - begun, 2),
                round(max(started for _, started in slow) - begun, 2),
            ]
        whole = self.cpu_shares(self.sched[0][0], self.sched[-1][0]) if self.sched else ()
        slowest |= {
            f"timed_{name}_share": round(v, 3) for name, v in zip(names, whole, strict=False)
        }
        return {
            "harness_gc_pauses": len(self.gc_pauses),
            "harness_gc_pause_ms_total": round(sum(self.gc_pauses) * 1000, 1),
            "harness_gc_pause_ms_max": round(max(self.gc_pauses, default=0.0) * 1000, 1),
            "harness_stalled_share": round(stalled / max(elapsed, 1e-9), 3),
            "harness_stall_ms_max": round(
                max((e - s for s, e in self.stalls), default=0.0) * 1000, 1
            ),
            "first_answer_p99_ms_less_stalls": round(pct(net, 0.99), 2),
            "first_answer_max_ms_less_stalls": round(max(net, default=0.0) * 1000, 2),
            "first_answers_after_3s_less_stalls": sum(1 for t in net if t > 3.0),
            **slowest,
        }


# ---------------------------------------------------------------------- the bot's process


async def serve_bot(args: argparse.Namespace) -> None:
    """The bot alone: connect to the fake at ``--api``/``--gateway``, sync, say "ready" on
    stdout, and run until stdin closes."""
    import discord
    import yarl
    from discord.gateway import DiscordWebSocket
    from discord.http import Route

    from bot.app import create_bot
    from tests.fakediscord.harness import GUILD_READY_TIMEOUT

    logging.getLogger("discord").setLevel(logging.ERROR)
    Route.BASE = args.api
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(args.gateway)
    options: dict[str, object] = {}
    if args.render_workers is not None and "render_workers" in Config.__dataclass_fields__:
        options["render_workers"] = args.render_workers
    if args.game_cache is not None:
        options["game_cache"] = args.game_cache
    if "think_workers" in Config.__dataclass_fields__:  # an older tree has no thinking pool
        options["think_workers"] = args.think_workers  # None: the bot's own default
    config = Config(database=Path(args.database), synchronous=args.synchronous, **options)  # type: ignore[arg-type]
    clock = SharedClock(args) if args.clock_file else None
    bot = create_bot(config, clock=clock, rng=random.Random(1))
    bot._connection.guild_ready_timeout = GUILD_READY_TIMEOUT
    decisions: dict[str, list[tuple[float, float]]] = collections.defaultdict(list)
    thinker = getattr(bot, "thinker", None)
    counted = thinker.on_decision if thinker is not None else None

    def decided(level: str, where: str, cpu: float, wall: float) -> None:
        decisions[f"{level}/{where}"].append((cpu, wall))
        if counted is not None:
            counted(level, where, cpu, wall)

    if thinker is not None:
        thinker.on_decision = decided
    await bot.login("fake-token")
    runner = asyncio.create_task(bot.connect(reconnect=True))
    ready = asyncio.create_task(bot.wait_until_ready())
    await asyncio.wait({ready, runner}, timeout=60, return_when="FIRST_COMPLETED")
    if runner.done():
        runner.result()
    await bot.tree.sync()
    asked = count_pictures(bot)
    try:  # the collector kept as ``python -m bot`` keeps it (an older tree: as it was)
        from bot.ops import collector
    except ImportError:
        pass
    else:
        collector.keep(bot)
    print("ready", flush=True)
    await asyncio.to_thread(sys.stdin.readline)  # the timed moves begin: count from here
    own = BotsOwnWaits(bot)
    asked.clear()
    decisions.clear()
    drawn_before = bot.pictures.pool.stats["drawn"]
    ledger = getattr(bot.service, "ledger", None)  # an older tree counts no game loads
    loads_before = collections.Counter(ledger.loads if ledger is not None else {})
    await asyncio.to_thread(sys.stdin.read)  # until the driver closes our stdin
    own.stop()
    drawn = bot.pictures.pool.stats["drawn"] - drawn_before
    loads = collections.Counter(ledger.loads if ledger is not None else {})
    loads.subtract(loads_before)
    said = {
        "pictures_asked": dict(asked),
        "pictures_drawn": drawn,
        "game_loads": dict(loads),
        "decisions": {key: decision_figures(values) for key, values in decisions.items()},
        "own": own.figures(),
        "ack_stamps": [[key, *stamp] for key, stamp in own.ack_stamps.items()],
    }
    print(json.dumps(said), flush=True)
    await bot.close()
    with contextlib.suppress(asyncio.CancelledError, discord.ConnectionClosed):
        await asyncio.wait_for(runner, 10)


class BotsOwnWaits:
    """The bot's side of the first answer, measured in its process: each acknowledgement's
    wait from the interaction's gateway event to the deferral done (the bot's
    ``interaction_ack_seconds``), its event loop's lateness (a 10 ms ticker) and its garbage
    collector's pauses. The driver's ``first_answer_*`` adds the harness's share (the fake's
    gateway and HTTP in this loaded process); these are the bot's alone."""

    def __init__(self, bot: Any) -> None:
        self.acks: list[float] = []
        self.lags: list[float] = []
        self.gc_pauses: list[float] = []
        self._gc_started = 0.0
        metrics = bot.metrics
        counted = metrics.acknowledged

        def acknowledged(seconds: float) -> None:
            self.acks.append(seconds)
            counted(seconds)

        metrics.acknowledged = acknowledged
        self._split_acks(bot)
        gc.callbacks.append(self._gc)
        self._ticker = asyncio.create_task(self._tick())

    def _split_acks(self, bot: Any) -> None:
        """Stamp each deferral: when the interaction's gateway event was read, when its
        deferral was sent and when the answer came back (``ack_stamps``: the driver splits
        them into the legs, ``ack_leg_*``, against the fake's own stamps), and time its round
        trip (``bot_ack_request_*``: the request sent, the fake Discord's answer in the
        harness's loaded process, the bot's loop reading it back). An older tree without
        :class:`bot.ui.host.Arrivals` is timed on the round trip alone."""
        import discord

        self.ack_requests: list[float] = []
        #: interaction id -> (gateway event read, deferral sent, deferral back), on
        #: ``time.monotonic`` as the fake's stamps are: the driver splits the legs.
        self.ack_stamps: dict[int, tuple[float, float, float]] = {}
        self._original_defer = original = discord.InteractionResponse.defer
        arrivals = getattr(bot, "arrivals", None)
        requests, stamps = self.ack_requests, self.ack_stamps

        async def defer(response: Any, *args: Any, **kwargs: Any) -> Any:
            interaction = response._parent
            waited = None if arrivals is None else arrivals.waited(interaction.id)
            sent = time.monotonic()
            try:
                return await original(response, *args, **kwargs)
            finally:
                back = time.monotonic()
                requests.append(back - sent)
                if waited is not None:
                    stamps[interaction.id] = (sent - waited, sent, back)

        discord.InteractionResponse.defer = defer  # type: ignore[method-assign,assignment]

    def _gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
        else:
            self.gc_pauses.append(time.perf_counter() - self._gc_started)

    async def _tick(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            due = loop.time() + 0.01
            await asyncio.sleep(0.01)
            self.lags.append(loop.time() - due)

    def stop(self) -> None:
        import discord

        discord.InteractionResponse.defer = self._original_defer  # type: ignore[method-assign]
        self._ticker.cancel()
        gc.callbacks.remove(self._gc)

    def figures(self) -> dict[str, float]:
        return {
            "bot_ack_p50_ms": round(pct(self.acks, 0.50), 2),
            "bot_ack_p99_ms": round(pct(self.acks, 0.99), 2),
            "bot_acks_after_3s": sum(1 for a in self.acks if a > 3.0),
            "bot_ack_request_p50_ms": round(pct(self.ack_requests, 0.50), 2),
            "bot_ack_request_p99_ms": round(pct(self.ack_requests, 0.99), 2),
            "bot_loop_lag_p99_ms": round(pct(self.lags, 0.99), 2),
            "bot_loop_lag_max_ms": round(max(self.lags, default=0.0) * 1000, 2),
            "bot_gc_pause_ms_max": round(max(self.gc_pauses, default=0.0) * 1000, 2),
            "bot_gc_pause_ms_total": round(sum(self.gc_pauses) * 1000, 2),
        }


def ack_legs(fake: FakeDiscord, stamps: list[list[float]]) -> dict[str, float]:
    """The first answer in its four legs, p50 and p99 in ms, from the fake's stamps and the
    bot's (both on ``time.monotonic``, one clock for every process on the host): the gateway
    event from the fake to the bot (``ack_leg_gateway``), the bot's wait to send its deferral
    (``ack_leg_bot``), the request reaching the fake's handler (``ack_leg_to_fake``: the
    fake's loop busy with other requests shows here) and the fake's answer read back by the
    bot (``ack_leg_back``). Interactions of the set-up are left out (not timed)."""
    legs: dict[str, list[float]] = {"gateway": [], "bot": [], "to_fake": [], "back": []}
    whole: list[float] = []
    for key, arrived, sent, back in stamps:
        record = fake.interactions.get(int(key))
        if record is None or record.acknowledged_at is None:
            continue
        whole.append(record.acknowledged_at - record.created)
        legs["gateway"].append(arrived - record.created)
        legs["bot"].append(sent - arrived)
        legs["to_fake"].append(record.acknowledged_at - sent)
        legs["back"].append(back - record.acknowledged_at)
    out: dict[str, float] = {}
    for name, values in legs.items():
        out[f"ack_leg_{name}_p50_ms"] = round(pct(values, 0.50), 2)
        out[f"ack_leg_{name}_p99_ms"] = round(pct(values, 0.99), 2)
    out["first_answer_stamped_p50_ms"] = round(pct(whole, 0.50), 2)
    out["first_answer_stamped_p99_ms"] = round(pct(whole, 0.99), 2)
    out["first_answer_stamped_max_ms"] = round(max(whole, default=0.0) * 1000, 2)
    return out


def decision_figures(values: list[tuple[float, float]]) -> dict[str, float]:
    """Computer decisions' count and CPU and wall p50/p99/max in ms."""
    cpu = [c for c, _ in values]
    wall = [w for _, w in values]
    out: dict[str, float] = {"count": len(values)}
    for name, series in (("cpu", cpu), ("wall", wall)):
        out[f"{name}_p50_ms"] = round(pct(series, 0.50), 2)
        out[f"{name}_p99_ms"] = round(pct(series, 0.99), 2)
        out[f"{name}_max_ms"] = round(max(series, default=0.0) * 1000, 2)
    return out


class SharedClock(DiscordClock):
    """The fake's clock, kept in the bot's process: the same start and monotonic origin, and
    the time skipped read from ``--clock-file`` whenever the driver rewrote it."""

    def __init__(self, args: argparse.Namespace) -> None:
        start = datetime.datetime.fromtimestamp(args.clock_start, datetime.UTC)
        super().__init__(args.time_scale, start=start, origin=args.clock_origin)
        self.path = Path(args.clock_file)
        self.seen = 0

    def __call__(self) -> datetime.datetime:
        changed = self.path.stat().st_mtime_ns
        if changed != self.seen:
            self.seen = changed
            self.skipped = float(self.path.read_text() or 0)
        return super().__call__()


def count_pictures(bot: Any) -> collections.Counter[str]:
    """Count the pictures the announcer and the commands ask the render pool for, by kind
    (tables, hands, round ends), to see what a move costs in drawing."""
    asked: collections.Counter[str] = collections.Counter()
    for kind in ("table", "hand", "round_end"):
        method = getattr(bot.pictures, kind)

        async def counted(*args: Any, _kind: str = kind, _method: Any = method, **kw: Any) -> Any:
            asked[_kind] += 1
            return await _method(*args, **kw)

        setattr(bot.pictures, kind, counted)
    return asked


# ---------------------------------------------------------------------- the driver


#: Public messages posted per channel, counted as the fake publishes them (cheaper than
#: reading ``channel.messages()`` after every move).
posts: collections.Counter[int] = collections.Counter()
#: Table messages that never came (per channel): the bot gave up on a request (discord.py
#: stops after five 429s in a row) or failed. That game stops there; the run goes on.
lost: collections.Counter[int] = collections.Counter()
#: What never came, by kind: the table post (or the mover's answer), or the next player's
#: ping (and whether, by then, the turn had come back to the mover: no ping was owed).
lost_what: collections.Counter[str] = collections.Counter()
#: When the last move of the run was answered: with lost table messages the run ends with
#: games waiting ``--wait`` for them, which is not throughput.
last_answer = [0.0]


def count_posts(fake: FakeDiscord) -> None:
    publish = fake._publish

    def counting(event: str, message: FakeMessage) -> None:
        # A move is told by a new public post, or (a draw that leaves the same player to
        # move) by an edit that grows the live turn post: it keeps its buttons, while the
        # edit that quietens the previous post takes them off.
        public = message.visible_to is None and not message.loading
        grown = event == "MESSAGE_UPDATE" and bool(message.buttons)
        if public and (event == "MESSAGE_CREATE" or grown):
            posts[message.channel_id] += 1
        publish(event, message)

    fake._publish = counting  # type: ignore[method-assign]


async def open_table(
    fake: FakeDiscord,
    service: GameService,
    index: int,
    players: int,
    wait: float,
    computer: str | None = None,
) -> tuple[int, FakeChannel, dict[int, FakeUser]]:
    channel = fake.channel(f"table-{index}")
    users = [fake.user(f"p{index}-{i}") for i in range(players)]
    await (await users[0].slash("mt new", channel=channel, preset="standard")).message(wait)
    # The card follows the host's answer, as the command's followup. Imported here, by the
    # driver alone: the served bot of an older tree (``--bot-tree``) has no such helper.
    from tests.e2e.helpers import lobby_card

    lobby = await lobby_card(fake, channel, wait)
    assert lobby is not None
    for user in users[1:]:
        await (await user.click(lobby, label="Join")).message(wait)
    if computer is not None:
        lobby_game = await service.game_in_channel(channel.id)
        assert lobby_game is not None
        await service.add_computer(lobby_game.id, users[0].id, fake.clock(), level=Level(computer))
    await (await users[0].click(lobby, label="Start")).message(wait)
    game = await service.game_in_channel(channel.id)
    assert game is not None
    return game.id, channel, {u.id: u for u in users}


@dataclass
class Timings:
    """Seconds from pushing a move's INTERACTION_CREATE to each thing the people saw."""

    first: list[float] = field(default_factory=list)  # the bot's first answer (deferral)
    first_started: list[float] = field(default_factory=list)  # when each was pushed
    posted: list[float] = field(default_factory=list)  # the turn post in the channel
    answered: list[float] = field(default_factory=list)  # the mover's own answer
    pinged: list[float] = field(default_factory=list)  # the next player's ping
    #: The same, for players pinged before: their DM channel is known (the first DM opens it).
    pinged_again: list[float] = field(default_factory=list)
    told: set[int] = field(default_factory=set)  # players pinged so far
    #: Moves whose answer or post never came (the game stopped there): counted as slower than
    #: any answer in ``answer_*_of_tried``, so a bot that drops part of a burst is not
    #: timed only on the moves that got through.
    unanswered: int = 0


async def settle(fake: FakeDiscord, quiet: float, limit: float = 300.0) -> float:
    """Wait until the bot has sent nothing for ``quiet`` seconds (its set-up's turn posts,
    pictures and hand DMs all out: the DMs alone take 12 s at 300 games under the global
    limit), at most ``limit``; the seconds waited. Without it the timed burst starts while the
    set-up's tail is still drawing and sending, by however much the set-up ran late."""
    started = time.perf_counter()
    seen, still = len(fake.requests), started
    while time.perf_counter() - still < quiet and time.perf_counter() - started < limit:
        await asyncio.sleep(0.05)
        if len(fake.requests) != seen:
            seen, still = len(fake.requests), time.perf_counter()
    return time.perf_counter() - started


async def arrival(started: float, waiting: Awaitable[object]) -> float:
    """Seconds from ``started`` until ``waiting`` is done (each thing timed on its own)."""
    await waiting
    return time.perf_counter() - started


async def play_game(
    fake: FakeDiscord,
    service: GameService,
    table: tuple[int, FakeChannel, dict[int, FakeUser]],
    args: argparse.Namespace,
    timings: Timings,
    rng: random.Random,
    until_round: int | None = None,
) -> int:
    """One game's moves (``until_round``: until the game reaches that 0-based round, or
    ends). A player moves when they have been told it is their turn (their
    ping: a DM or a mention), as a person would; the same player again at once (a draw: they
    are looking). ``--eager``: every player moves as soon as the service says so."""
    game_id, channel, users = table
    done = 0
    last_mover: int | None = None
    for _ in range(args.moves if until_round is None else 1_000_000):
        if until_round is not None:
            summary = await service.game(game_id)
            if summary.round_no is None or summary.round_no >= until_round:
                break
        player = await human_turn(service, game_id, args.wait)
        if player is None or player.user_id is None:
            break
        user = users[player.user_id]
        view = await service.seat_view(game_id, player.user_id)
        move = rng.choice(list(view.legal))
        before = posts[channel.id]
        pings = {u: len(fake.pings_for(users[u])) for u in users}
        started = time.perf_counter()
        if isinstance(move, Play):
            tile, train = str(move).split()
            invocation = await user.slash("play", channel=channel, tile=tile, train=train)
        else:
            invocation = await user.slash(str(move), channel=channel)
        post = fake.wait_for(
            lambda seen=before: posts[channel.id] > seen,  # type: ignore[misc]
            timeout=args.wait,
            what="the table message",
            on=channel,
        )
        try:
            first, posted, answered = await asyncio.gather(
                arrival(started, invocation.answer(timeout=args.wait)),
                arrival(started, post),
                arrival(started, invocation.message(args.wait)),
            )
        except TimeoutError:
            lost[channel.id] += 1
            lost_what["table post or answer"] += 1
            timings.unanswered += 1
            break
        timings.first.append(first)
        timings.first_started.append(started)
        timings.posted.append(posted)
        timings.answered.append(answered)
        last_answer[0] = time.perf_counter()
        done += 1
        last_mover = player.user_id
        if args.eager:  # the next mover is found when the loop comes round
            continue
        nxt = await human_turn(service, game_id, args.wait)
        if nxt is None or nxt.user_id is None or nxt.user_id == last_mover:
            continue
        told = users[nxt.user_id]
        pinged = await ping_or_none(fake, service, game_id, told, pings[told.id], channel, args)
        if pinged is None:  # the turn was played for them (autoplay): no ping was owed
            continue
        if not pinged:
            lost[channel.id] += 1
            lost_what["ping"] += 1
            break
        waited = time.perf_counter() - started
        timings.pinged.append(waited)
        if told.id in timings.told:
            timings.pinged_again.append(waited)
        timings.told.add(told.id)
    return done


async def warm_driver(service: GameService, game_id: int, wait: float) -> None:
    """Read a game's first mover and their legal moves into the driver's own cache before
    the timed moves: the bot dealt the game, so the driver's copy is stale, and replaying 300
    games in the fake's loop as the first burst began was the harness's work, not Discord's
    (``--harness-as-before`` leaves it there)."""
    player = await human_turn(service, game_id, wait)
    if player is not None and player.user_id is not None:
        await service.seat_view(game_id, player.user_id)


async def human_turn(service: GameService, game_id: int, wait: float) -> Any:
    """The player to move once no computer player is (``--computer``: its moves follow the
    human's answer); None when the game is over or the computers are not done in ``wait``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + wait
    while True:
        player = await service.whose_turn(game_id)
        if player is None or player.user_id is not None or loop.time() > deadline:
            return player
        await asyncio.sleep(0.005)


#: ``--match``: each game plays its whole 13-round match in these steps (the 0-based round
#: it stops before), every game through one step before any starts the next, the bot's CPU
#: read between steps: so each step's CPU per move is the bot's at that stage of a match.
MATCH_PHASES = (("rounds_1_3", 3), ("rounds_4_10", 10), ("rounds_11_12", 12), ("round_13", 13))


async def play_match(
    fake: FakeDiscord,
    service: GameService,
    tables: list[tuple[int, FakeChannel, dict[int, FakeUser]]],
    args: argparse.Namespace,
    timings: Timings,
    pid: int,
    phases: dict[str, dict[str, float]],
) -> list[int]:
    """``--match``: every game to the end of its match, step by step (:data:`MATCH_PHASES`),
    noting the moves and the bot's CPU seconds of each step in ``phases``."""
    rngs = [random.Random(i) for i in range(len(tables))]
    counts = [0] * len(tables)
    for name, until in MATCH_PHASES:
        before = CpuSample.of(pid)
        moved = await asyncio.gather(
            *(
                play_game(fake, service, t, args, timings, rngs[i], until_round=until)
                for i, t in enumerate(tables)
            )
        )
        cpu = CpuSample.of(pid).since(before)
        phases[name] = {"moves": sum(moved), **cpu}
        counts = [a + b for a, b in zip(counts, moved, strict=True)]
    return counts


def match_figures(phases: dict[str, dict[str, float]]) -> dict[str, object]:
    """The bot's CPU per move early in a match (rounds 1-3) and late (rounds 11-13, the
    match's end included), and each step's; nothing without ``--match``."""
    if not phases:
        return {}

    def per_move(*names: str) -> float:
        moves = sum(phases[n]["moves"] for n in names)
        used = sum(v for n in names for k, v in phases[n].items() if k != "moves")
        return round(used * 1000 / max(moves, 1), 2)

    early, late = per_move("rounds_1_3"), per_move("rounds_11_12", "round_13")
    return {
        "bot_cpu_ms_per_move_early": early,
        "bot_cpu_ms_per_move_late": late,
        "late_over_early": round(late / max(early, 1e-9), 3),
        "match_steps": {
            name: {"moves": int(step["moves"]), "bot_cpu_ms_per_move": per_move(name)}
            for name, step in phases.items()
        },
    }


async def ping_or_none(
    fake: FakeDiscord,
    service: GameService,
    game_id: int,
    told: FakeUser,
    seen: int,
    channel: FakeChannel,
    args: argparse.Namespace,
) -> bool | None:
    """Wait for ``told``'s ping: True when it came, False when it never did (``--wait``),
    None when no ping was owed after all — their turn was played for them (autoplay: a
    forced draw and pass) before the driver looked, and it is now someone else's. The
    service is asked between one-second waits, since the fake cannot see the turn."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + args.wait
    while True:
        try:
            await fake.wait_for(
                lambda: len(fake.pings_for(told)) > seen,
                timeout=min(1.0, max(deadline - loop.time(), 0.01)),
                what=f"{told.name}'s ping",
                on=[told, channel],  # a DM to them, or a mention in the channel
            )
            return True
        except TimeoutError:
            turn = await service.whose_turn(game_id)
            if turn is None or turn.user_id != told.id:
                return None
            if loop.time() >= deadline:
                return False


async def start_bot(
    fake: FakeDiscord, database: Path, args: argparse.Namespace
) -> asyncio.subprocess.Process:
    command = [
        sys.executable, __file__, "--serve-bot",
        "--api", fake.base_url + API_PREFIX, "--gateway", fake.gateway_url,
        "--database", str(database), "--synchronous", args.synchronous,
    ]  # fmt: skip
    if args.render_workers is not None:
        command += ["--render-workers", str(args.render_workers)]
    if args.gaps == "realistic":
        clock = fake.clock
        assert isinstance(clock, DiscordClock)
        command += [
            "--clock-file", str(clock_file(database)), "--time-scale", str(args.time_scale),
            "--clock-start", str(clock.start.timestamp()), "--clock-origin", str(clock.origin),
        ]  # fmt: skip
    if args.game_cache is not None:
        command += ["--game-cache", str(args.game_cache)]
    if args.think_workers is not None:
        command += ["--think-workers", str(args.think_workers)]
    env, cwd = dict(os.environ), None
    if args.bot_tree:  # its workers (``python -m``) import from the working directory first
        cwd = str(Path(args.bot_tree).resolve())
        env["BOT_LOAD_BOT_TREE"] = cwd
    proc = await asyncio.create_subprocess_exec(
        *command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, env=env, cwd=cwd
    )
    assert proc.stdout is not None
    line = await asyncio.wait_for(proc.stdout.readline(), 120)
    if line.strip() != b"ready":
        raise RuntimeError(f"the bot process did not start (said {line!r})")
    return proc


def clock_file(database: Path) -> Path:
    return database.with_name("discord-clock")


def gap(rng: random.Random, args: argparse.Namespace) -> float:
    """Seconds between two steps: log-normal like the players' (docs/discord.md), capped."""
    minutes = rng.lognormvariate(math.log(args.gap_median), args.gap_sigma)
    return min(minutes * 60, args.gap_max * 3600)


async def play_in_steps(
    fake: FakeDiscord,
    service: GameService,
    tables: list[tuple[int, FakeChannel, dict[int, FakeUser]]],
    args: argparse.Namespace,
    timings: Timings,
    database: Path,
) -> list[int]:
    """``--gaps realistic``: every game one move, then Discord's clock skips a gap (in the
    bot's process too, through the clock file), and again."""
    one = argparse.Namespace(**{**vars(args), "moves": 1})
    rngs = [random.Random(i) for i in range(len(tables))]
    pace = random.Random(len(tables))
    counts = [0] * len(tables)
    live = set(range(len(tables)))
    clock, path = fake.clock, clock_file(database)
    assert isinstance(clock, DiscordClock)
    for _ in range(args.moves):
        moved = await asyncio.gather(
            *(play_game(fake, service, tables[i], one, timings, rngs[i]) for i in sorted(live))
        )
        for i, done in zip(sorted(live), moved, strict=True):
            counts[i] += done
            if not done:
                live.discard(i)
        if not live:
            break
        fake.advance(gap(pace, args))
        path.with_suffix(".new").write_text(repr(clock.skipped))
        path.with_suffix(".new").replace(path)  # whole, never half-written
    return counts


# ---------------------------------------------------------------------- the request budget


def busiest_second(fake: FakeDiscord, since: int) -> int:
    """The most global-limited requests the fake received within any one second (sliding):
    how evenly the bot spent its budget as Discord sees it, jostled on the way."""
    times = [
        r.at
        for r in fake.requests[since:]
        if f"{r.method} {r.route}" not in EXEMPT_ROUTES and r.route is not None
    ]
    most, start = 0, 0
    for end, at in enumerate(times):
        while times[start] <= at - 1.0:
            start += 1
        most = max(most, end - start + 1)
    return most


def budget_figures(before: dict[str, Any], after: dict[str, Any], moves: int) -> dict[str, Any]:
    """What the timed moves spent of Discord's budget (``FakeDiscord.budget_report`` before and
    after them): requests per move, global-limited and exempt, per route too; DM opens per
    move; 429s received by scope; violations."""
    per = 1 / max(moves, 1)
    routes: dict[str, dict[str, float]] = {}
    refused = 0  # 429s answered to global-limited requests: sent, but spent for nothing
    for route, counts in after["routes"].items():
        old = before["routes"].get(route, {})
        spent = {key: value - old.get(key, 0) for key, value in counts.items()}
        if spent["global_limited"]:
            refused += spent["rate_limited"]
        if spent["global_limited"] or spent["exempt"]:
            routes[route] = {
                "global_limited": round(spent["global_limited"] * per, 3),
                "exempt": round(spent["exempt"] * per, 3),
                "429": round(spent["rate_limited"] * per, 3),
            }
    limited = after["global_limited"] - before["global_limited"]
    exempt = after["exempt"] - before["exempt"]
    return {
        "rate_limits": after["enabled"],
        "time_scale": after["time_scale"],
        "requests_per_move": round((limited + exempt) * per, 3),
        "global_limited_per_move": round(limited * per, 3),
        "global_limited_accepted_per_move": round((limited - refused) * per, 3),
        "exempt_per_move": round(exempt * per, 3),
        "dm_opens_per_move": round((after["dm_opens"] - before["dm_opens"]) * per, 3),
        "rate_limited_429s": {
            scope: count - before["rate_limited"][scope]
            for scope, count in after["rate_limited"].items()
        },
        "violations": after["violations"] - before["violations"],
        "routes_per_move": dict(sorted(routes.items(), key=lambda kv: -sum(kv[1].values()))),
    }


async def main(args: argparse.Namespace) -> dict[str, object]:
    logging.getLogger("discord").setLevel(logging.ERROR)
    load_before = os.getloadavg()
    stalls = HarnessStalls()
    with tempfile.TemporaryDirectory() as tmp:
        database = Path(tmp) / "load.sqlite3"
        async with fake_discord(rate_limits=args.rate_limits, time_scale=args.time_scale) as fake:
            clock_file(database).write_text("0")
            proc = await start_bot(fake, database, args)
            store = await Store.open(database, synchronous=args.synchronous)
            service = GameService(store, cache_size=max(args.games, 1))
            try:
                count_posts(fake)
                tables = []
                for start in range(0, args.games, 20):  # open lobbies in batches
                    batch = range(start, min(args.games, start + 20))
                    tables += await asyncio.gather(
                        *(
                            open_table(fake, service, i, args.players, args.wait, args.computer)
                            for i in batch
                        )
                    )
                settled = await settle(fake, args.settle) if args.settle else None
                if not args.harness_as_before:
                    await asyncio.gather(*(warm_driver(service, t[0], args.wait) for t in tables))
                timings = Timings()
                rejected_before = sum(len(r.rejections) for r in fake.interactions.values())
                woken_before = fake.wakeups
                budget_before = fake.budget_report()
                requests_before = len(fake.requests)
                assert proc.stdin is not None
                proc.stdin.write(b"timing\n")
                await proc.stdin.drain()
                # What the set-up made (1,000 games' lobbies, messages, users) is never
                # garbage: frozen, the collector's full passes no longer walk it, so they
                # stop pausing the fake for hundreds of ms (what is left is measured); and
                # the fake, standing in for Discord's servers, makes no pass at all while it
                # is timed (``--harness-as-before``: young ones, as before): its young
                # passes (up to 40 ms at 300 games) stalled the fake mid-burst, and the gap
                # they left in the gateway's stream read as the burst's end to the bot (see
                # ``bot.ui.host.BURST_COUNT``). What it leaves is collected after, and its
                # memory's growth meanwhile reported (``harness_rss_growth_mb``).
                gc.collect()
                gc.freeze()
                gc.set_threshold(2_000, 10, 1_000_000_000)
                gc_off = not (args.harness_as_before or args.match or args.gaps == "realistic")
                if gc_off:
                    gc.disable()  # a burst's minute (a whole match would grow too much)
                rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
                bot_before = CpuSample.of(proc.pid)
                harness_before = time.process_time()
                t0 = time.perf_counter()
                phases: dict[str, dict[str, float]] = {}
                stalls.bot_pid = proc.pid
                async with stalls.watching():
                    if args.gaps == "realistic":
                        counts = await play_in_steps(fake, service, tables, args, timings, database)
                    elif args.match:
                        counts = await play_match(
                            fake, service, tables, args, timings, proc.pid, phases
                        )
                    else:
                        counts = await asyncio.gather(
                            *(
                                play_game(fake, service, t, args, timings, random.Random(i))
                                for i, t in enumerate(tables)
                            )
                        )
                elapsed = time.perf_counter() - t0
                rss_growth = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss_before
                gc.enable()
                bot_cpu = CpuSample.of(proc.pid).since(bot_before)
                harness_cpu = time.process_time() - harness_before
                budget_after = fake.budget_report()
                woken = fake.wakeups - woken_before
                rejected = sum(len(r.rejections) for r in fake.interactions.values())
                rejected -= rejected_before
            finally:
                assert proc.stdin is not None and proc.stdout is not None
                proc.stdin.close()
                said = await asyncio.wait_for(proc.stdout.read(), 30)
                await asyncio.wait_for(proc.wait(), 30)
                await store.close()
                drawing = json.loads(said.splitlines()[-1]) if said.strip() else {}
                legs = ack_legs(fake, drawing.get("ack_stamps", []))
    load_after = os.getloadavg()
    total = sum(counts)
    per_move = 1000 / max(total, 1)
    return {
        "benchmark": "bot_load",
        "games": args.games,
        "players_per_game": args.players,
        "moves": total,
        "seconds": round(elapsed, 3),
        "moves_per_s": round(total / elapsed, 1),
        "moves_per_s_to_last_answer": round(total / max(last_answer[0] - t0, 1e-9), 1),
        "interactions_per_s": round(total / elapsed, 1),
        "first_answer_p50_ms": round(pct(timings.first, 0.50), 2),
        "first_answer_p99_ms": round(pct(timings.first, 0.99), 2),
        "table_message_p50_ms": round(pct(timings.posted, 0.50), 2),
        "table_message_p99_ms": round(pct(timings.posted, 0.99), 2),
        "mean_table_message_ms": (
            round(statistics.fmean(timings.posted) * 1000, 2) if timings.posted else 0
        ),
        "answer_p50_ms": round(pct(timings.answered, 0.50), 2),
        "answer_p99_ms": round(pct(timings.answered, 0.99), 2),
        "unanswered_moves": timings.unanswered,
        "answer_p50_ms_of_tried": pct_of_tried(timings.answered, timings.unanswered, 0.50),
        "answer_p99_ms_of_tried": pct_of_tried(timings.answered, timings.unanswered, 0.99),
        "ping_p50_ms": round(pct(timings.pinged, 0.50), 2),
        "ping_p99_ms": round(pct(timings.pinged, 0.99), 2),
        "ping_again_p50_ms": round(pct(timings.pinged_again, 0.50), 2),
        "ping_again_p99_ms": round(pct(timings.pinged_again, 0.99), 2),
        "players_wait_for_their_ping": not args.eager,
        "bot_cpu_ms_per_move": round(sum(bot_cpu.values()) * per_move, 2),
        "bot_event_loop_cpu_ms_per_move": round(bot_cpu["event_loop"] * per_move, 2),
        "bot_other_threads_cpu_ms_per_move": round(bot_cpu["other_threads"] * per_move, 2),
        "render_workers_cpu_ms_per_move": round(bot_cpu["render_workers"] * per_move, 2),
        "harness_cpu_ms_per_move": round(harness_cpu * per_move, 2),
        "pictures_per_move": {
            kind: round(n / max(total, 1), 3)
            for kind, n in drawing.get("pictures_asked", {}).items()
        },
        "pictures_drawn_per_move": round(drawing.get("pictures_drawn", 0) / max(total, 1), 3),
        # How the bot's game cache served the moves: "tail" is a miss (--game-cache).
        "bot_game_loads": drawing.get("game_loads", {}),
        "harness_wakeups_per_move": round(woken / max(total, 1), 1),
        "first_answers_after_3s": sum(1 for t in timings.first if t > 3.0),
        "first_answer_max_ms": round(max(timings.first, default=0.0) * 1000, 2),
        **stalls.figures(timings, elapsed),
        **match_figures(phases),
        "rejected_answers": rejected,
        "lost_table_posts": sum(lost.values()),
        "lost": dict(lost_what),
        **budget_figures(budget_before, budget_after, total),
        "busiest_second_global_limited": busiest_second(fake, requests_before),
        "global_limited_per_s": round(
            (budget_after["global_limited"] - budget_before["global_limited"]) / elapsed, 1
        ),
        "gaps": args.gaps,
        "discord_days": round((fake.clock() - fake.started).total_seconds() / 86400, 2),
        "synchronous": args.synchronous,
        "render_workers": args.render_workers,
        "computer": args.computer,
        "think_workers": args.think_workers,
        "bot_tree": args.bot_tree,
        "settled_s": None if settled is None else round(settled, 1),
        "harness_as_before": args.harness_as_before,
        "harness_rss_growth_mb": round(rss_growth / 1024, 1),
        "decisions": drawing.get("decisions", {}),
        **drawing.get("own", {}),
        **legs,
        "game_cache": args.game_cache,
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in load_after],
        "cpus": os.cpu_count(),
        "python": sys.version.split()[0],
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--moves", type=int, default=15, help="moves per game")
    parser.add_argument("--synchronous", choices=("NORMAL", "FULL"), default="NORMAL")
    parser.add_argument(
        "--eager", action="store_true",
        help="players move as soon as it is their turn, not when the bot has told them",
    )  # fmt: skip
    parser.add_argument(
        "--wait", type=float, default=120.0,
        help="seconds one answer or table message may take before the run aborts",
    )  # fmt: skip
    parser.add_argument(
        "--render-workers", type=int, default=None,
        help="the bot's MT_RENDER_WORKERS (default: the bot's own default)",
    )  # fmt: skip
    parser.add_argument(
        "--computer", choices=[lv.value for lv in Level], default=None,
        help="seat one computer player of this level at every table (beside --players humans)",
    )  # fmt: skip
    parser.add_argument(
        "--think-workers", type=int, default=None,
        help="the bot's MT_THINK_WORKERS (default: the bot's own default; 0: on its event loop)",
    )  # fmt: skip
    parser.add_argument(
        "--game-cache", type=int, default=None,
        help="the bot's MT_GAME_CACHE (default: the bot's own, 512); below --games, every "
        "move of a game visited in turn is a cache miss",
    )  # fmt: skip
    parser.add_argument(
        "--no-rate-limits", dest="rate_limits", action="store_false",
        help="turn off the fake's Discord rate limits (on by default)",
    )  # fmt: skip
    parser.add_argument(
        "--time-scale", type=float, default=1.0,
        help="run the rate limits' clock N times faster (default 1: real time)",
    )  # fmt: skip
    parser.add_argument(
        "--gaps", choices=("none", "realistic"), default="none",
        help="realistic: every game moves, then minutes to hours pass on Discord's clock",
    )  # fmt: skip
    parser.add_argument(
        "--match", action="store_true",
        help="every game plays its whole match (--moves is ignored); the line adds the bot's "
        "CPU per move early (rounds 1-3) and late (rounds 11-13)",
    )  # fmt: skip
    parser.add_argument(
        "--bot-tree",
        help="run the bot from this checkout (e.g. a git worktree of an older release), "
        "driven by this tree's driver and fake Discord",
    )  # fmt: skip
    parser.add_argument(
        "--harness-as-before",
        action="store_true",
        help="the harness (the fake Discord and the driver) as before issue 50's fourth "
        "session: its young collector passes made while timed, and each game's first mover "
        "read only as its first move starts (default: none made, read beforehand)",
    )
    parser.add_argument(
        "--settle",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="before the timed moves, wait until the bot has sent nothing for this long "
        "(the set-up's posts and hand DMs all out); 0: start at once",
    )
    parser.add_argument("--gap-median", type=float, default=45.0, help="minutes")
    parser.add_argument("--gap-sigma", type=float, default=1.2, help="log-normal spread")
    parser.add_argument("--gap-max", type=float, default=24.0, help="hours")
    parser.add_argument("--clock-file", help=argparse.SUPPRESS)
    parser.add_argument("--clock-start", type=float, help=argparse.SUPPRESS)
    parser.add_argument("--clock-origin", type=float, help=argparse.SUPPRESS)
    parser.add_argument("--serve-bot", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--api", help=argparse.SUPPRESS)
    parser.add_argument("--gateway", help=argparse.SUPPRESS)
    parser.add_argument("--database", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_bot:
        asyncio.run(serve_bot(args))
    else:
        print(json.dumps(asyncio.run(main(args))))
