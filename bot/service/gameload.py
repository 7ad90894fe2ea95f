"""Reading a game for the cache: the current round from its snapshot, the whole log on demand.

A cache miss must not cost more late in a match than early (issue 39): :func:`load_game`
reads the log from the current round's deal on (``Store.load(rounds=1)``) and rebuilds the
rounds before from the round snapshot, so a miss costs a snapshot and one round's events.
The match it gives lacks the earlier rounds' events; :func:`complete_events` reads them back
for the few callers that need every event (the history, a past round's report, a finished
match's statistics). A tail that does not replay on its own (no usable snapshot) falls back
to the whole log: a snapshot is only a shortcut.
"""

from __future__ import annotations

from typing import Literal

from bot.engine import Match
from bot.service import errors
from bot.service.replay import LoadedGame, TailUnusable, earlier_events, replay_game
from bot.store import Store


async def load_game(store: Store, game_id: int) -> tuple[LoadedGame, Literal["tail", "whole"]]:
    """The game, and which read it took: ``tail`` (the current round) or ``whole``."""
    record = await store.load(game_id, rounds=1)
    if record is None:
        raise errors.GameNotFound(f"there is no game #{game_id}", game_id=game_id)
    if record.is_tail:
        try:
            return replay_game(record), "tail"
        except TailUnusable:
            record = await store.load(game_id)
            if record is None:
                raise errors.GameNotFound(f"there is no game #{game_id}", game_id=game_id) from None
    return replay_game(record), "whole"


async def complete_events(store: Store, g: LoadedGame, match: Match | None = None) -> bool:
    """Give ``match`` (default ``g.match``; a batch's copy of it) the events of the rounds
    before ``g``'s tail, in place; True if the whole log was read for it."""
    match = g.match if match is None else match
    if g.events_from is None or match is None:
        return False
    record = await store.load(g.row.id)
    if record is None:
        raise errors.GameNotFound(f"there is no game #{g.row.id}", game_id=g.row.id)
    match.events[:0] = earlier_events(g, record)
    g.events_from = None
    return True
