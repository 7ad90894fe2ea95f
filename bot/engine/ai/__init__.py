"""Computer players: pure functions from what a seat may see to the move it makes.

A computer player gets a :class:`~bot.engine.view.SeatView` (its own hand and the public
table, never other hands or the boneyard order) and a seed, and returns one of the view's legal
moves. Being pure and seeded makes every computer decision reproducible in tests, and the event
log records the move itself, so replay never re-runs a computer player.

Four levels: **Easy** plays a legal move at random, **Normal** plays greedily (heavy tiles
first, doubles it can satisfy, its own train, the Mexican Train early), **Hard** plans its
longest own train, searches its whole turn, and heads-up plays endgames out exactly over
sampled deals of the hidden tiles (see :mod:`bot.engine.ai.hard`), and **Expert**
(:mod:`bot.engine.ai.expert`) plays Hard's move unless rollouts over worlds weighted by the
opponents' plays show a clearly better one (the bot runs it in its thinking workers, with a
CPU budget). :func:`hint` gives the Hard player's suggestion for
a human seat, and :func:`longest_train` the plan.
"""

from __future__ import annotations

import dataclasses
import enum
import random

from bot.engine.ai import expert
from bot.engine.ai.hard import REASONS, hard_decision
from bot.engine.ai.normal import normal_move
from bot.engine.ai.trains import longest_train
from bot.engine.errors import EngineError
from bot.engine.moves import Move, Play
from bot.engine.tiles import Tile
from bot.engine.view import SeatView


class Level(enum.Enum):
    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"
    EXPERT = "expert"


@dataclasses.dataclass(frozen=True, slots=True)
class Hint:
    """The Hard player's suggestion for the seat whose view it was given."""

    move: Move
    #: A short code for why (a key of ``REASONS``), for translation and tests.
    reason: str
    #: The reason in English.
    text: str
    #: The longest own train the hand can build from the seat's train end, in order.
    train: tuple[Tile, ...]


def choose_move(
    view: SeatView, level: Level, seed: int, *, clock: expert.Clock | None = None
) -> Move:
    """The move a computer player of ``level`` makes from ``view`` (which must be its turn).

    ``clock`` bounds the Expert's search (:data:`bot.engine.ai.expert.BUDGET_S` of it, then
    Hard's move); without one it searches to the end, so the move depends on the inputs alone.
    The other levels are bounded by their own design and ignore it."""
    if not view.legal:
        raise EngineError(
            "it is not this seat's turn: a computer player has no move to make", "not-its-turn"
        )
    if level is Level.EXPERT:
        return expert.search(view, seed, clock=clock)
    rng = random.Random(seed)
    if level is Level.HARD:
        return hard_decision(view, rng).move
    if level is Level.NORMAL:
        return normal_move(view, rng)
    return _easy(view, rng)


def hint(view: SeatView, seed: int = 0) -> Hint:
    """What the Hard player would do from ``view``, why, and the own train it is building."""
    decision = hard_decision(view, random.Random(seed))
    return Hint(decision.move, decision.reason, REASONS[decision.reason], decision.train)


def _easy(view: SeatView, rng: random.Random) -> Move:
    """A legal move at random, leaning towards playing a tile over ending a fast start."""
    plays = [m for m in view.legal if isinstance(m, Play)]
    if plays and (len(plays) == len(view.legal) or rng.random() < 0.9):
        return rng.choice(plays)
    return rng.choice(view.legal)


__all__ = ["REASONS", "Hint", "Level", "choose_move", "hint", "longest_train"]
