"""The one commit path: load a game, lock it, apply a call's moves, write them in one go.

Every use case that changes a game (lobby, play, undo, the scheduler's turns played for absent
players) opens one :class:`Commit` — ``async with ledger.commit(game_id, now) as c:`` — and
reads as its guards, then its moves, then one write:

* **Load.** A game in memory is a replay of its events (:mod:`bot.service.replay`), kept in a
  bounded LRU cache; before every use the cached copy's ``version`` is compared with the
  database's (one indexed read; a move picked from a list checks where it was sent from on
  that same read), so another process's change is never missed.
* **Lock.** Calls on one game take that game's asyncio lock (:meth:`Ledger.locked`), so two
  clicks queue instead of failing; calls on different games do not wait for each other (only
  the commit itself is serialised, by the store's single writer). Across the processes of a
  cluster, every commit first takes the game's lock in the database (:meth:`Ledger.hold`).
* **Commit.** The commit is a :class:`~bot.service.batch.Batch` (the call's events, applied to
  the match in memory) that writes itself: :meth:`Commit.write` appends the events in one
  transaction with the game's new columns and what the move owes the players (the outbox),
  so all of it lands or none of it does, and the cache then holds the game as written. Across
  processes, the version is checked under that lock in the same transaction (and the
  ``(game_id, seq)`` primary key stays as the safety net), so the second of two writers that
  read the same state gets :class:`~bot.service.errors.TableChanged` and nothing of it is
  written. A call that fails — a refusal, a write that lost the race — writes and owes
  nothing, and the cache forgets the game if the failed call had changed it in memory.

The guards every use case checks first are :mod:`bot.service.guards`.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import logging
import random
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from datetime import datetime, timedelta
from typing import Any

from bot.engine import Match, Move, RulesError, view_for
from bot.engine.ai import Level
from bot.service import computers, errors, outbox, ratings, stats
from bot.service.batch import Batch
from bot.service.gameload import complete_events, load_game
from bot.service.outcome import (
    Fact,
    FactCode,
    GameSummary,
    MatchEnd,
    Outcome,
    Player,
    players_of,
    standings_of,
    summarise,
)
from bot.service.replay import LoadedGame
from bot.store import (
    Conflict,
    GameRow,
    GameStatus,
    ResultRow,
    SeatRow,
    Store,
    Tx,
)

log = logging.getLogger(__name__)
#: The server (None: a DM) and channel a move was sent from.
Place = tuple[int | None, int]
#: See :meth:`Ledger.add_commit_hook`.
CommitHook = Callable[[Tx, GameRow, GameRow, tuple[SeatRow, ...], datetime], Awaitable[None]]
CommittedHook = Callable[[int], None]


def played_in(row: GameRow | None, game_id: int, guild_id: int | None, channel_id: int) -> int:
    """``row``'s version, if the game is played in ``guild_id``'s ``channel_id``; else the
    refusal of a move sent from elsewhere (see :meth:`Ledger.get`)."""
    if row is None or row.guild_id != guild_id:
        raise errors.GameNotFound(f"no game #{game_id} here", code="no-such-game", game=game_id)
    if row.channel_id != channel_id:
        raise errors.OtherChannel(f"game #{game_id} is played elsewhere", game=game_id)
    return row.version


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
        self.commit_hooks: list[CommitHook] = []
        self.committed_hooks: list[CommittedHook] = []
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
        self.commit_hooks.append(hook)
        if committed is not None:
            self.committed_hooks.append(committed)

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
    async def game(
        self, game_id: int, *, made_in: Place | None = None, version: int | None = None
    ) -> AsyncIterator[LoadedGame]:
        """A reading use case's preamble in one line — ``async with ledger.game(game_id) as
        g:`` — the game's lock held and the game loaded (from the cache if current) inside
        it (``made_in``, ``version``: see :meth:`get`). A use case that changes the game
        opens :meth:`commit` instead."""
        async with self.locked(game_id):
            yield await self.get(game_id, made_in=made_in, version=version)

    @contextlib.asynccontextmanager
    async def commit(
        self,
        game_id: int,
        now: datetime,
        *,
        made_in: Place | None = None,
        version: int | None = None,
    ) -> AsyncIterator[Commit]:
        """A use case that changes a game, opened once: ``async with ledger.commit(game_id,
        now) as c:`` holds the game's lock, loads it (``c.game``; ``made_in``, ``version``:
        see :meth:`get`; the transaction checks the version again under its lock, so a
        version read a moment ago is as safe as one read now) and collects the call's events
        in ``c``; :meth:`Commit.write` (or one of its siblings) writes them. Whatever the
        block raises, nothing is written or owed, and the cache forgets the game if the block
        had changed it in memory."""
        async with self.locked(game_id):
            c = Commit(self, await self.get(game_id, made_in=made_in, version=version), now)
            try:
                yield c
            except BaseException:
                if c.dirty:
                    self.forget(game_id)
                raise

    async def get(
        self, game_id: int, *, made_in: Place | None = None, version: int | None = None
    ) -> LoadedGame:
        """The game, from the cache if it is still current, else replayed from the store.

        ``made_in``: the server and channel a move picked from a list was sent from (a client
        can send any game id). The game's row is read instead of its version alone, and the
        game must be played there: another server's game is refused as unknown (nothing
        about it is told), another channel's as played elsewhere; its version then serves
        the cache's check, so a pick reads the game once. ``version``: the version the caller
        has just read with the game's row (a look-up): when the cache holds the game at that
        version it serves with no read; else (a change committed here since moved the cache
        on) the version is read as without it."""
        if made_in is None:
            cached = self._cache.get(game_id)
            if version is None or cached is None or cached.row.version != version:
                version = await self.store.version(game_id)
        else:
            version = played_in(await self.store.game(game_id), game_id, *made_in)
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


class Commit(Batch):
    """One call's unit of work on one game: the game as loaded (``game``), the events the call
    applies to it in memory (a :class:`Batch`), and the one transaction that writes them,
    with what they owe the players, and leaves the cache agreeing with the store. Opened by
    :meth:`Ledger.commit` only."""

    def __init__(self, ledger: Ledger, game: LoadedGame, now: datetime) -> None:
        super().__init__(game, now, ledger.rng)
        self.ledger = ledger
        self.seats_changed = False
        #: A feature's own rows written in this commit's transaction (a standing order
        #: played or dropped with the move that plays it: :mod:`bot.service.orders`).
        self.also: list[Callable[[Tx], Awaitable[None]]] = []

    def reseat(self, seats: tuple[SeatRow, ...]) -> None:
        """Write ``seats`` with the events (a computer taking a seat over, the deal's order)."""
        self.seats = seats
        self.players = players_of(seats)
        self.seats_changed = True

    def begin(self, match: Match, seats: tuple[SeatRow, ...]) -> None:
        """The match the lobby becomes, its seats in playing order (nothing cached changes)."""
        self.match_or_none = match
        self.reseat(seats)

    def table_changed(self) -> errors.TableChanged:
        """The refusal of a call that found the store moved on under its game: the cached
        copy is not to be trusted, so the commit's failure makes the cache forget it."""
        self.dirty = True
        return errors.TableChanged()

    async def after_move(self, limit: int | None) -> bool:
        """Knock for computers, then play up to ``limit`` computer turns (None: all), each
        chosen by the ledger's chooser and awaited under the game's lock (the event loop goes
        on with other games); True if one is left waiting."""
        self.computer_knocks()
        m = self.match
        done = 0
        while not m.is_over and m.round is not None and m.round.current_seat is not None:
            seat = m.round.current
            p = self.players[seat]
            if p.computer is None:
                return False
            if limit is not None and done >= limit:
                return True
            self.apply(p, await self.computer_move(seat, p.computer), None)
            self.computer_knocks()
            done += 1
        return False

    async def computer_move(self, seat: int, level: Level) -> Move:
        """``seat``'s move as a computer player of ``level`` (see :mod:`.computers`)."""
        view, game_id = view_for(self.match, seat), self.game.row.id
        return await computers.choose(self.ledger.chooser, view, level, game_id, self.next_seq)

    async def write(
        self,
        pending: bool,
        *,
        status: GameStatus | None = None,
        host_id: int | None = None,
    ) -> Outcome:
        """Write the events, the game's new columns (``status``: default active, or finished
        if the match is over) and what they owe; the cache then holds the game as written.
        ``pending``: a computer player is left to move (paced play)."""
        g, now = self.game, self.now
        m = self.match_or_none
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
        elif self.turn_changed or g.row.turn_seat != turn:
            columns["turn_since"] = now
            limit = g.row.turn_deadline_s
            columns["deadline_at"] = None if limit is None else now + timedelta(seconds=limit)
        match_end = None
        players = self.players
        ended = None
        results: tuple[ResultRow, ...] = ()
        if status is GameStatus.FINISHED and m is not None:
            standings = standings_of(m, players)
            match_end = MatchEnd(standings, tuple(players[s] for s in m.winners()))
            self.facts.append(
                Fact.of(FactCode.MATCH_OVER, winners=tuple(p.name for p in match_end.winners))
            )
            results = tuple(
                ResultRow(
                    st.player.seat,
                    self.seats[st.player.seat].user_id,
                    st.player.computer.value if st.player.computer else None,
                    st.total,
                    st.place,
                    st.won,
                    st.rounds_won,
                )
                for st in standings
            )
            if results:
                # The match's statistics replay every round: a game loaded from a tail gets
                # its earlier rounds' events first (once per match).
                await self.ledger.complete(g, m)
                ended = m
        g.row = await self._transaction(columns, results=results, ended=ended)
        g.seats = self.seats
        g.match = m
        g.seq += len(self.events)
        ledger = self.ledger
        told = [players[s] for s in sorted(self.hands)]
        return Outcome(
            game=ledger.summary(g),
            steps=tuple(self.steps),
            rounds_ended=tuple(self.rounds_ended),
            rounds_started=tuple(self.rounds_started),
            next_player=ledger.next_player(g),
            hands_changed=tuple(p for p in told if not p.is_computer),
            match_over=match_end,
            computer_pending=pending and status is GameStatus.ACTIVE,
            facts=tuple(self.facts),
        )

    async def write_lobby(self, seats: tuple[SeatRow, ...], **columns: Any) -> None:
        """Write a lobby's new seats (renumbered from 0) and columns; no events, nothing owed
        (the lobby's post is the answer to the click); the cache then holds them."""
        g = self.game
        seats = tuple(dataclasses.replace(s, seat=i) for i, s in enumerate(seats))
        try:
            async with self.ledger.store.transaction() as tx:
                await self.ledger.hold(tx, g)
                version = await tx.touch(g.row.id, g.row.version, self.now, **columns)
                await tx.replace_seats(g.row.id, seats)
        except Conflict:
            self.ledger.forget(g.row.id)
            raise errors.TableChanged() from None
        g.row = dataclasses.replace(g.row, version=version, updated_at=self.now, **columns)
        g.seats = seats

    async def write_for_replay(
        self, columns: Mapping[str, Any], *, results: tuple[ResultRow, ...] = (), owe: bool
    ) -> None:
        """Write the events and ``columns`` as given, then forget the cached game, so the next
        read replays it: for an undo (it cancels events: the match in memory cannot fold it)
        and the close of a stalled game. No commit hooks run (the scheduler plans no turn);
        ``owe``: whether the post and the ping are owed (an undo's are)."""
        try:
            await self._transaction(columns, results=results, hooks=False, owe=owe)
        finally:
            self.ledger.forget(self.game.row.id)

    async def _transaction(
        self,
        columns: Mapping[str, Any],
        *,
        results: tuple[ResultRow, ...] = (),
        ended: Match | None = None,
        hooks: bool = True,
        owe: bool = True,
    ) -> GameRow:
        """The one transaction: the events, the columns, the round snapshots, the seats, the
        results, where a match ends what it ends (:meth:`_match_ended`), the commit hooks and
        what is owed; the game's row as written. A failure forgets the game (the cache may be
        ahead of the store) and writes nothing; a lost race is :class:`TableChanged`."""
        ledger, g, now = self.ledger, self.game, self.now
        game_id = g.row.id
        try:
            async with ledger.store.transaction() as tx:
                await ledger.hold(tx, g)
                if self.events:
                    await tx.append_events(game_id, g.seq + 1, self.events, now)
                version = await tx.touch(game_id, g.row.version, now, **columns)
                if self.snapshots:
                    await tx.put_snapshots(game_id, self.snapshots)
                if self.seats_changed:
                    await tx.replace_seats(game_id, self.seats)
                if results:
                    await tx.write_results(game_id, results, now)
                if ended is not None:
                    await self._match_ended(tx, ended)
                after = dataclasses.replace(g.row, version=version, updated_at=now, **columns)
                if hooks:
                    for hook in ledger.commit_hooks:
                        await hook(tx, g.row, after, self.seats, now)
                for write in self.also:
                    await write(tx)
                if owe:
                    # What this commit owes the players, kept with it until delivered (issue 37).
                    actor = next((e.actor for e in self.events if e.actor is not None), None)
                    await outbox.owe(
                        tx,
                        game_id,
                        g.seq + 1,
                        version,
                        columns["status"],
                        columns["turn_seat"],
                        self.seats,
                        actor,
                        now,
                    )
        except Conflict:
            ledger.forget(game_id)
            raise errors.TableChanged() from None
        except BaseException:
            ledger.forget(game_id)
            raise
        if hooks:
            for committed in ledger.committed_hooks:
                committed(game_id)
        return after

    async def _match_ended(self, tx: Tx, m: Match) -> None:
        """Where a match ends, in its last move's transaction: its statistics, and its log
        compacted (``event_archive``), and the ratings it moves (issue 48)."""
        ledger, g = self.ledger, self.game
        await stats.record(tx, g.row, self.seats, m, self.now)
        await ratings.on_match_end(tx, g.row, self.seats, m, self.now)
        if ledger.compact_finished and g.row.status is not GameStatus.FINISHED:
            await tx.archive_events(g.row.id)
