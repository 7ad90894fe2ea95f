"""A move's cost does not grow with the match: the digest and a cache miss read the log's last
rounds (from the round snapshot on), and what they build equals a replay of the whole log.

DESIGN: a snapshot is only a shortcut, checked against replay in tests. Here every digest the
service gives is compared with the digest of the whole log, and every game loaded from a tail
with the full replay; the reads are counted (how many events each one read), never timed.
"""

from __future__ import annotations

import random

import pytest

from bot.engine.position import to_position
from bot.service import GameService
from bot.service.catchup import digest_of
from bot.service.replay import replay_game
from bot.service.schedule import ScheduleService
from bot.store import GameRecord, GameStatus, Store
from tests.clock import FakeClock
from tests.service.conftest import ALICE, BOB, CAROL, DAVE, GUILD
from tests.service.helpers import new_game, play_turn

STRANGER = 99
USERS = (ALICE, BOB, CAROL, STRANGER)


class CountingStore:
    """Records every ``load``: how many rounds were asked for and how many events came back."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.reads: list[tuple[int | None, int, bool]] = []
        self._load = store.load

        async def load(game_id: int, *, rounds: int | None = None) -> GameRecord | None:
            record = await self._load(game_id, rounds=rounds)
            if record is not None:
                self.reads.append((rounds, len(record.events), record.is_tail))
            return record

        store.load = load  # type: ignore[method-assign]


async def test_the_digest_reads_the_last_rounds_and_equals_the_whole_log(
    store: Store, clock: FakeClock
) -> None:
    svc = GameService(store, cache_size=8, rng=random.Random(11))
    schedule = ScheduleService(svc)
    gid = (
        await new_game(
            svc,
            clock,
            humans=(ALICE, BOB, CAROL),
            preset="standard",
            house_rules={"rounds": 3},
        )
    ).game.id
    counting = CountingStore(store)
    compared = late_mover_reads = 0
    moves = 0
    while (game := await svc.game(gid)).status is GameStatus.ACTIVE:
        assert game.turn is not None and game.turn.user_id is not None
        mover = game.turn.user_id
        if game.round_no == 2 and mover == CAROL and not compared % 7:
            # Carol is away for a while: the bot plays her turns, the digest tells her.
            await schedule.set_away(CAROL, True, clock.tick())
            await schedule.play_away_turn(gid, CAROL, clock.tick())
            await schedule.set_away(CAROL, False, clock.tick())
        else:
            await play_turn(svc, gid, clock)
        moves += 1
        if moves % 4:
            continue
        whole = await store.load(gid)
        assert whole is not None and not whole.is_tail
        nxt = (await svc.game(gid)).turn
        for user in USERS:
            counting.reads.clear()
            got = await svc.digest(gid, user)
            assert got == digest_of(whole, user), (moves, user)
            if nxt is not None and user == nxt.user_id and (game.round_no or 0) >= 1:
                # The next mover's last turn is in this round or the one before: never the
                # whole log.
                assert all(tail for _, _, tail in counting.reads), counting.reads
                late_mover_reads += 1
        compared += 1
    assert compared > 40 and late_mover_reads > 20
    # The match is over: the digest still equals the whole log's, for everyone.
    whole = await store.load(gid)
    assert whole is not None
    for user in USERS:
        assert await svc.digest(gid, user) == digest_of(whole, user)


async def test_a_tail_is_read_from_a_deal(store: Store, clock: FakeClock) -> None:
    svc = GameService(store, cache_size=8, rng=random.Random(3))
    gid = (
        await new_game(
            svc, clock, humans=(ALICE, BOB), preset="standard", house_rules={"rounds": 3}
        )
    ).game.id
    while (await svc.game(gid)).round_no != 2:
        await play_turn(svc, gid, clock)
    await play_turn(svc, gid, clock)
    whole = await store.load(gid)
    one = await store.load(gid, rounds=1)
    two = await store.load(gid, rounds=2)
    many = await store.load(gid, rounds=9)
    assert whole is not None and one is not None and two is not None and many is not None
    assert one.is_tail and two.is_tail and not many.is_tail and not whole.is_tail
    assert one.events[0].kind == two.events[0].kind == "round"
    assert one.events == whole.events[-len(one.events) :]
    assert two.events == whole.events[-len(two.events) :]
    assert len(one.events) < len(two.events) < len(whole.events) == len(many.events)
    assert one.snapshot == two.snapshot == whole.snapshot
    assert one.snapshot is not None and one.snapshot[0] == one.events[0].seq
    with pytest.raises(ValueError, match="at least the current round"):
        await store.load(gid, rounds=0)
    # A replay from the tail is the replay of the whole log (the earlier rounds' events aside).
    full = replay_game(whole, use_snapshot=False).match
    assert full is not None
    assert to_position(replay_game(whole).match) == to_position(full)  # type: ignore[arg-type]


async def test_a_cache_miss_reads_the_current_round_and_equals_a_replay(
    store: Store, clock: FakeClock
) -> None:
    """Two matches moving in turn through a cache of one game: every move misses. Each miss
    reads the current round only, the game equals a replay of its whole log, and what needs
    every event (history, the round-end report, the finished match's statistics) is right."""
    svc = GameService(store, cache_size=1, rng=random.Random(5))
    rules = {"rounds": 3}
    games = [
        (
            await new_game(
                svc, clock, humans=pair, preset="standard", house_rules=rules, channel=ch
            )
        ).game.id
        for pair, ch in (((ALICE, BOB), 2001), ((CAROL, DAVE), 2002))
    ]
    counting = CountingStore(store)
    reports = verified = 0

    async def active() -> bool:
        return any([(await svc.game(g)).status is GameStatus.ACTIVE for g in games])

    while await active():
        for gid in games:
            if (await svc.game(gid)).status is not GameStatus.ACTIVE:
                continue
            await svc.whose_turn(games[1 - games.index(gid)])  # the other game takes the cache
            svc.ledger.loads.clear()
            counting.reads.clear()
            out = await play_turn(svc, gid, clock)
            # whose_turn, seat_view and move: each misses (the other game took the cache) …
            assert svc.ledger.loads["tail"] >= 1 and svc.ledger.loads["whole"] == (
                1 if out.match_over else 0  # … and the match end reads it all, for stats
            ), svc.ledger.loads
            assert all(tail for _, _, tail in counting.reads[:-1])
            if out.rounds_ended and not out.match_over:
                svc.clear_cache()
                await svc.whose_turn(gid)  # loaded from the new round's deal
                report = await svc.round_report(gid)  # the round before it: read back
                assert report.round_no == out.rounds_ended[-1].round_no
                assert report.scores == out.rounds_ended[-1].scores
                reports += 1
            if not out.match_over and out.steps[0].seq % 6 == 0:
                await svc.verify_game(gid)  # the cached game equals a full replay
                verified += 1
    assert reports == 4 and verified > 10
    # Statistics written at the match end equal those rebuilt from the whole log.
    before = [await svc.player_stats(GUILD, u) for u in (ALICE, BOB, CAROL, DAVE)]
    assert await svc.rebuild_stats(only_missing=False) == 2
    assert [await svc.player_stats(GUILD, u) for u in (ALICE, BOB, CAROL, DAVE)] == before
    assert all(s.games == 1 for s in before)
