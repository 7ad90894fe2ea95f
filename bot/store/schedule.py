"""The scheduler's rows: due work, per-game timeout options, players' quiet hours and away
mode, servers' defaults, nudges, and the latest table message of each game.

Migration 5 made the tables (see :mod:`bot.store.schema`). This module is part of the store:
it reads through the store and writes inside a :meth:`Store.transaction`, in the SQL both
databases share (like :mod:`bot.store.store`), and knows rows, not rules.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from bot.store.rows import DueRow, due_row, opt_time
from bot.store.store import MessageRow, Store, Tx, from_db_time, to_db_time, upsert_sql

__all__ = [
    "TURN_KINDS",
    "DueRow",
    "GameScheduleRow",
    "GuildScheduleRow",
    "ScheduleStore",
    "ScheduleTx",
    "UserScheduleRow",
    "WaitingRow",
]

#: Due work that belongs to the current turn (rewritten when the turn changes).
TURN_KINDS = ("timeout", "remind", "away")


@dataclasses.dataclass(frozen=True, slots=True)
class GameScheduleRow:
    game_id: int
    timeout_policy: str = "computer"
    replace_after: int = 3
    remind_before_s: int | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class UserScheduleRow:
    user_id: int
    quiet_start: int | None = None
    quiet_end: int | None = None
    remind_dm: bool = False
    away: bool = False
    #: Daily digest mode (issue 46): the hour of their day their one DM a day comes at (None:
    #: a DM per turn), and when the next is due (UTC; migration 17).
    digest_hour: int | None = None
    digest_due_at: datetime | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class GuildScheduleRow:
    guild_id: int
    deadline_s: int | None = None
    timeout_policy: str = "computer"
    stall_days: int = 14


@dataclasses.dataclass(frozen=True, slots=True)
class WaitingRow:
    """A game waiting on one player (it is their turn there), and where to jump to it: its
    latest table message as recorded (None: not recorded yet; the channel then)."""

    game_id: int
    guild_id: int
    channel_id: int
    turn_since: datetime | None
    deadline_at: datetime | None
    message: MessageRow | None


class ScheduleStore:
    """Reads for the scheduler."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return await self.store.fetch_all(sql, params)

    async def next_due(self) -> datetime | None:
        """The earliest due time of any work (one read of an index's first entry). On
        PostgreSQL a row leased to a process counts from the end of its lease: until then it is
        that process's work, and a scheduler that looked at its due time would wake, find
        nothing to claim and look again at once."""
        # The daily digests' next due time rides in the same statement (issue 46).
        digest = "(SELECT MIN(digest_due_at) FROM user_schedule)"
        if self.store.kind == "postgresql":
            rows = await self._all(
                "SELECT MIN(CASE WHEN claimed_until > due_at THEN claimed_until ELSE due_at END), "
                f"{digest} FROM due_work"
            )
        else:
            rows = await self._all(f"SELECT MIN(due_at), {digest} FROM due_work")
        times = [from_db_time(t) for t in (rows[0] if rows else ()) if t is not None]
        return min(times, default=None)

    async def claim_due(
        self, now: datetime, limit: int, owner: str, lease: timedelta
    ) -> list[DueRow]:
        """Due rows handed to this process alone for ``lease``: see :meth:`Store.claim_due`."""
        return await self.store.claim_due(now, limit, owner, lease)

    async def due(self, now: datetime, limit: int) -> list[DueRow]:
        rows = await self._all(
            "SELECT game_id, kind, turn_key, user_id, due_at FROM due_work "
            "WHERE due_at <= ? ORDER BY due_at LIMIT ?",
            (to_db_time(now), limit),
        )
        return [due_row(r) for r in rows]

    async def work_for(self, game_id: int) -> list[DueRow]:
        rows = await self._all(
            "SELECT game_id, kind, turn_key, user_id, due_at FROM due_work WHERE game_id = ? "
            "ORDER BY due_at",
            (game_id,),
        )
        return [due_row(r) for r in rows]

    async def game_schedule(self, game_id: int) -> GameScheduleRow:
        rows = await self._all(
            "SELECT game_id, timeout_policy, replace_after, remind_before_s FROM game_schedule "
            "WHERE game_id = ?",
            (game_id,),
        )
        return GameScheduleRow(*rows[0]) if rows else GameScheduleRow(game_id)

    async def user_schedule(self, user_id: int) -> UserScheduleRow:
        rows = await self._all(
            "SELECT user_id, quiet_start, quiet_end, remind_dm, away, digest_hour, digest_due_at "
            "FROM user_schedule WHERE user_id = ?",
            (user_id,),
        )
        if not rows:
            return UserScheduleRow(user_id)
        r = rows[0]
        return UserScheduleRow(r[0], r[1], r[2], bool(r[3]), bool(r[4]), r[5], opt_time(r[6]))

    async def digests_due(self, now: datetime, limit: int) -> list[tuple[int, datetime]]:
        """The players whose daily digest is due at ``now``: (user, when it was due), oldest
        first, at most ``limit`` (an index's first entries)."""
        rows = await self._all(
            "SELECT user_id, digest_due_at FROM user_schedule WHERE digest_due_at <= ? "
            "ORDER BY digest_due_at LIMIT ?",
            (to_db_time(now), limit),
        )
        return [(r[0], from_db_time(r[1])) for r in rows]

    async def guild_schedule(self, guild_id: int) -> GuildScheduleRow:
        rows = await self._all(
            "SELECT guild_id, deadline_s, timeout_policy, stall_days FROM guild_schedule "
            "WHERE guild_id = ?",
            (guild_id,),
        )
        return GuildScheduleRow(*rows[0]) if rows else GuildScheduleRow(guild_id)

    async def last_nudge(self, game_id: int) -> datetime | None:
        rows = await self._all(
            "SELECT MAX(sent_at) FROM reminders WHERE game_id = ? AND kind = 'nudge'", (game_id,)
        )
        return None if not rows or rows[0][0] is None else from_db_time(rows[0][0])

    async def messages_of(self, game_ids: Iterable[int]) -> dict[int, dict[str, MessageRow]]:
        """The recorded bot messages of several games, by game and kind."""
        ids = sorted(set(game_ids))
        out: dict[int, dict[str, MessageRow]] = {g: {} for g in ids}
        if not ids:
            return out
        marks = ",".join("?" * len(ids))
        rows = await self._all(
            "SELECT game_id, kind, channel_id, message_id, updated_at FROM messages "
            f"WHERE game_id IN ({marks})",
            ids,
        )
        for r in rows:
            out[r[0]][r[1]] = MessageRow(r[0], r[1], r[2], r[3], from_db_time(r[4]))
        return out

    async def waiting_on(self, user_id: int, limit: int, *, but: int = 0) -> list[WaitingRow]:
        """The games whose turn is ``user_id``'s (a human seat), ``but`` that one, soonest
        deadline first, then the longest waiting: at most ``limit`` rows, read from the
        player's seats (their index) in one statement, so a move or a digest pays one small
        read whatever the number of games."""
        rows = await self._all(
            "SELECT g.id, g.guild_id, g.channel_id, g.turn_since, g.deadline_at, "
            "m.channel_id, m.message_id, m.updated_at "
            "FROM seats s JOIN games g ON g.id = s.game_id AND g.turn_seat = s.seat "
            "LEFT JOIN messages m ON m.game_id = g.id AND m.kind = 'table' "
            "WHERE s.user_id = ? AND s.computer IS NULL AND g.status = 'active' AND g.id <> ? "
            "ORDER BY CASE WHEN g.deadline_at IS NULL THEN 1 ELSE 0 END, g.deadline_at, "
            "g.turn_since, g.id LIMIT ?",
            (user_id, but, limit),
        )
        return [
            WaitingRow(
                r[0], r[1], r[2], opt_time(r[3]), opt_time(r[4]),
                None if r[6] is None else MessageRow(r[0], "table", r[5], r[6],
                                                     from_db_time(r[7])),
            )
            for r in rows
        ]  # fmt: skip

    async def tail_events(self, game_id: int, limit: int) -> list[tuple[int, str, str, int | None]]:
        """The game's last ``limit`` events, newest first: (seq, kind, payload, actor)."""
        rows = await self._all(
            "SELECT seq, kind, payload, actor FROM events WHERE game_id = ? "
            "ORDER BY seq DESC LIMIT ?",
            (game_id, limit),
        )
        return [(r[0], r[1], r[2], r[3]) for r in rows]


_PUT_DUE = upsert_sql(
    "due_work", ("game_id", "kind", "turn_key", "user_id", "due_at"), ("game_id", "kind")
)


class ScheduleTx:
    """Writes for the scheduler, inside a transaction the caller opened."""

    def __init__(self, tx: Tx) -> None:
        self._c = tx.connection

    async def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return await self._c.fetch(sql, params)

    async def turn_work_keys(self, game_id: int) -> dict[str, str]:
        marks = ",".join("?" * len(TURN_KINDS))
        rows = await self._rows(
            f"SELECT kind, turn_key FROM due_work WHERE game_id = ? AND kind IN ({marks})",
            (game_id, *TURN_KINDS),
        )
        return {r[0]: r[1] for r in rows}

    async def clear_turn_work(self, game_id: int) -> None:
        marks = ",".join("?" * len(TURN_KINDS))
        await self._c.execute(
            f"DELETE FROM due_work WHERE game_id = ? AND kind IN ({marks})", (game_id, *TURN_KINDS)
        )

    async def put_dues(self, rows: Sequence[DueRow]) -> None:
        await self._c.executemany(
            _PUT_DUE,
            [(r.game_id, r.kind, r.turn_key, r.user_id, to_db_time(r.due_at)) for r in rows],
        )

    async def put_due(self, row: DueRow) -> None:
        await self._c.execute(
            _PUT_DUE,
            (row.game_id, row.kind, row.turn_key, row.user_id, to_db_time(row.due_at)),
        )

    async def finish_due(self, row: DueRow) -> bool:
        """Remove a row if it is still the one that was read (same plan, same time)."""
        changed = await self._c.execute(
            "DELETE FROM due_work WHERE game_id = ? AND kind = ? AND turn_key = ? AND due_at = ?",
            (row.game_id, row.kind, row.turn_key, to_db_time(row.due_at)),
        )
        return changed == 1

    async def finish_away(self, game_id: int, user_id: int) -> None:
        await self._c.execute(
            "DELETE FROM due_work WHERE game_id = ? AND kind = 'away' AND user_id = ?",
            (game_id, user_id),
        )

    async def move_due(self, row: DueRow, turn_key: str, due_at: datetime) -> bool:
        """Re-plan a row (a reminder waiting out quiet hours, a stall warning given)."""
        changed = await self._c.execute(
            "UPDATE due_work SET turn_key = ?, due_at = ? "
            "WHERE game_id = ? AND kind = ? AND turn_key = ? AND due_at = ?",
            (turn_key, to_db_time(due_at), row.game_id, row.kind, row.turn_key,
             to_db_time(row.due_at)),
        )  # fmt: skip
        return changed == 1

    async def turn_facts(self, game_id: int, user_id: int) -> tuple[bool, int, bool, int | None]:
        """For planning a turn: (reminders on, reminder_after_s, away, game remind_before_s);
        reminders are off for a player in daily digest mode."""
        rows = await self._rows(
            # A player in daily digest mode gets no reminder: the digest is their one DM a day.
            "SELECT CASE WHEN sc.digest_hour IS NULL THEN COALESCE(us.reminders, 1) ELSE 0 END, "
            "COALESCE(us.reminder_after_s, 43200), "
            "COALESCE(sc.away, 0), gs.remind_before_s "
            "FROM (SELECT CAST(? AS BIGINT) AS uid, CAST(? AS BIGINT) AS gid) AS k "
            "LEFT JOIN user_settings us ON us.user_id = k.uid "
            "LEFT JOIN user_schedule sc ON sc.user_id = k.uid "
            "LEFT JOIN game_schedule gs ON gs.game_id = k.gid",
            (user_id, game_id),
        )
        r = rows[0]
        return bool(r[0]), int(r[1]), bool(r[2]), r[3]

    async def put_game_schedule(self, row: GameScheduleRow) -> None:
        await self._c.execute(
            upsert_sql(
                "game_schedule",
                ("game_id", "timeout_policy", "replace_after", "remind_before_s"),
                ("game_id",),
            ),
            (row.game_id, row.timeout_policy, row.replace_after, row.remind_before_s),
        )

    async def put_user_schedule(self, row: UserScheduleRow, now: datetime) -> None:
        await self._c.execute(
            upsert_sql(
                "user_schedule",
                ("user_id", "quiet_start", "quiet_end", "remind_dm", "away", "digest_hour",
                 "digest_due_at", "updated_at"),
                ("user_id",),
            ),
            (row.user_id, row.quiet_start, row.quiet_end, int(row.remind_dm), int(row.away),
             row.digest_hour, None if row.digest_due_at is None else to_db_time(row.digest_due_at),
             to_db_time(now)),
        )  # fmt: skip

    async def digest_sent(self, user_id: int, due_at: datetime, following: datetime) -> bool:
        """The digest due at ``due_at`` was delivered: the next is due at ``following``, if the
        row still says ``due_at`` (a player who changed their hour meanwhile keeps theirs)."""
        changed = await self._c.execute(
            "UPDATE user_schedule SET digest_due_at = ? WHERE user_id = ? AND digest_due_at = ?",
            (to_db_time(following), user_id, to_db_time(due_at)),
        )
        return changed == 1

    async def put_guild_schedule(self, row: GuildScheduleRow, now: datetime) -> None:
        await self._c.execute(
            upsert_sql(
                "guild_schedule",
                ("guild_id", "deadline_s", "timeout_policy", "stall_days", "updated_at"),
                ("guild_id",),
            ),
            (row.guild_id, row.deadline_s, row.timeout_policy, row.stall_days, to_db_time(now)),
        )

    async def log_reminder(
        self, game_id: int, user_id: int, kind: str, due_at: datetime, sent_at: datetime
    ) -> None:
        """Note a reminder or nudge sent (v3's ``reminders`` table: one row per kind)."""
        await self._c.execute(
            upsert_sql(
                "reminders",
                ("game_id", "user_id", "kind", "due_at", "sent_at"),
                ("game_id", "user_id", "kind"),
            ),
            (game_id, user_id, kind, to_db_time(due_at), to_db_time(sent_at)),
        )

    async def set_messages(self, rows: Sequence[tuple[int, str, int, int]], now: datetime) -> None:
        """Upsert (game, kind, channel, message) rows, skipping games that no longer exist."""
        await self._c.executemany(
            "INSERT INTO messages (game_id, kind, channel_id, message_id, updated_at) "
            "SELECT CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS BIGINT), "
            "CAST(? AS TEXT) WHERE EXISTS (SELECT 1 FROM games WHERE id = ?) "
            "ON CONFLICT (game_id, kind) DO UPDATE SET channel_id = excluded.channel_id, "
            "message_id = excluded.message_id, updated_at = excluded.updated_at",
            [(g, k, c, m, to_db_time(now), g) for g, k, c, m in rows],
        )
