"""The computer levels' ratings, measured: one line of JSON (the anchors of issue 48).

Plays computer-only matches with the engine (``benchmarks/ratingsim.py``): each match seats 2
to 4 distinct levels drawn at random (seat order shuffled); the Expert sits at one table in
``--expert-every`` (0, the default: never; it thinks for up to 0.8 s a move, about 80 s a
13-round match, the others for microseconds). Each level is
one player of the bot's rating model (:func:`bot.service.ratings.model`, openskill's
Plackett-Luce with its default parameters), rated match after match from the finishing
places exactly as a server's players are. The final ``mu`` and ``sigma`` of each level are the
anchors the bot uses (``bot/service/ratings.py``: ``ANCHORS``), copied from this line of
``python benchmarks/anchors.py`` (defaults: 1,000 matches of the ``standard`` 13 rounds); the
Expert's is Hard's plus the gap between them in a run that seats it (``--expert-every 25
--jobs 2``; docs/computer-players.md).

``order_ok`` says whether the levels came out in their expected order (Easy < Normal < Hard <
Expert by ``mu``).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.ratingsim import play_places
from bot.engine import PRESETS, Rules
from bot.engine.ai import Level
from bot.service.ratings import model

LEVELS = (Level.EASY, Level.NORMAL, Level.HARD, Level.EXPERT)


def schedule(matches: int, expert_every: int, seed: int) -> list[tuple[tuple[Level, ...], int]]:
    """Each match's levels in seat order and its seed, drawn in match order from ``seed``, so
    the schedule (and so the result) is the same however many processes play it."""
    rng = random.Random(seed)
    out: list[tuple[tuple[Level, ...], int]] = []
    for i in range(matches):
        expert = expert_every > 0 and i % expert_every == 0
        pool = list(LEVELS) if expert else list(LEVELS[:3])
        size = rng.randint(2, min(4, len(pool)))
        levels = rng.sample(pool, size)
        if expert and Level.EXPERT not in levels:
            levels[rng.randrange(size)] = Level.EXPERT
        out.append((tuple(levels), rng.randrange(2**31)))
    return out


def _play(job: tuple[tuple[Level, ...], int, Rules]) -> tuple[list[int], float]:
    """One match's places and the CPU it took (in this process or a worker's)."""
    levels, match_seed, rules = job
    start = time.process_time()
    places = play_places(rules, levels, match_seed)
    return places, time.process_time() - start


def measure(
    matches: int, rules: Rules, expert_every: int, seed: int, jobs: int = 1
) -> dict[str, object]:
    pl = model()
    ratings = {lv: pl.rating(name=lv.value) for lv in LEVELS}
    played = {lv: 0 for lv in LEVELS}
    plan = schedule(matches, expert_every, seed)
    work = [(levels, match_seed, rules) for levels, match_seed in plan]
    cpu = 0.0
    if jobs > 1:  # the matches in parallel; the ratings still folded in match order
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            results = list(pool.imap(_play, work, chunksize=1))
    else:
        results = [_play(job) for job in work]
    for (levels, _), (places, spent) in zip(plan, results, strict=True):
        cpu += spent
        new = pl.rate([[ratings[lv]] for lv in levels], ranks=[float(p) for p in places])
        for lv, team in zip(levels, new, strict=True):
            ratings[lv] = team[0]
            played[lv] += 1
    rated = [lv for lv in LEVELS if played[lv]]
    mus = [ratings[lv].mu for lv in rated]
    return {
        "matches": matches,
        "rounds_a_match": rules.rounds_total,
        "expert_every": expert_every,
        "seed": seed,
        "anchors": {
            lv.value: {"mu": round(ratings[lv].mu, 3), "sigma": round(ratings[lv].sigma, 3)}
            for lv in rated
        },
        "matches_played": {lv.value: played[lv] for lv in rated},
        "order_ok": mus == sorted(mus),
        "cpu_s": round(cpu, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument(
        "--expert-every", type=int, default=0, help="one table in N seats the Expert (0: never)"
    )
    parser.add_argument("--preset", default="standard", choices=sorted(PRESETS))
    parser.add_argument("--seed", type=int, default=48)
    parser.add_argument("--jobs", type=int, default=1, help="processes playing the matches")
    args = parser.parse_args()
    rules = PRESETS[args.preset]
    line = measure(args.matches, rules, args.expert_every, args.seed, args.jobs)
    print(
        json.dumps({**line, "jobs": args.jobs, "load_avg": [round(x, 2) for x in os.getloadavg()]})
    )


if __name__ == "__main__":
    main()
