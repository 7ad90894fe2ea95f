"""The Expert's decision CPU, as offered and as a variant (issue 49): one JSON line.

Positions from heads-up Hard-vs-Hard standard rounds (every decision of either seat with a
choice, outside a heads-up endgame: the decisions the Expert may search); at each, the
search as offered and the variant (``--search-*`` flags, as ``ai_strength.py`` takes them;
default: the tuned variant, temperature 8, 8 worlds dealt per kept one) decide on this
process's CPU clock within the budget, as the thinking workers run them. Reported per
search: CPU p50/p90/p99/worst in ms over the searched decisions, how many were contested
(more than Hard's move scored) and how many ran into the 0.8 s budget (Hard's move played).

    nice -n 19 python benchmarks/expert_cpu.py --deals 4
    nice -n 19 python benchmarks/expert_cpu.py --players 4 --deals 2 --offered-only

``--players 4`` takes the positions from 4-player Hard rounds instead (issue 49's question:
what the Expert does differently at a table of four); ``switched`` counts the searched
decisions where the search played another move than Hard's.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.ai_strength import add_search_flags, ms, search_settings
from bot.engine import PRESETS, Match, Round
from bot.engine.ai import Level, choose_move, expert
from bot.engine.ai.hard import hard_decision, turn_values
from bot.engine.view import round_view


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--seed", type=int, default=49)
    parser.add_argument("--players", type=int, default=2, choices=range(2, 9))
    parser.add_argument(
        "--offered-only", action="store_true", help="search only as offered (half the time)"
    )
    add_search_flags(parser)
    parser.set_defaults(search_temperature=8.0, search_dealt=8.0)
    args = parser.parse_args()
    variant = search_settings(args)
    rules = PRESETS["standard"]
    names = [chr(ord("A") + i) for i in range(args.players)]
    probe = Match(rules, names)
    spent: dict[str, list[float]] = {"offered": [], "variant": []}
    contested = 0
    over = {"offered": 0, "variant": 0}
    switched = {"offered": 0, "variant": 0}
    searches = (
        (("offered", expert.OFFERED),)
        if args.offered_only
        else (
            ("offered", expert.OFFERED),
            ("variant", variant),
        )
    )
    started = time.perf_counter()
    for deal in range(args.deals):
        shuffled = probe.shuffle(random.Random(args.seed * 1000 + deal))
        rnd = Round.deal(rules, names, 0, shuffled)
        step = 0
        while rnd.result is None:
            view = round_view(rnd, rnd.current)
            hard = choose_move(view, Level.HARD, step)
            if len(view.legal) > 1 and not expert._endgame(view):
                ranked = turn_values(view, random.Random(step))
                contested += len(ranked) > 1 and ranked[0][1] - ranked[1][1] <= expert.CLOSE
                for name, settings in searches:
                    before = time.process_time()
                    move = expert.search(view, step, clock=time.process_time, settings=settings)
                    cpu = time.process_time() - before
                    spent[name].append(cpu)
                    over[name] += cpu >= expert.BUDGET_S
                    # Hard's pick as the search itself takes it (its seed is the step).
                    switched[name] += move != hard_decision(view, random.Random(step)).move
            rnd.apply(hard)
            step += 1
    out = {
        "benchmark": "expert_cpu",
        "deals": args.deals,
        "players": args.players,
        "seed": args.seed,
        "variant": {
            "temperature": variant.temperature,
            "dealt": variant.dealt,
            "crn": variant.crn,
            "endgame": variant.endgame,
        },
        "decisions": len(spent["offered"]),
        "contested": contested,
        "budget_s": expert.BUDGET_S,
        "cpu_ms": {name: ms(values) for name, values in spent.items() if values},
        "ran_out_of_budget": {name: over[name] for name, _ in searches},
        "switched": {name: switched[name] for name, _ in searches},
        "seconds": round(time.perf_counter() - started, 1),
        "load_avg": [round(x, 2) for x in os.getloadavg()],
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
