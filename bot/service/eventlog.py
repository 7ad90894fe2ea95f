"""Reading the event log with undos: which engine events still count.

An undo never rewrites the log (it is append-only): it is one more event, kind ``undo``, whose
payload lists the seqs it cancels. Loading a game replays the engine events that no undo
cancelled, so every earlier state stays readable (the history shows undone moves struck out)
and a cancelled move can never come back by accident. This module is the one place that
decides which events count; the service's load path and the history both use it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from bot.service import errors
from bot.store import EventRow

#: Event kinds the engine replays; the others (start, leave, kick, end, undo) are the service's.
ENGINE_KINDS = frozenset({"round", "move"})
UNDO_KIND = "undo"
#: The marker before the moves of a turn the bot played for a human who had no choice
#: (:mod:`bot.service.turn`; payload: seat and user); the moves carry no actor.
AUTOPLAY_KIND = "autoplay"
#: The marker before the moves a player's standing order played for them (issue 46,
#: :mod:`bot.service.orders`; payload: seat and user); the moves carry no actor. What was
#: still queued is never in the log.
ORDER_KIND = "order"


def cancelled_seqs(game_id: int, events: Iterable[EventRow]) -> frozenset[int]:
    """Every seq some ``undo`` event cancelled (an unreadable undo is :class:`GameCorrupt`)."""
    gone: set[int] = set()
    for e in events:
        if e.kind != UNDO_KIND:
            continue
        try:
            seqs = json.loads(e.payload)["seqs"]
            gone.update(int(s) for s in seqs)
        except (ValueError, TypeError, KeyError) as exc:
            raise errors.GameCorrupt(game_id, f"unreadable undo: {exc}", e.seq) from None
    return frozenset(gone)


def live_engine_rows(game_id: int, events: Sequence[EventRow]) -> list[EventRow]:
    """The engine events a load replays: deals and moves that no undo cancelled."""
    gone = cancelled_seqs(game_id, events)
    return [e for e in events if e.kind in ENGINE_KINDS and e.seq not in gone]
