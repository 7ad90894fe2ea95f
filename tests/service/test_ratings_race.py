"""Two matches ending at once never lose a rating update (issue 48), on both stores: each
match's fold runs in its own transaction on its own connection (two store instances, as two
processes of a cluster have), and the server's rating lock makes the second read what the
first wrote. Without the lock (the control) the race is real: both read the same ratings
and the second write erases the first's."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.service import GameService
from bot.service import ratings as fold_
from bot.store import GameStatus, Store
from bot.store import ratings as rows_sql
from tests.clock import FakeClock
from tests.service.conftest import ALICE, BOB, CAROL, GUILD
from tests.service.helpers import new_game, play_turn


async def _two_finished(svc: GameService, clock: FakeClock) -> list[fold_.RatedMatch]:
    """Two finished matches sharing Alice; their ratings then forgotten, to be folded again
    by the racing transactions."""
    out = []
    for humans in ((ALICE, BOB), (CAROL, ALICE)):
        gid = (await new_game(svc, clock, humans=humans, computers=1)).game.id
        while (await svc.game(gid)).status is GameStatus.ACTIVE:
            await play_turn(svc, gid, clock)
        m = await fold_.rated_from_log(svc.store, gid)
        assert m is not None
        out.append(m)
    async with svc.store.transaction() as tx:
        await rows_sql.delete_guild(tx, GUILD)
    return out


@contextlib.asynccontextmanager
async def _both_read_first() -> AsyncIterator[None]:
    """Each fold waits (up to a moment) after reading the ratings for the other to read too:
    without a lock both then write what they computed from the same old ratings."""
    gate = asyncio.Barrier(2)
    real: Callable[..., Awaitable[Any]] = rows_sql.current

    async def current(*args: Any) -> Any:
        got = await real(*args)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(gate.wait(), 0.5)
        return got

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(rows_sql, "current", current)
        yield


async def _race(target: str | Path, matches: list[fold_.RatedMatch]) -> None:
    stores = [await Store.open(target, synchronous="NORMAL") for _ in matches]
    try:

        async def end(store: Store, m: fold_.RatedMatch) -> None:
            async with store.transaction() as tx:
                await fold_.record(tx, m)

        async with _both_read_first():
            await asyncio.gather(*(end(s, m) for s, m in zip(stores, matches, strict=True)))
    finally:
        for s in stores:
            await s.close()


async def test_two_matches_ending_at_once_lose_nothing(
    db_target: str | Path, store: Store, clock: FakeClock
) -> None:
    svc = GameService(store, cache_size=8)
    matches = await _two_finished(svc, clock)
    _, expected = fold_.fold(matches)
    await _race(db_target, matches)
    got = await rows_sql.all_ratings(store)
    assert {r.user_id: r.games for r in got} == {ALICE: 2, BOB: 1, CAROL: 1}
    assert got == expected  # as if one after the other, in the order they finished


async def test_without_the_lock_the_race_loses_an_update(
    pg_url: str, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The control on PostgreSQL (SQLite's one writer serialises whole transactions): the
    test above would catch a fold without its lock."""
    store = await Store.open(pg_url)
    try:
        matches = await _two_finished(GameService(store, cache_size=8), clock)

        async def no_lock(tx: object, guild_id: int) -> None:
            return None

        monkeypatch.setattr(rows_sql, "lock_guild", no_lock)
        await _race(pg_url, matches)
        alice = next(r for r in await rows_sql.all_ratings(store) if r.user_id == ALICE)
        assert alice.games == 1  # one of her two matches was lost
    finally:
        await store.close()


async def test_a_match_that_lands_after_a_later_one_refolds_in_order(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    matches = await _two_finished(service, clock)
    _, expected = fold_.fold(matches)
    for m in reversed(matches):  # the later end commits first
        async with store.transaction() as tx:
            await fold_.record(tx, m)
    assert await rows_sql.all_ratings(store) == expected
    async with store.transaction() as tx:  # a repeated end changes nothing
        await fold_.record(tx, matches[0])
    assert await rows_sql.all_ratings(store) == expected
