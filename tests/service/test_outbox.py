"""The outbox on both stores (issue 37): a move's debt is written with the move and grows
until paid; paying clears it part by part; a debt is leased to one process of a cluster; the
post it owes is rebuilt from the log exactly as the live move said it."""

from __future__ import annotations

import random
from datetime import timedelta
from pathlib import Path

import pytest

from bot.service import GameService
from bot.service.outbox import GRACE, owed_outcome
from bot.store import Store
from tests.clock import FakeClock
from tests.service.conftest import ALICE, BOB
from tests.service.helpers import new_game, play_turn


# The deal is seeded: with the OS's random deal, about one deal in seven made the second move a
# draw by a player who moves again and is owed no ping, and the test failed "at random" (it was
# blamed on load). Seed 2 is such a deal, seed 0 one where the turn passes on.
@pytest.mark.parametrize(("seed", "moves_again"), [(0, False), (2, True)])
async def test_a_moves_debt_is_written_with_it_and_cleared_part_by_part(
    store: Store, clock: FakeClock, seed: int, moves_again: bool
) -> None:
    svc = GameService(store, rng=random.Random(seed))
    start = await new_game(svc, clock)
    gid = start.game.id
    first = await svc.outbox.owed(gid)
    assert first is not None and first.post_owed and first.from_seq == 1
    assert first.version == start.game.version and first.due_at == clock() + GRACE
    await svc.outbox.delivered(gid, first.version, post=True, ping=True)
    assert await svc.outbox.owed(gid) is None

    one = await play_turn(svc, gid, clock)
    two = await play_turn(svc, gid, clock)
    owed = await svc.outbox.owed(gid)
    assert owed is not None and owed.version == two.game.version
    # Not yet posted: the debt grew from the first unposted move, the ping is the newest;
    # a player who moves again (a draw) is already looking and is owed none.
    assert owed.from_seq == one.steps[0].seq
    assert two.next_player is not None
    nxt = two.next_player.user_id
    assert (two.steps[-1].player.user_id == nxt) is moves_again
    assert owed.ping_user == (None if moves_again else nxt)
    # The post it owes tells exactly the moves the live outcomes told.
    rebuilt = owed_outcome(await svc.game_record(gid), owed.from_seq)
    assert [(s.seq, s.move, s.player.seat) for s in rebuilt.steps] == [
        (s.seq, s.move, s.player.seat) for s in (*one.steps, *two.steps)
    ]
    assert rebuilt.next_player == two.next_player
    # An older version's delivery clears nothing of the newer debt; the post alone, the post.
    await svc.outbox.delivered(gid, one.game.version, post=True, ping=True)
    assert await svc.outbox.owed(gid) == owed
    await svc.outbox.delivered(gid, two.game.version, post=True, ping=False)
    left = await svc.outbox.owed(gid)
    if moves_again:  # nothing but the post was owed: paid, the row is gone
        assert left is None
        return
    assert left is not None and not left.post_owed and left.ping_user == owed.ping_user
    await svc.outbox.delivered(gid, two.game.version, post=False, ping=True)
    assert await svc.outbox.owed(gid) is None


async def test_a_debt_is_leased_to_one_process(db_target: str | Path, clock: FakeClock) -> None:
    first, second = await Store.open(db_target), await Store.open(db_target)
    try:
        a, b = GameService(first), GameService(second)
        gid = (await new_game(a, clock, humans=(ALICE, BOB))).game.id
        clock.tick(3600)
        due_a = await a.outbox.due(clock(), 10)
        due_b = await b.outbox.due(clock(), 10)
        assert [d.game_id for d in due_a] == [d.game_id for d in due_b] == [gid]
        lease = timedelta(seconds=60)
        assert await a.outbox.claim(due_a[0], "process-a", clock(), lease)
        assert not await b.outbox.claim(due_b[0], "process-b", clock(), lease)
        assert await b.outbox.due(clock(), 10) == []  # held: not offered to the others
        # A dead process's lease runs out: the debt is taken over.
        clock.tick(61)
        again = await b.outbox.due(clock(), 10)
        assert [d.game_id for d in again] == [gid]
        assert await b.outbox.claim(again[0], "process-b", clock(), lease)
        # A failed send plans the retry and gives the lease back.
        await b.outbox.retry_later(gid, again[0].version, clock() + timedelta(seconds=5))
        assert await a.outbox.due(clock(), 10) == []
        clock.tick(5)
        retried = await a.outbox.due(clock(), 10)
        assert [d.attempts for d in retried] == [1]
    finally:
        await first.close()
        await second.close()
