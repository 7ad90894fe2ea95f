"""Issue 47's picture heights, as a phone shows them, as ONE JSON line.

For 4, 8 and 10 seats (double-12 for 4 and 8, double-15 for 10), over seeded random rounds
sampled every few moves, the table picture's height and the hand picture's (the player to
move, with their train plan), in px of the 800-px-wide canvas and at the 400 px a phone shows
(half): min, median and max. Run from the repository root (any checkout: it uses only
``render_table`` and ``render_hand``, so an older tree measures the same way)::

    python scripts/picture_heights.py [--seeds 12]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere

from bot.engine import PRESETS, Match, view_for
from bot.engine.ai import longest_train
from bot.engine.simulate import random_move
from renderers import HandOptions, render_hand, render_table

TABLES = {4: "standard", 8: "standard", 10: "double-15"}


def _summary(values: list[int]) -> dict[str, float]:
    return {
        "min": min(values),
        "median": statistics.median(values),
        "max": max(values),
        "phone_median": statistics.median(values) / 2,
        "phone_max": max(values) / 2,
    }


def measure(seeds: int) -> dict[str, object]:
    out: dict[str, object] = {"script": "picture_heights", "seeds": seeds}
    for players, preset in TABLES.items():
        tables: list[int] = []
        hands: list[int] = []
        for seed in range(seeds):
            rng = random.Random(seed)
            m = Match(PRESETS[preset], [f"Player {i + 1}" for i in range(players)])
            m.start_round(m.shuffle(rng))
            moves = 0
            while m.round is not None and m.round.result is None:
                if moves % 7 == 0:
                    tables.append(render_table(view_for(m, None)).height)
                    v = view_for(m, m.round.current)
                    plan = longest_train(v.hand or (), v.trains[m.round.current].end)
                    hands.append(render_hand(v, HandOptions(plan=plan)).height)
                m.apply(random_move(m.round, rng))
                moves += 1
        out[f"table_{players}"] = _summary(tables)
        out[f"hand_{players}"] = _summary(hands)
        out[f"samples_{players}"] = len(tables)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=12)
    args = parser.parse_args()
    print(json.dumps(measure(args.seeds)))


if __name__ == "__main__":
    main()
