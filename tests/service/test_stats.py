"""Statistics: written with the last move, rebuildable from the log, summed as documented."""

from __future__ import annotations

import random

from bot.engine import Match, Rules, preset
from bot.engine.simulate import random_move
from bot.service import GameService, stats
from bot.service.replay import replay_game
from bot.store import GameStatus, Store
from bot.store import stats as rows_sql
from tests.clock import FakeClock
from tests.service.conftest import ALICE, BOB, GUILD
from tests.service.helpers import new_game, play_turn


async def _finish(svc: GameService, gid: int, clock: FakeClock) -> None:
    for _ in range(3000):
        if (await svc.game(gid)).status is not GameStatus.ACTIVE:
            return
        await play_turn(svc, gid, clock)
    raise AssertionError("the match did not end")


async def test_stats_are_written_at_the_end_and_rebuild_the_same(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    gid = (
        await new_game(
            service, clock, humans=(ALICE, BOB), computers=1, preset="standard",
            house_rules={"rounds": 3},
        )
    ).game.id  # fmt: skip
    await _finish(service, gid, clock)
    rows = sorted(await rows_sql.guild_player_rows(store, GUILD), key=lambda r: r.seat)
    assert [r.user_id for r in rows] == [ALICE, BOB]  # the computer seat has no user
    record = await store.load(gid)
    assert record is not None
    match = replay_game(record).match
    assert match is not None
    for r in rows:
        assert r.rounds == 3 and len(r.round_scores) == 3 and r.vs_computer
        assert sum(r.round_scores) == r.total == match.totals[r.seat]
        assert r.rounds_won == sum(1 for x in match.results if x.went_out == r.seat)
    assert sum(r.won for r in rows) <= 1 or match.rules.ties_share_win

    before = await rows_sql.guild_player_rows(store, GUILD)
    assert await service.rebuild_stats(only_missing=False) == 1
    assert await rows_sql.guild_player_rows(store, GUILD) == before
    assert await service.rebuild_stats() == 0  # nothing missing

    alice = await service.player_stats(GUILD, ALICE)
    assert alice.games == 1 and alice.rounds == 3 and alice.games_vs_computer == 1
    assert alice.average_round == sum(rows[0].round_scores) / 3
    assert alice.best_total == rows[0].total
    board = await service.leaderboard(GUILD)
    assert {p.user_id for p in board} == {ALICE, BOB}
    assert board[0].wins >= board[1].wins


def test_round_facts_follow_the_definitions() -> None:
    rules = Rules.from_dict({**preset("double-9").to_dict(), "rounds": 2})
    match = Match(rules, ["A", "B", "C"])
    rng = random.Random(4)
    while not match.is_over:
        if match.needs_deal:
            match.start_round(match.shuffle(rng))
        assert match.round is not None
        match.apply(random_move(match.round, rng))
    facts = stats.round_facts(match)
    assert [f.scores for f in facts] == [r.scores for r in match.results]
    for f in facts:
        # The 0-0 held at the end scores nothing under pips, but is counted where it is held.
        assert sum(f.held_double_blank) <= 1
        assert all(n >= 0 for n in f.own_train)
