"""Engine figures, one JSON line: playouts per second, legal-move time, match replay time.

    python benchmarks/engine.py [--rounds 3000] [--seed 1]

- ``rounds_per_second``: random-but-legal standard 4-player double-12 rounds, one core.
- ``legal_moves_median_us``: ``legal_moves()`` on mid-round positions (after 30 moves).
- ``replay_13x8_ms``: median time to rebuild a finished 13-round 8-player match from its
  events (``Match.replay``), which is what loading a game from the store costs.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from bot.engine import Match, Rules
from bot.engine.simulate import play_match, random_move, simulate_rounds


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rules = Rules()

    start, cpu_start = time.perf_counter(), time.process_time()
    summary = simulate_rounds(rules, 4, args.rounds, args.seed)
    playout_s = time.perf_counter() - start
    # CPU time too: on a shared machine it is steadier than the wall clock.
    playout_cpu = time.process_time() - cpu_start

    rng = random.Random(args.seed)
    samples = []
    for _ in range(300):
        m = Match(rules, ["A", "B", "C", "D"])
        m.start_round(m.shuffle(rng))
        rnd = m.round
        assert rnd is not None
        for _ in range(30):
            if rnd.is_over:
                break
            m.apply(random_move(rnd, rng))
        if rnd.is_over:
            continue
        t0 = time.perf_counter()
        for _ in range(20):
            rnd.legal_moves()
        samples.append((time.perf_counter() - t0) / 20)

    match = play_match(rules, [f"P{i}" for i in range(8)], random.Random(args.seed))
    events = list(match.events)
    replays = []
    for _ in range(15):
        t0 = time.perf_counter()
        Match.replay(rules, match.names, events)
        replays.append(time.perf_counter() - t0)

    print(
        json.dumps(
            {
                "benchmark": "engine",
                "rounds": summary.rounds,
                "rounds_per_second": round(summary.rounds / playout_s, 1),
                "rounds_per_cpu_second": round(summary.rounds / playout_cpu, 1),
                "moves_per_second": round(summary.moves / playout_s),
                "mean_moves_per_round": round(summary.moves / summary.rounds, 1),
                "legal_moves_median_us": round(statistics.median(samples) * 1e6, 2),
                "replay_13x8_events": len(events),
                "replay_13x8_ms": round(statistics.median(replays) * 1e3, 2),
            }
        )
    )


if __name__ == "__main__":
    main()
