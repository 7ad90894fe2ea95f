"""How much weighting the worlds by the opponents' plays tells about their hands: one JSON line.

Issue 35: knowing the opponent's hand is worth +2.7 points a decision at 32 worlds, and
weighting the sampled worlds by how likely the opponent's observed plays were in them
(:mod:`bot.engine.ai.likelihood`) is the lever with the most headroom. Before paying for a
strength run, this measures whether the lever moves at all, cheaply: on positions from
heads-up Hard-vs-Hard standard rounds (the seat to move, every ``--every`` moves, once the
opponent has played ``--min-plays`` tiles), deal ``--worlds`` worlds from the view and compare,
unweighted against weighted (one line per ``--temperature``):

* ``hit``: the expected share of the opponent's real tiles a world's hand for it holds;
* ``log_loss``: the mean binary log loss, over the unseen tiles, of the chance a tile is in the
  opponent's hand as the worlds estimate it (clipped to 1 %-99 %; lower is better);
* ``ess``: the weighted worlds' effective sample size, ``1 / Σ w²`` (the price of the weights:
  a few worlds carry most of the weight, so per-tile chances get noisier), and the log loss
  of as many blind worlds as that (``log_loss_blind_same_ess``): the fair comparison;
* each figure's 95 % interval of the weighted-minus-unweighted difference over positions,
  and the weighting's CPU per world.

    python benchmarks/world_weights.py                      # ~2 minutes on one core
    python benchmarks/world_weights.py --deals 40 --temperature 1,2,4
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine import PRESETS, Match, Round
from bot.engine.ai import Level, choose_move
from bot.engine.ai.knowledge import read_view
from bot.engine.ai.likelihood import log_likelihood, read_evidence
from bot.engine.ai.worlds import sample_world
from bot.engine.moves import Play
from bot.engine.tiles import Tile
from bot.engine.view import SeatView, round_view

Z95 = 1.959964


def positions(
    deals: int, every: int, min_plays: int, seed: int
) -> Iterator[tuple[SeatView, set[Tile]]]:
    """(the mover's view, the opponent's real hand) from heads-up Hard-vs-Hard rounds."""
    rules = PRESETS["standard"]
    names = ["P1", "P2"]
    probe = Match(rules, names)
    for deal in range(deals):
        rnd = Round.deal(rules, names, 0, probe.shuffle(random.Random(seed * 1000 + deal)))
        step = 0
        while rnd.result is None:
            seat = rnd.current
            view = round_view(rnd, seat)
            other = 1 - seat
            plays = sum(1 for e in view.log if e.seat == other and isinstance(e.move, Play))
            if step % every == 0 and plays >= min_plays and len(view.legal) > 1:
                yield view, set(rnd.hands[other])
            rnd.apply(choose_move(view, Level.HARD, step), seat)
            step += 1


def judge(
    view: SeatView, truth: set[Tile], worlds: int, seed: int, temperatures: list[float]
) -> tuple[dict[str, float], list[dict[str, float]], float]:
    """Unweighted figures, the weighted ones per temperature, and the CPU per world weighed."""
    know = read_view(view)
    other = 1 - (view.seat or 0)
    rng = random.Random(seed)
    dealt = [sample_world(view, know, rng) for _ in range(worlds)]
    hands = [set(w.hands[other]) for w in dealt]
    flat = [1.0 / worlds] * worlds
    base = _figures(hands, flat, truth, know.unseen)
    evidence = read_evidence(view)
    weighted: list[dict[str, float]] = []
    cpu = 0.0
    for temperature in temperatures:
        wrng = random.Random(seed + 1)
        c0 = time.thread_time()
        logs = [log_likelihood(evidence, w, wrng, temperature) for w in dealt]
        cpu += time.thread_time() - c0
        top = max(logs)
        raw = [math.exp(v - top) for v in logs]
        total = sum(raw)
        figures = _figures(hands, [r / total for r in raw], truth, know.unseen)
        # Blind worlds as few as the weighted ones' effective count: the log loss at equal
        # sample size, which tells information from the noise of fewer worlds.
        few = max(1, round(figures["ess"]))
        figures["log_loss_blind_same_ess"] = _figures(
            hands[:few], [1.0 / few] * few, truth, know.unseen
        )["log_loss"]
        weighted.append(figures)
    return base, weighted, cpu / (worlds * len(temperatures))


def _figures(
    hands: list[set[Tile]], weights: list[float], truth: set[Tile], unseen: tuple[Tile, ...]
) -> dict[str, float]:
    hit = sum(w * len(h & truth) for h, w in zip(hands, weights, strict=True)) / len(truth)
    loss = 0.0
    for t in unseen:
        p = sum(w for h, w in zip(hands, weights, strict=True) if t in h)
        p = min(0.99, max(0.01, p))
        loss -= math.log(p) if t in truth else math.log(1.0 - p)
    return {
        "hit": hit,
        "log_loss": loss / max(1, len(unseen)),
        "ess": 1.0 / sum(w * w for w in weights),
    }


def _ci(values: list[float]) -> list[float]:
    m = statistics.fmean(values)
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return [round(m, 4), round(m - half, 4), round(m + half, 4)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--every", type=int, default=3, help="a position every N moves")
    parser.add_argument("--min-plays", type=int, default=3, help="opponent plays before judging")
    parser.add_argument("--worlds", type=int, default=128)
    parser.add_argument(
        "--temperature", default="1,2,4", help="comma-separated softmax temperatures"
    )
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    temps = [float(t) for t in args.temperature.split(",")]
    base: list[dict[str, float]] = []
    weighted: list[list[dict[str, float]]] = [[] for _ in temps]
    cpu: list[float] = []
    for n, (view, truth) in enumerate(positions(args.deals, args.every, args.min_plays, args.seed)):
        b, ws, c = judge(view, truth, args.worlds, args.seed * 7919 + n, temps)
        base.append(b)
        for i, w in enumerate(ws):
            weighted[i].append(w)
        cpu.append(c)
    out: dict[str, object] = {
        "benchmark": "world_weights",
        "rules": "standard, heads-up, Hard vs Hard",
        "positions": len(base),
        "worlds": args.worlds,
        "unweighted": {k: round(statistics.fmean(b[k] for b in base), 4) for k in base[0]},
        "weighted": {
            str(t): {
                **{k: round(statistics.fmean(w[k] for w in ws), 4) for k in ws[0]},
                "hit_gain_ci95": _ci([w["hit"] - b["hit"] for w, b in zip(ws, base, strict=True)]),
                "log_loss_gain_ci95": _ci(
                    [b["log_loss"] - w["log_loss"] for w, b in zip(ws, base, strict=True)]
                ),
                "log_loss_gain_same_ess_ci95": _ci(
                    [w["log_loss_blind_same_ess"] - w["log_loss"] for w in ws]
                ),
            }
            for t, ws in zip(temps, weighted, strict=True)
        },
        "weigh_cpu_ms_per_world": round(1000 * statistics.fmean(cpu), 3),
        "loadavg": [round(x, 2) for x in os.getloadavg()],
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
