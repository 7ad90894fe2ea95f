"""A PostgreSQL server that stops answering (a TCP relay holds every byte, as a network that
drops packets or a SIGSTOPped server would): every kind of store operation fails as
"unreachable" within the store's deadline (1 s here), however far it got, and the store works
again once the server answers (issue 50)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.store import Store
from bot.store.outage import unreachable
from bot.store.postgres import PgStore
from tests.e2e.test_outage import relayed
from tests.store.test_store import _game


async def _write(store: Store) -> None:
    async with store.transaction() as tx:
        await tx.put_meta("k", "v")


async def _slow_body(store: Store, hang: Callable[[], None]) -> None:
    async with store.transaction() as tx:
        await tx.put_meta("k", "v")
        hang()  # the server stops answering mid-transaction
        await tx.put_meta("k", "w")


@pytest.mark.parametrize("what", ["read", "load", "write", "mid-transaction"])
async def test_every_operation_on_a_hung_server_fails_within_the_deadline(
    pg_url: str, what: str
) -> None:
    async with relayed(pg_url) as (relay, url):
        store = await PgStore.connect(url, connect_timeout=1.0, command_timeout=1.0)
        try:
            game_id = await _game(store)
            actions: dict[str, Callable[[], Awaitable[Any]]] = {
                "read": lambda: store.version(game_id),
                "load": lambda: store.load(game_id),
                "write": lambda: _write(store),
                "mid-transaction": lambda: _slow_body(store, relay.hang),
            }
            if what != "mid-transaction":
                relay.hang()
            t = time.monotonic()
            with pytest.raises(Exception) as caught:
                await actions[what]()
            waited = time.monotonic() - t
            reason = unreachable(caught.value)
            assert reason is not None and "did not answer within 1 s" in reason, caught.value
            assert waited < 1.0 + 0.5, waited
            relay.unhang()
            await asyncio.wait_for(_write(store), 5)
            assert await store.version(game_id) is not None
        finally:
            await store.close()
