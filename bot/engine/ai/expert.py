"""The Expert: Hard's move, unless rollouts over many sampled worlds show a clearly better one.

Offered once measured stronger than Hard (issue 35: a fourth level that is not does not
land; ``docs/computer-players.md`` has the figures). The bot runs it in its thinking worker
processes (:mod:`bot.thinking`), with a CPU budget per decision; the
benchmarks (``benchmarks/ai_strength.py --only search_vs_hard``) play this same code.

* It keeps **Hard's move** unless the decision is contested: Hard's turn search
  (:func:`bot.engine.ai.hard.turn_values`) ranks another move within :data:`CLOSE` turns of
  its best, and no heads-up endgame solver is deciding (Hard's own is exact enough there).
* It deals **worlds from the seat's view** (:mod:`bot.engine.ai.worlds`: consistent with the
  suits draws and passes showed lacking, blind to the real deal), **weighted by how likely the
  opponents' own plays were in each** (:mod:`bot.engine.ai.likelihood`: a pool :data:`DEALT`
  times the size resampled by weight), and scores Hard's pick and its runner-ups by
  **playouts** (:mod:`bot.engine.ai.rollout`) to the round's end, in points (the opponents'
  mean score minus its own), every candidate in the same worlds with the same playout seeds,
  so their difference is not drowned in the worlds' luck. ``weighted=False`` is the same
  search on unweighted worlds, the control the weighting is measured by.
* **Sequential halving** over :data:`STAGES`: after each batch of worlds only the better half
  of the candidates still ahead of Hard's pick go on; it switches only when the last one
  standing is ahead by :data:`SWITCH` points a round over all its worlds. One playout's
  difference has a spread of about 65 points here (measured), so over 192 worlds a gain's
  standard error is about 5 points: the rule is a coin with a bias, which is why it is
  measured over thousands of rounds.
* A **time budget**: given a ``clock`` (the engine has none of its own: the caller passes
  ``time.process_time``), past :data:`BUDGET_S` of it in one decision it plays Hard's move,
  never a half-searched one. Without a clock it searches to the end: pure and reproducible.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable

from bot.engine.ai import endgame
from bot.engine.ai.hard import hard_decision, turn_values
from bot.engine.ai.knowledge import read_view
from bot.engine.ai.likelihood import likely_worlds
from bot.engine.ai.rollout import playout
from bot.engine.ai.worlds import World, sample_world, world_round
from bot.engine.moves import Move
from bot.engine.round import Round
from bot.engine.view import SeatView

#: Candidates: Hard's pick and up to TOP - 1 others within CLOSE turns of the best value.
TOP = 4
CLOSE = 1.5
#: Worlds in each stage of the halving.
STAGES = (32, 64, 96)
#: Points per round a candidate must gain over Hard's pick to be played instead.
SWITCH = 5.0
#: Worlds dealt and weighed for each world the weighted search plays out.
DEALT = 2.0
#: Seconds of the caller's clock one decision may spend searching; past it, Hard's move
#: (issue 35: decision CPU p99 <= 1 s).
BUDGET_S = 0.8

#: A clock in seconds (``time.process_time`` in the bot and the benchmarks).
Clock = Callable[[], float]


def search(view: SeatView, seed: int, *, weighted: bool = True, clock: Clock | None = None) -> Move:
    """The Expert's move from ``view`` (see the module's docstring); ``clock``: enforce
    :data:`BUDGET_S` on it, else search to the end."""
    hard_move = hard_decision(view, random.Random(seed)).move
    if _endgame(view):
        return hard_move
    ranked = turn_values(view, random.Random(seed))
    if len(ranked) < 2:
        return hard_move
    top = ranked[0][1]
    others = [m for m, v in ranked if m != hard_move and top - v <= CLOSE][: TOP - 1]
    if not others:
        return hard_move
    seat = view.seat
    assert seat is not None
    deadline = None if clock is None else clock() + BUDGET_S
    rng = random.Random(seed)
    gains: dict[Move, list[float]] = {m: [] for m in others}
    alive = list(others)
    worlds = _worlds(view, sum(STAGES), seed * 31 + 1, weighted)
    for count in STAGES:
        batch, worlds = worlds[:count], worlds[count:]
        for world in batch:
            if clock is not None and deadline is not None and clock() > deadline:
                return hard_move  # out of time: Hard's move, never a half-searched one
            rnd = world_round(view, world)
            playout_seed = rng.randrange(1 << 30)
            base = _score(rnd, hard_move, seat, playout_seed)
            for m in alive:
                gains[m].append(_score(rnd, m, seat, playout_seed) - base)
        # Halving: the better half of the candidates still ahead of Hard's pick go on.
        ahead = sorted(
            (m for m in alive if statistics.fmean(gains[m]) > 0),
            key=lambda m: -statistics.fmean(gains[m]),
        )
        alive = ahead[: max(1, (len(alive) + 1) // 2)]
        if not alive:
            return hard_move
    best = alive[0]
    return best if statistics.fmean(gains[best]) >= SWITCH else hard_move


def _worlds(view: SeatView, count: int, seed: int, weighted: bool) -> list[World]:
    """Every stage's worlds: resampled by weight from :data:`DEALT` times as many, or dealt."""
    if weighted:
        return likely_worlds(view, count, seed, dealt=int(count * DEALT))
    know = read_view(view)
    rng = random.Random(seed)
    return [sample_world(view, know, rng) for _ in range(count)]


def _score(world: Round, move: Move, seat: int, seed: int) -> float:
    """The points ``move`` then a playout give ``seat`` in ``world``: the opponents' mean
    score minus its own."""
    rnd = world.copy()
    rnd.apply_unchecked(move, seat)
    scores = playout(rnd, random.Random(seed))
    others = [s for i, s in enumerate(scores) if i != seat]
    return sum(others) / len(others) - scores[seat]


def _endgame(view: SeatView) -> bool:
    return (
        view.players == 2
        and view.boneyard_count <= endgame.BONEYARD
        and not view.rules.knock
        and view.result is None
    )
