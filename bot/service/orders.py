"""Standing orders (issue 46): a player queues the next tiles of their own train, and the bot
plays them at their turns while nothing they care about has changed.

An order is the player's, never a computer's choice: at their turn the bot plays the queue's
next tile, on their own train, only if it is legal there and every stop the player kept holds
(:class:`Stops`). Any stop that fails — or a queued tile no longer in hand or no longer
legal — drops the rest of the order, and the player's next turn DM says why, once
(:class:`Note`, read by :meth:`bot.service.turn.Turns.news`).

The stops, each on by default (``/mt orders``):

* ``double``: a double is open anywhere when their turn begins (someone else's double: the
  order's own double and the tile that satisfies it are one turn, as queued);
* ``train``: someone else played on their train since the order was set;
* ``last``: the next tile would leave them one tile. With the stop off, the order plays it,
  and under the knock rule knocks with it: the knock is only the announcement the rules
  demand, and an order that played to one tile without it would hand the catch to the next
  player (a computer catches at once) — a penalty the player never chose.

Where it lives. The queue is intent, not a game event: it sits in the ``orders`` table, one row
per player and game, never in the event log, so no log reader (the history, the export, the
replay, the catch-up, the outbox) can show it before its move is made. What an order plays is
a move like any other, after an ``order`` marker event (``seat``, ``user``), made by nobody
like a computer's, and its row is updated in that move's own transaction (the commit's
``also``): a kill -9 leaves both or neither, and the outbox announces the move. An order ends
with its round (``round_no``); an undo of the order's turn drops it (the turn is theirs again).
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from bot.engine import KNOCK, Match, Move, Play, SeatView, Tile, TileError, view_for
from bot.service import errors
from bot.service.commit import Ledger
from bot.service.eventlog import ORDER_KIND
from bot.service.guards import utc
from bot.service.outcome import Outcome, played_for, players_of
from bot.store import GameStatus, OrderRow, Tx

#: The most tiles one order queues (its one-tap control names them all in its custom id).
MAX_TILES = 8
#: The stops a player may keep or drop, in the order they are told.
STOP_NAMES = ("double", "train", "last")


class OrderRefused(errors.ServiceError):
    """An order that cannot be queued as given; nothing changed (``code``: why, as
    ``error.order-…`` words: ``order-tile`` not in hand, ``order-chain`` does not follow,
    ``order-long``, ``order-empty``, ``order-round`` no round being played, ``order-bad`` a
    tile that cannot be read)."""

    code = "order-refused"


@dataclasses.dataclass(frozen=True, slots=True)
class Stops:
    """When the order stops instead of playing (each True: stop)."""

    double: bool = True
    train: bool = True
    last: bool = True

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Stops:
        data = json.loads(text)
        return cls(**{k: bool(data.get(k, True)) for k in STOP_NAMES})


@dataclasses.dataclass(frozen=True, slots=True)
class Note:
    """Why an order stopped, for the player's turn DM: ``reason`` (``double``, ``train``,
    ``last``, ``gone``, ``illegal``, ``round``) and its facts (``name``, ``tile``); told until
    the player next moves themselves (``seq``: the log's last event when it stopped; a turn
    the bot played for them since, with no choice, does not count)."""

    reason: str
    params: dict[str, Any]
    seq: int

    def to_json(self) -> str:
        return json.dumps(
            {"reason": self.reason, "params": self.params, "seq": self.seq},
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, text: str) -> Note:
        data = json.loads(text)
        return cls(str(data["reason"]), dict(data["params"]), int(data["seq"]))


@dataclasses.dataclass(frozen=True, slots=True)
class Order:
    """One player's standing order, as the service reads its row."""

    game_id: int
    user_id: int
    round_no: int
    tiles: tuple[Tile, ...]
    stops: Stops
    log_from: int
    #: Set during its player's turn: it plays once they have moved since (``log_from``).
    waits: bool = False
    note: Note | None = None

    @classmethod
    def of(cls, row: OrderRow) -> Order:
        tiles = tuple(Tile.parse(t) for t in json.loads(row.tiles))
        note = None if row.note is None else Note.from_json(row.note)
        return cls(
            row.game_id, row.user_id, row.round_no, tiles, Stops.from_json(row.stops),
            row.log_from, row.waits, note,
        )  # fmt: skip

    def row(self) -> OrderRow:
        return OrderRow(
            self.game_id,
            self.user_id,
            self.round_no,
            json.dumps([str(t) for t in self.tiles]),
            self.stops.to_json(),
            self.log_from,
            self.waits,
            None if self.note is None else self.note.to_json(),
        )

    @property
    def active(self) -> bool:
        return bool(self.tiles)


# ---------------------------------------------------------------------- reading a chain

_SEPARATORS = re.compile(r"[\s,;>→➜⇒]+")


def read_chain(text: str, max_pip: int) -> tuple[Tile, ...]:
    """The tiles of a typed chain (``5-7 7-2 2-9``, ``5-7 → 7-2 → 2-9``, ``5-7,7-2``) in
    their order; a tile that cannot be read is :class:`OrderRefused` naming it."""
    tiles = []
    for part in (p for p in _SEPARATORS.split(text.replace("->", " ")) if p):
        try:
            tiles.append(Tile.parse(part, max_pip))
        except TileError:
            raise OrderRefused(
                f"{part[:12]} is not a tile of this set", code="order-bad", tile=part[:12]
            ) from None
    return tuple(tiles)


def check_chain(view: SeatView, tiles: Sequence[Tile], after: Move | None = None) -> int:
    """Refuse a chain that is not the next tiles of the player's own train: each in their
    hand (``after``, the move they make with it, already made), none twice, each laid
    against the one before from their train's end (after ``after`` if it goes there).
    Returns that end."""
    assert view.seat is not None and view.hand is not None
    if not tiles:
        raise OrderRefused("an order needs at least one tile", code="order-empty")
    if len(tiles) > MAX_TILES:
        raise OrderRefused(f"an order holds {MAX_TILES} tiles at most", code="order-long",
                           max=MAX_TILES)  # fmt: skip
    hand = list(view.hand)
    end = view.trains[view.seat].end
    if isinstance(after, Play):
        if after.tile in hand:
            hand.remove(after.tile)
        if after.train == view.seat and after.tile.has(end):
            end = after.tile.other(end)
    start, prev = end, None
    for tile in tiles:
        if tile not in hand:
            raise OrderRefused(f"{tile} is not in your hand", code="order-tile", tile=str(tile))
        hand.remove(tile)
        if not tile.has(end) and prev is None:
            raise OrderRefused(
                f"{tile} does not fit your train's open end ({end})",
                code="order-start",
                tile=str(tile),
                end=end,
            )
        if not tile.has(end):
            raise OrderRefused(
                f"{tile} does not follow {prev}", code="order-chain", tile=str(tile),
                after=str(prev),
            )  # fmt: skip
        end, prev = tile.other(end), tile
    return start


# ---------------------------------------------------------------------- the use cases


class Orders:
    """Setting, reading and cancelling a player's standing order over the games' ledger."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    async def get(self, game_id: int, user_id: int) -> Order | None:
        """``user_id``'s order in ``game_id`` for the round being played (an old round's is
        over: None)."""
        row = await self.ledger.store.order(game_id, user_id)
        if row is None:
            return None
        order = Order.of(row)
        g = await self.ledger.get(game_id)
        m = g.match
        if m is None or m.round is None or m.round.round_no != order.round_no:
            return None
        return order

    async def set(
        self,
        game_id: int,
        user_id: int,
        tiles: Sequence[Tile],
        now: datetime,
        *,
        stops: Stops | None = None,
        log_from: int | None = None,
    ) -> Order:
        """Queue ``tiles`` for ``user_id``'s own train (replacing any order they had; the
        stops they kept unless given), checked against their hand now; a refusal changes
        nothing. Set during their own turn, it waits for their move (it plays from their
        next turn): ``log_from``, the round's log length before the move they just made
        with it (``/play … then:``), lets that move count, so the order goes on from it
        (the tile that satisfies their double, or their next turn)."""
        utc(now)
        async with self.ledger.game(game_id) as g:
            _, view = _seat_view(g.row.status, g.match, g.seats, user_id)
            check_chain(view, tiles)
            old = await self.ledger.store.order(game_id, user_id)
            if stops is None:
                stops = Stops() if old is None else Stops.from_json(old.stops)
            start = len(view.log) if log_from is None else min(log_from, len(view.log))
            order = Order(game_id, user_id, view.round_no, tuple(tiles), stops, start, view.my_turn)
            async with self.ledger.store.transaction() as tx:
                await tx.put_order(order.row())
            return order

    async def set_stops(self, game_id: int, user_id: int, stops: Stops) -> Order | None:
        """Change the stops of ``user_id``'s order; with none queued, the stops are kept for
        their next order in this game. Their order as it now is (None: none queued)."""
        async with self.ledger.game(game_id) as g:
            _, view = _seat_view(g.row.status, g.match, g.seats, user_id)
            order = await self.get(game_id, user_id)
            if order is None:
                order = Order(game_id, user_id, view.round_no, (), stops, len(view.log))
            order = dataclasses.replace(order, stops=stops, note=None)
            async with self.ledger.store.transaction() as tx:
                await tx.put_order(order.row())
            return order if order.active else None

    async def cancel(self, game_id: int, user_id: int) -> bool:
        """Drop ``user_id``'s queue (their stops are kept); whether there was one."""
        async with self.ledger.locked(game_id):
            order = await self.get(game_id, user_id)
            async with self.ledger.store.transaction() as tx:
                await tx.clear_order(game_id, user_id)
            return order is not None and order.active


def _seat_view(
    status: GameStatus, match: Match | None, seats: Sequence[Any], user_id: int
) -> tuple[int, SeatView]:
    if status is not GameStatus.ACTIVE or match is None or match.round is None:
        raise OrderRefused("no round is being played", code="order-round")
    seat = next((s.seat for s in seats if s.user_id == user_id and not s.computer), None)
    if seat is None:
        raise errors.NotInGame()
    return seat, view_for(match, seat)


# ---------------------------------------------------------------------- playing an order


def stop_reason(order: Order, view: SeatView) -> tuple[str, dict[str, Any]] | None:
    """Why ``order`` must stop at the start of this turn of its player (``view``: theirs,
    their turn), or None: its next tile may be played."""
    seat = view.seat
    assert seat is not None and view.hand is not None
    names = view.names
    if view.round_no != order.round_no:
        return "round", {}
    if order.stops.train:
        for entry in view.log[order.log_from :]:
            move = entry.move
            if entry.seat != seat and isinstance(move, Play) and move.train == seat:
                return "train", {"name": names[entry.seat], "tile": str(move.tile)}
    if order.stops.double and view.turn_plays == 0 and view.open_doubles:
        train = view.open_doubles[0]
        double = train.tiles[-1]
        who = next(
            (
                e.seat
                for e in reversed(view.log)
                if isinstance(e.move, Play) and e.move.tile == double
            ),
            None,
        )
        where = None if train.is_mexican else names[train.owner]
        return "double", {
            "name": None if who is None else names[who],
            "tile": str(double),
            "train": where,
            "mexican": train.is_mexican,
        }
    return None


def next_step(order: Order, view: SeatView) -> Play | tuple[str, dict[str, Any]]:
    """The order's next move on this turn, or why it stops (the tile gone or not legal, or
    the last-tile stop)."""
    seat = view.seat
    assert seat is not None and view.hand is not None
    tile = order.tiles[0]
    if tile not in view.hand:
        return "gone", {"tile": str(tile)}
    move = Play(tile, seat)
    if move not in view.legal:
        return "illegal", {"tile": str(tile)}
    if order.stops.last and len(view.hand) == 2:
        return "last", {"tile": str(tile)}
    return move


async def play(ledger: Ledger, row: OrderRow, now: datetime) -> Outcome | None:
    """Play ``row``'s order for its player if it is their turn: its next tiles on their own
    train while they are legal and its stops hold, one turn, one commit (an ``order`` marker,
    the moves made by nobody, the computer players left to the caller). A stop drops the
    rest and keeps why (:class:`Note`) for their next turn DM. None when nothing was played
    (not their turn; stopped)."""
    now = utc(now)
    async with ledger.commit(row.game_id, now) as c:
        # Read again under the game's lock: a /mt orders since the caller's read wins.
        fresh = await ledger.store.order(row.game_id, row.user_id)
        if fresh is None:
            return None
        order = Order.of(fresh)
        if not order.active:
            return None
        g = c.game
        m = g.match
        if g.row.status is not GameStatus.ACTIVE or m is None or m.round is None:
            return None
        seat = m.round.current_seat
        if seat is None or g.seats[seat].user_id != order.user_id or g.seats[seat].computer:
            return None
        view = view_for(m, seat)
        mine = any(e.seat == seat for e in view.log[order.log_from :])
        if order.waits and view.round_no == order.round_no and not mine:
            return None  # set during this turn: it plays from their next move on
        if view.turn_drawn:
            return None  # they drew this turn: where the drawn tile goes is theirs
        stop = stop_reason(order, view)
        tiles = list(order.tiles)
        while stop is None and tiles:
            step = next_step(dataclasses.replace(order, tiles=tuple(tiles)), view)
            if not isinstance(step, Play):
                stop = step
                break
            if not c.steps:
                c.event(ORDER_KIND, {"seat": seat, "user": order.user_id}, None)
            applied = c.apply(c.players[seat], step, None)
            tiles.pop(0)
            if applied.round_over:
                break  # they went out: the round is over (the next one may be dealt)
            if m.rules.knock and KNOCK in m.round.side_moves(seat):
                c.knock_for(seat, None)  # the stop was off: the order announces its last tile
            if applied.turn_over:
                break
            view = view_for(m, seat)
        left = dataclasses.replace(order, tiles=tuple(tiles))
        if stop is not None:
            reason, params = stop
            note = Note(reason, params, c.next_seq - 1)
            left = dataclasses.replace(left, tiles=(), note=note)
        if not c.steps:
            async with ledger.store.transaction() as tx:
                await _keep(tx, left)
            return None
        c.also.append(lambda tx: _keep(tx, left))
        pending = await c.after_move(0)
        c.facts.insert(
            0,
            played_for(
                players_of(g.seats)[seat].name,
                seat,
                [s for s in c.steps if s.player.seat == seat],
                user_id=order.user_id,
                reason=ORDER_KIND,
                policy=ORDER_KIND,
            ),
        )
        return await c.write(pending)


async def _keep(tx: Tx, order: Order) -> None:
    """Write what is left of an order: its queue (empty once played to its end), the note of
    why it stopped, and its stops, kept for the player's next order in this game."""
    await tx.put_order(order.row())


async def drop(tx: Tx, game_id: int, user_id: int) -> None:
    """Drop ``user_id``'s queue in a commit's transaction (an undo gave them their turn
    back: what to play is theirs again); their stops are kept."""
    await tx.clear_order(game_id, user_id)
