"""Deadlines, reminders, quiet hours, absent and away players, stalled games: with a fake clock.

Time only moves when a test says so; the scheduler's ``tick`` runs what is due at that time.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.engine import Draw, Pass, Play
from bot.service import FactCode, GameOptions, GameService, errors
from bot.service.schedule import ScheduleService
from bot.service.scheduler import Scheduler
from bot.service.timing import (
    Notice,
    Policy,
    Reminder,
    StallClosed,
    StallWarning,
    TurnPlayed,
    quiet_until,
    reminder_time,
)
from bot.store import GameStatus, Store
from tests.clock import FakeClock
from tests.service.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, NAMES
from tests.service.helpers import pick

HOUR = timedelta(hours=1)


class Rig:
    """A store, the game service, the schedule service and a scheduler recording notices."""

    def __init__(self, store: Store, clock: FakeClock) -> None:
        self.store = store
        self.clock = clock
        self.games = GameService(store, cache_size=8, rng=random.Random(7))
        self.schedule = ScheduleService(self.games)
        self.told: list[Notice] = []
        self.scheduler = Scheduler(self.schedule, clock, self._deliver, send_interval=0)

    async def _deliver(self, notice: Notice) -> None:
        self.told.append(notice)

    async def tick(self, seconds: float = 0) -> list[Notice]:
        """Move time on, run what is due, return what was told."""
        self.clock.tick(seconds)
        before = len(self.told)
        await self.scheduler.tick()
        return self.told[before:]

    async def new_game(
        self,
        *,
        humans: tuple[int, ...] = (ALICE, BOB),
        deadline: timedelta | None = 24 * HOUR,
        policy: Policy | None = None,
        replace_after: int | None = None,
        channel: int = CHANNEL,
        guild: int = GUILD,
    ) -> int:
        host, *others = humans
        out = await self.games.create_lobby(
            guild_id=guild,
            channel_id=channel,
            user_id=host,
            display_name=NAMES[host],
            now=self.clock.tick(),
            preset_name="quick",
            options=GameOptions(turn_deadline=deadline),
        )
        gid = out.game.id
        await self.schedule.set_game_schedule(gid, policy=policy, replace_after=replace_after)
        for u in others:
            await self.games.join(gid, u, NAMES[u], self.clock.tick())
        await self.games.start(gid, host, self.clock.tick())
        return gid

    async def to_move(self, gid: int) -> int:
        turn = (await self.games.game(gid)).turn
        assert turn is not None and turn.user_id is not None
        return turn.user_id

    async def play(self, gid: int) -> None:
        uid = await self.to_move(gid)
        view = await self.games.seat_view(gid, uid)
        await self.games.move(gid, uid, pick(view.legal), self.clock.tick())


@pytest.fixture
async def rig(db_target: str | Path, clock: FakeClock) -> AsyncIterator[Rig]:
    store = await Store.open(db_target, synchronous="NORMAL")
    try:
        yield Rig(store, clock)
    finally:
        await store.close()


# ---------------------------------------------------------------------- pure time rules


def test_reminder_time_is_half_the_deadline_or_before_it() -> None:
    start = datetime(2025, 3, 1, tzinfo=UTC)
    assert reminder_time(start, start + 24 * HOUR) == start + 12 * HOUR
    assert reminder_time(start, start + 24 * HOUR, remind_before=2 * HOUR) == start + 22 * HOUR
    # Asking for a reminder before the turn began falls back to half-way.
    assert reminder_time(start, start + HOUR, remind_before=3 * HOUR) == start + HOUR / 2
    assert reminder_time(start, None, remind_after=5 * HOUR) == start + 5 * HOUR


def test_quiet_hours_follow_daylight_saving_in_new_york_in_march() -> None:
    ny = "America/New_York"  # clocks go forward on 2025-03-09 at 02:00 (EST -5 -> EDT -4)
    # Midnight EST on March 9 is 05:00 UTC: quiet (22-8) until 08:00 EDT = 12:00 UTC, not 13:00.
    assert quiet_until(datetime(2025, 3, 9, 5, tzinfo=UTC), ny, 22, 8) == datetime(
        2025, 3, 9, 12, tzinfo=UTC
    )
    # A week earlier the same wall-clock end is 13:00 UTC.
    assert quiet_until(datetime(2025, 3, 2, 5, tzinfo=UTC), ny, 22, 8) == datetime(
        2025, 3, 2, 13, tzinfo=UTC
    )
    # 23:30 EST on March 8 (04:30 UTC March 9): quiet until the next morning, 08:00 EDT.
    assert quiet_until(datetime(2025, 3, 9, 4, 30, tzinfo=UTC), ny, 22, 8) == datetime(
        2025, 3, 9, 12, tzinfo=UTC
    )
    # Awake at 09:00 EDT (13:00 UTC).
    assert quiet_until(datetime(2025, 3, 9, 13, tzinfo=UTC), ny, 22, 8) is None
    # An end hour inside the skipped hour (02:00-03:00) lands just after the gap.
    assert quiet_until(datetime(2025, 3, 9, 5, tzinfo=UTC), ny, 0, 2) == datetime(
        2025, 3, 9, 7, tzinfo=UTC
    )


def test_quiet_hours_follow_daylight_saving_in_paris_in_october() -> None:
    paris = "Europe/Paris"  # clocks go back on 2025-10-26 at 03:00 (CEST +2 -> CET +1)
    # 00:00 CEST on October 26 is 22:00 UTC on the 25th: quiet (23-7) until 07:00 CET = 06:00 UTC.
    assert quiet_until(datetime(2025, 10, 25, 22, tzinfo=UTC), paris, 23, 7) == datetime(
        2025, 10, 26, 6, tzinfo=UTC
    )
    # The night before, 07:00 CEST is 05:00 UTC.
    assert quiet_until(datetime(2025, 10, 24, 22, tzinfo=UTC), paris, 23, 7) == datetime(
        2025, 10, 25, 5, tzinfo=UTC
    )
    # Daytime quiet hours (13-14) do not wrap.
    assert quiet_until(datetime(2025, 10, 25, 11, 30, tzinfo=UTC), paris, 13, 14) == datetime(
        2025, 10, 25, 12, tzinfo=UTC
    )
    assert quiet_until(datetime(2025, 10, 25, 10, tzinfo=UTC), paris, 13, 14) is None
    assert quiet_until(datetime(2025, 10, 25, 10, tzinfo=UTC), paris, 9, 9) is None


# ---------------------------------------------------------------------- deadlines, reminders


async def test_a_turn_plans_its_timeout_and_reminder_in_the_move_transaction(rig: Rig) -> None:
    gid = await rig.new_game()
    game = await rig.games.game(gid)
    work = {w.kind: w for w in await rig.schedule.rows.work_for(gid)}
    assert game.deadline_at is not None and game.turn_since is not None
    assert work["timeout"].due_at == game.deadline_at
    assert work["remind"].due_at == game.turn_since + 12 * HOUR
    assert work["timeout"].user_id == game.turn.user_id if game.turn else False
    assert work["stall"].turn_key == "warn"
    assert await rig.schedule.next_due() == work["remind"].due_at
    # A move replaces the old turn's work with the new turn's.
    await rig.play(gid)
    game = await rig.games.game(gid)
    assert game.turn_since is not None
    new = {w.kind: w for w in await rig.schedule.rows.work_for(gid)}
    assert new["remind"].due_at == game.turn_since + 12 * HOUR
    assert new["remind"].turn_key != work["remind"].turn_key


async def test_reminder_is_sent_once_at_half_the_deadline(rig: Rig) -> None:
    gid = await rig.new_game()
    uid = await rig.to_move(gid)
    assert await rig.tick(11 * 3600) == []
    told = await rig.tick(3600)
    assert len(told) == 1 and isinstance(told[0], Reminder)
    assert told[0].user_id == uid and not told[0].dm
    assert await rig.tick(60) == []
    assert await rig.schedule.next_due() == (await rig.games.game(gid)).deadline_at


async def test_a_reminder_for_a_turn_that_moved_on_is_not_sent(rig: Rig) -> None:
    gid = await rig.new_game()
    first = await rig.to_move(gid)
    rig.clock.tick(11 * 3600)
    await rig.play(gid)
    told = await rig.tick(3600 + 60)
    assert told == []  # the first player's reminder went with their turn
    told = await rig.tick(11 * 3600)
    assert (
        [n.user_id for n in told if isinstance(n, Reminder)] == [await rig.to_move(gid)] != [first]
    )


async def test_reminders_wait_for_quiet_hours_to_end_in_the_players_zone(rig: Rig) -> None:
    # Turn starts 2025-03-08 17:00 UTC; 24 h deadline; reminder due 05:00 UTC March 9, which is
    # midnight in New York: quiet (22-8) until 08:00 EDT = 12:00 UTC (DST began at 02:00).
    rig.clock.now = datetime(2025, 3, 8, 16, 59, 57, tzinfo=UTC)
    gid = await rig.new_game()
    uid = await rig.to_move(gid)
    await rig.schedule.update_my_settings(
        uid, rig.clock(), time_zone="America/New_York", quiet_start=22, quiet_end=8
    )
    turn_since = (await rig.games.game(gid)).turn_since
    assert turn_since is not None
    rig.clock.now = turn_since + 12 * HOUR
    assert await rig.tick() == []
    remind = next(w for w in await rig.schedule.rows.work_for(gid) if w.kind == "remind")
    assert remind.due_at == datetime(2025, 3, 9, 12, tzinfo=UTC)
    rig.clock.now = datetime(2025, 3, 9, 11, 59, tzinfo=UTC)
    assert await rig.tick() == []
    told = await rig.tick(60)
    assert len(told) == 1 and isinstance(told[0], Reminder) and told[0].user_id == uid


async def test_a_reminder_in_quiet_hours_waits_across_the_october_change_in_paris(
    rig: Rig,
) -> None:
    # Turn from 10:00 UTC on October 25 (24 h): the reminder falls at 22:00 UTC, 00:00 CEST on
    # the night clocks go back; quiet hours 23-7 end at 07:00 CET = 06:00 UTC (not 05:00).
    rig.clock.now = datetime(2025, 10, 25, 9, 59, 57, tzinfo=UTC)
    gid = await rig.new_game()
    uid = await rig.to_move(gid)
    await rig.schedule.update_my_settings(
        uid, rig.clock(), time_zone="Europe/Paris", quiet_start=23, quiet_end=7
    )
    rig.clock.now = datetime(2025, 10, 25, 22, 0, 1, tzinfo=UTC)
    assert await rig.tick() == []
    rig.clock.now = datetime(2025, 10, 26, 5, 30, tzinfo=UTC)  # 06:30 CET: still quiet
    assert await rig.tick() == []
    rig.clock.now = datetime(2025, 10, 26, 6, 0, tzinfo=UTC)
    told = await rig.tick()
    assert len(told) == 1 and isinstance(told[0], Reminder) and told[0].user_id == uid


async def test_a_reminder_that_would_wake_someone_after_the_deadline_is_dropped(
    rig: Rig,
) -> None:
    rig.clock.now = datetime(2025, 10, 25, 20, 59, 57, tzinfo=UTC)
    gid = await rig.new_game(deadline=2 * HOUR)
    uid = await rig.to_move(gid)
    await rig.schedule.update_my_settings(
        uid, rig.clock(), time_zone="Europe/Paris", quiet_start=23, quiet_end=7
    )
    # Reminder due at 22:00 UTC = 00:00 CEST: quiet until 06:00 UTC, past the 23:00 deadline.
    assert await rig.tick(3600) == []
    assert [w.kind for w in await rig.schedule.rows.work_for(gid)] == ["timeout", "stall"]


async def test_reminders_by_dm_only_for_those_who_opted_in(rig: Rig) -> None:
    gid = await rig.new_game()
    uid = await rig.to_move(gid)
    await rig.schedule.update_my_settings(uid, rig.clock(), reminder_dms=True)
    told = await rig.tick(12 * 3600)
    assert isinstance(told[0], Reminder) and told[0].dm
    # Reminders off: nothing at all.
    await rig.play(gid)
    other = await rig.to_move(gid)
    await rig.schedule.update_my_settings(other, rig.clock(), reminders=False)
    await rig.play(gid)  # their turn was planned before; the next one is planned without
    assert all(n.user_id != other for n in await rig.tick(13 * 3600) if isinstance(n, Reminder))


# ---------------------------------------------------------------------- timeouts


async def test_timeout_computer_plays_that_one_turn_once(rig: Rig) -> None:
    gid = await rig.new_game()
    uid = await rig.to_move(gid)
    await rig.tick(12 * 3600)  # the reminder
    told = await rig.tick(12 * 3600)
    played = [n for n in told if isinstance(n, TurnPlayed)]
    assert len(played) == 1 and played[0].reason == "timeout"
    assert played[0].player.user_id == uid and not played[0].replaced
    steps = played[0].outcome.steps
    assert steps and all(s.player.seat == played[0].player.seat for s in steps)
    game = await rig.games.game(gid)
    assert game.turn is not None and game.turn.user_id != uid
    assert game.player(uid) is not None  # still their seat
    assert await rig.tick(60) == []
    events = await rig.schedule.rows.tail_events(gid, 10)
    assert any(kind == "timeout" for _, kind, _, _ in events)


async def test_timeout_skip_draws_and_passes_or_plays_only_what_the_rules_force(
    rig: Rig,
) -> None:
    await rig.new_game(policy=Policy.SKIP)
    seen: list[type] = []
    for _ in range(6):
        told = await rig.tick(24 * 3600)
        for n in told:
            if isinstance(n, TurnPlayed):
                assert n.policy is Policy.SKIP
                seen += [type(s.move) for s in n.outcome.steps if s.player == n.player]
    assert seen and set(seen) <= {Draw, Pass, Play}
    # A play only ever follows a draw whose tile had to be played, or a hand with a fit.
    assert Draw in seen or Play in seen


async def test_timeout_replace_after_two_misses_in_a_row(rig: Rig) -> None:
    gid = await rig.new_game(humans=(ALICE, BOB, CAROL), policy=Policy.REPLACE, replace_after=2)
    first = await rig.to_move(gid)
    replaced: list[TurnPlayed] = []
    for _ in range(8):
        for n in await rig.tick(24 * 3600):
            if isinstance(n, TurnPlayed) and n.replaced:
                replaced.append(n)
        if replaced:
            break
    assert replaced and replaced[0].player.user_id == first
    game = await rig.games.game(gid)
    seat = game.players[replaced[0].player.seat]
    assert seat.is_computer and game.player(first) is None
    # A player who acts resets their count: they are not replaced after one more miss.
    uid = await rig.to_move(gid)
    me = game.player(uid)
    assert me is not None
    await rig.play(gid)
    assert await rig.schedule._missed_in_a_row(gid, me.seat, uid) == 0


async def test_restart_sends_a_reminder_due_while_down_once(
    db_target: str | Path, clock: FakeClock
) -> None:
    store = await Store.open(db_target, synchronous="NORMAL")
    rig = Rig(store, clock)
    gid = await rig.new_game()
    uid = await rig.to_move(gid)
    await store.close()
    clock.tick(13 * 3600)  # down while the reminder fell due
    for attempt in range(2):
        store = await Store.open(db_target, synchronous="NORMAL")
        try:
            rig = Rig(store, clock)
            told = await rig.tick()
            if attempt == 0:
                assert len(told) == 1 and isinstance(told[0], Reminder)
                assert told[0].user_id == uid
            else:
                assert told == []  # sent once, even across another restart
        finally:
            await store.close()


async def test_restart_plays_a_timeout_due_while_down_once(
    db_target: str | Path, clock: FakeClock
) -> None:
    store = await Store.open(db_target, synchronous="NORMAL")
    rig = Rig(store, clock)
    gid = await rig.new_game()
    uid = await rig.to_move(gid)
    await store.close()
    clock.tick(30 * 3600)  # the reminder and the deadline both passed meanwhile
    store = await Store.open(db_target, synchronous="NORMAL")
    try:
        rig = Rig(store, clock)
        told = await rig.tick()
        # The late reminder is dropped (it can no longer help); the turn is played once.
        assert [type(n) for n in told] == [TurnPlayed]
        assert isinstance(told[0], TurnPlayed) and told[0].player.user_id == uid
        await store.close()
        store = await Store.open(db_target, synchronous="NORMAL")
        rig = Rig(store, clock)
        assert await rig.tick() == []
        assert (await rig.games.game(gid)).turn != told[0].player
    finally:
        await store.close()


# ---------------------------------------------------------------------- away


async def test_away_turns_are_played_at_once_until_the_player_returns(rig: Rig) -> None:
    gid = await rig.new_game()
    uid = await rig.to_move(gid)
    games = await rig.schedule.set_away(uid, True, rig.clock())
    assert [g.id for g in games] == [gid]
    told = await rig.tick()
    played = [n for n in told if isinstance(n, TurnPlayed)]
    assert len(played) == 1 and played[0].reason == "away" and played[0].player.user_id == uid
    other = await rig.to_move(gid)
    assert other != uid
    # The next time it is their turn, it is played at once again.
    await rig.play(gid)
    game = await rig.games.game(gid)
    if game.status is GameStatus.ACTIVE and game.turn and game.turn.user_id == uid:
        assert any(isinstance(n, TurnPlayed) for n in await rig.tick())
    await rig.schedule.set_away(uid, False, rig.clock())
    assert all(w.kind != "away" for w in await rig.schedule.rows.work_for(gid))


async def test_an_away_turn_is_played_on_request_once_and_its_row_goes_with_it(
    rig: Rig,
) -> None:
    gid = await rig.new_game()
    first = await rig.to_move(gid)
    other = BOB if first == ALICE else ALICE
    # Not away: nothing played.
    assert await rig.schedule.play_away_turn(gid, first, rig.clock()) is None
    await rig.schedule.set_away(other, True, rig.clock())
    version = (await rig.games.game(gid)).version
    # Away, but not their turn: nothing played.
    assert await rig.schedule.play_away_turn(gid, other, rig.clock()) is None
    assert (await rig.games.game(gid)).version == version
    await rig.play(gid)  # now it is the away player's turn: its row is planned at once
    assert [w.kind for w in await rig.schedule.rows.work_for(gid)].count("away") == 1
    played = await rig.schedule.play_away_turn(gid, other, rig.clock.tick())
    assert played is not None and played.reason == "away" and played.player.user_id == other
    assert played.policy is Policy.COMPUTER and not played.replaced
    fact = played.outcome.facts[0]
    assert fact.code == FactCode.TURN_PLAYED_FOR and fact.params["reason"] == "away"
    assert {s.player.seat for s in played.outcome.steps} == {played.player.seat}
    kinds = [k for _, k, _, _ in await rig.schedule.rows.tail_events(gid, 10)]
    assert "away" in kinds
    # The turn's away row went with the turn: the scheduler has nothing to play or tell.
    assert all(w.kind != "away" for w in await rig.schedule.rows.work_for(gid))
    assert not [n for n in await rig.tick() if isinstance(n, TurnPlayed)]
    assert (await rig.games.game(gid)).status is GameStatus.ACTIVE
    assert await rig.to_move(gid) == first
    # Played once: asking again for the same player finds it is not their turn.
    assert await rig.schedule.play_away_turn(gid, other, rig.clock()) is None
    # Back: their next turn is theirs again.
    await rig.schedule.set_away(other, False, rig.clock())
    for _ in range(10):  # a double played gives its player another move
        if await rig.to_move(gid) == other:
            break
        await rig.play(gid)
    assert await rig.to_move(gid) == other
    version = (await rig.games.game(gid)).version
    assert await rig.schedule.play_away_turn(gid, other, rig.clock()) is None
    assert (await rig.games.game(gid)).version == version


async def test_an_away_turn_played_on_request_is_the_one_the_scheduler_plays(
    tmp_path: Path,
) -> None:
    """Same deal, same moves: asked for, or found due by the scheduler, the turn is the same
    (event, moves, line's facts)."""
    results = []
    for name, by_request in (("tick.sqlite", False), ("asked.sqlite", True)):
        store = await Store.open(tmp_path / name, synchronous="NORMAL")
        try:
            r = Rig(store, FakeClock())
            gid = await r.new_game()
            first = await r.to_move(gid)
            other = BOB if first == ALICE else ALICE
            await r.schedule.set_away(other, True, r.clock())
            await r.play(gid)
            if by_request:
                played = await r.schedule.play_away_turn(gid, other, r.clock.tick())
            else:
                r.clock.tick()
                told = [n for n in await r.tick() if isinstance(n, TurnPlayed)]
                played = told[0] if told else None
            assert played is not None
            events = [(k, p) for _, k, p, _ in await r.schedule.rows.tail_events(gid, 5)]
            out = played.outcome
            results.append(
                (played.reason, played.policy, out.facts, [s.move for s in out.steps], events)
            )
        finally:
            await store.close()
    assert results[0] == results[1]


# ---------------------------------------------------------------------- stalled games


async def test_stalled_game_is_warned_once_then_closed_with_its_scores(rig: Rig) -> None:
    gid = await rig.new_game(deadline=None)
    await rig.play(gid)
    rig.clock.tick(13 * 86400)
    told = [n for n in await rig.tick() if not isinstance(n, Reminder)]
    assert told == []
    told = [n for n in await rig.tick(86400 + 60) if not isinstance(n, Reminder)]
    assert len(told) == 1 and isinstance(told[0], StallWarning)
    assert told[0].idle_days == 14 and told[0].user_id == await rig.to_move(gid)
    assert await rig.tick(3600) == []  # warned once
    told = await rig.tick(2 * 86400)
    assert len(told) == 1 and isinstance(told[0], StallClosed)
    game = await rig.games.game(gid)
    assert game.status is GameStatus.ABANDONED
    assert [s.player.name for s in told[0].standings] and all(not s.won for s in told[0].standings)
    rows = await rig.store.results_for_user(ALICE)
    assert rows and rows[0][0] == gid and not rows[0][1].won
    assert await rig.schedule.rows.work_for(gid) == []
    _, kind, payload, _ = (await rig.schedule.rows.tail_events(gid, 1))[0]
    assert kind == "end" and json.loads(payload)["reason"] == "stalled"


async def test_a_move_after_the_warning_keeps_the_game(rig: Rig) -> None:
    gid = await rig.new_game(deadline=None)
    told = await rig.tick(14 * 86400 + 60)
    assert any(isinstance(n, StallWarning) for n in told)
    await rig.play(gid)
    assert not any(isinstance(n, StallClosed) for n in await rig.tick(2 * 86400 + 60))
    assert (await rig.games.game(gid)).status is GameStatus.ACTIVE


async def test_stalled_lobby_closes_and_server_setting_changes_the_limit(rig: Rig) -> None:
    await rig.schedule.update_guild_schedule(GUILD, rig.clock(), is_manager=True, stall_days=3)
    out = await rig.games.create_lobby(
        guild_id=GUILD, channel_id=9, user_id=ALICE, display_name="Alice", now=rig.clock()
    )
    told = await rig.tick(3 * 86400 + 1)
    assert isinstance(told[0], StallWarning) and told[0].user_id == ALICE
    told = await rig.tick(2 * 86400 + 1)
    assert isinstance(told[0], StallClosed) and told[0].standings == ()
    assert (await rig.games.game(out.game.id)).status is GameStatus.ABANDONED
    with pytest.raises(errors.ServiceError):
        await rig.schedule.update_guild_schedule(GUILD, rig.clock(), is_manager=False)


# ---------------------------------------------------------------------- nudges, my games


async def test_nudge_is_rate_limited_per_game(rig: Rig) -> None:
    gid = await rig.new_game(humans=(ALICE, BOB, CAROL))
    uid = await rig.to_move(gid)
    other = next(u for u in (ALICE, BOB, CAROL) if u != uid)
    third = next(u for u in (ALICE, BOB, CAROL) if u not in (uid, other))
    nudge = await rig.schedule.nudge(gid, other, rig.clock())
    assert nudge.target.user_id == uid and nudge.quiet_until is None
    with pytest.raises(errors.ServiceError) as refused:
        await rig.schedule.nudge(gid, third, rig.clock.tick(60))
    assert refused.value.code == "nudge-too-soon"
    with pytest.raises(errors.ServiceError) as refused:
        await rig.schedule.nudge(gid, uid, rig.clock.tick(3600))
    assert refused.value.code == "nudge-self"
    with pytest.raises(errors.NotInGame):
        await rig.schedule.nudge(gid, 999, rig.clock())
    assert (await rig.schedule.nudge(gid, third, rig.clock())).by.user_id == third


async def test_my_games_lists_my_turn_first_with_links(rig: Rig) -> None:
    a = await rig.new_game(channel=1)
    b = await rig.new_game(channel=2, guild=GUILD + 1)
    mine = await rig.schedule.my_games(ALICE, None)
    assert {m.game.id for m in mine} == {a, b}
    assert [m.my_turn for m in mine] == sorted((m.my_turn for m in mine), reverse=True)
    only_here = await rig.schedule.my_games(ALICE, {GUILD})
    assert [m.game.id for m in only_here] == [a]
    await rig.games.record_message(a, "table", 1, 555, rig.clock())
    here = (await rig.schedule.my_games(ALICE, {GUILD}))[0]
    assert here.message is not None and here.message.message_id == 555


async def test_settings_are_validated(rig: Rig) -> None:
    with pytest.raises(errors.BadSetting):
        await rig.schedule.update_my_settings(ALICE, rig.clock(), time_zone="Mars/Olympus")
    with pytest.raises(errors.BadSetting):
        await rig.schedule.update_my_settings(ALICE, rig.clock(), quiet_start=24)
    mine = await rig.schedule.update_my_settings(
        ALICE, rig.clock(), time_zone="Asia/Tokyo", quiet_start=23
    )
    assert mine.settings.time_zone == "Asia/Tokyo"
    assert (mine.schedule.quiet_start, mine.schedule.quiet_end) == (23, 23)  # none yet
    mine = await rig.schedule.update_my_settings(ALICE, rig.clock(), quiet_end=7)
    assert (mine.schedule.quiet_start, mine.schedule.quiet_end) == (23, 7)


async def test_one_writer_of_a_users_settings_writes_all_or_nothing(rig: Rig) -> None:
    """``/mt me``'s options and the schedule's fields go through one writer: a refused
    option (a time zone, quiet hours) changes none of the others, and what is accepted lands
    in both rows together."""
    before = await rig.schedule.my_settings(ALICE)
    for bad in ({"time_zone": "Mars/Olympus"}, {"quiet_start": 24}):
        with pytest.raises(errors.BadSetting):
            await rig.games.update_user_settings(
                ALICE, rig.clock(), language="fr", tiles="numerals", reminder_dms=True, **bad
            )
        assert await rig.schedule.my_settings(ALICE) == before
    await rig.games.update_user_settings(
        ALICE, rig.clock(), language="fr", time_zone="Asia/Tokyo", quiet_start=22, quiet_end=6
    )
    mine = await rig.schedule.my_settings(ALICE)
    assert (mine.settings.language, mine.settings.time_zone) == ("fr", "Asia/Tokyo")
    assert (mine.schedule.quiet_start, mine.schedule.quiet_end) == (22, 6)


async def test_migration_5_plans_the_games_already_running(db_path: Path, clock: FakeClock) -> None:
    store = await Store.open(db_path, synchronous="NORMAL")
    rig = Rig(store, clock)
    gid = await rig.new_game()
    deadline = (await rig.games.game(gid)).deadline_at
    await store.close()
    # The same file as release 4 left it: no scheduler (5), statistics (6) or meta (7) tables,
    # nor the tile mode (8), nor the DM channel, ping and threads columns (9), nor autoplay.
    conn = sqlite3.connect(db_path)
    conn.executescript(
        "DROP TRIGGER due_work_stall_new; DROP TRIGGER due_work_stall_touch; "
        "DROP TRIGGER due_work_turn; "
        "DROP TABLE due_work; DROP TABLE game_schedule; DROP TABLE user_schedule; "
        "DROP TABLE guild_schedule; DROP TABLE player_stats; DROP TABLE guild_language; "
        "DROP TABLE meta; ALTER TABLE user_settings DROP COLUMN tiles; "
        "ALTER TABLE user_settings DROP COLUMN dm_channel_id; "
        "ALTER TABLE user_settings DROP COLUMN ping; "
        "ALTER TABLE user_settings DROP COLUMN autoplay; "
        "ALTER TABLE guild_settings DROP COLUMN threads; "
        "DROP TABLE outbox; "  # nor the outbox (12)
        # … nor the ratings (15).
        "DROP TABLE rating_changes; DROP TABLE ratings; DROP TABLE rating_games; "
        # … nor the standing orders (16).
        "DROP TABLE orders; "
        # … nor the finished matches' archive (11), with the log's older delete trigger.
        "DROP TRIGGER events_append_only_delete; DROP TABLE event_archive; "
        "CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events "
        "BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END; "
        "PRAGMA user_version = 4;"
    )
    conn.close()
    store = await Store.open(db_path, synchronous="NORMAL")
    try:
        rig = Rig(store, clock)
        work = {w.kind: w for w in await rig.schedule.rows.work_for(gid)}
        assert work["timeout"].due_at == deadline
        assert work["stall"].due_at == (await rig.games.game(gid)).updated_at + timedelta(days=14)
        told = await rig.tick(25 * 3600)
        assert [type(n) for n in told] == [TurnPlayed]
    finally:
        await store.close()


async def test_an_idle_loop_sleeps_until_the_next_due_time(rig: Rig) -> None:
    await rig.new_game()
    waits: list[float] = []

    async def virtual(wake: asyncio.Event, seconds: float) -> None:
        waits.append(seconds)
        rig.clock.tick(seconds)
        if len(waits) == 2:
            raise asyncio.CancelledError

    loop = Scheduler(
        rig.schedule, rig.clock, rig._deliver, send_interval=0, max_sleep=86400, waiter=virtual
    )
    with pytest.raises(asyncio.CancelledError):
        await loop.run()
    # One sleep to the reminder (12 h less the few seconds the set-up took), then it was sent,
    # then one sleep to the deadline: two looks at the database in 24 hours.
    assert 12 * 3600 - 10 < waits[0] <= 12 * 3600 and 11 * 3600 < waits[1] <= 12 * 3600
    assert loop.queries == 2 and [type(n) for n in rig.told] == [Reminder]


async def test_a_move_wakes_the_loop_only_for_work_due_before_its_next_look(rig: Rig) -> None:
    """A move plans its turn's work in its own commit (issue 33): the scheduler's loop is
    woken only when that work is due before the loop looks anyway, so a move whose reminder
    is hours away runs no scheduler pass, and one due sooner is not missed."""
    slow = await rig.new_game(deadline=24 * HOUR)
    looked = asyncio.Event()
    waits: list[float] = []

    async def until_woken(wake: asyncio.Event, seconds: float) -> None:
        waits.append(seconds)
        looked.set()
        await wake.wait()  # virtual time: only a wake ends this sleep

    loop = Scheduler(
        rig.schedule, rig.clock, rig._deliver, send_interval=0, max_sleep=86400, waiter=until_woken
    )
    task = asyncio.create_task(loop.run())
    try:
        await looked.wait()
        looked.clear()
        assert loop.queries == 1 and 12 * 3600 - 10 < waits[0] <= 12 * 3600
        await rig.play(slow)  # the next turn's reminder: 12 h after it began, after that look
        assert not rig.schedule.look_sooner.is_set() and loop.queries == 1
        # Another game's first turn: its reminder is due in 30 minutes, before the next look.
        await rig.new_game(deadline=HOUR, channel=CHANNEL + 1)
        assert rig.schedule.look_sooner.is_set()
        await looked.wait()
        assert loop.queries == 2 and 1800 - 10 < waits[-1] <= 1800
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    told = await rig.tick(1800)
    assert [type(n) for n in told] == [Reminder]
