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
* **Variants** (:class:`Settings`, issue 49's protocol in ``docs/computer-players.md``): the
  weighting's temperature, how many worlds are dealt per kept one, common random numbers
  across the candidates (the default) or each candidate its own worlds and playout seeds, and
  Hard's exact endgame solver finishing heads-up playouts. The defaults are the Expert as
  offered; ``benchmarks/ai_strength.py --search-*`` flags select the others.
"""

from __future__ import annotations

import dataclasses
import random
import statistics
from collections.abc import Callable

from bot.engine.ai import endgame
from bot.engine.ai.hard import hard_decision, turn_values
from bot.engine.ai.knowledge import read_view
from bot.engine.ai.likelihood import TEMPERATURE, likely_worlds
from bot.engine.ai.rollout import RolloutPolicy, playout
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
#: Positions the exact endgame may examine for one move of a playout (:attr:`Settings.endgame`).
ENDGAME_NODES = 1_500

#: A clock in seconds (``time.process_time`` in the bot and the benchmarks).
Clock = Callable[[], float]


@dataclasses.dataclass(frozen=True, slots=True)
class Settings:
    """One variant of the search; the defaults are the Expert as offered (issue 35)."""

    #: Worlds weighted by the opponents' plays (False: unweighted worlds, the control).
    weighted: bool = True
    #: The weighting's softmax temperature, in the rollout policy's points.
    temperature: float = TEMPERATURE
    #: Worlds dealt and weighed for each world kept (the resampling's pool).
    dealt: float = DEALT
    #: Common random numbers: every candidate in the same worlds with the same playout seeds
    #: (False: each candidate its own worlds and seeds, the noisier comparison).
    crn: bool = True
    #: A heads-up playout (no knock rule) whose boneyard is down to this many tiles plays its
    #: moves by Hard's exact endgame solver in that world (None: the policy to the end).
    endgame: int | None = None


#: The Expert as offered.
OFFERED = Settings()


def search(
    view: SeatView,
    seed: int,
    *,
    weighted: bool = True,
    clock: Clock | None = None,
    settings: Settings | None = None,
) -> Move:
    """The Expert's move from ``view`` (see the module's docstring); ``clock``: enforce
    :data:`BUDGET_S` on it, else search to the end. ``settings``: a variant (default: the
    Expert as offered, on unweighted worlds when ``weighted`` is False)."""
    s = settings if settings is not None else dataclasses.replace(OFFERED, weighted=weighted)
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
    streams = candidate_worlds(view, seed, s, 1 + len(others))
    index = {m: i for i, m in enumerate([hard_move, *others])}
    gains: dict[Move, list[float]] = {m: [] for m in others}
    alive = list(others)
    at = 0
    for count in STAGES:
        for w in range(at, at + count):
            if clock is not None and deadline is not None and clock() > deadline:
                return hard_move  # out of time: Hard's move, never a half-searched one
            worlds, seeds = streams[0]
            rnd = world_round(view, worlds[w])
            base = score(rnd, hard_move, seat, seeds[w], s.endgame)
            for m in alive:
                worlds, seeds = streams[index[m]]
                mine = rnd if s.crn else world_round(view, worlds[w])
                gains[m].append(score(mine, m, seat, seeds[w], s.endgame) - base)
        at += count
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


def candidate_worlds(
    view: SeatView, seed: int, settings: Settings, candidates: int
) -> list[tuple[list[World], list[int]]]:
    """Each candidate's worlds and playout seeds, Hard's pick first: one shared list under
    common random numbers (the same object for every candidate), else one per candidate."""
    total = sum(STAGES)
    rng = random.Random(seed)
    shared = (
        _worlds(view, total, seed * 31 + 1, settings),
        [rng.randrange(1 << 30) for _ in range(total)],
    )
    if settings.crn:
        return [shared] * candidates
    out = [shared]
    for k in range(1, candidates):
        own = random.Random(seed * 7919 + k)
        out.append(
            (
                _worlds(view, total, seed * 31 + 1 + k * 104_729, settings),
                [own.randrange(1 << 30) for _ in range(total)],
            )
        )
    return out


def _worlds(view: SeatView, count: int, seed: int, settings: Settings) -> list[World]:
    """A candidate's worlds: resampled by weight from ``settings.dealt`` times as many, or
    dealt unweighted."""
    if settings.weighted:
        dealt = max(count, int(count * settings.dealt))
        return likely_worlds(view, count, seed, dealt=dealt, temperature=settings.temperature)
    know = read_view(view)
    rng = random.Random(seed)
    return [sample_world(view, know, rng) for _ in range(count)]


def score(world: Round, move: Move, seat: int, seed: int, exact: int | None = None) -> float:
    """The points ``move`` then a playout give ``seat`` in ``world``: the opponents' mean
    score minus its own. ``exact``: finish a heads-up playout with the endgame solver once
    the boneyard holds at most that many tiles."""
    rnd = world.copy()
    rnd.apply_unchecked(move, seat)
    rng = random.Random(seed)
    if exact is None or rnd.players != 2 or rnd.rules.knock:
        scores = playout(rnd, rng)
    else:
        scores = _playout_exact(rnd, rng, exact)
    others = [s for i, s in enumerate(scores) if i != seat]
    return sum(others) / len(others) - scores[seat]


def _playout_exact(rnd: Round, rng: random.Random, boneyard: int) -> tuple[int, ...]:
    """A heads-up playout whose moves, once the boneyard holds at most ``boneyard`` tiles,
    are the solver's (win, tie or loss in this fully known world; the policy's pick among
    the best, the policy alone when the solver runs past :data:`ENDGAME_NODES`)."""
    policy = RolloutPolicy()
    while rnd.result is None:
        seat = rnd.current
        moves = rnd.legal_list()
        move = moves[0] if len(moves) == 1 else policy.choose(rnd, seat, moves, rng)
        if len(moves) > 1 and len(rnd.boneyard) <= boneyard:
            values = endgame.solve(rnd, seat, moves, ENDGAME_NODES)
            if values is not None:
                best = max(values.values())
                if values[move] < best:
                    move = next(m for m in moves if values[m] == best)
        rnd.apply_unchecked(move, seat)
        policy.after(rnd, seat, move)
    return rnd.result.scores


def distinct(worlds: list[World]) -> int:
    """How many different worlds a list holds (the audit's measure of a search's breadth)."""
    return len({(w.hands, w.boneyard) for w in worlds})


def _endgame(view: SeatView) -> bool:
    return (
        view.players == 2
        and view.boneyard_count <= endgame.BONEYARD
        and not view.rules.knock
        and view.result is None
    )
