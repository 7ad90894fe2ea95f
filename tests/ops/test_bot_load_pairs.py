"""``benchmarks/bot_load_pairs.py``: the pairs' order, the ratios over the moves tried, a side
that never reached a percentile, and the interval (Student's t over the log ratios).

The runs are canned (a narrow unit test of the bookkeeping): ``bot_load`` itself is the
benchmark, measured in docs/benchmarks.md, and too slow for the suite."""

from __future__ import annotations

import doctest
import math
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks import bot_load_pairs
from benchmarks.bot_load_pairs import pairs, ratio_summary


def test_the_examples_in_the_docstrings_hold() -> None:
    assert doctest.testmod(bot_load_pairs).failed == 0


def test_the_interval_is_students_t_over_the_log_ratios() -> None:
    # Ten pairs (issue 50's last session): t with 9 degrees of freedom, 2.262, not 1.96.
    ratios = [0.89, 1.06, 0.94, 0.73, 1.09, 1.02, 1.00, 0.74, 1.09, 1.13]
    s = ratio_summary(ratios)
    logs = [math.log(r) for r in ratios]
    mean = sum(logs) / 10
    sd = math.sqrt(sum((x - mean) ** 2 for x in logs) / 9)
    assert s["geo_mean"] == round(math.exp(mean), 3)
    assert s["low"] == round(math.exp(mean - 2.262 * sd / math.sqrt(10)), 3)
    assert s["high"] == round(math.exp(mean + 2.262 * sd / math.sqrt(10)), 3)
    assert s["low"] < s["geo_mean"] < s["high"] and s["faster"] == 4 and s["median"] == 1.01
    # One pair: no interval, not a made-up one; none: nothing to say.
    assert ratio_summary([0.5]) == {
        "pairs": 1, "geo_mean": 0.5, "low": None, "high": None, "median": 0.5, "faster": 1
    }  # fmt: skip
    assert ratio_summary([]) == {"pairs": 0}


def _run(p50: float | None, p99: float | None, first: float, lost: int = 0) -> dict[str, Any]:
    return {
        "answer_p50_ms_of_tried": p50,
        "answer_p99_ms_of_tried": p99,
        "answer_p50_ms": p50 or 1.0,
        "answer_p99_ms": p99 or 2.0,
        "first_answer_p99_ms": first,
        "first_answers_after_3s": 0,
        "unanswered_moves": lost,
        "load_average_before": [0.5, 0.4, 0.3],
    }


def test_pairs_alternate_who_goes_first_and_compare_over_the_moves_tried() -> None:
    calls: list[str] = []
    canned = {
        "ours": [_run(5.0, 1500.0, 9.0), _run(6.0, 1800.0, 120.0), _run(4.0, 1600.0, 12.0)],
        "prev": [
            _run(5.0, 2000.0, 400.0),
            _run(4.0, None, 500.0, lost=300),
            _run(8.0, 2000.0, 450.0),
        ],
    }

    def run(tree: str, args: Sequence[str]) -> dict[str, Any]:
        assert list(args) == ["--games", "300", "--moves", "5"]
        calls.append(tree)
        return canned[tree].pop(0)

    out = pairs("ours", "prev", 3, ["--games", "300", "--moves", "5"], run)
    assert calls == ["ours", "prev", "prev", "ours", "ours", "prev"]
    p50 = out["answer_p50_ratio"]
    assert p50["pairs"] == 3 and p50["faster"] == 1 and p50["median"] == 1.0
    assert p50["never"] == {"ours": 0, "against": 0}
    # The previous release lost a third of pair 2's moves: its p99 was never reached. That
    # pair is left out of the interval and counted, not read as a fast run of theirs.
    p99 = out["answer_p99_ratio"]
    assert p99["pairs"] == 2 and p99["never"] == {"ours": 0, "against": 1}
    assert p99["geo_mean"] == round(math.sqrt(0.75 * 0.8), 3)
    assert out["ours"]["first_answer_p99_ms"] == [9.0, 120.0, 12.0]
    assert out["ours"]["first_answer_p99_over_100ms"] == 1
    assert out["against"]["unanswered_moves"] == 300


def test_a_tree_against_itself_is_refused_before_any_run() -> None:
    """Both sides the same checkout would read one run as both (nothing compared): refused
    with one line and rc 2, as argparse refuses, before a minute is spent."""
    script = Path(bot_load_pairs.__file__)
    done = subprocess.run(
        [sys.executable, str(script), "--against", str(script.parent.parent)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert "--ours and --against are the same checkout" in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
