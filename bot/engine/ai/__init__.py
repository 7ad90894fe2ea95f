"""Computer players: pure functions from what a seat may see to the move it makes.

A computer player gets a :class:`~bot.engine.view.SeatView` (its own hand and the public
table, never other hands or the boneyard order) and a seed, and returns one of the view's legal
moves. Being pure and seeded makes every computer decision reproducible in tests, and the event
log records the move itself, so replay never re-runs a computer player.
"""

from __future__ import annotations

import enum
import random

from bot.engine.moves import Move, Play
from bot.engine.view import SeatView


class Level(enum.Enum):
    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"


def choose_move(view: SeatView, level: Level, seed: int) -> Move:
    """The move a computer player of ``level`` makes from ``view`` (which must be its turn)."""
    if not view.legal:
        raise ValueError("it is not this seat's turn: a computer player has no move to make")
    rng = random.Random(seed)
    return _easy(view, rng)


def _easy(view: SeatView, rng: random.Random) -> Move:
    """A legal move at random, leaning towards playing a tile over ending a fast start."""
    plays = [m for m in view.legal if isinstance(m, Play)]
    if plays and (len(plays) == len(view.legal) or rng.random() < 0.9):
        return rng.choice(plays)
    return rng.choice(view.legal)
