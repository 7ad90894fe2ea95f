"""A move's look-up is one read when the cache holds the game at the version it reads.

Under a burst every look-up queues on the store's one reader (issue 50): the channel's game
row, then its seats, then its version again for the cache's check were three round trips.
The row carries the version, and the cached game at that version carries the seats: one
read. The reads are counted, never timed; a game changed behind the cache (another process
on the same file) is still read in full and seen as it now is.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from typing import Any

from bot.service import GameService
from bot.store import Store
from tests.clock import FakeClock
from tests.service.conftest import ALICE, BOB, CHANNEL
from tests.service.helpers import new_game, play_turn

READS = ("unfinished_in_channel", "game", "seats", "version", "load")


def count_reads(store: Store) -> list[str]:
    """Wrap the store's reads a look-up may make; the list of those made, in order."""
    made: list[str] = []

    def counted(name: str, read: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def wrapper(*args: Any, **kwargs: Any) -> Any:
            made.append(name)
            return await read(*args, **kwargs)

        return wrapper

    for name in READS:
        setattr(store, name, counted(name, getattr(store, name)))
    return made


async def test_a_look_up_is_one_read_when_the_cache_is_current(
    store: Store, clock: FakeClock
) -> None:
    svc = GameService(store, cache_size=8, rng=random.Random(3))
    gid = (await new_game(svc, clock, humans=(ALICE, BOB))).game.id
    await play_turn(svc, gid, clock)
    expected = await svc.seat_view(gid, ALICE)
    made = count_reads(store)

    look = await svc.look_here(CHANNEL, ALICE)

    assert made == ["unfinished_in_channel"]
    assert look is not None and look.view == expected
    assert [p.user_id for p in look.game.players] == [ALICE, BOB]
    made.clear()
    clicked = await svc.look(gid, BOB)
    assert made == ["game"]
    assert clicked.view == await svc.seat_view(gid, BOB)


async def test_a_game_changed_behind_the_cache_is_read_again(
    store: Store, clock: FakeClock
) -> None:
    svc = GameService(store, cache_size=8, rng=random.Random(3))
    gid = (await new_game(svc, clock, humans=(ALICE, BOB))).game.id
    await svc.look_here(CHANNEL, ALICE)  # cached here
    other = GameService(store, cache_size=8, rng=random.Random(3))  # another process
    await play_turn(other, gid, clock)
    now = await other.seat_view(gid, ALICE)
    made = count_reads(store)

    look = await svc.look_here(CHANNEL, ALICE)

    assert made[0] == "unfinished_in_channel" and "seats" in made and "load" in made
    assert look is not None and look.view == now
    assert look.game.version == (await other.game(gid)).version
