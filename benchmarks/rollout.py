"""What one playout costs, from a position to the round's end: one line of JSON.

Positions are taken from heads-up (and 4-player) standard rounds Hard plays against itself,
every few moves from the deal on. From each, the round (a copy) is played out to its end:

* ``policy``: :func:`bot.engine.ai.rollout.playout`, the rollout policy in every seat;
* ``hard``: Hard in every seat, each decision through a fresh view (what a search using Hard
  as its rollout policy pays; issue 35 measured 5-10 ms), on every ``--hard-every``-th
  position only, to keep the run short.

CPU time per playout (``time.thread_time``: what it costs a core of its own, on a machine
other work shares), with percentiles, and the playouts' mean length in moves.

    python benchmarks/rollout.py                    # ~1 minute on one core
    python benchmarks/rollout.py --deals 20 --repeat 5
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine import KNOCK, PRESETS, Match, Round
from bot.engine.ai import Level, choose_move
from bot.engine.ai.rollout import playout
from bot.engine.view import round_view


def positions(players: int, deals: int, every: int, seed: int) -> Iterator[tuple[int, Round]]:
    """(moves played so far, a copy of the position) from Hard-vs-Hard rounds."""
    rules = PRESETS["standard"]
    names = [f"P{i + 1}" for i in range(players)]
    probe = Match(rules, names)
    for deal in range(deals):
        rnd = Round.deal(rules, names, 0, probe.shuffle(random.Random(seed * 1000 + deal)))
        step = 0
        while rnd.result is None:
            if step % every == 0:
                yield step, rnd.copy()
            move = choose_move(round_view(rnd, rnd.current), Level.HARD, step)
            rnd.apply(move)
            step += 1


def hard_playout(rnd: Round, rng: random.Random) -> tuple[int, ...]:
    knock = rnd.rules.knock
    while rnd.result is None:
        seat = rnd.current
        move = choose_move(round_view(rnd, seat), Level.HARD, rng.randrange(1 << 30))
        applied = rnd.apply_unchecked(move, seat)
        if knock and applied.turn_over and rnd.knock_window is not None and rnd.result is None:
            rnd.apply_unchecked(KNOCK, rnd.knock_window)
    assert rnd.result is not None
    return rnd.result.scores


def measure(
    run: Callable[[Round, random.Random], tuple[int, ...]],
    start: Round,
    repeat: int,
    rng: random.Random,
    cpu: list[float],
    lengths: list[int],
) -> None:
    for _ in range(repeat):
        rnd = start.copy()
        before = len(rnd.log)
        c0 = time.thread_time()
        run(rnd, rng)
        cpu.append(time.thread_time() - c0)
        lengths.append(len(rnd.log) - before)


def summary(cpu: list[float], lengths: list[int]) -> dict[str, float]:
    cpu = sorted(cpu)

    def at(q: float) -> float:
        return round(1000 * cpu[min(len(cpu) - 1, int(q * len(cpu)))], 3)

    return {
        "playouts": len(cpu),
        "mean_ms": round(1000 * sum(cpu) / len(cpu), 3),
        "p50_ms": at(0.5),
        "p90_ms": at(0.9),
        "p99_ms": at(0.99),
        "mean_moves": round(sum(lengths) / len(lengths), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40, help="rounds positions come from")
    parser.add_argument("--every", type=int, default=10, help="a position every N moves")
    parser.add_argument("--repeat", type=int, default=10, help="playouts per position")
    parser.add_argument("--hard-every", type=int, default=8, help="Hard playouts: 1 position in N")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    started = time.perf_counter()
    rng = random.Random(args.seed)
    out: dict[str, object] = {"benchmark": "rollout", "rules": "standard", "cpu": "thread_time"}
    for players in (2, 4):
        cpu: list[float] = []
        lengths: list[int] = []
        from_deal: list[float] = []
        hard_cpu: list[float] = []
        hard_lengths: list[int] = []
        for i, (step, pos) in enumerate(positions(players, args.deals, args.every, args.seed)):
            mark = len(cpu)
            measure(playout, pos, args.repeat, rng, cpu, lengths)
            if step == 0:
                from_deal.extend(cpu[mark:])
            if i % args.hard_every == 0:
                measure(hard_playout, pos, 1, rng, hard_cpu, hard_lengths)
        out["heads_up" if players == 2 else "four_players"] = {
            "policy": summary(cpu, lengths),
            "policy_from_the_deal_mean_ms": round(1000 * sum(from_deal) / len(from_deal), 3),
            "hard": summary(hard_cpu, hard_lengths),
        }
    out["seconds"] = round(time.perf_counter() - started, 1)
    out["load_avg"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(out))


if __name__ == "__main__":
    main()
