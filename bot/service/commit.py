"""The one commit path: load a game, lock it, apply a call's moves, write them in one go.

Every use case (lobby, play, undo, the scheduler's turns played for absent players) goes
through a :class:`Ledger`:

* **Load.** A game in memory is a replay of its events (:mod:`bot.service.replay`), kept in a
  bounded LRU cache; before every use the cached copy's ``version`` is compared with the
  database's (one indexed read), so another process's change is never missed, and a copy
  whose write failed is dropped and replayed again.
* **Lock.** Calls on one game take that game's asyncio lock (:meth:`Ledger.locked`), so two
  clicks queue instead of failing; calls on different games do not wait for each other (only
  the commit itself is serialised, by the store's single writer). Across the processes of a
  cluster, every commit first takes the game's lock in the database (:meth:`Ledger.hold`).
* **Commit.** A :class:`Batch` collects the events of one call (a move, the computer players'
  replies, a knock, the next deal), applied to the match in memory; :meth:`Ledger.commit_play`
  appends them in one transaction with the game's new columns, so all of it lands or none of
  it does. Across processes, the version is checked under that lock in the same transaction
  (and the ``(game_id, seq)`` primary key stays as the safety net), so the second of two writers
  that read the same state gets :class:`~bot.service.errors.TableChanged` and nothing of it is
  written.

The guards (``need_lobby``, ``need_host``, ``seated``…) and small value checks here are what
every use case checks before it changes a game.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import json
import logging
import random
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.engine import (
    KNOCK,
    MEXICAN,
    Applied,
    Catch,
    Done,
    Draw,
    Knock,
    Match,
    Move,
    Pass,
    Play,
    RulesError,
    train_name,
    view_for,
)
from bot.engine.ai import Level
from bot.service import computers, errors, outbox, ratings, stats
from bot.service.gameload import complete_events, load_game
from bot.service.outcome import (
    Fact,
    GameSummary,
    MatchEnd,
    Outcome,
    Player,
    RoundEnd,
    Step,
    players_of,
    standings_of,
    summarise,
)
from bot.service.replay import LoadedGame, rounds_json
from bot.store import (
    Conflict,
    GameRow,
    GameStatus,
    NewEvent,
    ResultRow,
    SeatRow,
    Store,
    Tx,
)

log = logging.getLogger(__name__)
#: See :meth:`Ledger.add_commit_hook`.
CommitHook = Callable[[Tx, GameRow, GameRow, tuple[SeatRow, ...], datetime], Awaitable[None]]
CommittedHook = Callable[[int], None]


class Ledger:
    """The games of one :class:`~bot.store.Store`: cached, locked, committed."""

    def __init__(
        self,
        store: Store,
        *,
        cache_size: int = 512,
        rng: random.Random | None = None,
        replacement_level: Level = Level.NORMAL,
        chooser: computers.Chooser | None = None,
    ) -> None:
        """``rng`` shuffles the deals (default: the OS's ``SystemRandom``; tests pass a seeded
        one). ``replacement_level`` plays the seats of players who leave or are kicked.
        ``chooser`` chooses the computer players' moves (default: here, on the event loop)."""
        if cache_size < 1:
            raise ValueError("the game cache holds at least one game")
        self.store = store
        self._cache: collections.OrderedDict[int, LoadedGame] = collections.OrderedDict()
        self.cache_size = cache_size
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self.rng: random.Random = rng if rng is not None else random.SystemRandom()
        self.replacement_level = replacement_level
        self.chooser: computers.Chooser = chooser if chooser is not None else computers.Inline()
        #: Compact a finished match's log in its last move's transaction (event_archive).
        self.compact_finished = True
        self._commit_hooks: list[CommitHook] = []
        self._committed_hooks: list[CommittedHook] = []
        #: Loads by read: ``hit`` (the cache), ``tail`` (the current round, see gameload),
        #: ``whole`` (the log). In ``/metrics``: misses keeping pace with moves mean more
        #: games are live than ``MT_GAME_CACHE`` holds.
        self.loads: collections.Counter[str] = collections.Counter()

    def add_commit_hook(self, hook: CommitHook, committed: CommittedHook | None = None) -> None:
        """Run ``hook(tx, before, after, seats, now)`` inside every move's transaction, after its
        writes (``before``/``after``: the game row before and after; ``seats`` after). Features
        keep their own rows in step with the game this way (the scheduler plans the new turn).
        ``committed(game_id)`` runs once that transaction has committed (what it wrote is
        visible to every reader: the scheduler may look at it now)."""
        self._commit_hooks.append(hook)
        if committed is not None:
            self._committed_hooks.append(committed)

    @staticmethod
    async def hold(tx: Tx, g: LoadedGame) -> None:
        """First thing in a transaction that changes ``g``: take the game's cross-process lock
        (:meth:`Tx.lock_game`), then check under it that nobody changed the game since it was
        read. Another process acting on the same game (the scheduler of another process, a
        player's DM handled by shard 0's process) waits here for this commit, then finds the
        version moved and gets :class:`Conflict`, having written nothing; the append never
        races on the ``(game_id, seq)`` key. A no-op lock on SQLite (one process per file)."""
        await tx.lock_game(g.row.id)
        if await tx.game_version(g.row.id) != g.row.version:
            raise Conflict(f"game {g.row.id} changed since it was read")

    @contextlib.asynccontextmanager
    async def locked(self, game_id: int) -> AsyncIterator[None]:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        async with lock:
            yield

    @contextlib.asynccontextmanager
    async def game(self, game_id: int) -> AsyncIterator[LoadedGame]:
        """A use case's preamble in one line — ``async with ledger.game(game_id) as g:`` —
        the game's lock held and the game loaded (from the cache if current) inside it."""
        async with self.locked(game_id):
            yield await self.get(game_id)

    async def get(self, game_id: int) -> LoadedGame:
        """The game, from the cache if it is still current, else replayed from the store."""
        version = await self.store.version(game_id)
        if version is None:
            raise errors.GameNotFound(f"there is no game #{game_id}", game_id=game_id)
        g = self._cache.get(game_id)
        if g is not None and g.row.version == version:
            self._cache.move_to_end(game_id)
            self.loads["hit"] += 1
            return g
        self._cache.pop(game_id, None)
        g, read = await load_game(self.store, game_id)
        self.loads[read] += 1
        self._cache[game_id] = g
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        return g

    async def complete(self, g: LoadedGame, match: Match | None = None) -> None:
        """Read back what a game loaded from a tail lacks (see :func:`complete_events`)."""
        if await complete_events(self.store, g, match):
            self.loads["whole"] += 1

    @property
    def cached_count(self) -> int:
        return len(self._cache)

    def forget(self, game_id: int) -> None:
        self._cache.pop(game_id, None)

    def cached_game(self, game_id: int) -> LoadedGame | None:
        """The cached copy of a game, if any, whatever its version (for checks, not for use)."""
        return self._cache.get(game_id)

    def cached(self, game_id: int) -> Match | None:
        """The cached match, if any (for tests comparing the cache with a replay)."""
        g = self._cache.get(game_id)
        return None if g is None else g.match

    def clear_cache(self) -> None:
        self._cache.clear()

    def check_room(self, g: LoadedGame) -> None:
        n = len(g.seats) + 1
        try:
            g.rules.check(n)
        except RulesError:
            raise errors.GameFull(len(g.seats)) from None

    def summary(self, g: LoadedGame) -> GameSummary:
        return summarise(g.row, g.seats, g.rules)

    def next_player(self, g: LoadedGame) -> Player | None:
        m = g.match
        if g.row.status is not GameStatus.ACTIVE or m is None or m.current_seat is None:
            return None
        return players_of(g.seats)[m.current_seat]

    def lobby_outcome(self, g: LoadedGame, fact: Fact) -> Outcome:
        return Outcome(self.summary(g), facts=(fact,))

    async def channel_busy(self, channel_id: int) -> errors.ChannelBusy:
        """The refusal for a channel the store found holding an unfinished game already,
        naming that game (0 if it ended in between)."""
        existing = await self.store.unfinished_in_channel(channel_id)
        return errors.ChannelBusy(existing.id if existing else 0)

    async def commit_lobby(
        self,
        g: LoadedGame,
        seats: tuple[SeatRow, ...],
        now: datetime,
        **columns: Any,
    ) -> None:
        """Write a lobby's new seats (renumbered from 0) and columns, then update the cache."""
        seats = tuple(dataclasses.replace(s, seat=i) for i, s in enumerate(seats))
        try:
            async with self.store.transaction() as tx:
                await self.hold(tx, g)
                version = await tx.touch(g.row.id, g.row.version, now, **columns)
                await tx.replace_seats(g.row.id, seats)
        except Conflict:
            self.forget(g.row.id)
            raise errors.TableChanged() from None
        g.row = dataclasses.replace(g.row, version=version, updated_at=now, **columns)
        g.seats = seats

    async def after_move(self, batch: Batch, limit: int | None) -> bool:
        """Knock for computers, then play up to ``limit`` computer turns (None: all), each
        chosen by :attr:`chooser` and awaited under the game's lock (the event loop goes on
        with other games); True if one is left waiting."""
        batch.computer_knocks()
        m = batch.match
        done = 0
        while not m.is_over and m.round is not None and m.round.current_seat is not None:
            seat = m.round.current
            p = batch.players[seat]
            if p.computer is None:
                return False
            if limit is not None and done >= limit:
                return True
            batch.apply(p, await self.computer_move(batch, seat, p.computer), None)
            batch.computer_knocks()
            done += 1
        return False

    async def computer_move(self, batch: Batch, seat: int, level: Level) -> Move:
        """``seat``'s move as a computer player of ``level`` (see :mod:`.computers`)."""
        view, game_id = view_for(batch.match, seat), batch.game.row.id
        return await computers.choose(self.chooser, view, level, game_id, batch.next_seq)

    async def commit_play(
        self,
        g: LoadedGame,
        batch: Batch,
        pending: bool,
        *,
        seats_changed: bool = False,
        status: GameStatus | None = None,
        host_id: int | None = None,
    ) -> Outcome:
        """Append the batch's events and the game's new columns in one transaction."""
        now = batch.now
        m = batch.match_or_none
        columns: dict[str, Any] = {}
        if status is None:
            status = GameStatus.FINISHED if m is not None and m.is_over else GameStatus.ACTIVE
        columns["status"] = status
        if host_id is not None:
            columns["host_id"] = host_id
        rnd = None if m is None else m.round
        turn = None if status is not GameStatus.ACTIVE or rnd is None else rnd.current_seat
        columns["turn_seat"] = turn
        columns["round_no"] = None if rnd is None else rnd.round_no
        if turn is None:
            columns["turn_since"] = columns["deadline_at"] = None
        elif batch.turn_changed or g.row.turn_seat != turn:
            columns["turn_since"] = now
            limit = g.row.turn_deadline_s
            columns["deadline_at"] = None if limit is None else now + timedelta(seconds=limit)
        results: tuple[ResultRow, ...] = ()
        match_end = None
        players = batch.players
        if status is GameStatus.FINISHED and m is not None:
            standings = standings_of(m, players)
            match_end = MatchEnd(standings, tuple(players[s] for s in m.winners()))
            batch.facts.append(
                Fact.of("match-over", winners=tuple(p.name for p in match_end.winners))
            )
            results = tuple(
                ResultRow(
                    st.player.seat,
                    batch.seats[st.player.seat].user_id,
                    st.player.computer.value if st.player.computer else None,
                    st.total,
                    st.place,
                    st.won,
                    st.rounds_won,
                )
                for st in standings
            )
        game_id = g.row.id
        if results:
            # The match's statistics replay every round: a game loaded from a tail gets its
            # earlier rounds' events first (once per match).
            await self.complete(g, m)
        try:
            async with self.store.transaction() as tx:
                await self.hold(tx, g)
                if batch.events:
                    await tx.append_events(game_id, g.seq + 1, batch.events, now)
                version = await tx.touch(game_id, g.row.version, now, **columns)
                if batch.snapshots:
                    await tx.put_snapshots(game_id, batch.snapshots)
                if seats_changed:
                    await tx.replace_seats(game_id, batch.seats)
                if results:
                    await tx.write_results(game_id, results, now)
                    assert m is not None
                    await stats.record(tx, g.row, batch.seats, m, now)
                    await ratings.on_match_end(tx, g.row, batch.seats, m, now)  # issue 48
                    if self.compact_finished and g.row.status is not GameStatus.FINISHED:
                        await tx.archive_events(game_id)
                after = dataclasses.replace(g.row, version=version, updated_at=now, **columns)
                for hook in self._commit_hooks:
                    await hook(tx, g.row, after, batch.seats, now)
                # What this move owes the players, kept with it until delivered (issue 37).
                actor = next((e.actor for e in batch.events if e.actor is not None), None)
                await outbox.owe(
                    tx, game_id, g.seq + 1, version, status, turn, batch.seats, actor, now
                )
        except Conflict:
            self.forget(game_id)
            raise errors.TableChanged() from None
        except BaseException:
            self.forget(game_id)
            raise
        for committed in self._committed_hooks:
            committed(game_id)
        g.row = after
        g.seats = batch.seats
        g.match = m
        g.seq += len(batch.events)
        summary = self.summary(g)
        changed = sorted(batch.hands)
        return Outcome(
            game=summary,
            steps=tuple(batch.steps),
            rounds_ended=tuple(batch.rounds_ended),
            rounds_started=tuple(batch.rounds_started),
            next_player=self.next_player(g),
            hands_changed=tuple(players[s] for s in changed if not players[s].is_computer),
            match_over=match_end,
            computer_pending=pending and status is GameStatus.ACTIVE,
            facts=tuple(batch.facts),
        )


class Batch:
    """The events of one call: applied to the match in memory, appended in one transaction."""

    def __init__(
        self,
        ledger: Ledger,
        game: LoadedGame,
        match: Match | None,
        seats: tuple[SeatRow, ...],
        now: datetime,
    ) -> None:
        self.ledger = ledger
        self.game = game
        self.match_or_none = match
        self.seats = seats
        self.players = players_of(seats)
        self.now = now
        self.events: list[NewEvent] = []
        self.steps: list[Step] = []
        self.rounds_ended: list[RoundEnd] = []
        self.rounds_started: list[int] = []
        self.hands: set[int] = set()
        self.facts: list[Fact] = []
        self.turn_changed = False
        #: (seq of a deal event, JSON of the round results before it): see round_snapshots.
        self.snapshots: list[tuple[int, str]] = []

    @property
    def match(self) -> Match:
        assert self.match_or_none is not None
        return self.match_or_none

    @property
    def next_seq(self) -> int:
        return self.game.seq + len(self.events) + 1

    def event(self, kind: str, payload: Mapping[str, Any], actor: int | None) -> None:
        self.events.append(NewEvent(kind, json.dumps(payload, separators=(",", ":")), actor))

    def apply(self, player: Player, move: Move, actor: int | None) -> Applied:
        """Apply ``move`` for ``player`` (IllegalMove leaves everything unchanged)."""
        m = self.match
        assert m.round is not None
        seq = self.next_seq
        round_no = m.round.round_no
        applied = m.apply(move, player.seat)
        self.event("move", m.events[-1].to_dict(), actor)
        self.steps.append(Step(seq, player, move, applied, round_no))
        self._facts(player, move, applied)
        if isinstance(move, Play | Draw) or (isinstance(move, Catch) and applied.drawn):
            self.hands.add(applied.seat)
        if applied.turn_over:
            self.turn_changed = True
        if applied.round_over:
            result = m.results[-1]
            self.rounds_ended.append(
                RoundEnd(round_no, result.scores, result.went_out, tuple(m.totals))
            )
            out = result.went_out
            name = None if out is None else self.players[out].name
            self.facts.append(
                Fact.of(
                    "round-over", round_no=round_no, went_out=out, name=name, blocked=out is None
                )
            )
            if not m.is_over:
                self.deal()
        return applied

    def deal(self) -> None:
        m = self.match
        self.snapshots.append((self.next_seq, rounds_json(m)))
        rnd = m.start_round(m.shuffle(self.ledger.rng))
        self.event("round", m.events[-1].to_dict(), None)
        self.rounds_started.append(rnd.round_no)
        self.hands.update(range(m.players))
        self.turn_changed = True
        first = self.players[rnd.current]
        self.facts.append(
            Fact.of(
                "round-started",
                round_no=rnd.round_no,
                engine=str(rnd.engine),
                seat=first.seat,
                name=first.name,
            )
        )

    def knock_for(self, seat: int, actor: int | None) -> None:
        """Knock for ``seat`` if it may knock now (its knock window is open)."""
        rnd = self.match.round
        if rnd is not None and rnd.result is None and KNOCK in rnd.side_moves(seat):
            self.apply(self.players[seat], KNOCK, actor)

    def computer_knocks(self) -> None:
        rnd = self.match.round
        if rnd is None or rnd.knock_window is None:
            return
        if self.players[rnd.knock_window].is_computer:
            self.knock_for(rnd.knock_window, None)

    def _facts(self, p: Player, move: Move, a: Applied) -> None:
        add = self.facts.append
        who: dict[str, Any] = {"seat": p.seat, "name": p.name, "computer": p.is_computer}
        if isinstance(move, Play):
            owner = None if move.train == MEXICAN else move.train
            add(
                Fact.of(
                    "played",
                    **who,
                    tile=str(move.tile),
                    train=train_name(move.train),
                    train_owner=owner,
                    train_owner_name=None if owner is None else self.players[owner].name,
                )
            )
            if a.started_mexican:
                add(Fact.of("mexican-started", **who))
            if a.satisfied is not None:
                add(Fact.of("double-satisfied", **who, tile=str(a.satisfied)))
            if a.opened_double:
                add(Fact.of("double-opened", **who, tile=str(move.tile)))
            if a.released:
                add(Fact.of("doubles-released", tiles=tuple(str(t) for t in a.released)))
            if a.marker_removed:
                add(Fact.of("marker-removed", **who))
            if a.last_tile:
                add(Fact.of("last-tile", **who))
        elif isinstance(move, Draw):
            add(Fact.of("drew", **who, must_play=a.must_play_drawn))
        elif isinstance(move, Pass):
            add(Fact.of("passed", **who, marker_raised=a.marker_raised))
        elif isinstance(move, Done):
            add(Fact.of("fast-start-done", **who))
        elif isinstance(move, Knock):
            add(Fact.of("knocked", **who))
        elif isinstance(move, Catch):
            target = self.players[move.seat]
            add(
                Fact.of(
                    "caught",
                    **who,
                    target=target.seat,
                    target_name=target.name,
                    tiles=len(a.drawn),
                )
            )


# ====================================================================== helpers


# ====================================================================== guards and values


def utc(now: datetime) -> datetime:
    """``now`` in UTC; a naive datetime is refused (the service never guesses a zone)."""
    if now.tzinfo is None:
        raise ValueError("now must be a timezone-aware datetime")
    return now.astimezone(UTC)


def need_lobby(g: LoadedGame) -> None:
    if g.row.status is GameStatus.ABANDONED and g.match is None:
        # Cancelled before it started (a Join that lost a race with Cancel ends here).
        raise errors.WrongPhase("the lobby was cancelled", code="lobby-cancelled")
    if g.row.status is not GameStatus.LOBBY:
        raise errors.WrongPhase(
            "the game has already started"
            if g.row.status is GameStatus.ACTIVE
            else "the game is over",
            code="not-lobby",
        )


def need_active(g: LoadedGame) -> None:
    status = g.row.status
    if status is GameStatus.LOBBY:
        raise errors.WrongPhase("the game has not started yet", code="not-started")
    if status is not GameStatus.ACTIVE or g.match is None:
        raise errors.WrongPhase("the game is over", code="game-over")


def need_unfinished(g: LoadedGame) -> None:
    if not g.row.status.unfinished:
        raise errors.WrongPhase("the game is over", code="game-over")


def need_host(g: LoadedGame, user_id: int, is_manager: bool, action: str) -> None:
    if user_id != g.row.host_id and not is_manager:
        raise errors.NotHost(action)


def seated(g: LoadedGame, user_id: int, *, any_seat: bool = False) -> Player:
    """The human seat of ``user_id`` (``any_seat``: also one a computer took over). A seat a
    computer took over is refused as :class:`~bot.service.errors.SeatGiven`: its hand is not
    its former player's to see (kick and leave keep the user id on the seat, for the record)."""
    for s in g.seats:
        if s.user_id == user_id:
            if s.computer is None or any_seat:
                return players_of(g.seats)[s.seat]
            raise errors.SeatGiven()
    raise errors.NotInGame()


def seat_row(g: LoadedGame, seat: int) -> SeatRow:
    if not 0 <= seat < len(g.seats):
        raise errors.NoSuchSeat(f"there is no seat {seat + 1}", seat=seat)
    return g.seats[seat]


def dealt(g: LoadedGame) -> Match:
    if g.match is None or g.match.round is None:
        raise errors.WrongPhase("the game has not started yet", code="not-started")
    return g.match
