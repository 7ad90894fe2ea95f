"""``python -m bot.engine``: random-but-legal playouts from the command line.

``simulate`` plays whole matches (or ``--rounds-only`` single rounds, the benchmark's unit)
with seeded random moves and prints one JSON line. This file is the engine's edge: it is the
only place in ``bot/engine`` allowed to read the clock, to report how long the run took.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time  # noqa: TID251 - the command line times the run; the engine itself never does
from typing import Any

from bot.digits import read_int, whole_number
from bot.engine.rules import PRESETS, Rules, RulesError
from bot.engine.simulate import Summary, play_match, simulate_rounds


def _house_rule(text: str) -> tuple[str, Any]:
    """``name=value`` on the command line, e.g. ``double_rule=chain`` or ``knock=true``."""
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"{text!r}: write a house rule as name=value")
    name, raw = text.split("=", 1)
    value: Any = raw
    if raw.lower() in ("true", "false"):
        value = raw.lower() == "true"
    elif (number := read_int(raw)) is not None:
        value = number
    elif raw.lower() == "none":
        value = None
    return name.strip(), value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.engine")
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="play random legal games and print a JSON summary")
    sim.add_argument("--players", type=whole_number, default=4)
    sim.add_argument("--games", type=whole_number, default=100)
    sim.add_argument("--seed", type=whole_number, default=1)
    sim.add_argument("--preset", default="standard", choices=sorted(PRESETS))
    sim.add_argument(
        "--house-rule",
        type=_house_rule,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="e.g. double_rule=chain, knock=true, rounds=1",
    )
    sim.add_argument(
        "--rounds-only",
        action="store_true",
        help="play only each game's first round (the benchmark's unit)",
    )
    args = parser.parse_args(argv)

    try:
        rules = (
            PRESETS[args.preset].replace(**dict(args.house_rule))
            if args.house_rule
            else PRESETS[args.preset]
        )
        rules = Rules.from_dict(rules.to_dict()).check(args.players)
    except (RulesError, TypeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2

    start = time.perf_counter()
    if args.rounds_only:
        summary = simulate_rounds(rules, args.players, args.games, args.seed)
    else:
        summary = Summary()
        rng = random.Random(args.seed)
        names = [f"P{i + 1}" for i in range(args.players)]
        for _ in range(args.games):
            play_match(rules, names, rng, summary=summary)
    seconds = time.perf_counter() - start
    out: dict[str, Any] = {"preset": args.preset, "players": args.players, "seed": args.seed}
    out.update(summary.as_dict())
    out["seconds"] = round(seconds, 3)
    out["rounds_per_second"] = round(summary.rounds / seconds, 1) if seconds else None
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
