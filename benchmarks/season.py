"""A simulated season: do the ratings rank players of known strength in the right order?
One line of JSON (issue 48).

Twelve hidden "people" are computer players (by default 4 Easy, 4 Normal and 4 Hard: the
Expert thinks for seconds a move, too slow for a season in minutes; ``--levels`` changes
it). Each match seats 3 to 5 of them, those with the fewest matches first, and at one table in
three a computer seat too (Easy, Normal or Hard), rated as the bot rates it: a fixed anchor.
Every match is played with the engine (``benchmarks/ratingsim.py``, the ``standard``
preset by default: 13 rounds, as the anchors were measured and as people play) and folded
with the bot's own fold (:func:`bot.service.ratings.fold`) until every person has played
``--games`` (30) matches.

* ``kendall_tau``: Kendall's tau-b between the people's true levels and their ratings
  (:func:`bot.service.ratings.points`). Equal true levels are ties, so with four people at
  each of three levels the best possible tau-b is 0.853, not 1.
* ``pairs_in_order``: of the pairs of people of different levels, the share the ratings put
  in the right order (1 is perfect).
* ``anchors_in_order``: the people of each level, on average, sit in the order of the
  anchors measured for their levels (Easy < Normal < Hard).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.ratingsim import play_places
from bot.engine import PRESETS
from bot.engine.ai import Level
from bot.service.ratings import ANCHORS, Entrant, RatedMatch, fold, points

GUILD = 1
STRENGTH = {Level.EASY: 0, Level.NORMAL: 1, Level.HARD: 2, Level.EXPERT: 3}


def tau_b(x: list[float], y: list[float]) -> float:
    """Kendall's tau-b (ties in either list allowed)."""
    concordant = discordant = ties_x = ties_y = 0
    n = len(x)
    for i in range(n):
        for j in range(i + 1, n):
            dx, dy = x[i] - x[j], y[i] - y[j]
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                ties_x += 1
            elif dy == 0:
                ties_y += 1
            elif (dx > 0) == (dy > 0):
                concordant += 1
            else:
                discordant += 1
    den = ((concordant + discordant + ties_x) * (concordant + discordant + ties_y)) ** 0.5
    return (concordant - discordant) / den if den else 0.0


def season(levels: list[Level], games: int, preset: str, seed: int) -> dict[str, object]:
    rng = random.Random(seed)
    rules = PRESETS[preset]
    people = list(range(1, len(levels) + 1))  # user ids; levels[uid - 1] is hidden
    played = dict.fromkeys(people, 0)
    matches: list[RatedMatch] = []
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    start = time.process_time()
    while min(played.values()) < games:
        size = rng.randint(3, 5)
        order = sorted(people, key=lambda u: (played[u], rng.random()))
        table = order[:size]  # the last tables may give a few a 31st match to fill a table
        seats: list[tuple[int | None, Level]] = [(u, levels[u - 1]) for u in table]
        if rng.random() < 1 / 3 and len(seats) < 5:
            seats.insert(rng.randrange(len(seats) + 1), (None, rng.choice(list(Level)[:3])))
        rng.shuffle(seats)
        places = play_places(rules, [lv for _, lv in seats], rng.randrange(2**31))
        entrants = tuple(
            Entrant(s, uid, None if uid is not None else lv.value, places[s])
            for s, (uid, lv) in enumerate(seats)
        )
        matches.append(RatedMatch(len(matches) + 1, GUILD, t0 + timedelta(hours=len(matches)),
                                  entrants))  # fmt: skip
        for uid in table:
            played[uid] += 1
    _, ratings = fold(matches)
    shown = {r.user_id: points(r.mu, r.sigma) for r in ratings}
    truth = [float(STRENGTH[levels[u - 1]]) for u in people]
    got = [float(shown[u]) for u in people]
    pairs = [(i, j) for i in range(len(people)) for j in range(len(people)) if truth[i] < truth[j]]
    by_level: dict[str, list[int]] = {}
    for u in people:
        by_level.setdefault(levels[u - 1].value, []).append(shown[u])
    means = {lv: round(statistics.fmean(v)) for lv, v in by_level.items()}
    tiers = sorted(by_level, key=lambda lv: STRENGTH[Level(lv)])
    anchor_pts = {lv: points(*ANCHORS[lv]) for lv in tiers}
    return {
        "people": len(people),
        "levels": {lv: len(v) for lv, v in by_level.items()},
        "games_each": games,
        "games_min_max": [min(played.values()), max(played.values())],
        "matches": len(matches),
        "preset": preset,
        "seed": seed,
        "kendall_tau": round(tau_b(truth, got), 3),
        "pairs_in_order": round(sum(got[i] < got[j] for i, j in pairs) / len(pairs), 3),
        "mean_rating_by_level": means,
        "anchor_rating_by_level": anchor_pts,
        "anchors_in_order": [means[lv] for lv in tiers] == sorted(means[lv] for lv in tiers)
        and [anchor_pts[lv] for lv in tiers] == sorted(anchor_pts.values()),
        "ratings": {f"{levels[u - 1].value}-{u}": shown[u] for u in people},
        "cpu_s": round(time.process_time() - start, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=30, help="rated matches per person")
    parser.add_argument(
        "--levels", default="easy:4,normal:4,hard:4", help="the hidden people: LEVEL:COUNT,…"
    )
    parser.add_argument("--preset", default="standard", choices=sorted(PRESETS))
    parser.add_argument("--seed", type=int, default=48)
    args = parser.parse_args()
    levels: list[Level] = []
    for part in args.levels.split(","):
        name, count = part.split(":")
        levels += [Level(name)] * int(count)
    print(json.dumps(season(levels, args.games, args.preset, args.seed)))


if __name__ == "__main__":
    main()
