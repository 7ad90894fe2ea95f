"""A finished match reviewed for one player: where another move was clearly better, and luck.

Issue 49: no dominoes game tells a player where they lost points. For one seat of a finished
match this replays the match and, at each of that seat's decisions with a choice, asks
whether another move was better **by a margin the evaluator is confident of**, from what that
player could see then, never from the others' true hands:

* **The worlds.** The hidden tiles are dealt from the seat's own view at that moment
  (:mod:`bot.engine.ai.worlds`: its hand, the table, the hand sizes, and the suits the draws
  and passes it saw showed a player lacked), :attr:`ReviewSettings.worlds` times. The real
  deal is never read; a test swaps the hidden tiles around and gets the same review.
* **The candidates.** The move played, Hard's pick and Hard's turn search's runner-ups within
  :data:`bot.engine.ai.expert.CLOSE` turns of its best (at most :attr:`ReviewSettings.others`
  besides the move played).
* **Paired playouts.** In every world, each candidate and the move played are played out to
  the round's end by the rollout policy (Hard's habits, :mod:`bot.engine.ai.rollout`) with the
  same playout seed; a candidate's gain in that world is the seat's margin (the opponents'
  mean score minus its own) after it minus after the move played. Over the worlds, the gain's
  mean ± :attr:`ReviewSettings.z` standard errors is its interval. A decision is reported only
  when the best candidate's interval **excludes 0** (its low end above 0). A first
  :attr:`ReviewSettings.screen` worlds screen the candidates: one whose mean gain is not
  above 0 there is not played further.
* **Luck** (:func:`deal_luck`): for each round, the margin the seat's dealt hand is worth, on
  average, with the rollout policy in every seat and the other hands and the boneyard dealt
  at random from the rest, minus the margin of a hand dealt at random, over the same number
  of playouts with the same seeds. Positive: a better hand than the average deal. Only the
  deal: the draws after it are not in the figure.
* **A CPU budget** (``clock`` and :attr:`ReviewSettings.budget_s`): decisions where the move
  played was not Hard's pick are examined first; past the budget the review stops, saying how
  many decisions it examined (:attr:`SeatReview.complete`).

Everything reads the event list and the seat's views, seeded by the match: the same match
gives the same review.
"""

from __future__ import annotations

import dataclasses
import math
import random
import statistics
from collections.abc import Callable, Sequence

from bot.engine.ai.expert import CLOSE, score
from bot.engine.ai.hard import hard_decision, turn_values
from bot.engine.ai.rollout import playout
from bot.engine.ai.worlds import sample_worlds, world_round
from bot.engine.match import Event, Match, Moved, RoundStarted
from bot.engine.moves import Move
from bot.engine.round import Round
from bot.engine.rules import Rules
from bot.engine.view import SeatView, view_for

#: A clock in seconds (the worker's ``time.thread_time``).
Clock = Callable[[], float]


@dataclasses.dataclass(frozen=True, slots=True)
class ReviewSettings:
    """How hard a review looks (the bot's defaults; tests and scripts pass smaller ones)."""

    #: Worlds dealt per examined decision (the interval is over these). One playout's paired
    #: difference spreads by about 70 points (measured), so 256 worlds give an interval of
    #: about ±9 points: only a clearly worse move is named.
    worlds: int = 256
    #: Worlds the candidates are screened on first.
    screen: int = 32
    #: Candidates besides the move played (Hard's pick first, else its runner-up).
    others: int = 1
    #: Standard errors each side of the mean: 1.96 is a 95 % interval.
    z: float = 1.96
    #: Playouts per round for the luck figure (each for the real hand and a random one).
    luck_deals: int = 24
    #: CPU seconds the whole review of one seat may spend (None: no limit).
    budget_s: float | None = 30.0


@dataclasses.dataclass(frozen=True, slots=True)
class Finding:
    """A decision where ``better`` beat the move ``played`` by ``gain`` points (low to high)."""

    round_no: int
    #: The seat's turn in that round, from 1.
    turn: int
    #: Index in the match's event list of the move played (the position is just before it).
    at: int
    played: Move
    better: Move
    gain: float
    low: float
    high: float


@dataclasses.dataclass(frozen=True, slots=True)
class SeatReview:
    seat: int
    findings: tuple[Finding, ...]
    #: Each round's deal luck, in points of margin (positive: a better hand than average).
    luck: tuple[float, ...]
    #: Decisions with a choice, and how many of them were examined within the budget.
    decisions: int
    examined: int

    @property
    def complete(self) -> bool:
        return self.examined == self.decisions

    @property
    def luck_total(self) -> float:
        return sum(self.luck)


@dataclasses.dataclass(frozen=True, slots=True)
class ReviewJob:
    """What one seat's review is computed from: plain values (sent to a worker process)."""

    rules: Rules
    names: tuple[str, ...]
    events: tuple[Event, ...]
    seat: int
    engine_version: int
    settings: ReviewSettings
    seed: int


def run(job: ReviewJob, clock: Clock | None = None) -> SeatReview:
    """:func:`review_seat` of ``job``, within its budget on ``clock``."""
    return review_seat(
        job.rules,
        job.names,
        job.events,
        job.seat,
        engine_version=job.engine_version,
        settings=job.settings,
        clock=clock,
        seed=job.seed,
    )


@dataclasses.dataclass(frozen=True, slots=True)
class _Decision:
    at: int
    round_no: int
    turn: int
    view: SeatView
    played: Move
    candidates: tuple[Move, ...]
    differs: bool  # the move played was not Hard's pick


def view_before(
    rules: Rules,
    names: Sequence[str],
    events: Sequence[Event],
    at: int,
    seat: int,
    engine_version: int | None = None,
) -> SeatView:
    """``seat``'s view just before event ``at`` (the position of a finding: its picture)."""
    match = _match(rules, names, engine_version)
    for event in events[:at]:
        _apply(match, event)
    return view_for(match, seat)


def review_seat(
    rules: Rules,
    names: Sequence[str],
    events: Sequence[Event],
    seat: int,
    *,
    engine_version: int | None = None,
    settings: ReviewSettings = ReviewSettings(),
    clock: Clock | None = None,
    seed: int = 0,
) -> SeatReview:
    """The review of ``seat`` in the finished match ``events`` (see the module's docstring)."""
    deadline = None
    if clock is not None and settings.budget_s is not None:
        deadline = clock() + settings.budget_s
    decisions, deals = _decisions(rules, names, events, seat, engine_version, settings)
    luck = tuple(
        deal_luck(rules, names, round_no, order, seat, settings.luck_deals, seed + round_no)
        for round_no, order in deals
    )
    findings: list[Finding] = []
    examined = 0
    # The moves that were not Hard's first: within a budget, the likeliest findings.
    for d in sorted(decisions, key=lambda d: (not d.differs, d.at)):
        if deadline is not None and clock is not None and clock() > deadline:
            break
        if d.candidates:
            found = _examine(d, settings, seed * 1_000_003 + d.at, deadline, clock)
            if found is not None:
                findings.append(found)
            elif deadline is not None and clock is not None and clock() > deadline:
                break  # cut short by the budget: not examined
        examined += 1
    findings.sort(key=lambda f: f.at)
    return SeatReview(seat, tuple(findings), luck, len(decisions), examined)


def deal_luck(
    rules: Rules,
    names: Sequence[str],
    round_no: int,
    order: Sequence[object],
    seat: int,
    deals: int,
    seed: int,
) -> float:
    """How many points of margin ``seat``'s dealt hand in ``order`` is worth over a hand dealt
    at random (see the module's docstring); 0 with no deals."""
    if deals <= 0:
        return 0.0
    tiles = list(order)
    hand = rules.hand_size_for(len(names))
    mine = range(seat * hand, (seat + 1) * hand)
    rest = [i for i in range(len(tiles)) if i not in mine]
    rng = random.Random(seed)
    total = 0.0
    for _ in range(deals):
        playout_seed = rng.randrange(1 << 30)
        # The real hand, everything else dealt afresh ...
        kept = list(tiles)
        others = [tiles[i] for i in rest]
        rng.shuffle(others)
        for i, t in zip(rest, others, strict=True):
            kept[i] = t
        # ... against a whole deal at random.
        anyhow = list(tiles)
        rng.shuffle(anyhow)
        total += _margin(rules, names, round_no, kept, seat, playout_seed)
        total -= _margin(rules, names, round_no, anyhow, seat, playout_seed)
    return total / deals


def _margin(
    rules: Rules, names: Sequence[str], round_no: int, order: list[object], seat: int, seed: int
) -> float:
    rnd = Round.deal(rules, names, round_no, order)  # type: ignore[arg-type]
    scores = playout(rnd, random.Random(seed))
    others = [s for i, s in enumerate(scores) if i != seat]
    return sum(others) / len(others) - scores[seat]


def _examine(
    d: _Decision,
    settings: ReviewSettings,
    seed: int,
    deadline: float | None,
    clock: Clock | None,
) -> Finding | None:
    """The best candidate at ``d`` if its gain's interval excludes 0, else None."""
    view = d.view
    worlds = sample_worlds(view, settings.worlds, seed)
    seeds = random.Random(seed).sample(range(1 << 30), settings.worlds)
    gains: dict[Move, list[float]] = {m: [] for m in d.candidates}
    alive = list(d.candidates)
    for w, world in enumerate(worlds):
        if deadline is not None and clock is not None and clock() > deadline:
            return None
        if w == settings.screen:
            alive = [m for m in alive if statistics.fmean(gains[m]) > 0]
            if not alive:
                return None
        rnd = world_round(view, world)
        base = score(rnd, d.played, d.view.seat or 0, seeds[w])
        for m in alive:
            gains[m].append(score(rnd, m, d.view.seat or 0, seeds[w]) - base)
    best: Finding | None = None
    for m in alive:
        values = gains[m]
        mean = statistics.fmean(values)
        half = settings.z * statistics.stdev(values) / math.sqrt(len(values))
        if mean - half > 0 and (best is None or mean > best.gain):
            best = Finding(d.round_no, d.turn, d.at, d.played, m, mean, mean - half, mean + half)
    return best


def _decisions(
    rules: Rules,
    names: Sequence[str],
    events: Sequence[Event],
    seat: int,
    engine_version: int | None,
    settings: ReviewSettings,
) -> tuple[list[_Decision], list[tuple[int, tuple[object, ...]]]]:
    """The seat's decisions with a choice (and their candidates), and every round's deal."""
    match = _match(rules, names, engine_version)
    out: list[_Decision] = []
    deals: list[tuple[int, tuple[object, ...]]] = []
    turn = 0
    last_mover: int | None = None
    for at, event in enumerate(events):
        if isinstance(event, RoundStarted):
            deals.append((event.round_no, tuple(event.order)))
            turn, last_mover = 0, None
        elif isinstance(event, Moved) and event.seat == seat and match.round is not None:
            if last_mover != seat:
                turn += 1
            view = view_for(match, seat)
            if len(view.legal) > 1 and event.move in view.legal:
                out.append(_decision(at, turn, view, event.move, settings))
        if isinstance(event, Moved):
            last_mover = event.seat
        _apply(match, event)
    return out, deals


def _decision(at: int, turn: int, view: SeatView, played: Move, s: ReviewSettings) -> _Decision:
    hard = hard_decision(view, random.Random(at)).move
    ranked = turn_values(view, random.Random(at))
    top = ranked[0][1] if ranked else 0.0
    close = [m for m, v in ranked if top - v <= CLOSE]
    candidates = [m for m in dict.fromkeys([hard, *close]) if m != played][: s.others]
    return _Decision(at, view.round_no, turn, view, played, tuple(candidates), played != hard)


def _match(rules: Rules, names: Sequence[str], engine_version: int | None) -> Match:
    if engine_version is None:
        return Match(rules, list(names))
    return Match(rules, list(names), engine_version)


def _apply(match: Match, event: Event) -> None:
    if isinstance(event, RoundStarted):
        match.start_round(event.order)
    else:
        match.apply(event.move, event.seat)
