"""The use cases: lobbies, the deal, moves, computer players, and the queries around them.

:class:`GameService` is what the Discord layer calls. Each mutating call names who acts (a
user id, plus a display name or ``is_manager`` where it matters) and when (``now``, an aware
datetime: the service never reads a clock), checks permission and turn, applies the move
through the engine, appends the events and returns an :class:`~bot.service.outcome.Outcome`.

How a game stays whole:

* The event log is the truth. A game in memory is a replay of its events, kept in a bounded
  LRU cache; before every use the cached copy's ``version`` is compared with the database's
  (one indexed read), so another process's change is never missed, and a copy whose write
  failed is dropped and replayed again.
* Calls on one game take that game's asyncio lock, so two clicks queue instead of failing;
  calls on different games do not wait for each other (only the commit itself is serialised,
  by the store's single writer).
* Across processes, the ``(game_id, seq)`` primary key and the version check in the same
  ``BEGIN IMMEDIATE`` transaction refuse the second of two writers that read the same state:
  it gets :class:`~bot.service.errors.TableChanged` and nothing of it is written.
* A move and everything it sets off (the computer players' replies, a knock, the next deal)
  are appended in one transaction: all of it lands, or none of it does.

Computer players: by default every mutating call plays the computer seats' turns that follow,
until a human is to play or the match ends, each as its own event. To pace them (post one move
every few seconds), pass ``computer_moves=0`` and then call :meth:`GameService.advance_computers`
with ``max_moves=1`` until ``Outcome.computer_pending`` is False. Under the knock rule computer
players always knock in time; a human knocks with :meth:`GameService.knock`, or at once with the
move that leaves them one tile (``knock=True``), since a computer next in line acts immediately.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import enum
import hashlib
import json
import logging
import random
import weakref
import zoneinfo
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Iterator, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from bot.engine import (
    DONE,
    DRAW,
    ENGINE_VERSION,
    KNOCK,
    MEXICAN,
    PASS,
    Applied,
    Catch,
    Done,
    Draw,
    IllegalMove,
    Knock,
    Match,
    Move,
    MoveError,
    Pass,
    Play,
    Rules,
    RulesError,
    SeatView,
    parse_move,
    preset,
    train_name,
    view_for,
)
from bot.engine.ai import Level, choose_move
from bot.engine.match import Event, RoundStarted, event_from_dict
from bot.engine.position import FORMAT as POSITION_FORMAT
from bot.engine.position import from_position, to_position
from bot.service import errors
from bot.service.eventlog import live_engine_rows
from bot.service.outcome import (
    Fact,
    GameOptions,
    GameSummary,
    MatchEnd,
    Outcome,
    Player,
    RoundEnd,
    Standing,
    Step,
)
from bot.store import ChannelBusy as StoreChannelBusy
from bot.store import (
    Conflict,
    EventRow,
    GameRecord,
    GameRow,
    GameStatus,
    GuildSettings,
    MessageRow,
    NewEvent,
    ResultRow,
    SeatRow,
    Store,
    Tx,
    UserSettings,
)

log = logging.getLogger(__name__)
_S = TypeVar("_S", UserSettings, GuildSettings)
#: See :meth:`GameService.add_commit_hook`.
CommitHook = Callable[[Tx, GameRow, GameRow, tuple[SeatRow, ...], datetime], Awaitable[None]]

#: Event kinds the engine replays; the others (start, leave, kick, end) are the service's.
ENGINE_KINDS = frozenset({"round", "move"})
#: Longest display name kept (Discord's own limit is 32).
MAX_NAME = 64


@dataclasses.dataclass(slots=True)
class _Game:
    """A cached game: its row and seats as committed, and the replayed match (None in lobby)."""

    row: GameRow
    seats: tuple[SeatRow, ...]
    rules: Rules
    match: Match | None
    seq: int


class GameService:
    """The use cases over one :class:`~bot.store.Store`."""

    def __init__(
        self,
        store: Store,
        *,
        cache_size: int = 512,
        rng: random.Random | None = None,
        replacement_level: Level = Level.NORMAL,
    ) -> None:
        """``rng`` shuffles the deals (default: the OS's ``SystemRandom``; tests pass a seeded
        one). ``replacement_level`` plays the seats of players who leave or are kicked."""
        if cache_size < 1:
            raise ValueError("the game cache holds at least one game")
        self.store = store
        self._cache: collections.OrderedDict[int, _Game] = collections.OrderedDict()
        self._cache_size = cache_size
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._rng: random.Random = rng if rng is not None else random.SystemRandom()
        self._replacement = replacement_level
        self._commit_hooks: list[CommitHook] = []

    def add_commit_hook(self, hook: CommitHook) -> None:
        """Run ``hook(tx, before, after, seats, now)`` inside every move's transaction, after its
        writes (``before``/``after``: the game row before and after; ``seats`` after). Features
        keep their own rows in step with the game this way (the scheduler plans the new turn)."""
        self._commit_hooks.append(hook)

    # ================================================================== lobby

    async def create_lobby(
        self,
        *,
        guild_id: int,
        channel_id: int,
        user_id: int,
        display_name: str,
        now: datetime,
        preset_name: str | None = None,
        house_rules: Mapping[str, Any] | None = None,
        options: GameOptions | None = None,
        is_manager: bool = False,
        role_ids: Collection[int] = (),
    ) -> Outcome:
        """Open a lobby in a channel, with the creator as host in seat 1.

        Rules are ``preset_name`` (default: the server's default preset and house rules) with
        ``house_rules`` (rule field -> value, e.g. ``{"knock": True}``) on top.
        """
        now = _utc(now)
        host_name = _name(display_name)
        guild = await self.store.guild_settings(guild_id)
        if guild.allowed_channels and channel_id not in guild.allowed_channels:
            raise errors.ChannelNotAllowed()
        if guild.host_role_id is not None and not is_manager and guild.host_role_id not in role_ids:
            raise errors.NeedsHostRole(guild.host_role_id)
        if preset_name is None:
            name, base = guild.preset, _preset(guild.preset)
            overrides = {**guild.house_rules, **(house_rules or {})}
        else:
            name, base, overrides = preset_name, _preset(preset_name), dict(house_rules or {})
        rules = rules_with(base, overrides)
        options = options or GameOptions()
        deadline = options.turn_deadline
        if deadline is not None and deadline < timedelta(minutes=1):
            raise errors.BadSetting("a turn deadline is at least a minute", code="bad-deadline")
        try:
            async with self.store.transaction() as tx:
                game_id = await tx.insert_game(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    host_id=user_id,
                    preset=name,
                    rules_json=rules.to_json(),
                    engine_version=ENGINE_VERSION,
                    turn_deadline_s=None if deadline is None else int(deadline.total_seconds()),
                    hints=options.hints,
                    now=now,
                )
                await tx.insert_seat(
                    game_id,
                    0,
                    user_id=user_id,
                    display_name=host_name,
                    computer=None,
                    now=now,
                )
        except StoreChannelBusy:
            existing = await self.store.unfinished_in_channel(channel_id)
            raise errors.ChannelBusy(existing.id if existing else 0) from None
        async with self._locked(game_id):
            g = await self._get(game_id)
        p = _players(g.seats)[0]
        return Outcome(
            self._summary(g),
            facts=(Fact.of("lobby-opened", game_id=game_id, host=p.name, preset=name),),
        )

    async def join(self, game_id: int, user_id: int, display_name: str, now: datetime) -> Outcome:
        now = _utc(now)
        async with self._locked(game_id):
            g = await self._get(game_id)
            _need_lobby(g)
            if any(s.user_id == user_id for s in g.seats):
                raise errors.AlreadyInGame()
            self._check_room(g)
            seat = len(g.seats)
            new = SeatRow(game_id, seat, user_id, _name(display_name), None, now)
            await self._commit_lobby(g, (*g.seats, new), now)
            return self._lobby_outcome(
                g, Fact.of("joined", seat=seat, name=new.display_name, user_id=user_id)
            )

    async def add_computer(
        self,
        game_id: int,
        user_id: int,
        now: datetime,
        *,
        level: Level = Level.NORMAL,
        name: str | None = None,
        is_manager: bool = False,
    ) -> Outcome:
        """Seat a computer player (host only). ``name`` defaults to ``CPU n``."""
        now = _utc(now)
        async with self._locked(game_id):
            g = await self._get(game_id)
            _need_lobby(g)
            _need_host(g, user_id, is_manager, "add computer players")
            self._check_room(g)
            seat = len(g.seats)
            taken = {s.display_name for s in g.seats}
            if name is None:
                n = 1 + sum(1 for s in g.seats if s.user_id is None)
                while f"CPU {n}" in taken:
                    n += 1
                name = f"CPU {n}"
            new = SeatRow(game_id, seat, None, _name(name), level.value, now)
            await self._commit_lobby(g, (*g.seats, new), now)
            return self._lobby_outcome(
                g, Fact.of("computer-added", seat=seat, name=new.display_name, level=level.value)
            )

    async def remove_computer(
        self,
        game_id: int,
        user_id: int,
        seat: int,
        now: datetime,
        *,
        is_manager: bool = False,
        name: str | None = None,
    ) -> Outcome:
        """Take a computer player out of the lobby (host only); ``seat`` is 0-based.

        ``name`` is the computer the caller saw at that seat: seats move up when one is
        removed, so a request from an older picture of the lobby whose seat now holds someone
        else gets :class:`TableChanged` instead of removing them.
        """
        now = _utc(now)
        async with self._locked(game_id):
            g = await self._get(game_id)
            _need_lobby(g)
            _need_host(g, user_id, is_manager, "remove computer players")
            target = _seat_row(g, seat)
            if name is not None and (target.user_id is not None or target.display_name != name):
                raise errors.TableChanged()
            if target.user_id is not None:
                raise errors.NoSuchSeat(
                    f"seat {seat + 1} is not a computer player", code="not-computer", seat=seat
                )
            rest = tuple(s for s in g.seats if s.seat != seat)
            await self._commit_lobby(g, rest, now)
            return self._lobby_outcome(
                g, Fact.of("computer-removed", seat=seat, name=target.display_name)
            )

    async def leave(
        self, game_id: int, user_id: int, now: datetime, *, computer_moves: int | None = None
    ) -> Outcome:
        """Leave a game. In the lobby the seat goes; during play a computer takes it over.

        When the host leaves, the next human becomes host; when no human is left the game is
        abandoned.
        """
        now = _utc(now)
        async with self._locked(game_id):
            g = await self._get(game_id)
            me = _seated(g, user_id)
            return await self._remove_human(
                g, g.seats[me.seat], now, by=user_id, computer_moves=computer_moves
            )

    async def kick(
        self,
        game_id: int,
        user_id: int,
        target_user_id: int,
        now: datetime,
        *,
        is_manager: bool = False,
        computer_moves: int | None = None,
    ) -> Outcome:
        """Remove a player (host or server manager): from the lobby, or to a computer player."""
        now = _utc(now)
        async with self._locked(game_id):
            g = await self._get(game_id)
            _need_unfinished(g)
            _need_host(g, user_id, is_manager, "kick players")
            if target_user_id == user_id:
                raise errors.NoSuchSeat("you can't kick yourself: leave instead", code="kick-self")
            target = next(
                (s for s in g.seats if s.user_id == target_user_id and s.computer is None), None
            )
            if target is None:
                raise errors.NoSuchSeat(
                    "that player is not in this game", code="not-a-player", user_id=target_user_id
                )
            return await self._remove_human(
                g, target, now, by=user_id, kicked=True, computer_moves=computer_moves
            )

    async def start(
        self,
        game_id: int,
        user_id: int,
        now: datetime,
        *,
        is_manager: bool = False,
        computer_moves: int | None = None,
    ) -> Outcome:
        """Deal the first round (host or server manager). The host sits first."""
        now = _utc(now)
        async with self._locked(game_id):
            g = await self._get(game_id)
            _need_lobby(g)
            _need_host(g, user_id, is_manager, "start")
            if len(g.seats) < 2:
                raise errors.NotEnoughPlayers(
                    "you need at least 2 players to start", players=len(g.seats)
                )
            try:
                g.rules.check(len(g.seats))
            except RulesError as exc:
                raise errors.BadRules(str(exc), players=len(g.seats)) from None
            host = [s for s in g.seats if s.user_id == g.row.host_id]
            ordered = host + [s for s in g.seats if s.user_id != g.row.host_id or not host]
            seats = tuple(dataclasses.replace(s, seat=i) for i, s in enumerate(ordered))
            match = Match(g.rules, [s.display_name for s in seats], g.row.engine_version)
            batch = _Batch(self, g, match, seats, now)
            batch.event(
                "start",
                {"seats": [[s.user_id, s.display_name, s.computer] for s in seats]},
                user_id,
            )
            batch.facts.append(Fact.of("game-started", players=len(seats)))
            batch.deal()
            pending = self._after_move(batch, computer_moves)
            return await self._commit_play(g, batch, pending, seats_changed=True)

    # ================================================================== play

    async def move(
        self,
        game_id: int,
        user_id: int,
        move: str | Move,
        now: datetime,
        *,
        expected_version: int | None = None,
        knock: bool = False,
        computer_moves: int | None = None,
    ) -> Outcome:
        """Make any move, given in notation (``12-5 mexican``, ``5-7 @2``, ``7-7 own``, ``draw``,
        ``pass``, ``done``, ``knock``, ``catch @3``) or as an engine :data:`Move`.

        ``expected_version``: the ``GameSummary.version`` the player's buttons were drawn
        from; if the game has changed since, :class:`TableChanged` and nothing happens.
        ``knock``: announce the last tile with this move, if it leaves the mover one tile.
        ``computer_moves``: how many computer moves to play after it (None: all of them).
        """
        return await self._move(
            game_id, user_id, move, now, expected_version, knock, computer_moves, None
        )

    async def play(
        self,
        game_id: int,
        user_id: int,
        move: str | Play,
        now: datetime,
        *,
        expected_version: int | None = None,
        knock: bool = False,
        computer_moves: int | None = None,
    ) -> Outcome:
        """Play a tile: ``12-5 mexican``, ``5-7 @2``, ``7-7 own`` (see :meth:`move`)."""
        return await self._move(
            game_id, user_id, move, now, expected_version, knock, computer_moves, Play
        )

    async def draw(
        self,
        game_id: int,
        user_id: int,
        now: datetime,
        *,
        expected_version: int | None = None,
        computer_moves: int | None = None,
    ) -> Outcome:
        """Draw a tile from the boneyard (only when no tile can be played)."""
        return await self._move(
            game_id, user_id, DRAW, now, expected_version, False, computer_moves, None
        )

    async def pass_turn(
        self,
        game_id: int,
        user_id: int,
        now: datetime,
        *,
        expected_version: int | None = None,
        computer_moves: int | None = None,
    ) -> Outcome:
        """Pass (after drawing, or with an empty boneyard): your marker goes up."""
        return await self._move(
            game_id, user_id, PASS, now, expected_version, False, computer_moves, None
        )

    async def done(
        self,
        game_id: int,
        user_id: int,
        now: datetime,
        *,
        expected_version: int | None = None,
        knock: bool = False,
        computer_moves: int | None = None,
    ) -> Outcome:
        """End a fast start (fast-start house rule) before running out of tiles to play."""
        return await self._move(
            game_id, user_id, DONE, now, expected_version, knock, computer_moves, None
        )

    async def knock(self, game_id: int, user_id: int, now: datetime) -> Outcome:
        """Announce your last tile (knock house rule), before the next player acts.

        Knock and catch do not change whose turn it is, so they play no computer moves: a
        computer left waiting by paced play stays waiting for :meth:`advance_computers`."""
        return await self._move(game_id, user_id, KNOCK, now, None, False, 0, None)

    async def catch(self, game_id: int, user_id: int, target_seat: int, now: datetime) -> Outcome:
        """Catch a player (0-based seat) who is down to one tile and did not knock in time:
        they draw the penalty tiles."""
        return await self._move(game_id, user_id, Catch(target_seat), now, None, False, 0, None)

    async def _move(
        self,
        game_id: int,
        user_id: int,
        move: str | Move,
        now: datetime,
        expected_version: int | None,
        knock: bool,
        computer_moves: int | None,
        only: type[Play] | None,
    ) -> Outcome:
        now = _utc(now)
        async with self._locked(game_id):
            g = await self._get(game_id)
            if expected_version is not None and expected_version != g.row.version:
                raise errors.TableChanged()
            if g.row.status is not GameStatus.ACTIVE or g.match is None:
                _need_active(g)
            me = _seated(g, user_id)
            match = g.match
            assert match is not None
            if isinstance(move, str):
                try:
                    move = parse_move(
                        move, seat=me.seat, players=match.players, max_pip=g.rules.max_pip
                    )
                except MoveError as exc:
                    raise errors.BadMove(str(exc)) from None
            if only is not None and not isinstance(move, only):
                raise errors.BadMove(f"{move} is not a tile to play: write e.g. 12-5 mexican")
            batch = _Batch(self, g, match, g.seats, now)
            try:
                batch.apply(me, move, user_id)
            except IllegalMove as exc:
                # The engine changed nothing: the cached game is still good.
                raise errors.MoveRefused(str(exc), code=exc.code) from None
            try:
                if knock:
                    batch.knock_for(me.seat, user_id)
                pending = self._after_move(batch, computer_moves)
            except BaseException:
                self._forget(game_id)
                raise
            return await self._commit_play(g, batch, pending)

    async def advance_computers(
        self, game_id: int, now: datetime, *, max_moves: int | None = 1
    ) -> Outcome:
        """Play up to ``max_moves`` computer moves (None: until a human is to play)."""
        now = _utc(now)
        async with self._locked(game_id):
            g = await self._get(game_id)
            if g.row.status is not GameStatus.ACTIVE or g.match is None:
                return Outcome(self._summary(g))
            batch = _Batch(self, g, g.match, g.seats, now)
            try:
                pending = self._after_move(batch, max_moves)
            except BaseException:
                self._forget(game_id)
                raise
            if not batch.events:
                return Outcome(self._summary(g), next_player=self._next_player(g))
            return await self._commit_play(g, batch, pending)

    async def end(
        self, game_id: int, user_id: int, now: datetime, *, is_manager: bool = False
    ) -> Outcome:
        """Abandon a lobby or a game in play (host or server manager). Nobody wins."""
        now = _utc(now)
        async with self._locked(game_id):
            g = await self._get(game_id)
            _need_unfinished(g)
            _need_host(g, user_id, is_manager, "end the game")
            batch = _Batch(self, g, g.match, g.seats, now)
            batch.event("end", {"by": user_id, "reason": "ended"}, user_id)
            batch.facts.append(Fact.of("game-ended", by=user_id))
            return await self._commit_play(g, batch, False, status=GameStatus.ABANDONED)

    # ================================================================== queries

    async def game(self, game_id: int) -> GameSummary:
        """A game as stored, without replaying it (works even for an unreadable game)."""
        row = await self.store.game(game_id)
        if row is None:
            raise errors.GameNotFound(f"there is no game #{game_id}", game_id=game_id)
        return _summary(row, tuple(await self.store.seats(game_id)))

    async def game_in_channel(self, channel_id: int) -> GameSummary | None:
        """The channel's unfinished game (lobby or in play), if any."""
        row = await self.store.unfinished_in_channel(channel_id)
        if row is None:
            return None
        return _summary(row, tuple(await self.store.seats(row.id)))

    async def games_for_user(self, user_id: int) -> list[GameSummary]:
        """The user's unfinished games in every server, most recently active first; each
        summary's ``turn`` says whose turn it is."""
        rows = await self.store.unfinished_for_user(user_id)
        seats = await self.store.seats_of(r.id for r in rows)
        out = []
        for r in rows:
            try:
                out.append(_summary(r, tuple(seats[r.id])))
            except errors.GameCorrupt:
                log.exception("game %s: unreadable rules, left out of a listing", r.id)
        return out

    async def seat_view(self, game_id: int, user_id: int) -> SeatView:
        """What ``user_id`` sees from their seat: their hand, the table, their legal moves."""
        async with self._locked(game_id):
            g = await self._get(game_id)
            me = _seated(g, user_id, any_seat=True)
            return view_for(_dealt(g), me.seat)

    async def table_view(self, game_id: int) -> SeatView:
        """The spectator's view (no hand), for the table picture in the channel."""
        async with self._locked(game_id):
            return view_for(_dealt(await self._get(game_id)), None)

    async def whose_turn(self, game_id: int) -> Player | None:
        async with self._locked(game_id):
            return self._next_player(await self._get(game_id))

    async def history(self, game_id: int) -> list[str]:
        """The moves so far in notation, with round headers (``Bob: 12-5 mexican``)."""
        async with self._locked(game_id):
            g = await self._get(game_id)
            return [] if g.match is None else g.match.history()

    async def standings(self, game_id: int) -> tuple[Standing, ...]:
        """Totals so far, best first (final once the match is over)."""
        async with self._locked(game_id):
            g = await self._get(game_id)
            if g.match is None:
                return ()
            return _standings(g.match, _players(g.seats))

    async def round_scores(self, game_id: int) -> tuple[tuple[int, ...], ...]:
        async with self._locked(game_id):
            g = await self._get(game_id)
            return () if g.match is None else tuple(r.scores for r in g.match.results)

    async def verify_game(self, game_id: int) -> None:
        """Replay every event of a game and check the usual load (cache, round snapshot) gives
        the same match; raises :class:`GameCorrupt` if not. For tests and admin commands."""
        async with self._locked(game_id):
            record = await self.store.load(game_id)
            if record is None:
                raise errors.GameNotFound(f"there is no game #{game_id}", game_id=game_id)
            full = _replay(record, use_snapshot=False).match
            quick = _replay(record).match
            cached = self._cache.get(game_id)
            candidates = [quick]
            if cached is not None and cached.row.version == record.game.version:
                candidates.append(cached.match)
            want = None if full is None else (to_position(full), full.event_dicts())
            for m in candidates:
                got = None if m is None else (to_position(m), m.event_dicts())
                if got != want:
                    raise errors.GameCorrupt(game_id, "a load disagrees with a full replay")

    async def computer_turns(self) -> list[int]:
        """Games waiting on a computer player (call at start-up, then advance_computers)."""
        return await self.store.computer_turns()

    async def due_deadlines(self, now: datetime) -> list[GameSummary]:
        rows = await self.store.due_deadlines(_utc(now))
        seats = await self.store.seats_of(r.id for r in rows)
        return [_summary(r, tuple(seats[r.id])) for r in rows]

    # ---------------------------------------------------------------- messages, settings

    async def record_message(
        self, game_id: int, kind: str, channel_id: int, message_id: int, now: datetime
    ) -> None:
        """Remember the bot's latest message of ``kind`` (e.g. ``table``) for a game."""
        async with self.store.transaction() as tx:
            await tx.set_message(game_id, kind, channel_id, message_id, _utc(now))

    async def messages(self, game_id: int) -> dict[str, MessageRow]:
        return {m.kind: m for m in await self.store.messages(game_id)}

    async def user_settings(self, user_id: int) -> UserSettings:
        return await self.store.user_settings(user_id)

    async def update_user_settings(
        self,
        user_id: int,
        now: datetime,
        *,
        dms_open: bool | None = None,
        hand_dms: bool | None = None,
        reminders: bool | None = None,
        reminder_after_s: int | None = None,
        time_zone: str | None = None,
        language: str | None = None,
    ) -> UserSettings:
        """Change a user's own settings (None leaves one as it is). ``time_zone`` is an IANA
        name (``Europe/Paris``); ``language`` one of :data:`LANGUAGES`."""
        changes = _given(
            dms_open=dms_open,
            hand_dms=hand_dms,
            reminders=reminders,
            reminder_after_s=reminder_after_s,
            time_zone=time_zone,
            language=language,
        )
        new = _replace_checked(await self.store.user_settings(user_id), changes)
        if new.language not in LANGUAGES:
            raise errors.BadSetting(
                f"language must be one of {', '.join(LANGUAGES)}", code="bad-language"
            )
        _check_time_zone(new.time_zone)
        if new.reminder_after_s < 60:
            raise errors.BadSetting("a reminder waits at least a minute", code="bad-reminder")
        async with self.store.transaction() as tx:
            await tx.put_user_settings(new, _utc(now))
        return new

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        return await self.store.guild_settings(guild_id)

    async def update_guild_settings(
        self,
        guild_id: int,
        now: datetime,
        *,
        is_manager: bool,
        preset_name: str | None = None,
        house_rules: Mapping[str, Any] | None = None,
        allowed_channels: Collection[int] | None = None,
        host_role_id: int | None = None,
        clear_host_role: bool = False,
    ) -> GuildSettings:
        """Change a server's settings (server managers only; None leaves one as it is). An
        empty ``allowed_channels`` allows every channel."""
        if not is_manager:
            raise errors.ServiceError(
                "only a server manager can change the server's settings", code="not-manager"
            )
        changes = _given(
            preset=preset_name,
            house_rules=None if house_rules is None else dict(house_rules),
            allowed_channels=None if allowed_channels is None else tuple(allowed_channels),
            host_role_id=host_role_id,
        )
        new = _replace_checked(await self.store.guild_settings(guild_id), changes)
        if clear_host_role:
            new = dataclasses.replace(new, host_role_id=None)
        rules_with(_preset(new.preset), new.house_rules)  # refuse defaults that cannot play
        async with self.store.transaction() as tx:
            await tx.put_guild_settings(new, _utc(now))
        return new

    # ================================================================== internals

    @contextlib.asynccontextmanager
    async def _locked(self, game_id: int) -> AsyncIterator[None]:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        async with lock:
            yield

    async def _get(self, game_id: int) -> _Game:
        """The game, from the cache if it is still current, else replayed from the store."""
        version = await self.store.version(game_id)
        if version is None:
            raise errors.GameNotFound(f"there is no game #{game_id}", game_id=game_id)
        g = self._cache.get(game_id)
        if g is not None and g.row.version == version:
            self._cache.move_to_end(game_id)
            return g
        self._cache.pop(game_id, None)
        record = await self.store.load(game_id)
        if record is None:
            raise errors.GameNotFound(f"there is no game #{game_id}", game_id=game_id)
        g = _replay(record)
        self._cache[game_id] = g
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return g

    def _forget(self, game_id: int) -> None:
        self._cache.pop(game_id, None)

    def cached(self, game_id: int) -> Match | None:
        """The cached match, if any (for tests comparing the cache with a replay)."""
        g = self._cache.get(game_id)
        return None if g is None else g.match

    def clear_cache(self) -> None:
        self._cache.clear()

    def _check_room(self, g: _Game) -> None:
        n = len(g.seats) + 1
        try:
            g.rules.check(n)
        except RulesError:
            raise errors.GameFull(len(g.seats)) from None

    def _summary(self, g: _Game) -> GameSummary:
        return _summary(g.row, g.seats, g.rules)

    def _next_player(self, g: _Game) -> Player | None:
        m = g.match
        if g.row.status is not GameStatus.ACTIVE or m is None or m.current_seat is None:
            return None
        return _players(g.seats)[m.current_seat]

    def _lobby_outcome(self, g: _Game, fact: Fact) -> Outcome:
        return Outcome(self._summary(g), facts=(fact,))

    async def _commit_lobby(
        self,
        g: _Game,
        seats: tuple[SeatRow, ...],
        now: datetime,
        **columns: Any,
    ) -> None:
        """Write a lobby's new seats (renumbered from 0) and columns, then update the cache."""
        seats = tuple(dataclasses.replace(s, seat=i) for i, s in enumerate(seats))
        try:
            async with self.store.transaction() as tx:
                version = await tx.touch(g.row.id, g.row.version, now, **columns)
                await tx.replace_seats(g.row.id, seats)
        except Conflict:
            self._forget(g.row.id)
            raise errors.TableChanged() from None
        g.row = dataclasses.replace(g.row, version=version, updated_at=now, **columns)
        g.seats = seats

    async def _remove_human(
        self,
        g: _Game,
        target: SeatRow,
        now: datetime,
        *,
        by: int,
        kicked: bool = False,
        computer_moves: int | None,
    ) -> Outcome:
        players = _players(g.seats)
        p = players[target.seat]
        fact = Fact.of(
            "kicked" if kicked else "left", seat=target.seat, name=target.display_name, by=by
        )
        humans_left = [s for s in g.seats if s.computer is None and s.seat != target.seat]
        new_host = g.row.host_id
        if target.user_id == g.row.host_id and humans_left:
            new_host = humans_left[0].user_id or new_host
        facts = [fact]
        if new_host != g.row.host_id:
            facts.append(Fact.of("host-changed", user_id=new_host))
        if g.row.status is GameStatus.LOBBY:
            columns: dict[str, Any] = {"host_id": new_host}
            if not humans_left:
                columns["status"] = GameStatus.ABANDONED
                facts.append(Fact.of("game-abandoned", reason="no-players"))
            rest = tuple(s for s in g.seats if s.seat != target.seat)
            await self._commit_lobby(g, rest, now, **columns)
            return Outcome(self._summary(g), facts=tuple(facts))
        _need_active(g)
        level = self._replacement
        seats = tuple(
            dataclasses.replace(s, computer=level.value) if s.seat == target.seat else s
            for s in g.seats
        )
        batch = _Batch(self, g, g.match, seats, now)
        batch.event(
            "kick" if kicked else "leave",
            {"seat": target.seat, "user": target.user_id, "computer": level.value, "by": by},
            by,
        )
        batch.facts.extend(facts)
        batch.facts.append(
            Fact.of("computer-took-over", seat=p.seat, name=p.name, level=level.value)
        )
        status = None
        pending = False
        if not humans_left:
            batch.event("end", {"by": None, "reason": "no-players"}, None)
            batch.facts.append(Fact.of("game-abandoned", reason="no-players"))
            status = GameStatus.ABANDONED
        else:
            try:
                pending = self._after_move(batch, computer_moves)
            except BaseException:
                self._forget(g.row.id)
                raise
        return await self._commit_play(
            g, batch, pending, seats_changed=True, status=status, host_id=new_host
        )

    def _after_move(self, batch: _Batch, limit: int | None) -> bool:
        """Knock for computers, then play computer turns; True if one is left waiting."""
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
            batch.apply(p, self._computer_move(batch, seat, p.computer), None)
            batch.computer_knocks()
            done += 1
        return False

    def _computer_move(self, batch: _Batch, seat: int, level: Level) -> Move:
        view = view_for(batch.match, seat)
        seed = _seed(batch.game.row.id, batch.next_seq)
        try:
            chosen: Move | None = choose_move(view, level, seed)
        except Exception:
            log.exception("game %s: computer player failed at seat %s", batch.game.row.id, seat)
            chosen = None
        if chosen is None or chosen not in view.legal:
            # A computer player must never stall a game: fall back to the first legal move.
            log.error(
                "game %s: computer move %r is not legal; playing %s instead",
                batch.game.row.id,
                chosen,
                view.legal[0],
            )
            chosen = view.legal[0]
        return chosen

    async def _commit_play(
        self,
        g: _Game,
        batch: _Batch,
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
            standings = _standings(m, players)
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
        try:
            async with self.store.transaction() as tx:
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
                    await _record_stats(tx, g.row, batch.seats, m, now)
                after = dataclasses.replace(g.row, version=version, updated_at=now, **columns)
                for hook in self._commit_hooks:
                    await hook(tx, g.row, after, batch.seats, now)
        except Conflict:
            self._forget(game_id)
            raise errors.TableChanged() from None
        except BaseException:
            self._forget(game_id)
            raise
        g.row = after
        g.seats = batch.seats
        g.match = m
        g.seq += len(batch.events)
        summary = self._summary(g)
        changed = sorted(batch.hands)
        return Outcome(
            game=summary,
            steps=tuple(batch.steps),
            rounds_ended=tuple(batch.rounds_ended),
            rounds_started=tuple(batch.rounds_started),
            next_player=self._next_player(g),
            hands_changed=tuple(players[s] for s in changed if not players[s].is_computer),
            match_over=match_end,
            computer_pending=pending and status is GameStatus.ACTIVE,
            facts=tuple(batch.facts),
        )


# ====================================================================== one call's moves


class _Batch:
    """The events of one call: applied to the match in memory, appended in one transaction."""

    def __init__(
        self,
        service: GameService,
        game: _Game,
        match: Match | None,
        seats: tuple[SeatRow, ...],
        now: datetime,
    ) -> None:
        self.service = service
        self.game = game
        self.match_or_none = match
        self.seats = seats
        self.players = _players(seats)
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
            self.facts.append(
                Fact.of(
                    "round-over",
                    round_no=round_no,
                    went_out=out,
                    name=None if out is None else self.players[out].name,
                    blocked=out is None,
                )
            )
            if not m.is_over:
                self.deal()
        return applied

    def deal(self) -> None:
        m = self.match
        self.snapshots.append((self.next_seq, _rounds_json(m)))
        rnd = m.start_round(m.shuffle(self.service._rng))
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


async def _record_stats(
    tx: Any, row: GameRow, seats: tuple[SeatRow, ...], m: Match, now: datetime
) -> None:
    """Statistics of a finished match, in its last transaction (see bot.service.stats)."""
    from bot.service import stats  # imported late: it builds on this module

    await stats.record(tx, row, seats, m, now)


LANGUAGES = ("en", "fr")


def _utc(now: datetime) -> datetime:
    if now.tzinfo is None:
        raise ValueError("now must be a timezone-aware datetime")
    return now.astimezone(UTC)


def _name(text: str) -> str:
    name = " ".join(text.split())[:MAX_NAME]
    if not name:
        raise errors.BadSetting("a player needs a name", code="bad-name")
    return name


def _seed(game_id: int, seq: int) -> int:
    """A computer move's seed: fixed by the game and the event's place in it."""
    digest = hashlib.blake2b(f"{game_id}:{seq}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def _preset(name: str) -> Rules:
    try:
        return preset(name)
    except RulesError as exc:
        raise errors.BadRules(str(exc), code="bad-preset", preset=name) from None


def rules_with(base: Rules, overrides: Mapping[str, Any]) -> Rules:
    """``base`` with house rules switched on top, checked field by field (typed errors)."""
    fields = {f.name: f for f in dataclasses.fields(Rules)}
    for key, value in overrides.items():
        f = fields.get(key)
        if f is None:
            raise errors.BadRules(f"there is no house rule {key!r}", code="unknown-rule", rule=key)
        current = getattr(base, key)
        kind = str(f.type)
        if isinstance(current, enum.Enum):
            ok = isinstance(value, str | type(current))
        elif isinstance(current, bool):
            ok = isinstance(value, bool)
        else:
            ok = (value is None and "None" in kind) or (
                isinstance(value, int) and not isinstance(value, bool)
            )
        if not ok:
            raise errors.BadRules(
                f"{value!r} is not a value for {key}", code="bad-rule-value", rule=key
            )
    try:
        return Rules.from_dict({**base.to_dict(), **overrides}).check()
    except (RulesError, TypeError) as exc:
        raise errors.BadRules(str(exc)) from None


def _given(**values: Any) -> dict[str, Any]:
    return {k: v for k, v in values.items() if v is not None}


def _replace_checked(current: _S, changes: Mapping[str, Any]) -> _S:
    """``current`` with ``changes``, refusing values of the wrong type (typed errors)."""
    for key, value in changes.items():
        old = getattr(current, key)
        ok = old is None or type(old) is type(value)
        if isinstance(old, tuple):
            ok = all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        if not ok:
            raise errors.BadSetting(f"{value!r} is not a value for {key}", code="bad-setting")
    return dataclasses.replace(current, **changes)


def _check_time_zone(name: str) -> None:
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise errors.BadSetting(
            f"{name!r} is not a time zone (try Europe/Paris)", code="bad-time-zone"
        ) from None


def _players(seats: tuple[SeatRow, ...]) -> tuple[Player, ...]:
    return tuple(
        Player(
            s.seat,
            s.display_name,
            s.user_id if s.computer is None else None,
            None if s.computer is None else Level(s.computer),
        )
        for s in seats
    )


def _read_rules(row: GameRow) -> Rules:
    try:
        return Rules.from_json(row.rules_json)
    except (ValueError, TypeError, KeyError) as exc:
        raise errors.GameCorrupt(row.id, f"unreadable rules: {exc}") from None


def _summary(row: GameRow, seats: tuple[SeatRow, ...], rules: Rules | None = None) -> GameSummary:
    players = _players(seats)
    turn = row.turn_seat
    return GameSummary(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        host_id=row.host_id,
        status=row.status,
        preset=row.preset,
        rules=rules if rules is not None else _read_rules(row),
        players=players,
        turn=players[turn] if turn is not None and 0 <= turn < len(players) else None,
        round_no=row.round_no,
        options=GameOptions(
            turn_deadline=None
            if row.turn_deadline_s is None
            else timedelta(seconds=row.turn_deadline_s),
            hints=row.hints,
        ),
        version=row.version,
        created_at=row.created_at,
        updated_at=row.updated_at,
        turn_since=row.turn_since,
        deadline_at=row.deadline_at,
    )


def _replay(record: GameRecord, *, use_snapshot: bool = True) -> _Game:
    """Rebuild a game from its stored events; anything unreadable is :class:`GameCorrupt`.

    With a round snapshot, the rounds before the current one are taken from it and only the
    current round is replayed (every event is still read and decoded); if the snapshot is
    missing, unreadable or disagrees with the log, every event is replayed.
    """
    row = record.game
    rules = _read_rules(row)
    events = record.events
    if events and events[-1].seq != len(events):
        gap = next(i for i, e in enumerate(events, start=1) if e.seq != i)
        raise errors.GameCorrupt(row.id, "events are missing from the log", gap)
    engine_rows = live_engine_rows(row.id, events)  # an undo cancels moves without deleting
    match: Match | None = None
    if engine_rows:
        names = [s.display_name for s in record.seats]
        decoded: list[Event] = []
        try:
            for e in engine_rows:
                decoded.append(_decode(e, rules, len(names)))
        except Exception as exc:  # any unreadable event must fail this game only
            raise errors.GameCorrupt(row.id, str(exc), e.seq) from None
        if use_snapshot and record.snapshot is not None:
            match = _from_snapshot(record, rules, names, engine_rows, decoded)
        if match is None:
            at: list[int | None] = [None]

            def tracked() -> Iterator[Event]:
                for e, event in zip(engine_rows, decoded, strict=True):
                    at[0] = e.seq
                    yield event

            try:
                match = Match.replay(rules, names, tracked(), row.engine_version)
            except Exception as exc:  # any event that does not apply fails this game only
                raise errors.GameCorrupt(
                    row.id, f"{exc} (engine version {row.engine_version})", at[0]
                ) from None
    elif row.status is GameStatus.ACTIVE or row.status is GameStatus.FINISHED:
        raise errors.GameCorrupt(row.id, f"a game marked {row.status} has no deal")
    if match is not None and match.round is None:
        raise errors.GameCorrupt(row.id, "the game has moves but no deal")
    return _Game(row, record.seats, rules, match, len(events))


def _rounds_json(m: Match) -> str:
    """The results of the rounds played so far, as a position writes them."""
    return json.dumps(to_position(m)["rounds"], separators=(",", ":"))


def _from_snapshot(
    record: GameRecord,
    rules: Rules,
    names: list[str],
    rows: list[EventRow],
    decoded: list[Event],
) -> Match | None:
    """The match rebuilt from its latest round snapshot, or None to replay everything."""
    assert record.snapshot is not None
    seq, rounds_json = record.snapshot
    start = next((i for i, e in enumerate(rows) if e.seq == seq), None)
    try:
        first = decoded[start] if start is not None else None
        if not isinstance(first, RoundStarted):
            raise ValueError(f"event {seq} is not a deal")
        rounds = json.loads(rounds_json)
        # from_position does not check these, so a damaged snapshot is caught here.
        for r in rounds:
            scores, out = r["scores"], r["went_out"]
            if len(scores) != len(names) or not all(type(x) is int for x in scores):
                raise ValueError(f"round scores {scores!r} do not fit {len(names)} players")
            if out is not None and (type(out) is not int or not 0 <= out < len(names)):
                raise ValueError(f"no seat {out!r} to go out")
        if len(rounds) != first.round_no:
            raise ValueError(f"{len(rounds)} rounds before round {first.round_no + 1}")
        match = from_position(
            {
                "format": POSITION_FORMAT,
                "engine_version": record.game.engine_version,
                "rules": rules.to_dict(),
                "names": names,
                "rounds": rounds,
                "current_round": None,
            }
        )
        match.events.extend(decoded[:start])
        for event in decoded[start:]:
            if isinstance(event, RoundStarted):
                if event.round_no != match.rounds_played:
                    raise ValueError(f"round {event.round_no + 1} out of order")
                match.start_round(event.order)
            else:
                match.apply(event.move, event.seat)
    except Exception as exc:
        # A snapshot is only a shortcut: the full replay decides (and names a bad event).
        log.warning("game %s: round snapshot %s not used (%s)", record.game.id, seq, exc)
        return None
    return match


#: Decoded move events by (max_pip, players, payload). The same few thousand move strings recur
#: in every game, and decoding them is a third of a cold load; the events are immutable values,
#: so sharing them between games is safe. Bounded by clearing, not by LRU: cheap and enough.
_MOVE_EVENTS: dict[tuple[int, int, str], Event] = {}
_MOVE_EVENTS_MAX = 50_000


def _decode(row: EventRow, rules: Rules, players: int) -> Event:
    """One stored engine event, through the engine's own decoder (memoised for moves)."""
    if row.kind != "move":
        return event_from_dict(json.loads(row.payload), rules, players)
    key = (rules.max_pip, players, row.payload)
    event = _MOVE_EVENTS.get(key)
    if event is None:
        event = event_from_dict(json.loads(row.payload), rules, players)
        if len(_MOVE_EVENTS) >= _MOVE_EVENTS_MAX:
            _MOVE_EVENTS.clear()
        _MOVE_EVENTS[key] = event
    return event


def _standings(m: Match, players: tuple[Player, ...]) -> tuple[Standing, ...]:
    winners = set(m.winners())
    totals = m.totals
    n = len(players)

    def better(a: int, b: int) -> bool:
        if totals[a] != totals[b]:
            return totals[a] < totals[b]
        return a in winners and b not in winners

    places = [1 + sum(better(o, s) for o in range(n)) for s in range(n)]
    order = sorted(range(n), key=lambda s: (places[s], s))
    return tuple(
        Standing(
            players[s],
            totals[s],
            places[s],
            sum(1 for r in m.results if r.went_out == s),
            s in winners,
        )
        for s in order
    )


def _need_lobby(g: _Game) -> None:
    if g.row.status is not GameStatus.LOBBY:
        raise errors.WrongPhase(
            "the game has already started"
            if g.row.status is GameStatus.ACTIVE
            else "the game is over",
            code="not-lobby",
        )


def _need_active(g: _Game) -> None:
    status = g.row.status
    if status is GameStatus.LOBBY:
        raise errors.WrongPhase("the game has not started yet", code="not-started")
    if status is not GameStatus.ACTIVE or g.match is None:
        raise errors.WrongPhase("the game is over", code="game-over")


def _need_unfinished(g: _Game) -> None:
    if not g.row.status.unfinished:
        raise errors.WrongPhase("the game is over", code="game-over")


def _need_host(g: _Game, user_id: int, is_manager: bool, action: str) -> None:
    if user_id != g.row.host_id and not is_manager:
        raise errors.NotHost(action)


def _seated(g: _Game, user_id: int, *, any_seat: bool = False) -> Player:
    """The human seat of ``user_id`` (``any_seat``: also one a computer took over)."""
    for s in g.seats:
        if s.user_id == user_id and (s.computer is None or any_seat):
            return _players(g.seats)[s.seat]
    raise errors.NotInGame()


def _seat_row(g: _Game, seat: int) -> SeatRow:
    if not 0 <= seat < len(g.seats):
        raise errors.NoSuchSeat(f"there is no seat {seat + 1}", seat=seat)
    return g.seats[seat]


def _dealt(g: _Game) -> Match:
    if g.match is None or g.match.round is None:
        raise errors.WrongPhase("the game has not started yet", code="not-started")
    return g.match
