"""Playing across time zones: turn deadlines, reminders, absent and away players, stalled games.

The database is the source of truth. Every piece of work is a ``due_work`` row (migration 5)
naming its game, its kind and the turn it was planned for (``turn_key`` = ``"seat@turn_since"``):

* a move that starts a turn plans that turn's rows in its own transaction (a commit hook on
  :class:`GameService`): the ``timeout`` at the deadline, a ``remind`` before it, and ``away``
  at once when the player is away; the rows of the previous turn go in the same breath;
* triggers keep one ``stall`` row per unfinished game at "last change + N days".

:meth:`ScheduleService.handle` does one row's work at ``now`` and checks first that the row
still describes the game (same turn, same player, still away…): a row that outlived its turn is
a no-op, so a restart, a second process or a late tick can never play or remind twice. State
changes (a move for an absent player, closing a stalled game) commit before anything is posted;
messages (reminders, warnings) are acknowledged after the Discord layer has delivered them.

:class:`~bot.service.scheduler.Scheduler` is the loop: run what is due, ask the store for the
next due time, sleep until then or until it is woken; the time rules, the notices and the
players' settings and questions are in :mod:`bot.service.timing`. Time is injected
everywhere (``now``, a clock), so tests move time forward instead of sleeping. Nothing here
knows Discord.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any, Protocol

from bot.engine import DONE, DRAW, PASS, Move, view_for
from bot.engine.ai import Level
from bot.service.commit import Commit
from bot.service.daily import DailyDigests
from bot.service.games import GameService
from bot.service.outcome import Player, played_for, players_of, summarise
from bot.service.replay import LoadedGame, standings_so_far
from bot.service.timing import (
    NUDGE_INTERVAL,
    RETRY_AFTER,
    STALL_GRACE,
    Notice,
    Policy,
    Reminder,
    SchedulePlayers,
    StallClosed,
    StallWarning,
    TurnPlayed,
    quiet_until,
    reminder_time,
    row_turn_key,
)
from bot.store import GameRow, GameStatus, NewEvent, ResultRow, SeatRow, Tx
from bot.store.schedule import (
    DueRow,
    ScheduleStore,
    ScheduleTx,
)

log = logging.getLogger(__name__)


# ---------------------------------------------------------------------- the service


class SideWork(Protocol):
    """Work the scheduler's loop runs beside the games' due rows (it wakes for its due time)."""

    async def next_due(self) -> datetime | None: ...

    async def run_due(self, now: datetime) -> int:
        """Do what is due at ``now``; how many pieces of work were done."""
        ...


class ScheduleService:
    """Deadlines, reminders, absent players and stalled games over a :class:`GameService`."""

    def __init__(
        self,
        games: GameService,
        *,
        stall_grace: timedelta = STALL_GRACE,
        nudge_interval: timedelta = NUDGE_INTERVAL,
        level: Level = Level.NORMAL,
    ) -> None:
        self.games = games
        self.rows = ScheduleStore(games.store)
        self.stall_grace = stall_grace
        self.nudge_interval = nudge_interval
        self.level = level
        #: When the scheduler's loop next looks at the due rows (None: it is looking now, or
        #: no loop runs), and what makes it look sooner: a move plans its turn's work in its
        #: own commit and wakes the loop only for work due before that look — so a move does
        #: not run a scheduler pass for a reminder hours away (issue 33).
        self.next_look: datetime | None = None
        self.look_sooner = asyncio.Event()
        self._planned: dict[int, datetime] = {}
        #: Work of other features the loop also runs (the seasons' ends: issue 48).
        self.side_work: list[SideWork] = []
        games.add_commit_hook(self._plan_turn, self._turn_planned)
        #: The players' and servers' choices, and the questions players ask (nudge, mygames).
        self.players = SchedulePlayers(games, self.rows, nudge_interval=nudge_interval)
        self.game_schedule = self.players.game_schedule
        self.set_game_schedule = self.players.set_game_schedule
        self.guild_schedule = self.players.guild_schedule
        self.default_deadline = self.players.default_deadline
        self.update_guild_schedule = self.players.update_guild_schedule
        self.my_settings = self.players.my_settings
        self.turn_ping = self.players.turn_ping
        self.update_my_settings = self.players.update_my_settings
        self.set_away = self.players.set_away
        self.my_finished = self.players.my_finished
        self.nudge = self.players.nudge
        self.my_games = self.players.my_games
        self.away_players = self.players.away_players
        #: Each player's daily digest (issue 46), due beside the rows above.
        self.digests = DailyDigests(games.store)

    # ================================================================== planning

    async def _plan_turn(
        self, tx: Tx, before: GameRow, after: GameRow, seats: tuple[SeatRow, ...], now: datetime
    ) -> None:
        """The commit hook: a new turn gets its work (the old turn's went with it, by the
        ``due_work_turn`` trigger). Two statements per new turn, none otherwise."""
        key = row_turn_key(after)
        seat = seats[after.turn_seat] if key is not None and after.turn_seat is not None else None
        human = seat is not None and seat.computer is None and seat.user_id is not None
        if key == row_turn_key(before):
            if key is not None and not human:  # the player to move was replaced mid-turn
                await ScheduleTx(tx).clear_turn_work(after.id)
            return
        if key is None or not human or after.turn_since is None:
            return
        assert seat is not None and seat.user_id is not None
        w = ScheduleTx(tx)
        uid = seat.user_id
        reminders_on, remind_after_s, away, before_s = await w.turn_facts(after.id, uid)
        rows = []
        if after.deadline_at is not None:
            rows.append(DueRow(after.id, "timeout", key, uid, after.deadline_at))
        if reminders_on:
            when = reminder_time(
                after.turn_since,
                after.deadline_at,
                remind_before=None if before_s is None else timedelta(seconds=before_s),
                remind_after=timedelta(seconds=remind_after_s),
            )
            if when is not None:
                rows.append(DueRow(after.id, "remind", key, uid, when))
        if away:
            rows.append(DueRow(after.id, "away", key, uid, now))
        await w.put_dues(rows)
        if rows:
            self._planned[after.id] = min(r.due_at for r in rows)

    def _turn_planned(self, game_id: int) -> None:
        """Once a move's commit planned its turn's work: wake the scheduler's loop if that work
        is due before it looks anyway (after the commit, so the loop sees the rows)."""
        when = self._planned.pop(game_id, None)
        if when is not None and (self.next_look is None or when < self.next_look):
            self.look_sooner.set()

    # ================================================================== due work

    async def record_messages(
        self, rows: Sequence[tuple[int, str, int, int]], now: datetime
    ) -> None:
        """Keep where each game's latest messages are — (game, kind, channel, message), games
        gone meanwhile skipped — in one transaction (the Discord layer batches them)."""
        async with self.games.store.transaction() as tx:
            await ScheduleTx(tx).set_messages(rows, now)

    async def next_due(self) -> datetime | None:
        return await self.rows.next_due()

    async def due(self, now: datetime, limit: int = 50) -> list[DueRow]:
        return await self.rows.due(now, limit)

    async def claim(self, now: datetime, limit: int, owner: str, lease: timedelta) -> list[DueRow]:
        """Due rows leased to ``owner`` alone (see :meth:`bot.store.Store.claim_due`): the
        scheduler of each process of a cluster asks this, so each row is handled once."""
        return await self.rows.claim_due(now, limit, owner, lease)

    async def release(self, owner: str) -> int:
        """A stopping process gives back the rows it claimed and did not finish."""
        return await self.games.store.release_claims(owner)

    async def handle(self, due: DueRow, now: datetime) -> Notice | None:
        """Do one row's work at ``now``; None when there is nothing to tell (stale, deferred)."""
        if due.kind == "remind":
            return await self._remind(due, now)
        if due.kind in ("timeout", "away"):
            return await self._play_for_absent(due, now)
        if due.kind == "stall":
            return await self._stall(due, now)
        await self._finish(due)  # an unknown kind (a newer release's?): do not loop on it
        return None

    async def done(self, notice: Notice, now: datetime) -> None:
        """The Discord layer delivered ``notice``: acknowledge its row."""
        due = notice.due
        if isinstance(notice, Reminder):
            async with self.games.store.transaction() as tx:
                w = ScheduleTx(tx)
                await w.finish_due(due)
                await w.log_reminder(due.game_id, notice.user_id, "turn", due.due_at, now)
        elif isinstance(notice, StallWarning):
            async with self.games.store.transaction() as tx:
                await ScheduleTx(tx).move_due(due, "close", notice.closes_at)

    async def retry_later(self, due: DueRow, now: datetime) -> None:
        """The row's work failed: try again later rather than at once, over and over."""
        async with self.games.store.transaction() as tx:
            await ScheduleTx(tx).move_due(due, due.turn_key, now + RETRY_AFTER)

    async def _finish(self, due: DueRow) -> None:
        async with self.games.store.transaction() as tx:
            await ScheduleTx(tx).finish_due(due)

    async def _current(self, due: DueRow) -> tuple[GameRow, tuple[SeatRow, ...]] | None:
        """The game if the row still describes its turn (same turn, same human), else None."""
        row = await self.games.store.game(due.game_id)
        if row is None or row_turn_key(row) != due.turn_key or row.turn_seat is None:
            return None
        seats = tuple(await self.games.store.seats(due.game_id))
        if not 0 <= row.turn_seat < len(seats):
            return None
        seat = seats[row.turn_seat]
        if seat.computer is not None or seat.user_id is None or seat.user_id != due.user_id:
            return None
        return row, seats

    async def _remind(self, due: DueRow, now: datetime) -> Reminder | None:
        current = await self._current(due)
        if current is None:
            await self._finish(due)
            return None
        row, seats = current
        uid = due.user_id
        assert uid is not None
        settings = await self.games.store.user_settings(uid)
        mine = await self.rows.user_schedule(uid)
        if not settings.reminders or (row.deadline_at is not None and row.deadline_at <= now):
            # Off, or too late to help (e.g. the bot was down): the deadline's policy acts.
            await self._finish(due)
            return None
        wait = quiet_until(now, settings.time_zone, mine.quiet_start, mine.quiet_end)
        if wait is not None:
            async with self.games.store.transaction() as tx:
                w = ScheduleTx(tx)
                if row.deadline_at is not None and wait >= row.deadline_at:
                    # Asleep until after the deadline: no ping at night; the policy will act.
                    await w.finish_due(due)
                else:
                    await w.move_due(due, due.turn_key, wait)
            return None
        return Reminder(
            due,
            summarise(row, seats),
            uid,
            dm=mine.remind_dm and settings.dms_open,
            language=settings.language,
        )

    async def play_away_turn(self, game_id: int, user_id: int, now: datetime) -> TurnPlayed | None:
        """Play an away player's turn now, exactly as the scheduler's ``away`` row would (same
        event, same policy, same fact), so the Discord layer can tell it in the post of the
        move that made it their turn instead of a post of its own. None, and nothing changed,
        when it is not ``user_id``'s turn in an active game or they are no longer away.

        The turn's ``away`` row, planned when the turn began, goes with the turn (the
        ``due_work_turn`` trigger); a tick that read it before is stale and finishes it."""
        if not (await self.rows.user_schedule(user_id)).away:
            return None  # the common case, told without taking the game's lock
        svc = self.games
        async with svc.ledger.commit(game_id, now) as c:
            key = row_turn_key(c.game.row)
            if key is None:
                return None
            due = DueRow(game_id, "away", key, user_id, now)
            if await self._stale(c.game, due, now):
                return None
            return await self._play_locked(c, due)

    async def _play_for_absent(self, due: DueRow, now: datetime) -> TurnPlayed | None:
        """A deadline passed, or the player is away: their turn is played for them."""
        async with self.games.ledger.commit(due.game_id, now) as c:
            if await self._stale(c.game, due, now):
                await self._finish(due)
                return None
            return await self._play_locked(c, due)

    async def _stale(self, g: LoadedGame, due: DueRow, now: datetime) -> bool:
        """True when ``due`` no longer describes the game: another turn, another player, a
        deadline not passed (``timeout``), a player back (``away``)."""
        m = g.match
        seat_no = g.row.turn_seat
        uid = due.user_id
        stale = (
            row_turn_key(g.row) != due.turn_key
            or m is None
            or m.round is None
            or seat_no is None
            or m.round.current_seat != seat_no
            or g.seats[seat_no].computer is not None
            or g.seats[seat_no].user_id != uid
        )
        if not stale and due.kind == "timeout":
            stale = g.row.deadline_at is None or g.row.deadline_at > now
        if not stale and due.kind == "away":
            assert uid is not None
            stale = not (await self.rows.user_schedule(uid)).away
        return stale

    async def _play_locked(self, c: Commit, due: DueRow) -> TurnPlayed:
        """Play the turn ``due`` describes (checked, under the game's lock) and commit it."""
        g = c.game
        m = g.match
        seat_no = g.row.turn_seat
        uid = due.user_id
        assert m is not None and seat_no is not None and uid is not None
        options = await self.rows.game_schedule(g.row.id)
        policy = Policy(options.timeout_policy) if due.kind == "timeout" else Policy.COMPUTER
        replaced = False
        seats = g.seats
        if due.kind == "timeout" and policy is Policy.REPLACE:
            missed = 1 + await self._missed_in_a_row(g.row.id, seat_no, uid)
            replaced = missed >= options.replace_after
        else:
            missed = 0
        if replaced:
            seats = tuple(
                dataclasses.replace(s, computer=self.level.value) if s.seat == seat_no else s
                for s in seats
            )
        if replaced:
            c.reseat(seats)
        payload: dict[str, Any] = {"seat": seat_no, "user": uid}
        if due.kind == "timeout":
            payload |= {"policy": policy.value, "missed": missed}
        c.event(due.kind, payload, None)
        if replaced:
            c.event(
                "replace",
                {"seat": seat_no, "user": uid, "computer": self.level.value, "by": None},
                None,
            )
        player = c.players[seat_no]
        shown = players_of(g.seats)[seat_no]  # the human, as the channel knows them
        await self._play_turn(c, seat_no, player, policy)
        pending = await c.after_move(0)
        mine = [s for s in c.steps if s.player.seat == seat_no]
        c.facts.insert(
            0,
            played_for(
                shown.name,
                seat_no,
                mine,
                user_id=uid,
                reason=due.kind,
                policy=policy.value,
                replaced=replaced,
                missed=missed,
            ),
        )
        outcome = await c.write(pending)
        return TurnPlayed(due, outcome, due.kind, shown, policy, replaced)

    async def _play_turn(self, c: Commit, seat_no: int, player: Player, policy: Policy) -> None:
        """Moves for ``seat_no`` until its turn is over (a drawn tile that fits is played)."""
        m = c.match
        assert m.round is not None
        round_no = m.round.round_no
        for _ in range(64):  # a turn is a handful of moves (a fast start, a draw and a play)
            rnd = m.round
            if (
                m.is_over
                or rnd is None
                or rnd.round_no != round_no
                or rnd.result is not None
                or rnd.current_seat != seat_no
            ):
                return
            move = await self._absent_move(c, seat_no, policy)
            applied = c.apply(player, move, None)
            c.knock_for(seat_no, None)  # a computer always knocks in time, and so for them
            if applied.turn_over:
                return

    async def _absent_move(self, c: Commit, seat_no: int, policy: Policy) -> Move:
        if policy is Policy.SKIP:
            legal = view_for(c.match, seat_no).legal
            for move in (DRAW, PASS, DONE):
                if move in legal:
                    return move
            # The rules force a play (a tile that fits must be played): the computer picks it.
        return await c.computer_move(seat_no, self.level)

    async def _missed_in_a_row(self, game_id: int, seat: int, user_id: int) -> int:
        """Deadlines this seat missed since its player last acted (from the event log)."""
        missed = 0
        for _, kind, payload, actor in await self.rows.tail_events(game_id, 2000):
            if actor == user_id:
                break
            if kind == "timeout":
                with contextlib.suppress(ValueError, TypeError, AttributeError):
                    if json.loads(payload).get("seat") == seat:
                        missed += 1
        return missed

    async def _stall(self, due: DueRow, now: datetime) -> StallWarning | StallClosed | None:
        row = await self.games.store.game(due.game_id)
        if row is None or not row.status.unfinished:
            await self._finish(due)
            return None
        seats = tuple(await self.games.store.seats(due.game_id))
        game = summarise(row, seats)
        if due.turn_key != "close":
            who = game.turn.user_id if game.turn is not None else game.host_id
            if who is not None:
                settings = await self.games.store.user_settings(who)
                mine = await self.rows.user_schedule(who)
                wait = quiet_until(now, settings.time_zone, mine.quiet_start, mine.quiet_end)
                if wait is not None:
                    async with self.games.store.transaction() as tx:
                        await ScheduleTx(tx).move_due(due, due.turn_key, wait)
                    return None
            idle = max(0, (now - row.updated_at).days)
            return StallWarning(due, game, who, idle, now + self.stall_grace)
        return await self._close_stalled(due, now)

    async def _close_stalled(self, due: DueRow, now: datetime) -> StallClosed | None:
        """Close a game nobody touched through its warning: status ``abandoned`` (nobody won),
        with the standings so far kept in ``results`` (``won`` is 0 for everyone)."""
        svc = self.games
        async with svc.ledger.commit(due.game_id, now) as c:
            g = c.game
            if not g.row.status.unfinished:
                await self._finish(due)
                return None
            standings = standings_so_far(g)
            results = tuple(
                ResultRow(
                    st.player.seat,
                    g.seats[st.player.seat].user_id,
                    g.seats[st.player.seat].computer,
                    st.total,
                    st.place,
                    False,
                    st.rounds_won,
                )
                for st in standings
            )
            # Written as it always was (json.dumps' own spacing), so old and new logs agree.
            c.events.append(NewEvent("end", json.dumps({"by": None, "reason": "stalled"}), None))
            columns = {
                "status": GameStatus.ABANDONED,
                "turn_seat": None,
                "turn_since": None,
                "deadline_at": None,
            }
            await c.write_for_replay(columns, results=results, owe=False)
            return StallClosed(due, await svc.game(g.row.id), standings)
