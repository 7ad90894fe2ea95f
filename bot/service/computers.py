"""The computer players' moves inside a commit: who chooses them, and what if that fails.

The choice itself is a :class:`Chooser`'s: the bot's is the thinking pool
(:class:`bot.thinking.pool.Thinker`, worker processes: the event loop only awaits; the
terminal game's is the same with no workers), the tests' is :class:`Inline`
(:func:`~bot.engine.ai.choose_move` here and now, no CPU budget). Either way the seed is
:func:`seed_for` the game and the event's place in it, so a move does not depend on where it
was chosen. Each computer move is applied to the commit's batch as soon as it is chosen
(``Ledger.after_move``); the game's lock is held while a computer thinks (nobody else may
move in that game), and other games go on.
"""

from __future__ import annotations

import hashlib
import logging
from typing import Protocol

from bot.engine import Move, SeatView
from bot.engine.ai import Level, choose_move

log = logging.getLogger(__name__)


class Chooser(Protocol):
    """Chooses a computer player's move (never the service's business how or where)."""

    async def choose(self, view: SeatView, level: Level, seed: int, *, game_id: int) -> Move:
        """The move of a computer player of ``level`` at ``view``; ``game_id`` for the log."""
        ...


class Inline:
    """Decides on the event loop (tests, the default): ``choose_move`` itself, so the Expert
    searches to the end (the thinking pool bounds it by its CPU budget)."""

    async def choose(self, view: SeatView, level: Level, seed: int, *, game_id: int) -> Move:
        return choose_move(view, level, seed)


def seed_for(game_id: int, seq: int) -> int:
    """A computer move's seed: fixed by the game and the event's place in it."""
    digest = hashlib.blake2b(f"{game_id}:{seq}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


async def choose(chooser: Chooser, view: SeatView, level: Level, game_id: int, seq: int) -> Move:
    """The move of a computer player of ``level`` at ``view`` (its turn), the ``seq``-th
    event of game ``game_id``. A computer player never stalls a game: on any failure, the
    first legal move."""
    seed = seed_for(game_id, seq)
    try:
        chosen = await chooser.choose(view, level, seed, game_id=game_id)
    except Exception:
        # One failure, one ERROR (with its traceback), naming the move played instead.
        fallback = view.legal[0]
        log.exception(
            "game %s: computer player failed at seat %s; playing %s", game_id, view.seat, fallback
        )
        return fallback
    if chosen not in view.legal:
        log.error(
            "game %s: computer move %r is not legal; playing %s", game_id, chosen, view.legal[0]
        )
        chosen = view.legal[0]
    return chosen
