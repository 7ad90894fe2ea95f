"""Our bot against another tree under the same burst, in pairs: one line of JSON.

Issue 50's bar compares the mover's answer with the previous release's, and one run of each
says little on a shared machine: the same tree's answer p50 moved by half between two runs
an hour apart. What does tell is many runs, each of ours beside one of theirs started just
before or after it, and the ratio within each pair (the machine's mood of that minute is in
both). This runs ``benchmarks/bot_load.py`` with ``--bot-tree`` for each side, alternating
which goes first from pair to pair (a drift over the hour falls on both sides alike), and
prints the ratios' geometric mean with its 95 % interval (Student's t over the pairs' log
ratios: ten pairs are too few for the normal approximation), how many pairs ours was faster
in, and the first answer's p99 of every run::

    python benchmarks/bot_load_pairs.py --against ../prev --pairs 10 --games 300 --moves 5
    python benchmarks/bot_load_pairs.py --against ../prev --pairs 3 --games 1000 --moves 2

``--ours`` defaults to this checkout; the driver and the fake Discord are always this
checkout's, so both sides meet the same harness (prepare the other side as a git worktree:
``git worktree add --detach ../prev <commit>``). The ratios are ours over theirs, of the
answer over every move tried (``answer_p50_ms_of_tried``: a move never answered counts as
slower than any), so a side that loses moves is not flattered by its survivors; a pair where
a side never reached the percentile (it lost more than that share) is left out of the
interval and counted in ``never``. Leave the machine otherwise idle; each 300-game run takes
about 75 s, each 1,000-game run about 3.5 min.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
#: Student's t, two-sided 95 %, by degrees of freedom (1-30; beyond, the 30th: a shade wide).
T95 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip
#: The figures compared as ratios, ours over theirs.
RATIOS = ("answer_p50_ms_of_tried", "answer_p99_ms_of_tried")
#: A run: one side's tree and bot_load's arguments → bot_load's JSON line.
Runner = Callable[[str, Sequence[str]], dict[str, Any]]


def ratio_summary(ratios: Sequence[float]) -> dict[str, Any]:
    """Pairs' ratios (ours / theirs) in one place: the geometric mean and its 95 % interval
    (t over the log ratios), the median, and in how many pairs ours was faster.

    >>> s = ratio_summary([0.9, 1.0, 1.1, 0.8])
    >>> s["geo_mean"], s["low"], s["high"], s["faster"], s["pairs"]
    (0.943, 0.758, 1.173, 2, 4)
    """
    n = len(ratios)
    if n == 0:
        return {"pairs": 0}
    logs = [math.log(r) for r in ratios]
    mean = statistics.fmean(logs)
    half = T95[min(n - 1, len(T95)) - 1] * statistics.stdev(logs) / math.sqrt(n) if n > 1 else 0
    return {
        "pairs": n,
        "geo_mean": round(math.exp(mean), 3),
        "low": round(math.exp(mean - half), 3) if n > 1 else None,
        "high": round(math.exp(mean + half), 3) if n > 1 else None,
        "median": round(statistics.median(ratios), 3),
        "faster": sum(1 for r in ratios if r < 1),
    }


def run_bot_load(tree: str, args: Sequence[str]) -> dict[str, Any]:
    """One ``bot_load`` run of ``tree``'s bot, driven by this checkout: its JSON line."""
    command = [sys.executable, str(HERE / "bot_load.py"), *args, "--bot-tree", tree]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        raise SystemExit(f"bot_load failed for {tree} (rc {done.returncode}): {done.stderr[-800:]}")
    result: dict[str, Any] = json.loads(lines[-1])
    return result


def pairs(
    ours: str, against: str, count: int, load_args: Sequence[str], run: Runner = run_bot_load
) -> dict[str, Any]:
    """``count`` pairs, ours first in odd pairs and theirs first in even ones, summed up."""
    runs: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for i in range(count):
        order = (ours, against) if i % 2 == 0 else (against, ours)
        got = {tree: run(tree, load_args) for tree in order}
        runs.append((got[ours], got[against]))
        print(json.dumps({"progress": True, "pair": i + 1, "of": count}), file=sys.stderr)
    out: dict[str, Any] = {"benchmark": "bot_load_pairs", "ours": ours, "against": against}
    out["bot_load_args"] = list(load_args)
    for key in RATIOS:
        both = [(a[key], b[key]) for a, b in runs]
        summary = ratio_summary([a / b for a, b in both if a is not None and b is not None])
        summary["never"] = {
            "ours": sum(1 for a, _ in both if a is None),
            "against": sum(1 for _, b in both if b is None),
        }
        out[key.replace("_ms_of_tried", "_ratio")] = summary
    for side, index in (("ours", 0), ("against", 1)):
        mine = [pair[index] for pair in runs]
        out[side] = {
            "first_answer_p99_ms": [r["first_answer_p99_ms"] for r in mine],
            "first_answer_p99_over_100ms": sum(1 for r in mine if r["first_answer_p99_ms"] > 100),
            "first_answers_after_3s": sum(r["first_answers_after_3s"] for r in mine),
            "unanswered_moves": sum(r["unanswered_moves"] for r in mine),
            "answer_p50_ms": [r["answer_p50_ms"] for r in mine],
            "answer_p99_ms": [r["answer_p99_ms"] for r in mine],
            "load_average_before": [r["load_average_before"][0] for r in mine],
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--against", required=True, help="the other checkout (a worktree)")
    parser.add_argument("--ours", default=str(HERE.parent), help="default: this checkout")
    parser.add_argument("--pairs", type=int, default=10)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--moves", type=int, default=5)
    args = parser.parse_args()
    if Path(args.ours).resolve() == Path(args.against).resolve():
        parser.error("--ours and --against are the same checkout: nothing to compare")
    load_args = ["--games", str(args.games), "--moves", str(args.moves)]
    print(json.dumps(pairs(args.ours, args.against, args.pairs, load_args)), flush=True)


if __name__ == "__main__":
    main()
