"""Undo: the host takes back the last human turn, as a new event (the log is never rewritten).

What can be undone, precisely:

* the **last human turn** of the current round: every move that one player made in a row —
  a draw and the pass that followed it, a double and the tile that satisfied it, a fast start,
  a play and its knock, or a catch — together with the computer players' moves that followed
  it automatically (they were answers to it; after the undo they are played again);
* only while no other human has acted since (so at most one turn back at a time; the host can
  undo again to go further back, down to the round's deal);
* never a deal, never across a round end (the move that ended a round cannot be undone: the
  next round is already dealt), never after the match is over, never a leave or a kick;
* by the host, or a member with Manage Server (as for ``/mt end`` and ``/mt kick``); or by
  the player whose turn it is, their own last turn only, on the same terms (a misclick,
  taken back before the next human acts: after that, :class:`NotYourTurnToUndo` names who
  played since).

The undo is one ``undo`` event listing the seqs it cancels; :mod:`bot.service.eventlog` makes
every load skip them. Its transaction writes what it owes the players (the post, the ping) to
the outbox, as a move's does. Undone computer moves are replayed by the computers after the
undo; they are seeded by the event's seq, so they may choose differently.
"""

from __future__ import annotations

import dataclasses
import json
from datetime import datetime, timedelta
from typing import Any

from bot.service import errors, orders
from bot.service.commit import Ledger
from bot.service.eventlog import AUTOPLAY_KIND, ORDER_KIND, UNDO_KIND, cancelled_seqs
from bot.service.guards import need_active, need_host, utc
from bot.service.outcome import GameSummary, Player, players_of
from bot.service.replay import replay_game
from bot.store import EventRow, GameRecord, GameStatus


class NothingToUndo(errors.ServiceError):
    code = "undo-nothing"

    def __init__(self) -> None:
        super().__init__("nothing to undo: no one has played since the deal")


class UndoTooLate(errors.ServiceError):
    """The player named is not the one who played last."""

    code = "undo-later"

    def __init__(self, name: str) -> None:
        super().__init__(f"{name} has already played since", name=name)


class UndoBlocked(errors.ServiceError):
    """The last turn is followed by something undo does not take back (a leave, a kick)."""

    code = "undo-blocked"

    def __init__(self) -> None:
        super().__init__("the seats changed since the last move, so it cannot be undone")


class NotYourTurnToUndo(errors.ServiceError):
    """A player who is not the host may take back their own last turn only."""

    code = "undo-not-yours"

    def __init__(self, name: str) -> None:
        super().__init__(f"only your own last turn, and {name} has played since", name=name)


@dataclasses.dataclass(frozen=True, slots=True)
class Undone:
    """What an undo took back, and where the game stands now."""

    game: GameSummary
    #: The player whose turn was taken back.
    player: Player
    #: Their moves, in notation, in the order they were played.
    moves: tuple[str, ...]
    #: How many computer moves that followed were taken back too.
    computer_moves: int
    #: The seqs the undo event cancels.
    seqs: tuple[int, ...]
    next_player: Player | None
    #: Humans whose hand changed (tiles went back): DM them their hand again.
    hands_changed: tuple[Player, ...]
    #: A computer player is to move now (run them as after any move).
    computer_pending: bool


@dataclasses.dataclass(frozen=True, slots=True)
class _Plan:
    turn: tuple[EventRow, ...]
    computers: tuple[EventRow, ...]


def plan_undo(game_id: int, events: tuple[EventRow, ...]) -> _Plan:
    """Which events an undo would cancel now (see the module's rules), or a refusal."""
    gone = cancelled_seqs(game_id, events)
    live = [e for e in events if e.seq not in gone and e.kind != UNDO_KIND]
    i = len(live) - 1
    computers: list[EventRow] = []
    # Moves made by nobody: computer players' and turns with no choice played for a human
    # (their ``autoplay`` marker goes with them; a turn an away player missed still blocks).
    while i >= 0 and (
        (live[i].kind == "move" and live[i].actor is None) or live[i].kind == AUTOPLAY_KIND
    ):
        computers.append(live[i])
        i -= 1
    if i >= 0 and live[i].kind == ORDER_KIND:
        # A standing order's turn is its player's own (issue 46): its moves, right after the
        # marker and of the marker's seat, are the turn; the marker goes with them.
        seat = json.loads(live[i].payload)["seat"]
        after = list(reversed(computers))
        n = 0
        while n < len(after) and after[n].kind == "move":
            if json.loads(after[n].payload)["seat"] != seat:
                break
            n += 1
        if n:
            return _Plan(tuple(after[:n]), (live[i], *after[n:]))
    if i < 0 or live[i].kind == "round":
        raise NothingToUndo()
    if live[i].kind != "move":
        raise UndoBlocked()
    actor = live[i].actor
    turn: list[EventRow] = []
    while i >= 0 and live[i].kind == "move" and live[i].actor == actor:
        turn.append(live[i])
        i -= 1
    return _Plan(tuple(reversed(turn)), tuple(reversed(computers)))


async def take_back(
    ledger: Ledger,
    game_id: int,
    user_id: int,
    now: datetime,
    *,
    is_manager: bool = False,
    player_user_id: int | None = None,
) -> Undone:
    """Take back the last human turn (host or Manage Server; or its own player). ``player_user_id``:
    only if that player's turn is the last one (else :class:`UndoTooLate` naming who played
    since)."""
    now = utc(now)
    async with ledger.commit(game_id, now) as c:
        g = c.game
        need_active(g)
        host = user_id == g.row.host_id or is_manager
        if not host and not any(s.user_id == user_id for s in g.seats):
            need_host(g, user_id, is_manager, "undo")  # neither host nor player: refused
        record = await ledger.store.load(game_id)
        if record is None or record.game.version != g.row.version:
            raise c.table_changed()
        plan = plan_undo(game_id, record.events)
        players = players_of(g.seats)
        first = plan.turn[0]
        seat = int(json.loads(first.payload)["seat"])  # the mover (for a catch, the catcher)
        player = players[seat]
        if player_user_id is not None and player.user_id != player_user_id:
            raise UndoTooLate(player.name)
        if not host and player.user_id != user_id:
            raise NotYourTurnToUndo(player.name)
        seqs = tuple(e.seq for e in (*plan.turn, *plan.computers))
        moves = tuple(str(json.loads(e.payload)["move"]) for e in plan.turn)
        payload = {"seqs": list(seqs), "by": user_id, "player": player.seat, "moves": list(moves)}
        c.event(UNDO_KIND, payload, user_id)
        if player.user_id is not None:  # their turn is theirs again: so is what to play
            uid = player.user_id
            c.also.append(lambda tx: orders.drop(tx, game_id, uid))
        event = c.events[-1]
        after = GameRecord(
            record.game,
            record.seats,
            (
                *record.events,
                EventRow(game_id, g.seq + 1, event.kind, event.payload, user_id, ""),
            ),
            record.snapshot,
        )
        new = replay_game(after).match
        old = g.match
        assert new is not None and new.round is not None and old is not None
        if new.rounds_played != old.rounds_played:  # belt and braces: plan_undo stops at deals
            raise NothingToUndo()
        turn = new.round.current_seat
        columns: dict[str, Any] = {
            "status": GameStatus.ACTIVE,
            "turn_seat": turn,
            "round_no": new.round.round_no,
            "turn_since": now,
            "deadline_at": None
            if g.row.turn_deadline_s is None
            else now + timedelta(seconds=g.row.turn_deadline_s),
        }
        # What the undo owes the players, kept with it until delivered (issue 37): the post
        # that says it and shows the table again, the ping of whoever is to move.
        await c.write_for_replay(columns, owe=True)
        g2 = await ledger.get(game_id)
        summary = ledger.summary(g2)
        assert old.round is not None
        changed = tuple(
            players[s]
            for s in range(len(players))
            if old.round.hands[s] != new.round.hands[s] and not players[s].is_computer
        )
        nxt = ledger.next_player(g2)
        return Undone(
            game=summary,
            player=player,
            moves=moves,
            computer_moves=sum(1 for e in plan.computers if e.kind == "move"),
            seqs=seqs,
            next_player=nxt,
            hands_changed=changed,
            computer_pending=nxt is not None and nxt.is_computer,
        )
