"""The daily digest and the reminder interval in the service (issue 46), on both stores: the
digest's row (migration 20) plans its next time in the player's zone, the scheduler sleeps
towards it and sends it once, a player in digest mode is neither DMed nor reminded per turn,
and the games waiting on a player are read in one bounded statement."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.service import errors
from bot.service.daily import DailyDigest
from bot.service.scheduler import Scheduler
from bot.service.settings import next_digest
from bot.store import Store
from tests.clock import FakeClock
from tests.service.conftest import ALICE, BOB, CHANNEL
from tests.service.test_schedule import Rig


class DigestRig(Rig):
    def __init__(self, store: Store, clock: FakeClock) -> None:
        super().__init__(store, clock)
        self.digests: list[DailyDigest] = []
        self.scheduler = Scheduler(
            self.schedule, clock, self._deliver, send_interval=0, deliver_digest=self._digest
        )

    async def _digest(self, digest: DailyDigest) -> None:
        self.digests.append(digest)


@pytest.fixture
async def rig(db_target: str | Path, clock: FakeClock) -> AsyncIterator[DigestRig]:
    store = await Store.open(db_target, synchronous="NORMAL")
    try:
        yield DigestRig(store, clock)
    finally:
        await store.close()


def test_the_next_digest_is_the_players_hour_on_the_right_day() -> None:
    paris = "Europe/Paris"
    noon = datetime(2025, 3, 1, 12, tzinfo=UTC)
    assert next_digest(noon, paris, 18) == datetime(2025, 3, 1, 17, tzinfo=UTC)
    assert next_digest(noon, paris, 9) == datetime(2025, 3, 2, 8, tzinfo=UTC)
    # Exactly at the hour: that one is being sent, the next is tomorrow.
    assert next_digest(datetime(2025, 3, 1, 17, tzinfo=UTC), paris, 18) == datetime(
        2025, 3, 2, 17, tzinfo=UTC
    )
    # New York moves to summer time on 9 March 2025: 08:00 is 13:00 UTC, then 12:00.
    ny = "America/New_York"
    assert next_digest(datetime(2025, 3, 8, 14, tzinfo=UTC), ny, 8) == datetime(
        2025, 3, 9, 12, tzinfo=UTC
    )
    assert next_digest(datetime(2025, 3, 7, 14, tzinfo=UTC), ny, 8) == datetime(
        2025, 3, 8, 13, tzinfo=UTC
    )


async def test_a_digest_player_is_told_once_a_day_and_never_per_turn(rig: DigestRig) -> None:
    now = rig.clock.now
    await rig.games.update_user_settings(ALICE, now, time_zone="Europe/Paris", digest_hour=9)
    mine = await rig.schedule.my_settings(ALICE)
    assert mine.schedule.digest_hour == 9
    assert mine.schedule.digest_due_at == datetime(2025, 3, 2, 8, tzinfo=UTC)
    gid = await rig.new_game(deadline=None)
    other = await rig.new_game(deadline=None, channel=CHANNEL + 1)
    for game in (gid, other):
        while await rig.to_move(game) != ALICE:
            await rig.play(game)
    # Her turn: no DM, no mention that pings, and no reminder planned.
    ping = await rig.schedule.turn_ping(ALICE, rig.clock.now)
    assert not ping.dm and not ping.mention
    assert [r.kind for r in await rig.schedule.rows.work_for(gid)] == ["stall"]
    # The match's end is still told as her settings say (a DM).
    assert (await rig.schedule.turn_ping(ALICE, rig.clock.now, turn=False)).dm
    # The scheduler's next look is her digest (nothing else is due before it).
    assert await rig.schedule.next_due() == datetime(2025, 3, 2, 8, tzinfo=UTC)

    await rig.tick((datetime(2025, 3, 2, 8, tzinfo=UTC) - rig.clock.now).total_seconds() - 1)
    assert rig.digests == []
    await rig.tick(1)
    [digest] = rig.digests
    assert digest.user_id == ALICE and {w.game_id for w in digest.games} == {gid, other}
    assert digest.hour == 9 and digest.time_zone == "Europe/Paris" and len(digest.nonce) == 25
    await rig.tick(60)
    assert len(rig.digests) == 1
    mine = await rig.schedule.my_settings(ALICE)
    assert mine.schedule.digest_due_at == datetime(2025, 3, 3, 8, tzinfo=UTC)
    # Off again: a DM per turn, reminders planned for her next turn.
    await rig.games.update_user_settings(ALICE, rig.clock.now, digest=False)
    assert (await rig.schedule.turn_ping(ALICE, rig.clock.now)).dm


async def test_a_day_with_nothing_waiting_sends_nothing(rig: DigestRig) -> None:
    await rig.games.update_user_settings(BOB, rig.clock.now, digest=True)
    due = datetime(2025, 3, 1, 18, tzinfo=UTC)  # the default hour, in UTC
    assert (await rig.schedule.my_settings(BOB)).schedule.digest_due_at == due
    await rig.tick((due - rig.clock.now).total_seconds())
    assert rig.digests == []
    assert (await rig.schedule.my_settings(BOB)).schedule.digest_due_at == due + timedelta(days=1)


async def test_a_digest_follows_a_new_time_zone_and_bad_hours_are_refused(
    rig: DigestRig,
) -> None:
    now = rig.clock.now
    await rig.games.update_user_settings(ALICE, now, digest_hour=9)
    await rig.games.update_user_settings(ALICE, now, time_zone="Asia/Tokyo")
    mine = await rig.schedule.my_settings(ALICE)
    assert mine.schedule.digest_due_at == datetime(2025, 3, 2, 0, tzinfo=UTC)  # 09:00 JST
    for bad in (24, -1):
        with pytest.raises(errors.BadSetting) as refused:
            await rig.games.update_user_settings(ALICE, now, digest_hour=bad, tiles="numerals")
        assert refused.value.code == "bad-digest"
    with pytest.raises(errors.BadSetting) as refused:
        await rig.games.update_user_settings(ALICE, now, digest=False, digest_hour=9)
    assert refused.value.code == "digest-off-hour"
    # The digest is a DM: DMs switched off cannot carry it, either way round.
    with pytest.raises(errors.BadSetting) as refused:
        await rig.games.update_user_settings(ALICE, now, hand_dms=False)
    assert refused.value.code == "digest-no-dms"
    await rig.games.update_user_settings(BOB, now, hand_dms=False)
    with pytest.raises(errors.BadSetting) as refused:
        await rig.games.update_user_settings(BOB, now, digest=True)
    assert refused.value.code == "digest-no-dms"
    assert await rig.schedule.my_settings(ALICE) == mine  # nothing changed
    # DMs known closed: no digest can reach her, so her turns are pinged by the mention.
    await rig.games.update_user_settings(ALICE, now, dms_open=False)
    ping = await rig.schedule.turn_ping(ALICE, now)
    assert ping.mention and not ping.dm


async def test_the_reminder_interval_plans_the_reminder(rig: DigestRig) -> None:
    await rig.games.update_user_settings(ALICE, rig.clock.now, reminder_after_s=2 * 3600)
    gid = await rig.new_game(deadline=None)
    while await rig.to_move(gid) != ALICE:
        await rig.play(gid)
    game = await rig.games.game(gid)
    assert game.turn_since is not None
    [remind] = [r for r in await rig.schedule.rows.work_for(gid) if r.kind == "remind"]
    assert remind.due_at == game.turn_since + timedelta(hours=2)


async def test_games_waiting_on_a_player_are_a_bounded_read(rig: DigestRig) -> None:
    games = [await rig.new_game(deadline=None, channel=CHANNEL + n) for n in range(4)]
    waiting = []
    for gid in games:
        if await rig.to_move(gid) == ALICE:
            waiting.append(gid)
    rows = await rig.schedule.rows.waiting_on(ALICE, 10)
    assert sorted(r.game_id for r in rows) == sorted(waiting)
    assert len(await rig.schedule.rows.waiting_on(ALICE, 1)) == min(1, len(waiting))
    if waiting:
        but = await rig.schedule.rows.waiting_on(ALICE, 10, but=waiting[0])
        assert waiting[0] not in {r.game_id for r in but}
