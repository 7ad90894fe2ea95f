"""Pool one pairing's margin over several independent ``ai_strength`` runs.

A run of ``benchmarks/ai_strength.py`` reports a pairing's mean margin per round over its
chair-swapped deals and the 95 % interval of that mean (mean ± 1.96 · sd / √deals, the deal
being the sample). Runs on different seeds play different deals, so their deals are
independent samples of the same player pair: the pooled mean weights each run by its deals,
and its standard error is √(Σ deals² · se²) / Σ deals, each run's se read back from its
interval. That is what one run over all those deals would report, up to the rounding of the
inputs — so a slow player can be measured in pieces (one machine, several sessions).

A table of one player and three Hard (``search_and_three_hard``) pools the same way, its
sample being the round (its margin over the Hard players' mean); its player's share of the
rounds won is pooled too, as wins over seats with Wilson's interval.

Each input is a file holding ``ai_strength``'s JSON line (its pairing is picked with
``--pairing``), or a run given by its figures, ``MEAN,LOW,HIGH,DEALS`` (for a run whose line
was not kept). Prints ONE JSON line::

    python benchmarks/pool_margins.py --pairing search_vs_hard run37.json 1.9,-1.1,5.0,500
    python benchmarks/pool_margins.py --pairing search_and_three_hard run41.json run43.json
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.ai_strength import Z95, match_share, wilson


def run_of(source: str, pairing: str) -> dict[str, float]:
    """One run's mean, interval and deals, from a JSON file or ``MEAN,LOW,HIGH,DEALS``."""
    path = Path(source)
    if path.exists():
        line = json.loads(path.read_text().strip().splitlines()[-1])
        found = line.get(pairing)
        if not isinstance(found, dict):
            raise SystemExit(f"{source}: no pairing {pairing!r} in its JSON line")
        if "margin_vs_hard" not in found:  # heads-up: the sample is the chair-swapped deal
            lo, hi = found["margin_ci95"]
            return {"margin": found["margin"], "low": lo, "high": hi, "deals": found["deals"]}
        # A table of one player and three Hard: the sample is the round.
        margin = found["margin_vs_hard"]
        lo, hi = margin["margin_ci95"]
        player = next(
            v for k, v in found.items() if k != "hard" and isinstance(v, dict) and "win_share" in v
        )
        return {
            "margin": margin["margin"],
            "low": lo,
            "high": hi,
            "deals": found["rounds"],
            "wins": round(player["win_share"] * player["seats"], 1),
            "seats": player["seats"],
        }
    try:
        mean, lo, hi, deals = (float(x) for x in source.split(","))
    except ValueError:
        raise SystemExit(f"{source!r} is neither a file nor MEAN,LOW,HIGH,DEALS") from None
    return {"margin": mean, "low": lo, "high": hi, "deals": deals}


def pooled(runs: list[dict[str, float]]) -> dict[str, object]:
    """The deal-weighted mean of the runs and its 95 % interval.

    >>> pooled([{"margin": 2.0, "low": 0.04, "high": 3.96, "deals": 100},
    ...         {"margin": 1.0, "low": -0.96, "high": 2.96, "deals": 100}])["margin_ci95"]
    [0.114, 2.886]
    """
    total = sum(r["deals"] for r in runs)
    mean = sum(r["margin"] * r["deals"] for r in runs) / total
    var = sum((r["deals"] * (r["high"] - r["low"]) / (2 * Z95)) ** 2 for r in runs) / total**2
    half = Z95 * math.sqrt(var)
    return {
        "runs": len(runs),
        "deals": int(total),
        "margin": round(mean, 3),
        "margin_ci95": [round(mean - half, 3), round(mean + half, 3)],
        "match_share": round(match_share(mean), 3),
        **_win_share(runs),
    }


def _win_share(runs: list[dict[str, float]]) -> dict[str, object]:
    """At tables: the player's share of the rounds won over all the runs' seats (a shared
    win counts half), with Wilson's interval; nothing for heads-up runs."""
    if not runs or any("seats" not in r for r in runs):
        return {}
    wins, seats = sum(r["wins"] for r in runs), int(sum(r["seats"] for r in runs))
    return {"seats": seats, "win_share": round(wins / seats, 4), "win_ci95": wilson(wins, seats)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairing", default="search_vs_hard")
    parser.add_argument("runs", nargs="+", help="JSON files of ai_strength, or MEAN,LOW,HIGH,DEALS")
    args = parser.parse_args()
    runs = [run_of(source, args.pairing) for source in args.runs]
    print(json.dumps({"script": "pool_margins", "pairing": args.pairing, **pooled(runs)}))


if __name__ == "__main__":
    main()
