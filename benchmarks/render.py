"""Render figures: the worst table (8 players, long trains, markers, two open doubles), a hand,
and the largest round-end picture (10 players with 32-character names, a blocked round of a
double-18 set, so every hand is left with tiles).

Prints one JSON line: median render time, median PNG encode time, their sum, and PNG sizes,
for the table, the hand and the round end.
Run: ``python benchmarks/render.py`` (``--repeat N`` for more samples). Not a unit test.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine import PRESETS, Match, Round, SeatView, Tile, round_view, view_for
from bot.engine.moves import MEXICAN
from bot.engine.tiles import double_set
from renderers import render_hand, render_table, to_png
from renderers.round_end import render_round_end


def worst_table() -> SeatView:
    """8 players, every train long (the Mexican Train longest), markers up, two open doubles.

    Built directly on a Round so the worst case is guaranteed, not hoped for from a playout.
    """
    names = [f"Player with a long name {i + 1}" for i in range(8)]
    rules = PRESETS["standard"]
    rnd = Round(rules, names, 0, Tile(12, 12))
    pool = set(double_set(12)) - {Tile(12, 12)}
    rng = random.Random(4)

    def grow(ref: int, length: int) -> None:
        train = rnd.trains[ref]
        while len(train.tiles) < length:
            fits = sorted(t for t in pool if t.has(train.end) and not t.is_double)
            if not fits:
                return
            t = rng.choice(fits)
            pool.discard(t)
            train.tiles.append(t)
            train.end = t.other(train.end)

    for ref in [MEXICAN, *range(8)]:
        grow(ref, 16 if ref == MEXICAN else 7)
    for ref in (2, 5):  # two open doubles, satisfied in that order
        train = rnd.trains[ref]
        d = Tile(train.end, train.end)
        if d in pool:
            pool.discard(d)
            train.tiles.append(d)
            rnd.open_doubles.append(ref)
    for s in (1, 3, 4, 6):
        rnd.trains[s].marked = True
    rest = sorted(pool)
    rng.shuffle(rest)
    for s in range(8):
        rnd.hands[s] = rest[s * 4 : s * 4 + 4]
    rnd.boneyard = rest[32:]
    rnd.reindex()
    rnd.current = 2
    return round_view(rnd, None)


def a_hand() -> SeatView:
    rng = random.Random(11)
    m = Match(PRESETS["standard"], ["A", "B", "C", "D"])
    m.start_round(m.shuffle(rng))
    return view_for(m, m.round.current if m.round else 0)


def worst_round_end() -> SeatView:
    """10 players, 32-character names, a double-18 round played to its end by random moves:
    of 30 seeded rounds, the one that leaves the most tiles in hands to draw."""
    from bot.engine.simulate import random_move

    names = [f"Player with a long name, seat {i + 1:>2}" for i in range(10)]
    best: tuple[int, SeatView] | None = None
    for seed in range(30):
        rng = random.Random(seed)
        m = Match(PRESETS["double-18"], names)
        m.start_round(m.shuffle(rng))
        rnd = m.round
        assert rnd is not None
        while rnd.result is None:
            m.apply(random_move(rnd, rng))
        left = sum(len(h) for h in rnd.hands)
        if best is None or left > best[0]:
            best = (left, view_for(m, None))
    assert best is not None
    return best[1]


def timed(fn, repeat: int) -> list[float]:  # type: ignore[no-untyped-def]
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    table = worst_table()
    hand = a_hand()
    # Warm the font and sprite caches once, as a running bot has.
    to_png(render_table(table))
    to_png(render_hand(hand))
    img = render_table(table)
    render = timed(lambda: render_table(table), args.repeat)
    encode = timed(lambda: to_png(img), args.repeat)
    both = timed(lambda: to_png(render_table(table)), args.repeat)
    himg = render_hand(hand)
    hand_render = timed(lambda: render_hand(hand), args.repeat)
    hand_encode = timed(lambda: to_png(himg), args.repeat)
    hand_both = timed(lambda: to_png(render_hand(hand)), args.repeat)
    ended = worst_round_end()
    to_png(render_round_end(ended))
    rimg = render_round_end(ended)
    round_render = timed(lambda: render_round_end(ended), args.repeat)
    round_encode = timed(lambda: to_png(rimg), args.repeat)
    round_both = timed(lambda: to_png(render_round_end(ended)), args.repeat)
    print(
        json.dumps(
            {
                "table_size_px": list(img.size),
                "table_render_ms": round(statistics.median(render), 1),
                "table_png_ms": round(statistics.median(encode), 1),
                "table_total_ms": round(statistics.median(both), 1),
                "table_png_kb": round(len(to_png(img)) / 1024, 1),
                "hand_size_px": list(himg.size),
                "hand_render_ms": round(statistics.median(hand_render), 1),
                "hand_png_ms": round(statistics.median(hand_encode), 1),
                "hand_total_ms": round(statistics.median(hand_both), 1),
                "hand_png_kb": round(len(to_png(himg)) / 1024, 1),
                "round_end_size_px": list(rimg.size),
                "round_end_render_ms": round(statistics.median(round_render), 1),
                "round_end_png_ms": round(statistics.median(round_encode), 1),
                "round_end_total_ms": round(statistics.median(round_both), 1),
                "round_end_png_kb": round(len(to_png(rimg)) / 1024, 1),
                "repeat": args.repeat,
            }
        )
    )


if __name__ == "__main__":
    main()
