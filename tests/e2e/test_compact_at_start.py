"""Start-up compacts the matches an older version finished with every event kept (issue 39).

A match played to its end through the service with the compaction switched off stands for a
database of an older version. The bot started on that file moves its events into the archive
in the background (``MexicanTrainBot._compact_old_matches``), with no command to run, and the
match's history reads the same afterwards.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path

from bot.app import MexicanTrainBot
from bot.service import GameService
from bot.store import GameStatus, Store
from tests.clock import FakeClock
from tests.fakediscord import WAIT, FakeDiscord, running_bot
from tests.service.conftest import ALICE, BOB
from tests.service.helpers import new_game, play_turn


async def _events(store: Store, game_id: int) -> int:
    row = await store.fetch_one("SELECT COUNT(*) FROM events WHERE game_id = ?", (game_id,))
    return int(row[0])


async def test_start_up_compacts_matches_an_older_version_finished(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot], db_path: Path
) -> None:
    async with await Store.open(db_path, synchronous="NORMAL") as store:
        svc = GameService(store, cache_size=8, rng=random.Random(3))
        svc.ledger.compact_finished = False  # as an older version played it
        clock = FakeClock()
        opened = await new_game(
            svc, clock, humans=(ALICE, BOB), preset="standard", house_rules={"rounds": 1}
        )
        gid = opened.game.id
        while (await svc.game(gid)).status is GameStatus.ACTIVE:
            await play_turn(svc, gid, clock)
        kept = await _events(store, gid)
        assert kept > 10
        told = await svc.history(gid)
    bot = make_bot()
    async with running_bot(fake_discord, bot):
        store = bot.service.store
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT
        while await _events(store, gid):
            assert loop.time() < deadline, "the old match was never compacted"
            await asyncio.sleep(0.05)
        row = await store.fetch_one("SELECT count FROM event_archive WHERE game_id = ?", (gid,))
        assert row[0] == kept
        assert await GameService(store).history(gid) == told
