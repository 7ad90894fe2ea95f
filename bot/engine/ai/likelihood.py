"""Worlds weighted by how likely the opponents' own plays were in them (issue 35).

:mod:`bot.engine.ai.worlds` deals the hidden tiles in every way consistent with the *hard*
facts of the log: hand sizes, the table, and the suits a draw or a pass showed a seat lacked (a
world where a seat drew holding a playable tile is never dealt: its likelihood is zero). But a
play says something too. A player who laid 3-2 on the Mexican Train while the world gives it
12-9 to shed there, off its plan, played unlike anyone sensible; a world that gives it nothing
better is the likelier one. So each world is weighted by the chance that a Hard-like player,
holding what that world says it held at each of its past decisions, would have made the plays
it made:

* **Its hand back then.** Walking the log backwards from the world's hand, a play puts its tile
  back into the hand and a draw takes one out: the tile played right after it, else the tile
  whose suit the seat most recently showed it lacked (it must have been drawn since; taking
  the nearest such deadline first is the order that fails least), else one at random. (A
  draw or pass facing a suit the world gives the seat never needs weighing: the worlds
  already exclude it.)
* **Its choice.** At each play, the moves that hand had on the trains open to it are scored by
  the rollout policy's values (:func:`bot.engine.ai.rollout.play_value`: the policy is level
  with Hard as a player), and the play's chance is a softmax over them at :data:`TEMPERATURE`
  points, mixed with :data:`MIX` of a uniform choice (a model of Hard, not Hard).

The weights read the view and the world only, and the random choices come from the caller's
seeded generator, so weighted worlds, like the worlds, cannot depend on the real deal.
:func:`likely_worlds` resamples a larger pool by weight (systematic resampling), so a search
can use the worlds it gets as they are.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Iterator

from bot.engine.ai.knowledge import Choice, choices, read_view
from bot.engine.ai.rollout import LATE_PIP, PIP, play_value
from bot.engine.ai.trains import longest_train
from bot.engine.ai.worlds import World, sample_world
from bot.engine.moves import Catch, Draw, Play
from bot.engine.tiles import Tile
from bot.engine.view import SeatView

#: Softmax temperature, in the policy's points (fitted by ``benchmarks/world_weights.py``).
TEMPERATURE = 4.0
#: Share of a uniform choice mixed into the model of an opponent's play.
MIX = 0.1
#: Plays weighed per seat, the latest first: older ones cost as much and tell less (the hand
#: rebuilt that far back rests on more guessed draws).
RECENT = 12
#: Node budget of the plan searched for each weighed play (a playout's is 500; 80 predicted
#: the hands better than 500 in ``benchmarks/world_weights.py``, and costs less).
PLAN_NODES = 80
#: Worlds dealt for each world :func:`likely_worlds` keeps.
POOL = 4


@dataclasses.dataclass(frozen=True, slots=True)
class _Step:
    """One of a hidden seat's past events, newest first, with what the rebuild needs."""

    choice: Choice | None  # None: a knock penalty's draws
    #: Tiles drawn (a draw: 1; a caught knock: the penalty).
    drawn: int
    #: The tile played in the log's next entry by this seat in the same turn (a drawn tile
    #: laid at once), else None.
    then_played: Tile | None
    #: pip -> log index of the seat's latest want of it, as of this step (for the draws).
    wants: dict[int, int]
    #: Whether an opponent then held one or two tiles (heavy tiles are then dumped).
    late: bool


@dataclasses.dataclass(frozen=True, slots=True)
class Evidence:
    """What the public log says about each hidden seat's past, read once per view."""

    #: seat -> its steps, newest first (hidden seats other than the viewer only).
    steps: dict[int, tuple[_Step, ...]]


def read_evidence(view: SeatView) -> Evidence:
    """The hidden seats' past decisions in ``view``'s log, ready to be scored in worlds."""
    players = view.players
    hidden = [s for s in range(players) if s != view.seat and view.visible_hands[s] is None]
    found = {c.at: c for c in choices(view)}
    log = view.log
    # Hand counts before each entry, walking back from today's.
    counts = list(view.hand_counts)
    before: list[tuple[int, ...]] = [()] * len(log)
    for i in range(len(log) - 1, -1, -1):
        seat, move = log[i]
        if isinstance(move, Play):
            counts[seat] += 1
        elif isinstance(move, Draw):
            counts[seat] -= 1
        elif isinstance(move, Catch):
            counts[move.seat] -= view.rules.knock_penalty
        before[i] = tuple(counts)
    steps: dict[int, tuple[_Step, ...]] = {}
    for s in hidden:
        wants: dict[int, int] = {}
        mine: list[_Step] = []
        for i, entry in enumerate(log):
            c = found.get(i)
            move = entry.move
            others = [n for j, n in enumerate(before[i]) if j != s]
            late = bool(others) and min(others) <= 2
            if isinstance(move, Catch) and move.seat == s:
                mine.append(_Step(None, view.rules.knock_penalty, None, dict(wants), late))
                continue
            if c is None or c.seat != s:
                continue
            if c.tile is not None:
                wants.pop(c.tile.high, None)
                wants.pop(c.tile.low, None)
                mine.append(_Step(c, 0, None, {}, late))
                continue
            for _, end in c.options:  # it held none of these suits then
                wants[end] = i
            nxt = found.get(i + 1)
            then = nxt.tile if nxt is not None and nxt.seat == s else None
            drew = 1 if isinstance(move, Draw) else 0
            mine.append(_Step(c, drew, then, dict(wants), late))
        steps[s] = tuple(reversed(mine))
    return Evidence(steps)


def log_likelihood(
    evidence: Evidence, world: World, rng: random.Random, temperature: float = TEMPERATURE
) -> float:
    """The log of the chance of the hidden seats' logged plays, were ``world`` the truth."""
    total = 0.0
    for seat, steps in evidence.steps.items():
        for _, _, chance in past_plays(steps, list(world.hands[seat]), seat, rng, temperature):
            if chance is not None:
                total += math.log(chance)
    return total


def past_plays(
    steps: tuple[_Step, ...],
    hand: list[Tile],
    seat: int,
    rng: random.Random,
    temperature: float = TEMPERATURE,
) -> Iterator[tuple[Choice, tuple[Tile, ...], float | None]]:
    """Walking back from ``hand`` (changed in place), each of the latest :data:`RECENT` plays
    that had a choice: the play, the hand rebuilt for that moment, and the model's chance of
    it (None when the rebuilt hand could not have made it: a guessed draw went wrong)."""
    scored = 0
    for step in steps:
        c = step.choice
        if c is not None and c.tile is not None:
            hand.append(c.tile)
            if not c.fast and c.options:
                yield c, tuple(hand), _chance(c, hand, seat, step.late, temperature)
                scored += 1
                if scored == RECENT:
                    return
            continue
        for i in range(step.drawn):
            if hand:
                hand.remove(_drawn(hand, step if i == 0 else None, step.wants, rng))


def _drawn(hand: list[Tile], step: _Step | None, wants: dict[int, int], rng: random.Random) -> Tile:
    """Which tile of ``hand`` a draw brought: the one played next (``step``'s), else the tile
    with the latest want of a suit it bears (it must have come since), else one at random."""
    if step is not None and step.then_played is not None and step.then_played in hand:
        return step.then_played
    best: Tile | None = None
    latest = -1
    for t in hand:
        w = max(wants.get(t.high, -1), wants.get(t.low, -1))
        if w > latest:
            best, latest = t, w
    return best if best is not None else hand[rng.randrange(len(hand))]


def _chance(c: Choice, hand: list[Tile], seat: int, late: bool, temperature: float) -> float | None:
    """The model's chance that ``hand`` made play ``c`` among what it could play then (1
    when it had no other; None when it could not have made it)."""
    assert c.tile is not None
    moves = [(t, train) for t in hand for train, end in c.options if t.high == end or t.low == end]
    observed = (c.tile, c.train)
    if observed not in moves:
        return None
    if len(moves) < 2:
        return 1.0
    plan = longest_train(sorted(hand), c.own_end, PLAN_NODES)
    planned = set(plan)
    pip = LATE_PIP if late else PIP
    values = []
    for t, train in moves:
        paired = t.high == t.low and sum(1 for u in hand if t.high in (u.high, u.low)) > 1
        values.append(
            play_value(t, train, seat, plan, planned, pip, paired, c.marked, c.mexican_empty)
        )
    top = max(values)
    weights = [math.exp((v - top) / temperature) for v in values]
    p = weights[moves.index(observed)] / sum(weights)
    return (1.0 - MIX) * p + MIX / len(moves)


def weighted_worlds(
    view: SeatView, count: int, seed: int, temperature: float = TEMPERATURE
) -> list[tuple[World, float]]:
    """``count`` worlds from ``view`` with weights summing to 1 (same view and seed, same
    answer)."""
    know = read_view(view)
    evidence = read_evidence(view)
    rng = random.Random(seed)
    worlds = [sample_world(view, know, rng) for _ in range(count)]
    logs = [log_likelihood(evidence, w, rng, temperature) for w in worlds]
    top = max(logs, default=0.0)
    raw = [math.exp(v - top) for v in logs]
    total = sum(raw)
    return [(w, r / total) for w, r in zip(worlds, raw, strict=True)]


def likely_worlds(
    view: SeatView,
    count: int,
    seed: int,
    dealt: int | None = None,
    temperature: float = TEMPERATURE,
) -> list[World]:
    """``count`` worlds resampled by weight from ``dealt`` (default ``count * POOL``) dealt
    ones, in a shuffled order (systematic resampling: a world of weight w is kept about
    ``w * count`` times, so any slice of the list is a fair sample too)."""
    weighted = weighted_worlds(view, dealt or count * POOL, seed, temperature)
    rng = random.Random(seed ^ 0x5EED)
    start = rng.random() / count
    kept: list[World] = []
    acc = 0.0
    for world, w in weighted:
        acc += w
        while len(kept) < count and start + len(kept) / count < acc:
            kept.append(world)
    while len(kept) < count:  # rounding at the very end
        kept.append(weighted[-1][0])
    rng.shuffle(kept)
    return kept
