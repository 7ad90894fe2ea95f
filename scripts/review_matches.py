"""Reviews of a few quick matches (issue 49's done-when): one seat plays Hard's moves, the
other at random (Easy's random legal move); each seat's review is printed as the player reads
it (English), then one JSON line of the counts. A Hard-like player should be told little, a
random one much.

    nice -n 19 python scripts/review_matches.py --matches 3 --rounds 3
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine import PRESETS, Match, view_for
from bot.engine.ai import Level, choose_move
from bot.engine.ai.review import ReviewSettings, review_seat, view_before
from bot.service.reviews import MatchReview
from bot.ui.review import review_text

NAMES = ["Hardy", "Randy"]
LEVELS = [Level.HARD, Level.EASY]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3, help="rounds a match (standard rules)")
    parser.add_argument("--seed", type=int, default=49)
    bot = ReviewSettings()  # the bot's own settings by default
    parser.add_argument("--worlds", type=int, default=bot.worlds)
    parser.add_argument("--luck-deals", type=int, default=bot.luck_deals)
    parser.add_argument("--budget", type=float, default=60.0, help="CPU seconds a seat's review")
    parser.add_argument("--language", default="en")
    parser.add_argument("--pictures", default="", help="a folder: each review's picture there")
    args = parser.parse_args()
    rules = dataclasses.replace(PRESETS["standard"], rounds=args.rounds)
    settings = ReviewSettings(worlds=args.worlds, luck_deals=args.luck_deals, budget_s=args.budget)
    out: list[dict[str, object]] = []
    for n in range(args.matches):
        match = Match(rules, NAMES)
        rng = random.Random(args.seed * 100 + n)
        step = 0
        while not match.is_over:
            if match.needs_deal:
                match.start_round(match.shuffle(rng))
                continue
            seat = match.current_seat
            assert seat is not None
            move = choose_move(view_for(match, seat), LEVELS[seat], args.seed * 10_000 + step)
            match.apply(move, seat)
            step += 1
        events = list(match.events)
        for seat, name in enumerate(NAMES):
            before = time.process_time()
            review = review_seat(
                rules, NAMES, events, seat, settings=settings, clock=time.process_time, seed=n
            )
            cpu = time.process_time() - before
            worst = max(review.findings, key=lambda f: f.gain, default=None)
            view = None if worst is None else view_before(rules, NAMES, events, worst.at, seat)
            found = MatchReview(n + 1, seat, tuple(NAMES), review, view, settings.worlds)
            if view is not None and args.pictures:
                from bot.drawing import draw_table, table_options

                png = draw_table(view, table_options((False, False), args.language))
                Path(args.pictures, f"review-{n + 1}-{name}.png").write_bytes(png)
            print(f"===== match {n + 1}, {name} ({LEVELS[seat].value}'s moves) =====")
            print(review_text(found, args.language))
            print()
            out.append(
                {
                    "match": n + 1,
                    "seat": name,
                    "plays": LEVELS[seat].value,
                    "total": match.totals[seat],
                    "decisions": review.decisions,
                    "examined": review.examined,
                    "findings": len(review.findings),
                    "points_told": round(sum(f.gain for f in review.findings), 1),
                    "luck": round(review.luck_total, 1),
                    "cpu_s": round(cpu, 1),
                }
            )
    summary = {
        "script": "review_matches",
        "rules": f"standard, {args.rounds} rounds, heads-up",
        "settings": dataclasses.asdict(settings),
        "reviews": out,
        "load_avg": [round(x, 2) for x in os.getloadavg()],
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
