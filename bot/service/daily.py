"""Each player's daily digest (issue 46): one DM a day, at the hour of their own day they chose
(``/mt me digest_hour:``), listing every game waiting on them, instead of a DM per turn.

The truth is the player's ``user_schedule`` row (migration 20): ``digest_hour`` and
``digest_due_at``, the next digest's UTC instant, which the scheduler's loop sleeps towards
beside its ``due_work`` rows (:meth:`bot.store.schedule.ScheduleStore.next_due`), so a
restart loses nothing. A digest follows the outbox's pattern (docs/outbox.md): what is owed
stays in the database until it is delivered (:meth:`DailyDigests.sent` moves it to the next
day, if the row still says what was read), and the DM carries a nonce naming the player and
the digest's due time (:attr:`DailyDigest.nonce`), so a process killed between the DM and
that write sends it again at its restart and Discord answers with the first DM: one digest
per day. A day with nothing waiting sends nothing.

Nothing here knows Discord: the scheduler hands each :class:`DailyDigest` to the Discord layer
(``bot/cogs/timing.py``), which words it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import zoneinfo
from datetime import datetime

from bot.service.settings import next_digest
from bot.store import Store
from bot.store.schedule import ScheduleStore, ScheduleTx, WaitingRow

#: The games one digest lists at most (soonest deadline first); more are counted.
DIGEST_GAMES = 15


@dataclasses.dataclass(frozen=True, slots=True)
class DailyDigest:
    """One player's digest as due: the games waiting on them (at most :data:`DIGEST_GAMES`,
    soonest deadline first; ``more``: how many others), in their language, at their hour."""

    user_id: int
    due_at: datetime
    hour: int
    time_zone: str
    language: str
    games: tuple[WaitingRow, ...]
    more: int = 0

    @property
    def nonce(self) -> str:
        """The DM's nonce: the same for this player's digest of this day and hour whoever
        sends it, and after a retry moved its due time by minutes; hashed to Discord's 25
        characters (``mtd`` + 22 hex digits)."""
        day = self.due_at.astimezone(zone_of(self.time_zone)).date()
        key = f"digest:{self.user_id}:{day.isoformat()}:{self.hour}"
        return f"mtd{hashlib.blake2b(key.encode(), digest_size=11).hexdigest()}"


def zone_of(name: str) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


class DailyDigests:
    """The digests due, read, and marked delivered, over one store."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.rows = ScheduleStore(store)

    async def due(self, now: datetime, limit: int) -> list[tuple[int, datetime]]:
        """The players whose digest is due at ``now``, (user, due time), oldest first."""
        return await self.rows.digests_due(now, limit)

    async def read(self, user_id: int, due_at: datetime) -> DailyDigest | None:
        """The digest owed to ``user_id`` at ``due_at``; None when the row no longer owes it
        (the player switched the digest off or chose another hour meanwhile)."""
        mine = await self.rows.user_schedule(user_id)
        if mine.digest_hour is None or mine.digest_due_at != due_at:
            return None
        settings = await self.store.user_settings(user_id)
        games = await self.rows.waiting_on(user_id, DIGEST_GAMES + 50)
        return DailyDigest(
            user_id,
            due_at,
            mine.digest_hour,
            settings.time_zone,
            settings.language,
            tuple(games[:DIGEST_GAMES]),
            max(0, len(games) - DIGEST_GAMES),
        )

    async def sent(self, user_id: int, due_at: datetime, now: datetime) -> None:
        """The digest due at ``due_at`` was delivered (or had nothing to say, or its DM was
        refused: never retried in a loop): the next is due at the player's hour tomorrow."""
        mine = await self.rows.user_schedule(user_id)
        if mine.digest_hour is None:
            return
        settings = await self.store.user_settings(user_id)
        following = next_digest(max(now, due_at), settings.time_zone, mine.digest_hour)
        async with self.store.transaction() as tx:
            await ScheduleTx(tx).digest_sent(user_id, due_at, following)

    async def later(self, user_id: int, due_at: datetime, when: datetime) -> None:
        """The digest's work failed (the database, a bug): try again at ``when``."""
        async with self.store.transaction() as tx:
            await ScheduleTx(tx).digest_sent(user_id, due_at, when)
