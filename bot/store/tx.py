"""Writing: :class:`Tx`, the statements allowed inside ``Store.transaction()``.

One class for both stores: every statement is the shared SQL of :mod:`bot.store.sql`, run on
the transaction's :class:`~bot.store.sql.Conn`. Every change to a game goes through
:meth:`Tx.touch` (the version check), every event through :meth:`Tx.append_events` (the
``(game_id, seq)`` key): a stale writer gets :class:`~bot.store.rows.Conflict` and the whole
transaction rolls back.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from bot.store.rows import (
    SEAT_COLS,
    ChannelBusy,
    Conflict,
    GuildSettings,
    IntegrityRefused,
    NewEvent,
    OrderRow,
    ResultRow,
    SeatRow,
    UserSettings,
    pack_events,
    to_db_time,
)
from bot.store.sql import COPY_TABLES, Conn, StoreKind, upsert_sql

_PUT_RESULT = upsert_sql(
    "results",
    [
        "game_id",
        "seat",
        "user_id",
        "computer",
        "total",
        "place",
        "won",
        "rounds_won",
        "finished_at",
    ],
    ("game_id", "seat"),
)
_PUT_USER_SETTINGS = upsert_sql(
    "user_settings",
    [
        "user_id",
        "dms_open",
        "hand_dms",
        "reminders",
        "reminder_after_s",
        "time_zone",
        "language",
        "tiles",
        "dm_channel_id",
        "ping",
        "autoplay",
        "updated_at",
    ],
    ("user_id",),
)
#: Only the DM channel column: a DM opened for the first time must not overwrite a setting the
#: player changed meanwhile (read-modify-write of the whole row would).
_PUT_ORDER = upsert_sql(
    "orders",
    ["game_id", "user_id", "round_no", "tiles", "stops", "log_from", "waits", "note"],
    ["game_id", "user_id"],
)
_PUT_DM_CHANNEL = upsert_sql(
    "user_settings", ["user_id", "dm_channel_id", "updated_at"], ("user_id",)
)
_PUT_GUILD_SETTINGS = upsert_sql(
    "guild_settings",
    [
        "guild_id",
        "preset",
        "house_rules",
        "allowed_channels",
        "host_role_id",
        "threads",
        "updated_at",
    ],
    ("guild_id",),
)


class Tx:
    """The statements allowed inside :meth:`Store.transaction`, on that transaction's
    connection; the same SQL for both databases."""

    def __init__(self, conn: Conn, kind: StoreKind) -> None:
        self._c = conn
        self.kind = kind

    @property
    def connection(self) -> Conn:
        """This transaction's connection, for the feature stores' own statements in it."""
        return self._c

    async def lock_game(self, game_id: int) -> None:
        """Hold the game until this transaction ends: another process's ``lock_game`` of the
        same game waits here, so read-check-write runs one process at a time per game.

        Without it, two processes that validated a move against the same table both try to
        append the same seq; the key lets one land and the other gets :class:`Conflict`
        (then reloads and retries or tells the player). With it, the second waits and then
        reads the first one's result, at the cost of one more round trip per change; see
        docs/postgresql.md for the measured trade-off. PostgreSQL: a transaction-scoped
        advisory lock keyed by the game id (released by commit or rollback, even when the
        process dies). SQLite: nothing to do, ``BEGIN IMMEDIATE`` already holds the file's
        one write lock for the whole transaction.
        """
        if self.kind == "postgresql":
            await self._c.fetch("SELECT pg_advisory_xact_lock(CAST(? AS BIGINT))", (game_id,))

    async def try_lock_game(self, game_id: int) -> bool:
        """Like :meth:`lock_game`, but never waits: False when another process holds the game
        (so it is already doing this work: e.g. resuming a computer player's turn)."""
        if self.kind != "postgresql":
            return True
        rows = await self._c.fetch(
            "SELECT pg_try_advisory_xact_lock(CAST(? AS BIGINT))", (game_id,)
        )
        return bool(rows[0][0])

    async def game_version(self, game_id: int) -> int | None:
        """The game's version read inside this transaction (None: no such game). After
        :meth:`lock_game` this is the version no other process can change until commit: the
        check that the cached game is still current, made under the lock."""
        rows = await self._c.fetch("SELECT version FROM games WHERE id = ?", (game_id,))
        return int(rows[0][0]) if rows else None

    async def insert_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        preset: str,
        rules_json: str,
        engine_version: int,
        turn_deadline_s: int | None,
        hints: bool,
        now: datetime,
    ) -> int:
        at = to_db_time(now)
        try:
            rows = await self._c.fetch(
                "INSERT INTO games (guild_id, channel_id, host_id, preset, rules, "
                "engine_version, status, version, turn_deadline_s, hints, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, 'lobby', 1, ?, ?, ?, ?) RETURNING id",
                (
                    guild_id,
                    channel_id,
                    host_id,
                    preset,
                    rules_json,
                    engine_version,
                    turn_deadline_s,
                    int(hints),
                    at,
                    at,
                ),
            )
        except IntegrityRefused as exc:
            if exc.constraint == "games_one_open_per_channel":
                raise ChannelBusy(f"channel {channel_id} already has an unfinished game") from exc
            raise
        return int(rows[0][0])

    async def touch(
        self, game_id: int, expected_version: int, now: datetime, **columns: Any
    ) -> int:
        """Bump the game's version (if still ``expected_version``) and set ``columns``.

        Every change to a game goes through here, so a stale writer always gets
        :class:`Conflict` and never overwrites a newer state. Returns the new version.
        """
        sets = ["version = version + 1", "updated_at = ?"]
        params: list[Any] = [to_db_time(now)]
        for name, value in columns.items():
            if name not in _TOUCHABLE:
                raise ValueError(f"games.{name} is not changed through touch()")
            sets.append(f"{name} = ?")
            if isinstance(value, datetime):
                value = to_db_time(value)
            elif isinstance(value, enum.Enum):
                value = value.value
            elif isinstance(value, bool):
                value = int(value)
            params.append(value)
        params += [game_id, expected_version]
        try:
            changed = await self._c.execute(
                f"UPDATE games SET {', '.join(sets)} WHERE id = ? AND version = ?", params
            )
        except IntegrityRefused as exc:
            if exc.constraint == "games_one_open_per_channel":
                raise ChannelBusy("the channel already has an unfinished game") from exc
            raise
        if changed != 1:
            raise Conflict(f"game {game_id} changed (expected version {expected_version})")
        return expected_version + 1

    async def insert_seat(
        self,
        game_id: int,
        seat: int,
        *,
        user_id: int | None,
        display_name: str,
        computer: str | None,
        now: datetime,
    ) -> None:
        try:
            await self._c.execute(
                f"INSERT INTO seats ({SEAT_COLS}) VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, seat, user_id, display_name, computer, to_db_time(now)),
            )
        except IntegrityRefused as exc:
            raise Conflict(f"seat {seat} of game {game_id}: {exc}") from exc

    async def delete_seat(self, game_id: int, seat: int) -> None:
        await self._c.execute("DELETE FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat))

    async def replace_seats(self, game_id: int, seats: Sequence[SeatRow]) -> None:
        """Renumber the seats (the lobby's join order becomes the table's seat order)."""
        await self._c.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
        await self._c.executemany(
            f"INSERT INTO seats ({SEAT_COLS}) VALUES (?, ?, ?, ?, ?, ?)",
            [
                (game_id, s.seat, s.user_id, s.display_name, s.computer, to_db_time(s.joined_at))
                for s in seats
            ],
        )

    async def set_seat_computer(self, game_id: int, seat: int, computer: str | None) -> None:
        await self._c.execute(
            "UPDATE seats SET computer = ? WHERE game_id = ? AND seat = ?",
            (computer, game_id, seat),
        )

    async def append_events(
        self, game_id: int, first_seq: int, events: Sequence[NewEvent], now: datetime
    ) -> None:
        """Append ``events`` as seqs ``first_seq``, ``first_seq + 1``, …

        A seq already taken means another writer appended first: :class:`Conflict`, and the
        caller's transaction rolls back whole.
        """
        at = to_db_time(now)
        try:
            await self._c.executemany(
                "INSERT INTO events (game_id, seq, kind, payload, actor, at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (game_id, first_seq + i, e.kind, e.payload, e.actor, at)
                    for i, e in enumerate(events)
                ],
            )
        except IntegrityRefused as exc:
            raise Conflict(f"game {game_id}: seq {first_seq} is already taken") from exc

    async def archive_events(self, game_id: int) -> int:
        """Compact a finished match's log (see the ``event_archive`` migration): its events
        move into one compressed row, and its round snapshots but the last are dropped (the
        last one is all a load of the finished match uses). Returns the events moved."""
        rows = await self._c.fetch(
            "SELECT seq, kind, payload, actor, at FROM events WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        if not rows:
            return 0
        await self._c.execute(
            "INSERT INTO event_archive (game_id, events, count) VALUES (?, ?, ?)",
            (game_id, pack_events(rows), len(rows)),
        )
        await self._c.execute("DELETE FROM events WHERE game_id = ?", (game_id,))
        await self._c.execute(
            "DELETE FROM round_snapshots WHERE game_id = ? AND seq < "
            "(SELECT MAX(seq) FROM round_snapshots WHERE game_id = ?)",
            (game_id, game_id),
        )
        return len(rows)

    async def put_snapshots(self, game_id: int, snapshots: Sequence[tuple[int, str]]) -> None:
        """Round snapshots as (seq of the deal event, rounds JSON); see the schema."""
        await self._c.executemany(
            upsert_sql("round_snapshots", ("game_id", "seq", "rounds"), ("game_id", "seq")),
            [(game_id, seq, rounds) for seq, rounds in snapshots],
        )

    async def write_results(self, game_id: int, rows: Sequence[ResultRow], now: datetime) -> None:
        at = to_db_time(now)
        await self._c.executemany(
            _PUT_RESULT,
            [
                (
                    game_id,
                    r.seat,
                    r.user_id,
                    r.computer,
                    r.total,
                    r.place,
                    int(r.won),
                    r.rounds_won,
                    at,
                )
                for r in rows
            ],
        )

    async def set_message(
        self, game_id: int, kind: str, channel_id: int, message_id: int, now: datetime
    ) -> None:
        await self._c.execute(
            upsert_sql(
                "messages",
                ("game_id", "kind", "channel_id", "message_id", "updated_at"),
                ("game_id", "kind"),
            ),
            (game_id, kind, channel_id, message_id, to_db_time(now)),
        )

    async def put_meta(self, key: str, value: str) -> None:
        await self._c.execute(upsert_sql("meta", ("key", "value"), ("key",)), (key, value))

    async def put_user_settings(self, s: UserSettings, now: datetime) -> None:
        await self._c.execute(
            _PUT_USER_SETTINGS,
            (
                s.user_id,
                int(s.dms_open),
                int(s.hand_dms),
                int(s.reminders),
                s.reminder_after_s,
                s.time_zone,
                s.language,
                s.tiles,
                s.dm_channel_id,
                s.ping,
                s.autoplay,
                to_db_time(now),
            ),
        )

    async def put_dm_channel(self, user_id: int, channel_id: int | None, now: datetime) -> None:
        await self._c.execute(_PUT_DM_CHANNEL, (user_id, channel_id, to_db_time(now)))

    async def put_order(self, row: OrderRow) -> None:
        """Write one player's standing order (issue 46), replacing the one they had."""
        await self._c.execute(
            _PUT_ORDER,
            (
                row.game_id,
                row.user_id,
                row.round_no,
                row.tiles,
                row.stops,
                row.log_from,
                int(row.waits),
                row.note,
            ),
        )

    async def clear_order(self, game_id: int, user_id: int) -> None:
        """Empty one player's order: no tile queued, no note; the stops they chose stay."""
        await self._c.execute(
            "UPDATE orders SET tiles = '[]', note = NULL WHERE game_id = ? AND user_id = ?",
            (game_id, user_id),
        )

    async def put_guild_settings(self, s: GuildSettings, now: datetime) -> None:
        await self._c.execute(
            _PUT_GUILD_SETTINGS,
            (
                s.guild_id,
                s.preset,
                json.dumps(s.house_rules, sort_keys=True),
                json.dumps(list(s.allowed_channels)),
                s.host_role_id,
                int(s.threads),
                to_db_time(now),
            ),
        )

    async def insert_rows(
        self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]
    ) -> None:
        """Rows copied whole from another store (``store copy``), ids included."""
        if table not in COPY_TABLES:
            raise ValueError(f"{table} is not a table the store copies")
        marks = ", ".join("?" * len(columns))
        await self._c.executemany(
            f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows
        )

    async def clear_table(self, table: str) -> None:
        """Delete every row of a table the copy rewrites whole (``due_work``, which the games'
        triggers fill as the games are copied in)."""
        if table != "due_work":
            raise ValueError(f"{table} is not cleared by a copy")
        await self._c.execute(f"DELETE FROM {table}")


_TOUCHABLE = frozenset(
    {
        "status",
        "host_id",
        "turn_seat",
        "round_no",
        "deadline_at",
        "turn_since",
        "hints",
        "turn_deadline_s",
        # A lobby moves into the thread opened for it (``/mt new thread:``).
        "channel_id",
    }
)
