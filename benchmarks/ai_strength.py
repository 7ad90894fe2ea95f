"""How strong and how quick the computer players are: one line of JSON.

Heads-up single rounds between two levels, seats alternated (each deal is played twice, once
from each chair, so luck of the deal cancels), on the standard rules; then 4-player tables
mixing levels; then Hard's decision time, including full double-15 hands. "Wins" are rounds
with the lower score; ties are reported on their own and count half in ``win_rate``.

    python benchmarks/ai_strength.py            # 2,000 rounds per pairing
    python benchmarks/ai_strength.py --rounds 200
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine import KNOCK, PRESETS, Match, Round, Rules
from bot.engine.ai import Level, choose_move
from bot.engine.view import round_view


def play(
    rules: Rules,
    levels: Sequence[Level],
    order: Sequence[object],
    seed: int,
    timings: list[float] | None = None,
) -> tuple[int, ...]:
    """Play one round with ``levels[seat]`` in each seat; return the scores."""
    names = [f"P{i + 1}" for i in range(len(levels))]
    rnd = Round.deal(rules, names, 0, order)  # type: ignore[arg-type]
    step = 0
    while rnd.result is None:
        seat = rnd.current
        view = round_view(rnd, seat)
        t0 = time.perf_counter()
        move = choose_move(view, levels[seat], seed * 1_000 + step)
        if timings is not None and levels[seat] is Level.HARD:
            timings.append(time.perf_counter() - t0)
        applied = rnd.apply(move, seat)
        step += 1
        if (
            rules.knock
            and rnd.knock_window is not None
            and rnd.result is None
            and applied.turn_over
        ):
            rnd.apply(KNOCK, rnd.knock_window)
    return rnd.result.scores


def heads_up(
    rules: Rules, a: Level, b: Level, rounds: int, seed: int, timings: list[float]
) -> dict[str, object]:
    rng = random.Random(seed)
    probe = Match(rules, ["A", "B"])
    wins = losses = ties = 0
    score_a = score_b = 0
    for i in range(rounds):
        if i % 2 == 0:
            order = probe.shuffle(rng)
        # Even rounds: a sits first; odd rounds: the same deal with the chairs swapped.
        levels = (a, b) if i % 2 == 0 else (b, a)
        scores = play(rules, levels, order, seed + i, timings)
        sa, sb = (scores[0], scores[1]) if i % 2 == 0 else (scores[1], scores[0])
        score_a += sa
        score_b += sb
        if sa < sb:
            wins += 1
        elif sa > sb:
            losses += 1
        else:
            ties += 1
    return {
        "rounds": rounds,
        "wins": wins,
        "losses": losses,
        "ties": ties,
        "win_rate": round((wins + ties / 2) / rounds, 4),
        "mean_score": [round(score_a / rounds, 2), round(score_b / rounds, 2)],
    }


def table(rules: Rules, rounds: int, seed: int, timings: list[float]) -> dict[str, float]:
    """4-player tables, one of each level plus a second Hard, seats rotated."""
    rng = random.Random(seed)
    probe = Match(rules, ["A", "B", "C", "D"])
    base = [Level.EASY, Level.NORMAL, Level.HARD, Level.HARD]
    totals = {lv.value: 0.0 for lv in Level}
    counts = {lv.value: 0 for lv in Level}
    for i in range(rounds):
        k = i % 4
        levels = base[k:] + base[:k]
        scores = play(rules, levels, probe.shuffle(rng), seed + i, timings)
        for lv, s in zip(levels, scores, strict=True):
            totals[lv.value] += s
            counts[lv.value] += 1
    return {lv: round(totals[lv] / counts[lv], 2) for lv in totals}


def decision_times(rounds: int, seed: int) -> list[float]:
    """Hard's decision times in full double-15 and double-18 games (4 Hard players)."""
    timings: list[float] = []
    for name in ("double-15", "double-18"):
        rules = PRESETS[name]
        rng = random.Random(seed)
        probe = Match(rules, ["A", "B", "C", "D"])
        for i in range(rounds):
            play(rules, [Level.HARD] * 4, probe.shuffle(rng), seed + i, timings)
    return timings


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000, help="rounds per heads-up pairing")
    parser.add_argument("--seed", type=int, default=20240601)
    args = parser.parse_args()
    rules = PRESETS["standard"]
    started = time.perf_counter()
    timings: list[float] = []
    out: dict[str, object] = {"rules": "standard", "ties": "count half in win_rate"}
    out["hard_vs_normal"] = heads_up(
        rules, Level.HARD, Level.NORMAL, args.rounds, args.seed, timings
    )
    out["normal_vs_easy"] = heads_up(
        rules, Level.NORMAL, Level.EASY, args.rounds, args.seed + 1, []
    )
    out["hard_vs_easy"] = heads_up(
        rules, Level.HARD, Level.EASY, max(2, args.rounds // 4), args.seed + 2, timings
    )
    out["four_player_mean_score"] = table(rules, max(4, args.rounds // 4), args.seed + 3, timings)
    big = decision_times(max(1, args.rounds // 100), args.seed + 4)
    out["hard_decision_ms"] = {
        "standard_p50": round(1000 * pct(timings, 0.5), 2),
        "standard_p99": round(1000 * pct(timings, 0.99), 2),
        "standard_max": round(1000 * max(timings), 2),
        "big_sets_p50": round(1000 * pct(big, 0.5), 2),
        "big_sets_p99": round(1000 * pct(big, 0.99), 2),
        "big_sets_max": round(1000 * max(big), 2),
        "decisions": len(timings) + len(big),
    }
    out["mean_decision_ms_all"] = round(1000 * statistics.fmean(timings + big), 3)
    out["seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
