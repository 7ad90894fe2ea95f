"""A finished match's review (issue 49) through the service, on both stores: only a player of
a finished match gets one (their own), it is computed once and kept (migration 16), and what
is kept reads back as computed."""

from __future__ import annotations

import asyncio

import pytest

from bot.engine.ai.review import ReviewJob, ReviewSettings, SeatReview, run
from bot.service import GameService, ServiceError
from bot.store import GameStatus, Store
from tests.clock import FakeClock
from tests.service.conftest import ALICE, BOB, CAROL
from tests.service.helpers import new_game, play_turn

TINY = ReviewSettings(worlds=4, screen=2, others=2, luck_deals=1, budget_s=None)


async def _finish(svc: GameService, gid: int, clock: FakeClock) -> None:
    for _ in range(3000):
        if (await svc.game(gid)).status is not GameStatus.ACTIVE:
            return
        await play_turn(svc, gid, clock)
    raise AssertionError("the match did not end")


async def test_a_review_is_its_players_own_computed_once_and_kept(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    gid = (await new_game(service, clock, humans=(ALICE, BOB), preset="quick")).game.id
    computed: list[ReviewJob] = []

    async def compute(job: ReviewJob) -> SeatReview:
        computed.append(job)
        await asyncio.sleep(0.01)  # a second ask arrives meanwhile
        return run(job)

    with pytest.raises(ServiceError) as unfinished:
        await service.match_review(gid, ALICE, clock(), compute=compute, settings=TINY)
    assert unfinished.value.code == "review-unfinished"
    await _finish(service, gid, clock)
    with pytest.raises(ServiceError) as not_yours:
        await service.match_review(gid, CAROL, clock(), compute=compute, settings=TINY)
    assert not_yours.value.code == "review-not-yours"
    assert computed == []

    first, again = await asyncio.gather(
        service.match_review(gid, BOB, clock(), compute=compute, settings=TINY),
        service.match_review(gid, BOB, clock(), compute=compute, settings=TINY),
    )
    assert len(computed) == 1 and computed[0].seat == first.seat  # once, for both asks
    assert first.review == again.review and first.worlds == again.worlds == TINY.worlds
    assert first.review.examined == first.review.decisions > 0
    kept = await store.fetch_all("SELECT game_id, seat FROM match_reviews")
    assert [tuple(r) for r in kept] == [(gid, first.seat)]
    # Read back from the store by a fresh service: the same review, nothing computed.
    fresh = GameService(store)
    later = await fresh.match_review(gid, BOB, clock(), compute=compute, settings=TINY)
    assert later.review == first.review and len(computed) == 1
    if first.review.findings:
        assert later.worst is not None and later.worst.seat == first.seat
    alice = await service.match_review(gid, ALICE, clock(), compute=compute, settings=TINY)
    assert alice.seat != first.seat and len(computed) == 2
