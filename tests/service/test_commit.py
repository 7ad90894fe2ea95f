"""The commit context's contract, on both stores: a commit that raises writes nothing, owes
nothing, and leaves a cache that agrees with the store (kept when the block changed nothing
in memory, forgotten when it had); a commit that succeeds writes its events, owes their post
and ping, and leaves the cached game equal to a replay of the log."""

from __future__ import annotations

import collections
import random
from datetime import datetime
from typing import Any

import pytest

from bot.engine import view_for
from bot.engine.position import to_position
from bot.service import GameService, errors
from bot.service.commit import Ledger
from bot.store import GameRow, SeatRow, Store, Tx
from tests.clock import FakeClock
from tests.service.conftest import ALICE, BOB, CHANNEL, GUILD
from tests.service.helpers import new_game, pick


class Boom(Exception):
    """What a use case's block raises half way (a bug, a cancelled task)."""


async def _started(svc: GameService, clock: FakeClock) -> int:
    """A dealt game whose start has been delivered (nothing owed), its turn a human's."""
    gid = (await new_game(svc, clock, humans=(ALICE, BOB))).game.id
    owed = await svc.outbox.owed(gid)
    assert owed is not None
    await svc.outbox.delivered(gid, owed.version, post=True, ping=True, now=clock())
    assert await svc.outbox.owed(gid) is None
    return gid


async def _written(store: Store, gid: int) -> tuple[int | None, int]:
    return await store.version(gid), await store.last_seq(gid)


async def _agrees_with_replay(svc: GameService, store: Store, gid: int) -> None:
    """The ledger's game (read through the cache) is the game a fresh replay gives."""
    live = await svc.ledger.get(gid)
    fresh = GameService(store)
    replayed = await fresh.ledger.get(gid)
    assert live.row == replayed.row and live.seq == replayed.seq
    assert live.match is not None and replayed.match is not None
    assert to_position(live.match) == to_position(replayed.match)


async def _make_a_move(ledger: Ledger, gid: int, clock: FakeClock, *, then_raise: bool) -> None:
    async with ledger.commit(gid, clock.tick()) as c:
        m = c.match
        assert m.round is not None
        seat = m.round.current
        c.apply(c.players[seat], pick(view_for(m, seat).legal), c.players[seat].user_id)
        if then_raise:
            raise Boom()
        await c.write(False)


async def test_a_commit_that_raises_writes_owes_and_forgets_nothing(
    store: Store, clock: FakeClock
) -> None:
    svc = GameService(store, rng=random.Random(3))
    gid = await _started(svc, clock)
    before = await _written(store, gid)
    cached = svc.ledger.cached_game(gid)
    assert cached is not None

    # Raised before the match in memory changed (a refusal, an event staged but unwritten):
    # nothing written or owed, and the cached game is still the store's, so it is kept.
    with pytest.raises(Boom):
        async with svc.ledger.commit(gid, clock.tick()) as c:
            c.event("end", {"by": ALICE, "reason": "ended"}, ALICE)
            raise Boom()
    assert await _written(store, gid) == before
    assert await svc.outbox.owed(gid) is None
    assert svc.ledger.cached_game(gid) is cached
    await _agrees_with_replay(svc, store, gid)

    # Raised after a move was applied in memory: nothing written or owed, and the cache,
    # now ahead of the store, forgets the game (the next read replays it).
    with pytest.raises(Boom):
        await _make_a_move(svc.ledger, gid, clock, then_raise=True)
    assert await _written(store, gid) == before
    assert await svc.outbox.owed(gid) is None
    assert svc.ledger.cached_game(gid) is None
    await _agrees_with_replay(svc, store, gid)


async def test_a_write_that_fails_in_its_transaction_leaves_no_trace(
    store: Store, clock: FakeClock
) -> None:
    svc = GameService(store, rng=random.Random(3))
    gid = await _started(svc, clock)
    before = await _written(store, gid)

    async def broken(tx: Tx, b: GameRow, a: GameRow, s: tuple[SeatRow, ...], n: datetime) -> None:
        raise Boom()  # the last write of the transaction: the events are already appended

    svc.ledger.add_commit_hook(broken)
    with pytest.raises(Boom):
        await _make_a_move(svc.ledger, gid, clock, then_raise=False)
    svc.ledger.commit_hooks.remove(broken)
    assert await _written(store, gid) == before
    assert await svc.outbox.owed(gid) is None
    assert svc.ledger.cached_game(gid) is None
    await _agrees_with_replay(svc, store, gid)


async def test_a_commit_that_lost_the_race_is_table_changed_and_writes_nothing(
    store: Store, clock: FakeClock
) -> None:
    svc = GameService(store, rng=random.Random(3))
    gid = await _started(svc, clock)
    with pytest.raises(errors.TableChanged):
        async with svc.ledger.commit(gid, clock.tick()) as c:
            m = c.match
            assert m.round is not None
            seat = m.round.current
            c.apply(c.players[seat], pick(view_for(m, seat).legal), c.players[seat].user_id)
            # Another process moves first (here: the same store behind another ledger).
            other, uid = GameService(store, rng=random.Random(4)), c.players[seat].user_id
            assert uid is not None
            await other.move(gid, uid, pick((await other.seat_view(gid, uid)).legal), clock())
            written = await _written(store, gid)
            await c.write(False)
    assert await _written(store, gid) == written
    assert svc.ledger.cached_game(gid) is None
    await _agrees_with_replay(svc, store, gid)


async def test_a_commit_that_succeeds_writes_owes_and_the_cache_agrees_with_a_replay(
    store: Store, clock: FakeClock
) -> None:
    svc = GameService(store, rng=random.Random(3))
    gid = await _started(svc, clock)
    version, seq = await _written(store, gid)
    assert version is not None
    await _make_a_move(svc.ledger, gid, clock, then_raise=False)
    assert await _written(store, gid) == (version + 1, seq + 1)
    owed = await svc.outbox.owed(gid)
    assert owed is not None and owed.post_owed
    assert owed.from_seq == seq + 1 and owed.version == version + 1
    cached = svc.ledger.cached_game(gid)
    assert cached is not None and cached.row.version == version + 1
    await _agrees_with_replay(svc, store, gid)
    assert svc.ledger.cached_game(gid) is cached  # the read above was a hit, not a replay


async def test_a_pick_reads_its_game_once(
    store: Store, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move picked from a list checks where it was sent from on the row the ledger reads
    for its cache check: one read of the game, not a row read and then a version read."""
    svc = GameService(store, rng=random.Random(3))
    gid = await _started(svc, clock)
    turn = await svc.whose_turn(gid)
    assert turn is not None and turn.user_id is not None
    view = await svc.seat_view(gid, turn.user_id)  # the game cached and current
    reads: collections.Counter[str] = collections.Counter()
    for name in ("game", "version"):
        real = getattr(store, name)

        async def counted(game_id: int, _real: Any = real, _name: str = name) -> Any:
            reads[_name] += 1
            return await _real(game_id)

        monkeypatch.setattr(store, name, counted)
    out = await svc.move(
        gid, turn.user_id, pick(view.legal), clock.tick(), made_in=(GUILD, CHANNEL)
    )
    assert out.steps and reads == {"game": 1}
    with pytest.raises(errors.OtherChannel):
        await svc.move(gid, BOB, pick(view.legal), clock.tick(), made_in=(GUILD, CHANNEL + 1))
    assert reads == {"game": 2}
