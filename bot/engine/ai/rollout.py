"""Playouts: a round played from a position to its end by a quick policy with Hard's habits.

A search that scores moves by playing them forward (issue 35) needs hundreds of playouts per
decision, so one must cost about a millisecond or two. Hard itself costs a few milliseconds
*per decision* (it searches its whole turn and rebuilds a round from its view each time), so
a playout with Hard in every chair costs 10-20 ms (more with its heads-up endgame solver),
nearly half of it in :func:`~bot.engine.ai.trains.longest_train`. Two things make a playout
cheap here:

* **The engine's own playout path.** Moves come from ``legal_list()`` and go in through
  ``apply_unchecked()`` on one copy of the round: no views, no checks, no rebuilt rounds, and
  every rule and house rule exactly as a real game plays it (nothing re-implemented that could
  drift from the rules).
* **Plans kept, not recomputed.** Each seat's plan (its longest own train) is computed once and
  then kept in step with the moves: laying the plan's next tile at home leaves the rest of the
  plan the longest train from the new end (a longer one would have made a longer plan), and
  shedding an off-plan tile elsewhere changes nothing. A drawn tile joins the plan when it
  extends its far end or is a double the plan passes through, and otherwise waits off-plan:
  the plan stays a train the hand can lay, perhaps no longer the longest. Only a changed own
  train end (another seat played on a marked train) or a planned tile spent elsewhere asks for
  a new search, with a smaller node budget than Hard's.

The policy (:class:`RolloutPolicy`) plays Hard's habits one move at a time: it follows its
plan at home, sheds off-plan tiles on the Mexican and marked trains, plays a double when a
tile in hand satisfies it, takes its marker down, and dumps heavy tiles once an opponent holds
one or two. It reads only what its seat may know (its hand, the table, the counts), so in a
dealt world it does not play as if it saw the other hands. ``benchmarks/rollout.py`` measures
its cost and, through ``benchmarks/ai_strength.py``, its strength against Hard.
"""

from __future__ import annotations

import random

from bot.engine.ai.knowledge import read_view
from bot.engine.ai.state import round_from_view
from bot.engine.ai.trains import longest_train
from bot.engine.errors import EngineError
from bot.engine.moves import DONE, KNOCK, MEXICAN, Catch, Draw, Move, Play
from bot.engine.round import Round
from bot.engine.state import RoundState
from bot.engine.tiles import Tile
from bot.engine.view import SeatView

#: Node budget for a plan searched mid-playout (Hard's full plan gets 6,000).
PLAN_BUDGET = 500
#: Move values, in points of a play's score. Shedding an off-plan tile comes before
#: following the plan, as in Hard's count of turns to go out: the planned tiles keep (the own
#: train is the seat's alone while its marker is down), an off-plan tile may find no outlet
#: later. The reverse order lost 8.7 points a round to Hard at a table of three Hard
#: (docs/computer-players.md); this one is level with Hard.
FOLLOW = 4.0  # the plan's next tile, at home
BREAK = 9.0  # a planned tile spent on another train
OFF_PLAN_HOME = 7.0  # an off-plan tile at home turns the own train away from the plan
SHED = 9.0  # an off-plan tile on a shared train
DOUBLE = 8.0  # a double a tile in hand can satisfy: two tiles this turn
LONE_DOUBLE = 6.0  # a double nothing in hand satisfies: it hands the next player a turn
MARKER = 6.0  # a tile at home while the marker is up takes it down
START_MEXICAN = 1.0
#: Points per pip shed: little while the round is young, a lot once an opponent holds
#: one or two tiles (every pip left is then likely penalty).
PIP = 0.2
LATE_PIP = 1.2
#: Random jitter, so playouts of one world differ where the policy is indifferent.
JITTER = 0.5


class RolloutPolicy:
    """Hard's habits at a playout's price; one instance per playout (it keeps the plans)."""

    __slots__ = ("plans",)

    def __init__(self) -> None:
        #: seat -> (own train end the plan starts from, the plan), kept in step with moves.
        self.plans: dict[int, tuple[int, tuple[Tile, ...]]] = {}

    def plan(self, rnd: RoundState, seat: int) -> tuple[Tile, ...]:
        end = rnd.trains[seat].end
        kept = self.plans.get(seat)
        if kept is not None and kept[0] == end:
            return kept[1]
        plan = longest_train(rnd.hands[seat], end, PLAN_BUDGET)
        self.plans[seat] = (end, plan)
        return plan

    def choose(self, rnd: RoundState, seat: int, moves: list[Move], rng: random.Random) -> Move:
        """One of ``moves`` (legal for ``seat`` now, more than one)."""
        plan = self.plan(rnd, seat)
        if rnd.fast:
            if plan and Play(plan[0], seat) in moves:
                return Play(plan[0], seat)
            if DONE in moves:
                return DONE
        own = rnd.trains[seat]
        others = [len(h) for s, h in enumerate(rnd.hands) if s != seat]
        pip = LATE_PIP if others and min(others) <= 2 else PIP
        planned = set(plan)
        by_pip = rnd.by_pip[seat]
        best: Move = moves[0]
        best_value = -1e9
        marked = own.marked
        mexican_empty = not rnd.trains[MEXICAN].tiles
        for m in moves:
            if type(m) is not Play:
                continue
            t = m.tile
            value = play_value(
                t, m.train, seat, plan, planned, pip, len(by_pip[t.high]) > 1, marked, mexican_empty
            )
            value += JITTER * rng.random()
            if value > best_value:
                best, best_value = m, value
        return best

    def after(self, rnd: RoundState, seat: int, move: Move) -> None:
        """Keep the plans in step with ``move``, just applied for ``seat``."""
        kind = type(move)
        if kind is Play:
            assert isinstance(move, Play)
            t, train = move.tile, move.train
            kept = self.plans.get(seat)
            if kept is not None:
                end, plan = kept
                if train == seat and plan and t == plan[0]:
                    self.plans[seat] = (t.other(end), plan[1:])
                elif t in plan:
                    del self.plans[seat]
            if train != seat and train != MEXICAN:
                self.plans.pop(train, None)  # its end moved
        elif kind is Draw:
            self._drew(rnd, seat)
        elif kind is Catch:
            assert isinstance(move, Catch)
            self.plans.pop(move.seat, None)

    def _drew(self, rnd: RoundState, seat: int) -> None:
        """A drawn tile joins the plan when it extends it or is a double it passes."""
        kept = self.plans.get(seat)
        hand = rnd.hands[seat]
        if kept is None or not hand:
            return
        end, plan = kept
        t = hand[-1]
        tip = end
        for p in plan:
            tip = p.other(tip)
        if t.high == t.low:
            # A double on a pip the plan reaches is spliced in after the tile reaching it.
            if t.high == end and not plan:
                self.plans[seat] = (end, (t,))
                return
            at = end
            for i, p in enumerate(plan):
                at = p.other(at)
                if at == t.high and p.high != p.low:
                    self.plans[seat] = (end, (*plan[: i + 1], t, *plan[i + 1 :]))
                    return
            if end == t.high:
                self.plans[seat] = (end, (t, *plan))
        elif t.high == tip or t.low == tip:
            self.plans[seat] = (end, (*plan, t))


def play_value(
    t: Tile,
    train: int,
    seat: int,
    plan: tuple[Tile, ...],
    planned: set[Tile],
    pip: float,
    paired: bool,
    marked: bool,
    mexican_empty: bool,
) -> float:
    """The policy's value of laying ``t`` on ``train`` for ``seat`` (no jitter): also the
    model of an opponent's choice that weights worlds (:mod:`bot.engine.ai.likelihood`).
    ``paired``: another tile in hand bears the double's pip (it can satisfy it)."""
    value = pip * (t.high + t.low)
    if t in planned:
        value += FOLLOW if train == seat and t == plan[0] else -BREAK
    elif train == seat:
        value -= OFF_PLAN_HOME if plan else 0.0
    else:
        value += SHED
    if t.high == t.low:
        value += DOUBLE if paired else -LONE_DOUBLE
    if train == seat and marked:
        value += MARKER
    if train == MEXICAN and mexican_empty:
        value += START_MEXICAN
    return value


def playout(rnd: Round, rng: random.Random, policy: RolloutPolicy | None = None) -> tuple[int, ...]:
    """Play ``rnd`` (changed in place: pass a copy) to its end with the rollout policy in
    every seat; the round's scores. Knock rules are played straight (everyone knocks)."""
    policy = policy or RolloutPolicy()
    knock = rnd.rules.knock
    while rnd.result is None:
        seat = rnd.current
        moves = rnd.legal_list()
        move = moves[0] if len(moves) == 1 else policy.choose(rnd, seat, moves, rng)
        applied = rnd.apply_unchecked(move, seat)
        policy.after(rnd, seat, move)
        if knock and applied.turn_over and rnd.knock_window is not None and rnd.result is None:
            rnd.apply_unchecked(KNOCK, rnd.knock_window)
    return rnd.result.scores


def rollout_move(view: SeatView, rng: random.Random) -> Move:
    """The rollout policy as a player: its move from ``view`` (for measuring it against the
    levels; the round rebuilt from the view has stand-ins in the hidden hands, which the
    policy never reads)."""
    legal = list(view.legal)
    if not legal:
        raise EngineError(
            "it is not this seat's turn: a computer player has no move to make", "not-its-turn"
        )
    if len(legal) == 1:
        return legal[0]
    assert view.seat is not None
    rnd = round_from_view(view, read_view(view).unseen, rng)
    return RolloutPolicy().choose(rnd, view.seat, legal, rng)
