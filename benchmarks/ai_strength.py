"""How strong and how quick the computer players are: one line of JSON.

Heads-up single rounds between two levels on the standard rules, each deal played twice with
the chairs swapped (so the luck of the deal cancels); a 4-player table (Easy, Normal and two
Hard), seats rotated; then Hard's decision time in full double-15 and double-18 games. "Wins"
are rounds with the lower score; ties count half in ``win_rate`` and are reported on their
own. Every rate comes with its 95 % confidence interval (Wilson's score interval), and every
level with its decision-time percentiles (every decision it made in the run, forced ones
included), both on the wall clock and in CPU time (what a decision costs a core of its own,
on a machine other work shares).

    python benchmarks/ai_strength.py                        # 2,000 rounds per pairing
    python benchmarks/ai_strength.py --rounds 200 --jobs 2  # quicker, in two processes
    python benchmarks/ai_strength.py --only hard_vs_normal --rounds 600

``--jobs N`` plays the deals in N processes (results are the same for any N: each deal's
tiles and seeds come from its own number, not from the order deals are played in), but the
decision times are then measured while the processes share the CPU. The machine is shared:
give the load average with every figure.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import multiprocessing
import os
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine import KNOCK, PRESETS, Match, Round, Rules
from bot.engine.ai import Level, choose_move
from bot.engine.view import round_view

E, N, H = Level.EASY, Level.NORMAL, Level.HARD
#: Heads-up pairings: (name, the level measured, its opponent, rounds as a share of --rounds).
HEADS_UP = (
    ("hard_vs_normal", H, N, 1.0),
    ("normal_vs_easy", N, E, 1.0),
    ("hard_vs_easy", H, E, 0.25),
)
#: 4-player tables: (name, the seats' levels, rounds as a share of --rounds).
TABLES = (("mixed_four", (E, N, H, H), 0.25),)
Z95 = 1.959964
#: One chunk of a pairing: (pairing, first deal or round, last (exclusive), seed); its
#: result: counts, and each level's decision times in seconds.
Job = tuple[str, int, int, int]
Result = tuple[dict[str, float], dict[str, list[float]]]


def deal_seed(seed: int, pairing: str, deal: int) -> int:
    digest = hashlib.blake2b(f"{seed}:{pairing}:{deal}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def play(
    rules: Rules,
    levels: Sequence[Level],
    order: Sequence[object],
    seed: int,
    timings: dict[str, list[float]],
) -> tuple[int, ...]:
    """Play one round with ``levels[seat]`` in each seat; return the scores."""
    names = [f"P{i + 1}" for i in range(len(levels))]
    rnd = Round.deal(rules, names, 0, order)  # type: ignore[arg-type]
    step = 0
    while rnd.result is None:
        seat = rnd.current
        view = round_view(rnd, seat)
        t0, c0 = time.perf_counter(), time.thread_time()
        move = choose_move(view, levels[seat], seed * 1_000 + step)
        timings.setdefault(levels[seat].value, []).append(time.perf_counter() - t0)
        timings.setdefault(f"cpu:{levels[seat].value}", []).append(time.thread_time() - c0)
        applied = rnd.apply(move, seat)
        step += 1
        knocks = rules.knock and applied.turn_over and rnd.result is None
        if knocks and rnd.knock_window is not None:
            rnd.apply(KNOCK, rnd.knock_window)
    return rnd.result.scores


def heads_up_chunk(job: Job) -> Result:
    """Deals ``first`` to ``last`` (exclusive) of a heads-up pairing, both chairs each."""
    name, first, last, seed = job
    _, a, b, _ = next(p for p in HEADS_UP if p[0] == name)
    rules = PRESETS["standard"]
    probe = Match(rules, ["A", "B"])
    tally = dict.fromkeys(("wins", "losses", "ties", "score_a", "score_b"), 0.0)
    timings: dict[str, list[float]] = {}
    for deal in range(first, last):
        ds = deal_seed(seed, name, deal)
        order = probe.shuffle(random.Random(ds))
        for chair in (0, 1):
            levels = (a, b) if chair == 0 else (b, a)
            scores = play(rules, levels, order, ds % 1_000_003 + chair, timings)
            sa, sb = scores[chair], scores[1 - chair]
            tally["score_a"] += sa
            tally["score_b"] += sb
            key = "wins" if sa < sb else "losses" if sa > sb else "ties"
            tally[key] += 1
    return tally, timings


def table_chunk(job: Job) -> Result:
    """Rounds ``first`` to ``last`` of a 4-player table, the seats rotated each round."""
    name, first, last, seed = job
    _, base, _ = next(t for t in TABLES if t[0] == name)
    rules = PRESETS["standard"]
    probe = Match(rules, ["A", "B", "C", "D"])
    tally: dict[str, float] = {}
    timings: dict[str, list[float]] = {}
    for i in range(first, last):
        ds = deal_seed(seed, name, i)
        k = i % 4
        levels = base[k:] + base[:k]
        scores = play(rules, levels, probe.shuffle(random.Random(ds)), ds % 1_000_003, timings)
        low = min(scores)
        winners = [s for s, v in enumerate(scores) if v == low]
        for seat, (lv, score) in enumerate(zip(levels, scores, strict=True)):
            tally[f"score:{lv.value}"] = tally.get(f"score:{lv.value}", 0) + score
            tally[f"seats:{lv.value}"] = tally.get(f"seats:{lv.value}", 0) + 1
            # A shared lowest score shares the win.
            share = 1 / len(winners) if seat in winners else 0.0
            tally[f"wins:{lv.value}"] = tally.get(f"wins:{lv.value}", 0) + share
    return tally, timings


def big_sets_chunk(job: Job) -> Result:
    """Hard's decision times in full double-15 and double-18 rounds (4 Hard players)."""
    _, first, last, seed = job
    timings: dict[str, list[float]] = {}
    for name in ("double-15", "double-18"):
        rules = PRESETS[name]
        probe = Match(rules, ["A", "B", "C", "D"])
        for i in range(first, last):
            ds = deal_seed(seed, name, i)
            play(rules, [H] * 4, probe.shuffle(random.Random(ds)), ds % 1_000_003, timings)
    return {}, {f"big:{k}": v for k, v in timings.items()}


def wilson(successes: float, n: int) -> tuple[float, float]:
    """Wilson's 95 % score interval for a rate of ``successes`` out of ``n``."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (round(centre - half, 4), round(centre + half, 4))


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def ms(values: list[float]) -> dict[str, float]:
    return {
        "decisions": len(values),
        "p50": round(1000 * pct(values, 0.5), 2),
        "p90": round(1000 * pct(values, 0.9), 2),
        "p99": round(1000 * pct(values, 0.99), 2),
        "max": round(1000 * max(values), 2),
    }


def run_job(job: Job) -> Result:
    """One chunk of one pairing (in this process or a pool's)."""
    name = job[0]
    if any(p[0] == name for p in HEADS_UP):
        return heads_up_chunk(job)
    if any(t[0] == name for t in TABLES):
        return table_chunk(job)
    return big_sets_chunk(job)


def plan(args: argparse.Namespace) -> list[Job]:
    only = {s for s in args.only.split(",") if s}
    jobs: list[Job] = []

    def chunks(name: str, count: int, size: int) -> None:
        if not only or name in only:
            jobs.extend((name, i, min(count, i + size), args.seed) for i in range(0, count, size))

    for name, _, _, share in HEADS_UP:
        chunks(name, max(1, round(args.rounds * share) // 2), 5)  # deals, two rounds each
    for name, _, share in TABLES:
        chunks(name, max(4, round(args.rounds * share)), 10)
    chunks("big_sets", max(1, args.rounds // 100), 1)
    return jobs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000, help="rounds per heads-up pairing")
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--jobs", type=int, default=1, help="processes playing the rounds")
    parser.add_argument("--only", default="", help="comma-separated pairings (default: all)")
    args = parser.parse_args()
    started = time.perf_counter()
    jobs = plan(args)
    if args.jobs > 1:
        with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
            results = pool.map(run_job, jobs, chunksize=1)
    else:
        results = [run_job(job) for job in jobs]
    tallies: dict[str, dict[str, float]] = {}
    timings: dict[str, list[float]] = {}
    for job, (tally, times) in zip(jobs, results, strict=True):
        into = tallies.setdefault(job[0], {})
        for k, count in tally.items():
            into[k] = into.get(k, 0) + count
        for k, spent in times.items():
            timings.setdefault(k, []).extend(spent)
    out: dict[str, object] = {
        "benchmark": "ai_strength",
        "rules": "standard",
        "ties": "count half in win_rate",
        "ci": "95% Wilson",
        "jobs": args.jobs,
    }
    for name, *_ in HEADS_UP:
        if name in tallies:
            out[name] = heads_up_report(tallies[name])
    for name, base, _ in TABLES:
        if name in tallies:
            out[name] = table_report(tallies[name], base)
    decision: dict[str, dict[str, float]] = {
        lv.value: ms(timings[lv.value]) for lv in Level if timings.get(lv.value)
    }
    if timings.get("big:hard"):
        decision["hard_big_sets"] = ms(timings["big:hard"])
    out["decision_ms"] = decision
    # CPU time per decision: what it costs a core of its own, whatever else the machine ran.
    out["decision_cpu_ms"] = {
        lv.value: ms(timings[f"cpu:{lv.value}"]) for lv in Level if timings.get(f"cpu:{lv.value}")
    }
    out["seconds"] = round(time.perf_counter() - started, 1)
    out["load_avg"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(out))


def heads_up_report(t: dict[str, float]) -> dict[str, object]:
    n = int(t["wins"] + t["losses"] + t["ties"])
    won = t["wins"] + t["ties"] / 2
    return {
        "rounds": n,
        "wins": int(t["wins"]),
        "losses": int(t["losses"]),
        "ties": int(t["ties"]),
        "win_rate": round(won / n, 4),
        "ci95": wilson(won, n),
        "mean_score": [round(t["score_a"] / n, 2), round(t["score_b"] / n, 2)],
    }


def table_report(t: dict[str, float], base: Sequence[Level]) -> dict[str, object]:
    """Each level's share of the rounds it won (a shared lowest score shares the win)."""
    out: dict[str, object] = {
        "rounds": int(sum(v for k, v in t.items() if k.startswith("seats:")) / 4)
    }
    for lv in dict.fromkeys(base):
        seats = int(t[f"seats:{lv.value}"])
        out[lv.value] = {
            "seats": seats,
            "win_share": round(t[f"wins:{lv.value}"] / seats, 4),
            "ci95": wilson(t[f"wins:{lv.value}"], seats),
            "mean_score": round(t[f"score:{lv.value}"] / seats, 2),
        }
    return out


if __name__ == "__main__":
    main()
