"""The bot as the Discord layer sees it: :class:`GameBot`, the one object the cogs and the
shared machinery are handed.

Everything under ``bot/ui`` and ``bot/cogs`` reaches the game through a ``GameBot`` (the
interaction's client, or the cog's bot): the service, the scheduler's service, the clock, one
posting lock per game, background tasks, and what each persistent button does. The concrete
bot (:class:`bot.app.MexicanTrainBot`) subclasses it and adds start-up; the import points one
way only — ``bot.app`` imports ``bot.ui`` and ``bot.cogs``, never the reverse — so the Discord
layer can be read, and tested, without the start-up code.

The bot's memory of a database outage is here too (``GameBot.outage``, a
:class:`bot.store.outage.Outage` shared with the scheduler and the outbox): the error funnel
asks :func:`bot.store.outage.unreachable` whether a failure is an outage; the first one is
logged at ERROR with its reason, the ones that follow only counted, and the first
interaction begun after it that gets through again closes the outage with one line saying
how long it lasted and how many players were told to try again. The players get one
sentence each, never a traceback. See docs/faults.md.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import time
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from datetime import UTC, datetime
from typing import Any, TypeVar, cast

import discord
from discord.ext import commands
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from bot.config import Config
from bot.ops.metrics import Metrics, note_game, process_label
from bot.service import GameService
from bot.service.errors import Outage
from bot.service.schedule import ScheduleService
from bot.service.turn import Turns
from bot.thinking.pool import Thinker
from bot.ui import limits, tileheal
from bot.ui.hooks import ChannelHooks
from bot.ui.pictures import Pictures
from bot.ui.posts import PostBook
from bot.ui.tileemoji import TileEmojis

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]
#: A sender of requests (the bot token's, or discord.py's webhook adapter's).
_Sender = TypeVar("_Sender", bound=Callable[..., Awaitable[Any]])
#: What a persistent button or select does when clicked: ``(interaction, item)``.
ClickHandler = Callable[[discord.Interaction[Any], Any], Awaitable[None]]


# ---------------------------------------------------------------------- the 3-second budget

#: Discord drops an interaction not acknowledged within 3 s. One that reaches its handler
#: 2 s after it reached the bot has waited behind an overloaded event loop: answering it
#: "busy, try again in a moment" at once still makes the deadline, and not starting its work
#: lets the backlog shrink instead of pushing the next interactions past 3 s. The wait is the
#: bot's own, on its monotonic clock from the gateway event (:class:`Arrivals`): no wall
#: clock, so a host clock set fast or slow changes nothing.
SHED_AFTER = 2.0

#: How many turn posts (the table picture and the message, ``bot.ui.announcer.announce``)
#: are worked on at once: the heavy, unwatched part of a move. The others wait for a slot,
#: parked outside the event loop's ready queue, so under a burst a new interaction's
#: acknowledgement waits behind this many posts' steps, never behind the whole backlog (issue
#: 39). Nothing a person is waiting on at that moment waits for a slot: the acknowledgement
#: and the actor's own answer ("✅") come first, then the post queues (issue 50: a slot held
#: from the acknowledgement to the answer made each answer wait behind every move before it,
#: the mover's answer p50 4.55 s at 1,000 games against 0.61 s without slots). Nor do the
#: computers' choices (the thinking pool is their bound) or the next player's ping, sent
#: after the slot is given back: it waits on Discord's limits, not on work.
WORK_AT_ONCE = 16


#: Stamps older than this are dropped: an interaction is acknowledged within Discord's 3 s or
#: never, so its arrival is not needed for long.
KEEP_FOR = 60.0

#: The gateway event discord.py builds interactions from.
EVENT = "INTERACTION_CREATE"

#: Interactions acknowledged with a callback of their own: application commands (2),
#: component clicks (3) and modal submits (5). An autocomplete (4) is its own answer, and
#: a ping (1) never reaches a gateway bot.
ACKNOWLEDGED_TYPES = frozenset({2, 3, 5})

#: Acknowledgements first (issue 50): once acknowledged, an interaction's work waits until
#: every interaction that reached the bot before that moment is acknowledged too, for at
#: most this long after the oldest of them arrived. Under a burst (300 games moving within
#: a fifth of a second) the acknowledgements go out back to back, the bot's loop and
#: Discord's servers see nothing else, and only then do the look-ups, commits and answers
#: run (measured in docs/benchmarks.md, "Acknowledgements first": in a slow burst every leg
#: of an acknowledgement was long, its peers' work running between them). Out of a burst
#: nothing is unacknowledged and nothing waits. The bound keeps an interaction that never
#: says it was acknowledged (one answered outside :func:`bot.ui.interactions.guarded`, or
#: lost) from holding others up for more than a moment; an acknowledgement never waits on
#: work, so nothing can cycle. Half a second: the first burst at 300 games reached the bot
#: over 0.18-0.30 s, and a bound of 0.25 s let its work go before its last moves arrived
#: (their first answers were that run's slowest).
ACKS_FIRST = 0.5

#: A burst is still arriving while :data:`BURST_COUNT` interactions have reached the bot
#: within the last :data:`BURST_WINDOW` seconds: work acknowledged during one waits (within
#: :data:`ACKS_FIRST`) until that is no longer so. Gateway events not read yet do not count
#: as unacknowledged, and a burst's work let go between two of them filled the loop while
#: the rest were still coming: at 300 games the slow runs' first bursts had gaps of 9-11 ms
#: in the fake's stream, the work of the moves before each gap went, and the moves after it
#: waited 30-45 ms (docs/benchmarks.md, "A burst still arriving"). A gap's length alone
#: could not tell: one of 5 ms let the work go mid-burst, while one of 20 ms would hold many
#: moves of a steady stream. Four in 20 ms is a burst a short gap does not end, and at 25
#: moves a second (300 games) it holds about one move in seventy (a Poisson estimate), for
#: less than 20 ms; three would hold one in eleven.
BURST_COUNT = 4
BURST_WINDOW = 0.02


class Arrivals:
    """When each interaction's gateway event reached the bot (``time.monotonic``), by id:
    how long an interaction has waited in this bot (:data:`SHED_AFTER`).

    The bot cannot read an interaction's age from Discord reliably: its id carries Discord's
    time, and comparing it with the host's clock charges the host's offset to the interaction
    (a clock 2 s fast would make every fresh interaction look late, and the bot would answer
    them all "busy"). What the bot can measure exactly is how long the interaction has been
    in its hands: from the moment its gateway event was read (:meth:`install` stamps it,
    before discord.py builds the ``Interaction``) to now, on ``time.monotonic`` — no wall
    clock, no offset. The network's share before that is Discord's, and small beside the
    3 s; the wait that grows under load, behind an event loop busy with game work, is the one
    counted here."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._seen: dict[int, float] = {}  # in arrival order (ids and times grow together)
        #: How long work waits for the acknowledgements before it, at most (:data:`ACKS_FIRST`).
        self.acks_first = ACKS_FIRST
        #: The interactions not acknowledged yet, by id, with their arrival (in that order).
        self._unacknowledged: dict[int, float] = {}
        #: Work waiting for the acknowledgements before it (:meth:`acknowledgements_first`):
        #: (the moment it began waiting, its future), in that order.
        self._waiting: collections.deque[tuple[float, asyncio.Future[None]]] = collections.deque()
        #: Told True when an acknowledgement becomes owed (none was), False when none is any
        #: more: none was left unacknowledged, or the owed ones aged past :attr:`acks_first`
        #: (a timer expires them, so one never acknowledged cannot keep it True). The serving
        #: bot's collector makes no pass meanwhile (:func:`bot.ops.collector.keep`).
        self.owing: Callable[[bool], None] | None = None
        self.burst_window = BURST_WINDOW
        #: The latest arrivals of interactions with a callback (:meth:`bursting`).
        self._recent: collections.deque[float] = collections.deque(maxlen=BURST_COUNT)
        self._release_at: asyncio.TimerHandle | None = None
        self._owed = False
        self._lapse_at: asyncio.TimerHandle | None = None

    def install(self, parsers: dict[str, Callable[[Any], None]]) -> None:
        """Stamp every INTERACTION_CREATE before discord.py's own parser handles it
        (``ConnectionState.parsers``: the gateway reads its handlers from that dict). That
        dict is discord.py's inside, not its API: a release without the handler leaves the
        stamps off (every interaction then counts as fresh: nothing is answered "busy") rather
        than stopping the bot at start-up."""
        parse = parsers.get(EVENT)
        if parse is None:
            log.warning("discord.py has no %s parser: interactions are not timed", EVENT)
            return

        def stamped(data: Any) -> None:
            self.arrived(int(data["id"]), acknowledges=data.get("type") in ACKNOWLEDGED_TYPES)
            parse(data)

        parsers[EVENT] = stamped

    def arrived(self, interaction_id: int, *, acknowledges: bool = False) -> None:
        """An interaction's gateway event was read; ``acknowledges``: it needs a callback of
        its own, and the work already acknowledged waits for it (:data:`ACKS_FIRST`)."""
        now = self.clock()
        self._seen[interaction_id] = now
        if acknowledges:
            self._unacknowledged[interaction_id] = now
            self._recent.append(now)
            self._tell_owing()
        # Drop the stale ones from the front (the oldest first): amortised O(1) per event.
        while self._seen:
            old = next(iter(self._seen))
            if now - self._seen[old] <= KEEP_FOR:
                break
            del self._seen[old]

    def acknowledged(self, interaction_id: int) -> None:
        """The interaction has its first answer (or will never have one): the work waiting
        for it may go on once the ones before it are acknowledged too. Let go on the loop's
        next turn, not now: the task acknowledging may be about to wait itself
        (:meth:`acknowledgements_first`), and it must queue behind the work it releases."""
        if self._unacknowledged.pop(interaction_id, None) is not None:
            self._tell_owing()
            if self._waiting:
                asyncio.get_running_loop().call_soon(self._release)

    async def acknowledgements_first(self) -> None:
        """Wait until every interaction that reached the bot before now is acknowledged and
        no burst is still arriving (:meth:`bursting`), or :attr:`acks_first` seconds after
        the oldest of them arrived (or after now, when only a burst holds it back:
        :data:`ACKS_FIRST`). Later arrivals hold it only as part of a burst, and only that
        long, so a steady stream cannot hold anyone back. The work waiting goes on in the
        order it began to wait, this one after them: two clicks on one table a moment apart
        are still taken first come, first served."""
        limit = self.acks_first
        self._expire(limit)
        if not self._unacknowledged and not self._waiting and not self.bursting():
            return
        began = self.clock()
        waiting = asyncio.get_running_loop().create_future()
        self._waiting.append((began, waiting))
        self._release()
        if waiting.done():  # let go at once: the work let go before it resumes first
            await asyncio.sleep(0)
            return
        oldest = next(iter(self._unacknowledged.values()), began)
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(max(0.0, oldest + limit - began)):
                await waiting
        self._expire(limit)

    def _expire(self, limit: float) -> None:
        """Forget the unacknowledged interactions older than ``limit``: nothing waits longer
        (each wait also ends by itself at that bound)."""
        now = self.clock()
        while self._unacknowledged:
            first = next(iter(self._unacknowledged))
            if now - self._unacknowledged[first] <= limit:
                break
            del self._unacknowledged[first]
        self._tell_owing()

    def _tell_owing(self) -> None:
        """Tell :attr:`owing` when acknowledgements start or stop being owed; while they are,
        a timer set for when the oldest is :attr:`acks_first` old expires it then."""
        if self.owing is None:
            return
        owed = bool(self._unacknowledged)
        if owed and self._lapse_at is None:
            oldest = next(iter(self._unacknowledged.values()))
            self._lapse_at = asyncio.get_running_loop().call_later(
                max(0.0, oldest + self.acks_first - self.clock()), self._lapse
            )
        elif not owed and self._lapse_at is not None:
            self._lapse_at.cancel()
            self._lapse_at = None
        if owed != self._owed:
            self._owed = owed
            self.owing(owed)

    def _lapse(self) -> None:
        self._lapse_at = None
        self._expire(self.acks_first)  # sets the next timer if younger ones are still owed

    def _release(self) -> None:
        """Let go the work whose wait began before the oldest unacknowledged interaction
        arrived: all it waited for is acknowledged. One pass from the front, in order (each
        resumes in the order let go), so a burst of n acknowledgements costs O(n), not a
        wake-up of every waiter each time."""
        if self._release_at is not None:
            self._release_at.cancel()
            self._release_at = None
        if self._waiting and self.bursting():  # again once the burst has thinned out
            wait = self._recent[0] + self.burst_window - self.clock()
            self._release_at = asyncio.get_running_loop().call_later(wait, self._release)
            return
        oldest = next(iter(self._unacknowledged.values()), float("inf"))
        while self._waiting and self._waiting[0][0] < oldest:
            _, waiting = self._waiting.popleft()
            if not waiting.done():
                waiting.set_result(None)

    def bursting(self) -> bool:
        """Whether a burst is still arriving: the last :data:`BURST_COUNT` interactions all
        came within the last :attr:`burst_window` seconds."""
        recent = self._recent
        return len(recent) == recent.maxlen and self.clock() - recent[0] < self.burst_window

    def waited(self, interaction_id: int) -> float | None:
        """Seconds since the interaction reached the bot; None if its arrival was not seen
        (built outside the gateway, or older than :data:`KEEP_FOR`)."""
        at = self._seen.get(interaction_id)
        return None if at is None else self.clock() - at


# ---------------------------------------------------------------------- the bot


def utc_now() -> datetime:
    return datetime.now(UTC)


class GameBot(commands.Bot):
    """A ``commands.Bot`` that serves games: see the module's docstring."""

    def __init__(self, config: Config, *, clock: Clock | None = None, **options: Any) -> None:
        super().__init__(**options)
        self.config = config
        self.now: Clock = clock or utc_now
        #: What ``/metrics`` reports and graceful shutdown waits on (bot/ops).
        self.metrics = Metrics(process=process_label(config))
        #: This process's share of Discord's global limit: every bot-token request waits its
        #: turn here (interaction answers and followups do not count, and do not wait).
        self.budget = limits.RequestBudget(config.request_rate)
        limits.install(self, self.budget, on_wait=self.metrics.rate_limit_wait)
        #: The render pool (``MT_RENDER_WORKERS``): started in setup_hook, closed at shutdown.
        self.pictures = Pictures(config.render_workers, metrics=self.metrics)
        #: The computer players' thinking pool (``MT_THINK_WORKERS``): started in setup_hook,
        #: closed at shutdown; the game service's chooser.
        self.thinker = Thinker(config.think_workers, on_decision=self.metrics.decision)
        #: Persistent item class -> what a click does (set by the cog that owns the feature).
        self.click_handlers: dict[type[Any], ClickHandler] = {}
        #: The latest table post per game and the hand messages of the round (the announcer's).
        self.posts = PostBook(self._record_tables)
        #: The bot's webhook in each channel, for turn posts off the global limit (optional).
        self.hooks = ChannelHooks(self)
        #: The tiles' application emojis, once known (bot/ui/tileemoji.py; empty: text only).
        self.tile_emojis = TileEmojis()
        #: Both senders, healed of a tile emoji deleted while the bot runs (bot/ui/tileheal.py):
        #: the bot token's requests here, and discord.py's webhook adapter (interaction
        #: answers, followups, the channel webhook), this bot's own from :meth:`login` on.
        self.http.request = healed(self.http.request, self.tile_emojis)  # type: ignore[method-assign]
        self.webhook_adapter = AsyncWebhookAdapter()  # type: ignore[no-untyped-call]
        adapter = self.webhook_adapter
        adapter.request = healed(adapter.request, self.tile_emojis)  # type: ignore[method-assign]
        #: Whether the game database is unreachable now (logged once per outage).
        self.outage = Outage(log)
        #: Each server's chosen language for channel messages (``/mt-admin settings language:``),
        #: by guild id: every table message needs it, so it is read at start-up, not per
        #: message (:mod:`bot.ui.language`).
        self.languages: dict[int, str] = {}
        #: An interaction this old (seconds since Discord made it) when its handler starts is
        #: answered "busy" instead of handled (``bot.ui.interactions.guarded``).
        self.shed_after = SHED_AFTER
        #: When each interaction reached the bot, for its wait (stamped by the gateway parser).
        self.arrivals = Arrivals()
        self.arrivals.install(self._connection.parsers)
        #: Turn posts being worked on now (:data:`WORK_AT_ONCE`).
        self.working = asyncio.Semaphore(WORK_AT_ONCE)
        self._service: GameService | None = None
        self._schedule: ScheduleService | None = None
        self._turns: Turns | None = None
        self._game_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        self._background: set[asyncio.Task[None]] = set()
        #: DM channels are opened one at a time: the route has one bucket for the whole bot,
        #: and discord.py learns it is empty only from an answer, after sending the others.
        self.dm_opening = asyncio.Lock()
        #: Pauses before each new try of a DM Discord refused as too fast (bot.ui.dmlater;
        #: tests shorten them).
        self.dm_retry_delays: tuple[float, ...] = (60.0, 300.0, 900.0, 3600.0)

    async def login(self, token: str) -> None:
        """discord.py finds its webhook adapter in a context variable, read by every
        interaction answer and webhook post: set here, before ``setup_hook`` and the
        gateway's tasks, which inherit it, so this bot's own (healed) adapter is theirs."""
        async_context.set(self.webhook_adapter)
        await super().login(token)

    # ------------------------------------------------------------------ the services

    def attach(self, service: GameService, schedule: ScheduleService) -> None:
        """Serve games from ``service`` (start-up, before the cogs load)."""
        self._service, self._schedule = service, schedule
        self._turns = Turns(service, schedule)

    def detach(self) -> None:
        self._service = self._schedule = self._turns = None

    async def _record_tables(self, rows: list[tuple[int, str, int, int]]) -> None:
        """The post book's batch of new table posts, written to the database."""
        await self.schedule.record_messages(rows, self.now())

    @property
    def service(self) -> GameService:
        if self._service is None:
            raise RuntimeError("the bot has not been set up yet (setup_hook opens the store)")
        return self._service

    @property
    def schedule(self) -> ScheduleService:
        """Deadlines, reminders, away players and stalled games (:mod:`bot.service.schedule`)."""
        if self._schedule is None:
            raise RuntimeError("the bot has not been set up yet (setup_hook opens the store)")
        return self._schedule

    @property
    def turns(self) -> Turns:
        """A player's turn up to the next present human (:mod:`bot.service.turn`)."""
        if self._turns is None:
            raise RuntimeError("the bot has not been set up yet (setup_hook opens the store)")
        return self._turns

    # ------------------------------------------------------------------ ordering and tasks

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

    def games_busy(self) -> int:
        """Games whose move-and-post is running now (graceful shutdown waits for them)."""
        return sum(1 for lock in list(self._game_locks.values()) if lock.locked())

    def spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        """Run ``coro`` in the background; cancelled when the bot closes."""
        # Named after the coroutine (``MexicanTrainBot._resume_games``), for the log below.
        name = getattr(coro, "__qualname__", None)
        task: asyncio.Task[None] = asyncio.create_task(coro, name=name)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        task.add_done_callback(_log_failure)

    def cancel_background(self) -> None:
        for task in list(self._background):
            task.cancel()

    # ------------------------------------------------------------------ commands

    async def sync_commands(self) -> list[str]:
        """Push the commands: globally, and instantly to ``MT_DEV_GUILD`` if set."""
        done = [f"{len(await self.tree.sync())} global"]
        if self.config.dev_guild is not None:
            guild = discord.Object(self.config.dev_guild)
            self.tree.copy_global_to(guild=guild)
            done.append(f"{len(await self.tree.sync(guild=guild))} in guild {guild.id}")
        log.info("synced commands: %s", ", ".join(done))
        return done


def healed(send: _Sender, emojis: TileEmojis) -> _Sender:
    """``send`` (a sender of requests), with a refusal of a tile emoji deleted while the bot
    runs answered by :func:`bot.ui.tileheal.resend` (the same request once more without the
    emojis). Here, not there, because it runs on every request: a move's path stays within
    its modules."""

    async def request(*args: Any, **kwargs: Any) -> Any:
        try:
            return await send(*args, **kwargs)
        except discord.HTTPException as exc:
            if exc.code != tileheal.INVALID_FORM:
                raise
            return await tileheal.resend(send, args, kwargs, exc, emojis)

    return cast("_Sender", request)


def _log_failure(task: asyncio.Task[None]) -> None:
    """A background task that raised is logged when it ends, with its traceback and name:
    nobody awaits it, so otherwise asyncio only says so when the task is garbage-collected,
    some time later and without saying which of our jobs it was."""
    if task.cancelled():
        return
    error = task.exception()  # retrieved here, so asyncio does not report it a second time
    if error is not None:
        log.error("background task %s failed", task.get_name(), exc_info=error)
