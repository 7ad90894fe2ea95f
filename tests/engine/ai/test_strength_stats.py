"""The statistics of ``benchmarks/ai_strength.py``: intervals, chair-swapped deals, matches.

Fast on purpose: known samples and one real deal, never a long run.
"""

from __future__ import annotations

import json
import math
import random
import statistics
from pathlib import Path

import pytest

from benchmarks import ai_strength as strength


def test_the_interval_of_a_known_sample() -> None:
    # mean 3, sd sqrt(2.5), se sqrt(0.5): 3 ± 1.959964 * 0.70711 = 3 ± 1.386.
    assert strength.mean_ci([1.0, 2.0, 3.0, 4.0, 5.0]) == (3.0, 1.614, 4.386)
    # No spread, no width; one sample says nothing about its spread.
    assert strength.mean_ci([7.0] * 10) == (7.0, 7.0, 7.0)
    assert strength.mean_ci([7.0])[1:] == (-math.inf, math.inf)


def test_a_deal_is_one_sample_of_its_two_rounds() -> None:
    # Chair 1's hand won by 30 whoever held it: the players did equally well.
    assert strength.deal_sample((10, 40), (40, 10)) == (0.0, 0.5)
    # The measured player won one round by 30 and lost the other by 10: +10 a round.
    assert strength.deal_sample((10, 40), (25, 15)) == (10.0, 0.5)
    assert strength.deal_sample((5, 9), (3, 3)) == (2.0, 0.75)


def test_pairing_the_chairs_removes_the_deals_luck_from_the_interval() -> None:
    rng = random.Random(4)
    rounds: list[float] = []
    deals: list[float] = []
    for _ in range(100):
        luck = rng.gauss(0, 40)  # what the deal gives chair 1, whoever sits there
        skill = 3 + rng.gauss(0, 5)  # what the measured player adds in both chairs
        first, second = (0, round(luck + skill)), (round(luck - skill), 0)
        rounds += [float(first[1] - first[0]), float(second[1] - second[0])]
        deals.append(strength.deal_sample(first, second)[0])
    _, plo, phi = strength.mean_ci(deals)
    _, ulo, uhi = strength.mean_ci(rounds)
    assert plo > 1 and phi < 5  # the skill, found
    assert (phi - plo) * 4 < uhi - ulo  # the unpaired interval carries the luck
    assert ulo < 0  # and cannot tell the skill from nothing


def test_the_match_share_of_a_margin() -> None:
    assert strength.match_share(0.0) == 0.5
    assert strength.match_share(4.0) == pytest.approx(0.595, abs=0.001)  # issue 35: ≈ 60 %
    assert strength.match_share(-4.0) == pytest.approx(1 - strength.match_share(4.0))
    report = strength.margin_report([2.0, 6.0] * 50)
    assert report["margin"] == 4.0
    shares = report["match_share_ci95"]
    assert isinstance(shares, list)
    assert shares[0] < report["match_share"] < shares[1]


def test_each_deal_is_played_twice_with_the_chairs_swapped() -> None:
    tally, samples, timings = strength.heads_up_chunk(("normal_vs_easy", 0, 2, 7))
    assert tally["wins"] + tally["losses"] + tally["ties"] == 4
    assert len(samples["margin"]) == len(samples["win"]) == 2
    assert len(samples["round_margin"]) == 4
    # Each deal's sample is its two rounds' mean, the rounds in the order played.
    for d in range(2):
        pair = samples["round_margin"][2 * d : 2 * d + 2]
        assert samples["margin"][d] == sum(pair) / 2
    # Total points agree with the per-round margins.
    assert tally["score_b"] - tally["score_a"] == sum(samples["round_margin"])
    assert timings["normal"] and timings["easy"] and timings["cpu:normal"]
    # The same job gives the same deals and moves, in any process, in any order.
    assert strength.heads_up_chunk(("normal_vs_easy", 1, 2, 7))[1]["margin"] == [
        samples["margin"][1]
    ]


def test_a_table_of_one_player_and_three_hard_reports_its_margin() -> None:
    tally, samples, _ = strength.table_chunk(("normal_and_three_hard", 0, 4, 3))
    assert len(samples["margin"]) == 4
    assert tally["seats:normal"] == 4 and tally["seats:hard"] == 12
    report = strength.table_report(tally, samples, ("normal", "hard", "hard", "hard"))
    assert report["rounds"] == 4
    mean = (tally["score:hard"] / 3 - tally["score:normal"]) / 4
    margin = report["margin_vs_hard"]
    assert isinstance(margin, dict)
    assert margin["margin"] == pytest.approx(mean, abs=1e-3)


def test_runs_pooled_give_what_one_run_over_their_deals_gives() -> None:
    # Three runs on different deals, and the one run that played all of them: pooling the
    # runs' reported means and intervals must land on that run's interval (up to rounding).
    from benchmarks import pool_margins

    rng = random.Random(35)
    samples = [[rng.gauss(1.8, 35.0) for _ in range(n)] for n in (500, 800, 300)]
    runs = []
    for values in samples:
        mean, lo, hi = strength.mean_ci(values)
        runs.append({"margin": mean, "low": lo, "high": hi, "deals": len(values)})
    pooled = pool_margins.pooled(runs)
    one_mean, one_lo, one_hi = strength.mean_ci([v for values in samples for v in values])
    assert pooled["deals"] == 1600
    assert pooled["margin"] == pytest.approx(one_mean, abs=0.002)
    low, high = pooled["margin_ci95"]
    # Each run's sd is its own estimate, so the pooled width differs from one run's by the
    # spread of those estimates (well under 2 % here), not by anything systematic.
    assert low == pytest.approx(one_lo, abs=0.1)
    assert high == pytest.approx(one_hi, abs=0.1)


def test_a_pooled_run_read_from_its_json_line(tmp_path: Path) -> None:
    from benchmarks import pool_margins

    line = {
        "benchmark": "ai_strength",
        "search_vs_hard": {"margin": 1.8, "margin_ci95": [-0.55, 4.16], "deals": 800},
    }
    path = tmp_path / "run.json"
    path.write_text(json.dumps(line) + "\n")
    assert pool_margins.run_of(str(path), "search_vs_hard") == {
        "margin": 1.8,
        "low": -0.55,
        "high": 4.16,
        "deals": 800,
    }
    assert pool_margins.run_of("1.9,-1.1,5.0,500", "search_vs_hard")["deals"] == 500
    with pytest.raises(SystemExit, match="no pairing 'hard_vs_normal'"):
        pool_margins.run_of(str(path), "hard_vs_normal")


def test_tables_pool_their_rounds_and_their_players_wins(tmp_path: Path) -> None:
    # A table of one player and three Hard: the round is the sample, and the player's wins
    # pool as counts over all the runs' seats.
    from benchmarks import pool_margins

    def line(margin: float, lo: float, hi: float, rounds: int, share: float) -> str:
        table = {
            "rounds": rounds,
            "search": {"seats": rounds, "win_share": share},
            "hard": {"seats": 3 * rounds, "win_share": (1 - share) / 3},
            "margin_vs_hard": {"margin": margin, "margin_ci95": [lo, hi]},
        }
        return json.dumps({"benchmark": "ai_strength", "search_and_three_hard": table})

    one, two = tmp_path / "one.json", tmp_path / "two.json"
    one.write_text(line(-1.25, -4.233, 1.733, 430, 0.2605) + "\n")
    two.write_text(line(0.75, -1.75, 3.25, 570, 0.30) + "\n")
    runs = [pool_margins.run_of(str(f), "search_and_three_hard") for f in (one, two)]
    assert runs[0] == {
        "margin": -1.25,
        "low": -4.233,
        "high": 1.733,
        "deals": 430,
        "wins": 112.0,
        "seats": 430,
    }
    pooled = pool_margins.pooled(runs)
    assert pooled["deals"] == 1000 and pooled["seats"] == 1000
    assert pooled["margin"] == pytest.approx((-1.25 * 430 + 0.75 * 570) / 1000, abs=1e-3)
    assert pooled["win_share"] == pytest.approx((112.0 + 171.0) / 1000)
    assert pooled["win_ci95"] == strength.wilson(283.0, 1000)
    # Heads-up runs have no seats: nothing about a win share is made up for them.
    heads_up = {"margin": 1.0, "low": 0.0, "high": 2.0, "deals": 10}
    assert "win_share" not in pool_margins.pooled([heads_up])


def test_the_expert_figure_in_the_docs_comes_from_the_kept_run() -> None:
    # docs/computer-players.md offers the Expert on this pooled interval; the third run's own
    # JSON line is kept in benchmarks/runs/, so the figure can be checked, not just quoted.
    from benchmarks import pool_margins

    kept = Path(__file__).resolve().parents[3] / "benchmarks/runs/search_vs_hard_seed37.json"
    runs = [
        pool_margins.run_of(source, "search_vs_hard")
        for source in ("1.9,-1.1,5.0,500", "1.80,-0.55,4.16,800", str(kept))
    ]
    pooled = pool_margins.pooled(runs)
    assert pooled["deals"] == 2800
    assert pooled["margin"] == 1.65
    assert pooled["margin_ci95"] == [0.332, 2.968]
    doc = (kept.parents[2] / "docs/computer-players.md").read_text()
    assert "+1.65 (+0.33 \u2013 +2.97)" in doc  # the docs write ranges with an en dash


def test_the_four_player_figure_in_the_docs_comes_from_the_kept_runs() -> None:
    # The Expert at a table of three Hard: four runs on independent deals, their lines kept.
    from benchmarks import pool_margins

    root = Path(__file__).resolve().parents[3]
    kept = sorted((root / "benchmarks/runs").glob("search_and_three_hard_seed*.json"))
    assert [k.name for k in kept] == [
        f"search_and_three_hard_seed{seed}.json" for seed in (41, 43, 44, 45)
    ]
    pooled = pool_margins.pooled(
        [pool_margins.run_of(str(k), "search_and_three_hard") for k in kept]
    )
    assert pooled["deals"] == pooled["seats"] == 2030
    assert pooled["margin"] == -1.223
    assert pooled["margin_ci95"] == [-2.599, 0.152]
    assert pooled["win_share"] == 0.2453 and pooled["win_ci95"] == (0.2271, 0.2645)
    doc = (root / "docs/computer-players.md").read_text()
    assert "**\u22121.22 (\u22122.60 \u2013 +0.15)**" in doc
    assert "**24.5 % (22.7\u201326.5 %)**" in doc


def test_a_run_from_a_later_deal_plays_that_deal_of_the_same_sequence() -> None:
    # --from-deal N: a run in pieces covers the seed's deals N.. exactly as one run would,
    # so two machines' pieces join up deal by deal (issue 49's protocol, amended).
    import argparse

    args = argparse.Namespace(only="normal_vs_easy", rounds=200, seed=7, from_deal=3)
    jobs = strength.plan(args)
    assert (
        jobs[0] == ("normal_vs_easy", 3, 8, 7) and jobs[-1][2] == 3 + 100
    )  # 200 rounds: 100 deals
    whole = strength.heads_up_chunk(("normal_vs_easy", 0, 5, 7))[1]["margin"]
    assert strength.heads_up_chunk(("normal_vs_easy", 3, 5, 7))[1]["margin"] == whole[3:]


def test_two_variants_are_compared_on_the_deals_both_played(tmp_path: Path) -> None:
    from benchmarks import paired_margins

    def line(name: str, first: int, margins: list[float], seed: int = 37) -> str:
        path = tmp_path / name
        body = {"seed": seed, "search_vs_hard": {"deal_margins": margins}}
        if first:
            body["first_deal"] = first
        path.write_text(json.dumps(body))
        return str(path)

    # Side A in two pieces (deals 0-1 and 2-3), side B deals 0-2: three deals in common.
    a, seeds = paired_margins.deal_margins(
        [line("a1", 0, [10.0, -4.0]), line("a2", 2, [6.0, 0.0])], "search_vs_hard"
    )
    b, _ = paired_margins.deal_margins([line("b", 0, [4.0, -6.0, 9.0])], "search_vs_hard")
    assert seeds == {37} and sorted(a) == [0, 1, 2, 3]
    out = paired_margins.compare(a, b)
    assert out["deals"] == 3
    assert out["difference"] == pytest.approx((6 + 2 - 3) / 3, abs=1e-3)
    # The paired interval is the per-deal differences' own: 6, 2, -3.
    diffs = [6.0, 2.0, -3.0]
    half = strength.Z95 * statistics.stdev(diffs) / math.sqrt(3)
    assert out["difference_ci95"] == [round(5 / 3 - half, 3), round(5 / 3 + half, 3)]
    # A deal in two pieces of one side is refused, not counted twice.
    with pytest.raises(SystemExit, match="deal 1"):
        paired_margins.deal_margins(
            [line("c1", 0, [1.0, 2.0]), line("c2", 1, [3.0])], "search_vs_hard"
        )


def test_the_anchors_schedule_does_not_depend_on_the_processes() -> None:
    # benchmarks/anchors.py draws every match's levels and seed first, in match order, so
    # --jobs 2 folds the very same matches into the ratings as one process.
    from benchmarks import anchors
    from bot.engine import PRESETS
    from bot.engine.ai import Level

    plan = anchors.schedule(40, 10, 48)
    assert sum(Level.EXPERT in levels for levels, _ in plan) == 4
    assert all(2 <= len(levels) <= 4 and len(set(levels)) == len(levels) for levels, _ in plan)
    one = anchors.measure(6, PRESETS["quick"], 0, 48, jobs=1)
    two = anchors.measure(6, PRESETS["quick"], 0, 48, jobs=2)
    assert one["anchors"] == two["anchors"]


def test_the_expert_anchor_is_its_own_measured_gap_over_hard() -> None:
    # Issue 48: the Expert carries a rating of its own, measured at 13 rounds in a run that
    # seats it (its line kept in benchmarks/runs/), no longer Hard's borrowed.
    from bot.engine.ai import Level
    from bot.service.ratings import ANCHORS, anchor_points

    root = Path(__file__).resolve().parents[3]
    line = json.loads((root / "benchmarks/runs/anchors_expert_every25.json").read_text())
    assert line["rounds_a_match"] == 13 and line["order_ok"] is True
    measured = line["anchors"]
    gap = measured["expert"]["mu"] - measured["hard"]["mu"]
    hard, expert = ANCHORS[Level.HARD.value], ANCHORS[Level.EXPERT.value]
    assert expert != hard
    assert expert == (pytest.approx(hard[0] + gap, abs=1e-3), measured["expert"]["sigma"])
    shown = dict(anchor_points())
    assert shown["easy"] < shown["normal"] < shown["hard"] < shown["expert"]
