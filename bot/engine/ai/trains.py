"""The longest own train a hand can build: the plan the Hard player and hints are built on.

A train is a trail through the hand's pips: each non-double tile is an edge between its two
pips, and a double is a loop that can be spliced in, for free, wherever the trail visits its
pip. So the longest train is the trail from the start pip that uses the most non-doubles plus
the doubles of the pips it visits. A depth-first search over the non-doubles finds it exactly;
its value depends only on the set of tiles used, so a (pip, used-set) pair already explored is
never explored again, and a node budget bounds the search even for a dense double-18 hand
(past the budget the best train found so far is kept, which the move ordering makes good).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from bot.engine.tiles import Tile

#: Search steps (tiles tried) before the search settles for the best train found so far.
#: Dealt hands of every supported set finish far below it; a dense worst case stays within
#: a few milliseconds.
NODE_BUDGET = 6_000


def longest_train(
    hand: Iterable[Tile], start_pip: int, budget: int = NODE_BUDGET
) -> tuple[Tile, ...]:
    """See :func:`_longest_train`; the same hand is asked about several times a turn (the
    hint, the hand's text, its picture's plan, its alt text), so recent answers are kept."""
    return _longest_train(tuple(hand), start_pip, budget)


@functools.lru_cache(maxsize=2048)
def _longest_train(
    hand: tuple[Tile, ...], start_pip: int, budget: int = NODE_BUDGET
) -> tuple[Tile, ...]:
    """The longest train ``hand`` can lay from a train ending in ``start_pip``, in order.

    Longest counts tiles; among trains of equal length the one carrying more pips wins (it
    sheds more), then the one first in hand order, so the answer is deterministic. Doubles are
    laid as soon as the train reaches their pip. ``budget`` caps the search (see
    :data:`NODE_BUDGET`); below it the answer is exact.

    >>> from bot.engine.tiles import parse_tiles
    >>> " ".join(map(str, longest_train(parse_tiles("5-3 3-3 12-5 3-1 9-9"), 12)))
    '12-5 5-3 3-3 3-1'
    >>> longest_train(parse_tiles("1-2"), 7)
    ()
    """
    tiles = list(dict.fromkeys(hand))
    singles = [t for t in tiles if t.high != t.low]
    doubles = {t.high: t for t in tiles if t.high == t.low}
    adjacency: dict[int, list[tuple[int, int]]] = {}
    for i, t in enumerate(singles):
        adjacency.setdefault(t.high, []).append((i, t.low))
        adjacency.setdefault(t.low, []).append((i, t.high))
    # Heavier tiles first: the first long train found is usually the heaviest, which keeps
    # the answer good when the budget cuts the search short.
    for edges in adjacency.values():
        edges.sort(key=lambda e: -singles[e[0]].pips)

    # Only tiles connected to the start can ever join the train: they bound the search.
    reach = {start_pip}
    frontier = [start_pip]
    while frontier:
        for _, nxt in adjacency.get(frontier.pop(), ()):
            if nxt not in reach:
                reach.add(nxt)
                frontier.append(nxt)
    total_singles = sum(1 for t in singles if t.high in reach)
    total_doubles = sum(1 for p in doubles if p in reach)

    # The best (tiles, pips) so far, and the edges (index, end reached) that make it.
    opening = doubles.get(start_pip)
    best_key = (0, 0) if opening is None else (1, opening.pips)
    best_path: list[tuple[int, int]] = []
    path: list[tuple[int, int]] = []
    seen: set[tuple[int, int]] = set()
    nodes = 0

    def visit(pip: int, used: int, count: int, pips: int, visited: int) -> None:
        nonlocal best_key, best_path, nodes
        if (count, pips) > best_key:
            best_key = (count, pips)
            best_path = path.copy()
        if nodes >= budget:
            return
        # Even using every tile left could not beat the best: stop here.
        if count + (total_singles - len(path)) + total_doubles < best_key[0]:
            return
        for i, nxt in adjacency.get(pip, ()):
            nodes += 1
            bit = 1 << i
            if used & bit:
                continue
            state = (nxt, used | bit)
            if state in seen:
                continue
            seen.add(state)
            gain, extra = 1, singles[i].pips
            if nxt in doubles and not visited & (1 << nxt):
                gain += 1
                extra += doubles[nxt].pips
            path.append((i, nxt))
            visit(nxt, used | bit, count + gain, pips + extra, visited | (1 << nxt))
            path.pop()
            if nodes >= budget:
                return

    start_count, start_pips = best_key
    visit(start_pip, 0, start_count, start_pips, 1 << start_pip)

    out: list[Tile] = []
    if opening is not None:
        out.append(opening)
    laid = {start_pip}
    for i, reached in best_path:
        out.append(singles[i])
        if reached in doubles and reached not in laid:
            out.append(doubles[reached])
        laid.add(reached)
    return tuple(out)


def train_ends(train: tuple[Tile, ...], start_pip: int) -> list[int]:
    """The pip each tile of ``train`` leaves open, laid in order from ``start_pip``."""
    ends = []
    end = start_pip
    for t in train:
        end = t.other(end)
        ends.append(end)
    return ends
