"""Rows for finished matches' reviews (issue 49; the table of migration 16): one per seat,
computed once on demand and kept, so a review is never computed twice. Derived from the event
log: deleting them only means the next asker waits for a new computation.

Same SQL for both databases, through the store, like :mod:`bot.store.ratings`.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime

from bot.store.store import Store, from_db_time, to_db_time, upsert_sql


@dataclasses.dataclass(frozen=True, slots=True)
class ReviewRow:
    game_id: int
    seat: int
    #: How hard the review looked (JSON of its settings).
    settings: str
    #: The review itself, as JSON (the service reads and writes it).
    body: str
    created_at: datetime


_COLS = ("game_id", "seat", "settings", "body", "created_at")
_PUT = upsert_sql("match_reviews", _COLS, ("game_id", "seat"))


async def get(store: Store, game_id: int, seat: int) -> ReviewRow | None:
    rows = await store.fetch_all(
        f"SELECT {', '.join(_COLS)} FROM match_reviews WHERE game_id = ? AND seat = ?",
        (game_id, seat),
    )
    if not rows:
        return None
    r = rows[0]
    return ReviewRow(int(r[0]), int(r[1]), str(r[2]), str(r[3]), from_db_time(str(r[4])))


async def put(store: Store, row: ReviewRow) -> None:
    async with store.transaction() as tx:
        await tx.connection.execute(
            _PUT, (row.game_id, row.seat, row.settings, row.body, to_db_time(row.created_at))
        )
