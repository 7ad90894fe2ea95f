"""The Hard computer player: it plans its own train and searches the rest of its turn.

Each decision looks at every legal play and, through a round rebuilt from the view (see
:mod:`bot.engine.ai.state`), every way the turn can go on after it (satisfying a double, a
chain of doubles, a drawn tile that must be played), and scores where the turn ends:

* **Turns to go out.** The hand's longest own train (:func:`longest_train`) is the plan; its
  non-doubles cost a turn each and its doubles ride along free. Tiles off the plan cost a turn
  if they chain from the Mexican Train's end (a little more the further down that chain, as
  opponents move the end) and more than a turn otherwise, because they will likely wait or
  draw. So it sheds off-plan tiles on the Mexican and marked trains while keeping the plan
  intact, and plays a double when it can satisfy it (two tiles in one turn).
* **Penalty points.** Pips in hand weigh little early and a lot once an opponent is down to
  one or two tiles (or nobody can draw), so then it dumps its heaviest tiles.
* **Its marker.** A raised marker lets others take over its train, so playing home to close
  it is worth a turn's fraction; a draw it will likely have to pass on costs too.
* **A live train.** A plan ending in a pip that unseen tiles still bear can grow from draws;
  one ending in a dead pip leaves only the shared trains once it is laid.
* **Opponents.** From the public log it learns which suits each player lacked when it drew
  (:mod:`bot.engine.ai.knowledge`) and rewards leaving the next player ends, or an open double,
  it probably cannot play on, and its own train ending in such a suit (when that train is
  marked and open to it): doubles are played to hurt only when that is likely.

A fast start simply lays the planned train.

**Heads-up endgames.** With one opponent and at most ten tiles left to draw, few deals of the
hidden tiles remain; :mod:`bot.engine.ai.endgame` plays the round out exactly in a few sampled
deals, and a move that wins in more of them overrides the heuristic above (which still breaks
ties). Once the boneyard is empty that search is exact. Nothing looks past what the seat may
see: the deals are drawn from the seat's own knowledge.
"""

from __future__ import annotations

import dataclasses
import random

from bot.engine.ai import endgame
from bot.engine.ai.knowledge import Knowledge, chance_any, read_view
from bot.engine.ai.state import round_from_view
from bot.engine.ai.trains import longest_train
from bot.engine.ending import hand_score
from bot.engine.errors import EngineError
from bot.engine.moves import DRAW, MEXICAN, PASS, Done, Draw, Move, Pass, Play
from bot.engine.round import Round
from bot.engine.tiles import Tile
from bot.engine.view import SeatView

#: Weights, in turns: the cost of a tile with no likely outlet beyond its own turn, the
#: uncertainty per step down a Mexican chain, a raised marker, a draw to come, and the
#: value of leaving the next player nothing to play.
WAIT = 1.0
CHAIN_RISK = 0.5
MARKER = 1.2
DRAW_COST = 0.8
BLOCK = 5.0
#: The value of leaving the next player's own train ending in a suit it probably lacks.
OWN_BLOCK = 1.0
#: The value of a planned train whose last end is still live: unseen tiles bear its pip (up
#: to LIVE_CAP of them), so draws can extend it; a dead end leaves only shared trains.
LIVE = 2.5
LIVE_CAP = 6
#: Turns per penalty pip in hand: by the fewest tiles an opponent holds (1, 2, 3, more), and
#: at least PIP_DRY once the boneyard is empty and the round may block.
PIP_1 = 0.35
PIP_2 = 0.15
PIP_3 = 0.06
PIP_BASE = 0.025
PIP_DRY = 0.08
#: Search bounds within one turn: plays deep, and positions judged.
MAX_DEPTH = 8
MAX_LEAVES = 400
#: Longest-train budget for judging positions (the plan itself gets the full budget).
LEAF_BUDGET = 2_000
WIN = 1_000.0


@dataclasses.dataclass(frozen=True, slots=True)
class Decision:
    move: Move
    #: A short code naming why (see ``REASONS``), for translation and tests.
    reason: str
    #: The longest own train the player sees from its hand now.
    train: tuple[Tile, ...]


REASONS: dict[str, str] = {
    "only-move": "this is the only legal move",
    "draw": "nothing fits: draw a tile",
    "pass": "nothing fits and nothing to draw: pass",
    "done": "nothing more fits your own train: end the fast start",
    "go-out": "this plays your last tile",
    "fast-start": "lay your planned train during the fast start",
    "satisfy-double": "this satisfies the open double",
    "double-combo": "play a double you can satisfy: two tiles this turn",
    "hurt-double": "leave a double the next player probably cannot satisfy",
    "close-marker": "play on your own train to take your marker down",
    "dump-heavy": "an opponent is nearly out: shed your heaviest tiles",
    "keep-plan": "shed a tile your own train cannot use and keep your train plan intact",
    "replan": (
        "this tile does more here than on your own train: your train plan is rebuilt without it"
    ),
    "start-mexican": "start the Mexican Train with a tile your own train cannot use",
    "block": "leave the next player an end it probably cannot play",
    "follow-plan": "lay the next tile of your planned own train",
    "endgame": (
        "few tiles are hidden now: playing the round out over likely places for them, "
        "this move wins most often"
    ),
}


def hard_decision(view: SeatView, rng: random.Random) -> Decision:
    decision = _decide(view, rng)
    return dataclasses.replace(decision, train=_plan_after(view, decision.move, decision.train))


def _decide(view: SeatView, rng: random.Random) -> Decision:
    seat = view.seat
    hand = view.hand
    if seat is None or hand is None or not view.legal:
        raise EngineError(
            "it is not this seat's turn: a computer player has no move to make", "not-its-turn"
        )
    own = view.trains[seat]
    plan = longest_train(hand, own.end)
    legal = view.legal
    plays = [m for m in legal if isinstance(m, Play)]
    if len(legal) == 1:
        only = legal[0]
        if isinstance(only, Draw):
            return Decision(only, "draw", plan)
        if isinstance(only, Pass):
            return Decision(only, "pass", plan)
        if isinstance(only, Play) and len(hand) == 1:
            return Decision(only, "go-out", plan)
        return Decision(only, "only-move", plan)
    if not plays:
        return Decision(legal[0], "only-move", plan)
    if view.fast_start:
        if plan and Play(plan[0], seat) in legal:
            return Decision(Play(plan[0], seat), "fast-start", plan)
        done = [m for m in legal if isinstance(m, Done)]
        if done and not plan:
            return Decision(done[0], "done", plan)
    know = read_view(view)
    search = _TurnSearch(view, know, rng)
    candidates = [m for m in legal if isinstance(m, Play | Done)]
    values = [search.value(m) for m in candidates]
    # The heuristic's choice; among equal values the move listed first.
    choice = candidates[max(range(len(candidates)), key=lambda i: (values[i], -i))]
    shares = _endgame(view, know, search.root, candidates, rng)
    if shares is not None:
        best = max(range(len(candidates)), key=lambda i: (shares[candidates[i]], values[i], -i))
        if shares[candidates[best]] > shares[choice]:
            return Decision(candidates[best], "endgame", plan)
    return Decision(choice, _reason(view, know, choice, plan), plan)


def turn_values(view: SeatView, rng: random.Random) -> list[tuple[Play | Done, float]]:
    """Each play (or done) of a contested decision with the turn search's value of it, best
    first (ties in listed order): where a search that looks further starts from Hard's best
    few moves. Empty when Hard's choice is not a contest (one move, no play, a planned fast
    start)."""
    seat = view.seat
    hand = view.hand
    if seat is None or hand is None or len(view.legal) < 2:
        return []
    candidates = [m for m in view.legal if isinstance(m, Play | Done)]
    if not any(isinstance(m, Play) for m in candidates) or view.fast_start:
        return []
    search = _TurnSearch(view, read_view(view), rng)
    values = [search.value(m) for m in candidates]
    order = sorted(range(len(candidates)), key=lambda i: (-values[i], i))
    return [(candidates[i], values[i]) for i in order]


def _plan_after(view: SeatView, move: Move, plan: tuple[Tile, ...]) -> tuple[Tile, ...]:
    """The plan a hint shows beside ``move``: a planned tile played on another train is no
    longer the player's to lay at home, so the plan is the hand's longest own train without
    it (a hint once named 12-2 a tile its own train could not use, then planned 12-2)."""
    if not isinstance(move, Play) or move.train == view.seat or move.tile not in plan:
        return plan
    assert view.seat is not None and view.hand is not None
    hand = list(view.hand)
    hand.remove(move.tile)
    return longest_train(hand, view.trains[view.seat].end)


def _endgame(
    view: SeatView, know: Knowledge, root: Round, moves: list[Play | Done], rng: random.Random
) -> dict[Move, float] | None:
    """The share of sampled endgame worlds each move wins, when the endgame search applies."""
    seat = view.seat
    if seat is None or not endgame.applies(root):
        return None
    other = 1 - seat
    hidden = view.visible_hands[other] is None
    return endgame.judge(root, seat, moves, know.lacks[other], rng, hidden=hidden)


class _TurnSearch:
    """Scores a move by the best way the seat's own turn can end after it."""

    def __init__(self, view: SeatView, know: Knowledge, rng: random.Random) -> None:
        assert view.seat is not None
        self.view = view
        self.seat = view.seat
        self.know = know
        self.root = round_from_view(view, know.unseen, rng)
        self.leaves = 0
        self.trains: dict[tuple[tuple[Tile, ...], int], tuple[Tile, ...]] = {}
        self.suits: dict[tuple[int, int], float] = {}
        self.left: dict[int, int] = {}
        others = [c for s, c in enumerate(view.hand_counts) if s != self.seat]
        danger = min(others) if others else 99
        weight = {1: PIP_1, 2: PIP_2, 3: PIP_3}.get(danger, PIP_BASE)
        if view.boneyard_count == 0:
            weight = max(weight, PIP_DRY)
        self.pip_weight = weight

    def value(self, move: Play | Done) -> float:
        rnd = self.root.copy()
        rnd.apply(move, self.seat)
        return self._after(rnd, 1)

    def _after(self, rnd: Round, depth: int) -> float:
        if rnd.result is not None:
            if rnd.result.went_out == self.seat:
                return WIN
            return -WIN if rnd.result.went_out is not None else -self._pips(rnd)
        if rnd.current != self.seat:
            return self._leaf(rnd)
        moves = rnd.legal_list()
        nexts = [m for m in moves if type(m) is Play]
        if not nexts or depth >= MAX_DEPTH or self.leaves >= MAX_LEAVES:
            if DRAW in moves:
                return self._leaf(rnd, draw=True)
            if PASS in moves:
                return self._leaf(rnd, passing=True)
            return self._leaf(rnd)
        best = self._leaf(rnd) if any(isinstance(m, Done) for m in moves) else -WIN * 2
        for m in nexts:
            child = rnd.copy()
            child.apply_unchecked(m, self.seat)
            best = max(best, self._after(child, depth + 1))
        return best

    def _train(self, hand: list[Tile], start: int) -> tuple[Tile, ...]:
        key = (tuple(sorted(hand)), start)
        found = self.trains.get(key)
        if found is None:
            found = longest_train(key[0], start, LEAF_BUDGET)
            self.trains[key] = found
        return found

    def _holds(self, seat: int, pip: int) -> float:
        key = (seat, pip)
        p = self.suits.get(key)
        if p is None:
            p = self.know.holds_suit(seat, pip, self.view.hand_counts)
            self.suits[key] = p
        return p

    def _left(self, pip: int) -> int:
        n = self.left.get(pip)
        if n is None:
            n = self.left[pip] = self.know.suit_left(pip)
        return n

    def _pips(self, rnd: Round) -> float:
        return float(hand_score(rnd.hands[self.seat], rnd.rules.scoring))

    def _leaf(self, rnd: Round, draw: bool = False, passing: bool = False) -> float:
        self.leaves += 1
        seat = self.seat
        hand = rnd.hands[seat]
        if not hand:
            return WIN
        trains = rnd.trains
        plan = self._train(hand, trains[seat].end)
        turns = float(sum(1 for t in plan if not t.is_double))
        if plan and plan[-1].is_double:
            turns += 1
        planned = set(plan)
        rest = [t for t in hand if t not in planned]
        if rest:
            mex = self._train(rest, trains[MEXICAN].end)
            for k, t in enumerate(mex):
                if not t.is_double:
                    turns += 1.0 + CHAIN_RISK * (k + 1)
            chained = set(mex)
            outlets = {trains[s].end for s in range(rnd.players) if s != seat and trains[s].marked}
            for t in rest:
                if t in chained:
                    continue
                turns += 1.0 if (t.high in outlets or t.low in outlets) else 1.0 + WAIT
        value = -turns - self.pip_weight * self._pips(rnd)
        end = trains[seat].end
        for t in plan:
            end = t.other(end)
        value += LIVE * min(self._left(end), LIVE_CAP) / LIVE_CAP
        if trains[seat].marked or passing:
            value -= MARKER
        if draw:
            value -= DRAW_COST + MARKER * 0.5
        value += BLOCK * (1.0 - self._next_can_play(rnd))
        nxt = (seat + 1) % rnd.players
        value += OWN_BLOCK * (1.0 - self._holds(nxt, trains[nxt].end))
        return value

    def _next_can_play(self, rnd: Round) -> float:
        """The chance the next player has a tile for something it may play on."""
        nxt = (self.seat + 1) % rnd.players
        trains = rnd.trains
        if rnd.open_doubles:
            return self._holds(nxt, trains[rnd.open_doubles[0]].end)
        ends = {trains[nxt].end, trains[MEXICAN].end}
        ends.update(trains[s].end for s in range(rnd.players) if s != nxt and trains[s].marked)
        return chance_any([self._holds(nxt, e) for e in ends])


def _reason(view: SeatView, know: Knowledge, move: Move, plan: tuple[Tile, ...]) -> str:
    if isinstance(move, Done):
        return "done"
    if not isinstance(move, Play):
        return "only-move"
    seat = view.seat
    assert seat is not None and view.hand is not None
    t = move.tile
    train = view.trains[move.train if move.train != MEXICAN else -1]
    if len(view.hand) == 1:
        return "go-out"
    if train.open_double is not None:
        return "satisfy-double"
    if t.is_double:
        follow = any(o != t and o.has(t.high) for o in view.hand)
        return "double-combo" if follow else "hurt-double"
    others = [c for s, c in enumerate(view.hand_counts) if s != seat]
    if others and min(others) <= 2 and t not in plan:
        return "dump-heavy"
    if move.train == seat:
        return "close-marker" if train.marked else "follow-plan"
    if move.train == MEXICAN and not train.started and t not in plan:
        return "start-mexican"
    nxt = (seat + 1) % view.players
    if know.holds_suit(nxt, t.other(train.end), view.hand_counts) < 0.2:
        return "block"
    # "keep-plan" says the tile is one the own train cannot use: never of a planned tile.
    return "replan" if t in plan else "keep-plan"
