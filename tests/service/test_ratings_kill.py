"""Ratings after ``kill -9`` (issue 48): a writer playing one-round rated matches is killed
at random moments, again and again, on one file. Every finished match is rated exactly once
(the fold is in the transaction that ends it: never a finished match without its rating,
never a rating applied twice at a restart), so the ratings equal a rebuild from the log."""

from __future__ import annotations

import random
from pathlib import Path

from bot.service import GameService
from bot.store import Store
from bot.store import ratings as rows_sql
from tests.service.test_faults import _check_file, _run_and_kill

KILLS = 12


async def test_ratings_survive_kill_9_at_match_ends(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    rng = random.Random(48)
    for i in range(KILLS):
        acks = await _run_and_kill(db, seed=4800 + i, rng=rng, rounds=1, late=2.0)
        if db.exists():
            _check_file(db, acks)
    async with await Store.open(db) as store:
        finished = await rows_sql.finished_games(store)
        assert len(finished) >= 3, "the writer should have finished matches between kills"
        seen = {int(r[0]) for r in await store.fetch_all("SELECT game_id FROM rating_games")}
        rated = {int(r[0]) for r in await store.fetch_all("SELECT game_id FROM rating_changes")}
        # Every finished match was rated in the transaction that finished it.
        assert {gid for _, gid in finished} == seen == rated
        games = {r.user_id: r.games for r in await rows_sql.all_ratings(store)}
        for user in (1, 2):  # Ann and Ben play every match: counted once each
            assert games[user] == len(finished)
        changes = await store.fetch_all("SELECT * FROM rating_changes ORDER BY game_id, seat")
        ratings = await rows_sql.all_ratings(store)
        await GameService(store).rebuild_ratings(only_missing=False)
        assert await store.fetch_all("SELECT * FROM rating_changes ORDER BY game_id, seat") == (
            changes
        )
        assert await rows_sql.all_ratings(store) == ratings
