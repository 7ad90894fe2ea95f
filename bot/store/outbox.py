"""The outbox's rows: what a committed move still owes the players (issue 37).

A move's transaction writes (:meth:`OutboxTx.owe`) that the game's channel is owed a post for
its events from a seq on, and that a player is owed the ping of their turn; the Discord layer
clears each part once it is delivered (:meth:`OutboxTx.delivered`, in the transaction that
also keeps what the announcement learned). What is left after a crash or a failed send is
found by :meth:`OutboxStore.due` and leased to one process (:meth:`OutboxStore.claim`) so a
cluster delivers each debt once. Rows, not rules: the SQL both databases share, like
:mod:`bot.store.schedule`.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime, timedelta

from bot.store.store import Store, Tx, from_db_time, to_db_time

__all__ = ["OutboxStore", "OutboxTx", "Owed"]


@dataclasses.dataclass(frozen=True, slots=True)
class Owed:
    """One game's debt: a post telling events ``from_seq`` on (if ``post_owed``) and the ping
    of ``ping_user`` (if any), both for the game as it stood at ``version``; once its match is
    over, the humans still owed the news of its end (``end_users``); ``held_from``: the
    first event of a draw held for the next post (told by it, not on its own)."""

    game_id: int
    from_seq: int
    version: int
    post_owed: bool
    ping_user: int | None
    attempts: int
    due_at: datetime
    end_users: tuple[int, ...] = ()
    held_from: int | None = None


_COLS = "game_id, from_seq, version, post_owed, ping_user, attempts, due_at, end_users, held_from"

#: What makes a row a debt to deliver: a post, a ping or a match's end owed.
OWING = "(post_owed = 1 OR ping_user IS NOT NULL OR end_users IS NOT NULL)"
#: The row goes once nothing of it is owed and no draw waits for the next post.
_PAID = f"NOT {OWING} AND held_from IS NULL"

#: A new debt keeps the oldest unposted event (the post owed grows, it never skips a move: a
#: draw held for it included) and takes the newest version and ping (an older ping is for a
#: turn that is over); the end of a match, once owed, stays owed until told.
_OWE = (
    "INSERT INTO outbox (game_id, from_seq, version, post_owed, ping_user, attempts, due_at, "
    "end_users) VALUES (?, ?, ?, 1, ?, 0, ?, ?) ON CONFLICT (game_id) DO UPDATE SET "
    "from_seq = CASE WHEN outbox.post_owed = 1 THEN outbox.from_seq "
    "ELSE COALESCE(outbox.held_from, excluded.from_seq) END, "
    "version = excluded.version, post_owed = 1, ping_user = excluded.ping_user, attempts = 0, "
    "due_at = excluded.due_at, claimed_by = NULL, claimed_until = NULL, "
    "end_users = COALESCE(excluded.end_users, outbox.end_users)"
)


def _users_text(users: tuple[int, ...] | list[int]) -> str | None:
    return " ".join(str(u) for u in users) or None


def _users(text: object) -> tuple[int, ...]:
    return tuple(int(u) for u in str(text).split()) if text is not None else ()


def _owed(r: tuple[object, ...] | list[object]) -> Owed:
    return Owed(
        int(r[0]),  # type: ignore[call-overload]
        int(r[1]),  # type: ignore[call-overload]
        int(r[2]),  # type: ignore[call-overload]
        bool(r[3]),
        None if r[4] is None else int(r[4]),  # type: ignore[call-overload]
        int(r[5]),  # type: ignore[call-overload]
        from_db_time(str(r[6])),
        _users(r[7]),
        None if r[8] is None else int(r[8]),  # type: ignore[call-overload]
    )


class OutboxTx:
    """The outbox's writes inside a transaction of the caller's: a move's debt with the move,
    its clearing with what else the announcement that paid it keeps."""

    def __init__(self, tx: Tx) -> None:
        self._c = tx.connection

    async def owe(
        self,
        game_id: int,
        from_seq: int,
        version: int,
        ping_user: int | None,
        due_at: datetime,
        end_users: tuple[int, ...] = (),
    ) -> None:
        await self._c.execute(
            _OWE,
            (game_id, from_seq, version, ping_user, to_db_time(due_at), _users_text(end_users)),
        )

    async def delivered(
        self, game_id: int, version: int, *, post: bool, ping: bool, held: bool = False
    ) -> None:
        """Clear what was delivered for the game as it stood at ``version`` (or later): the
        post, the ping, the row once both are done. A debt of a newer version stays.
        ``held``: the post was held for the next one (a draw from the DM); it is no longer
        owed on its own, and where it starts is kept for the next post to tell."""
        c = self._c
        if post and held:
            await c.execute(
                "UPDATE outbox SET held_from = COALESCE(held_from, from_seq), post_owed = 0 "
                "WHERE game_id = ? AND version <= ? AND post_owed = 1",
                (game_id, version),
            )
        elif post:
            await c.execute(
                "UPDATE outbox SET post_owed = 0, held_from = NULL "
                "WHERE game_id = ? AND version <= ?",
                (game_id, version),
            )
        if ping:
            await c.execute(
                "UPDATE outbox SET ping_user = NULL WHERE game_id = ? AND version <= ?",
                (game_id, version),
            )
        await c.execute(f"DELETE FROM outbox WHERE game_id = ? AND {_PAID}", (game_id,))


class OutboxStore:
    """Reading, leasing and clearing the debts (each write its own short transaction)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def owed(self, game_id: int) -> Owed | None:
        rows = await self.store.fetch_all(
            f"SELECT {_COLS} FROM outbox WHERE game_id = ?", (game_id,)
        )
        return _owed(rows[0]) if rows else None

    async def due(self, now: datetime, limit: int, *, all_due: bool = False) -> list[Owed]:
        """Debts due by ``now`` (``all_due``: every one, whatever its due time — the start-up
        of a single process, which has nothing of its own in flight), oldest first, leaving
        out those another process holds a live lease on."""
        at = to_db_time(now)
        when = "" if all_due else "due_at <= ? AND "
        params: tuple[object, ...] = (at, at, limit) if not all_due else (at, limit)
        rows = await self.store.fetch_all(
            f"SELECT {_COLS} FROM outbox WHERE {when}{OWING} AND "
            "(claimed_until IS NULL OR claimed_until <= ?) ORDER BY due_at LIMIT ?",
            params,
        )
        return [_owed(r) for r in rows]

    async def next_due(self) -> datetime | None:
        rows = await self.store.fetch_all(f"SELECT MIN(due_at) FROM outbox WHERE {OWING}")
        return None if not rows or rows[0][0] is None else from_db_time(rows[0][0])

    async def claim(self, owed: Owed, owner: str, now: datetime, lease: timedelta) -> bool:
        """Lease the debt to ``owner`` while it is delivered; False when another process holds
        it, or it changed since it was read (a newer move owes more: its own turn comes)."""
        async with self.store.transaction() as tx:
            changed = await tx.connection.execute(
                "UPDATE outbox SET claimed_by = ?, claimed_until = ? "
                "WHERE game_id = ? AND version = ? "
                "AND (claimed_until IS NULL OR claimed_until <= ? OR claimed_by = ?)",
                (owner, to_db_time(now + lease), owed.game_id, owed.version, to_db_time(now),
                 owner),
            )  # fmt: skip
        return changed == 1

    async def told_end(self, game_id: int, user_ids: tuple[int, ...]) -> None:
        """These players were told how the match ended (or will not be: a refusal that does
        not pass); the row goes once nothing else is owed."""
        async with self.store.transaction() as tx:
            c = tx.connection
            rows = await c.fetch("SELECT end_users FROM outbox WHERE game_id = ?", (game_id,))
            if not rows:
                return
            left = [u for u in _users(rows[0][0]) if u not in user_ids]
            await c.execute(
                "UPDATE outbox SET end_users = ? WHERE game_id = ?", (_users_text(left), game_id)
            )
            await c.execute(f"DELETE FROM outbox WHERE game_id = ? AND {_PAID}", (game_id,))

    async def retry_later(self, game_id: int, version: int, due_at: datetime) -> None:
        """A send failed (a 5xx, a timeout): try again at ``due_at``, lease given back."""
        async with self.store.transaction() as tx:
            await tx.connection.execute(
                "UPDATE outbox SET attempts = attempts + 1, due_at = ?, claimed_by = NULL, "
                "claimed_until = NULL WHERE game_id = ? AND version = ?",
                (to_db_time(due_at), game_id, version),
            )

    async def release(self, owner: str) -> None:
        """A clean stop gives its leases back, so another process takes them at once."""
        async with self.store.transaction() as tx:
            await tx.connection.execute(
                "UPDATE outbox SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by = ?",
                (owner,),
            )
