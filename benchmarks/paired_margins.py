"""Two search variants compared deal by deal on the very same deals: one line of JSON.

Issue 49's protocol lands a variant only if its margin against Hard, minus the Expert as
offered's, paired deal by deal, has an interval above 0. Runs of ``benchmarks/ai_strength.py``
with ``--keep-deals`` keep each chair-swapped deal's margin (``deal_margins``; deal
``first_deal + i`` at index ``i``). A deal's luck (who holds the doubles, what the boneyard
gives) is shared by both variants' plays of it, so the difference of their margins on one deal
has far less spread than either margin: pairing is what makes a few hundred deals tell two
variants apart at all.

Each side is one or more JSON files of the same pairing, seed and deals (pieces made with
``--from-deal`` join up); only the deals both sides played are compared. Prints ONE line:
each side's margin on those deals and the difference (A minus B) with its 95 % interval,
mean ± 1.96 · sd / √deals over the per-deal differences::

    python benchmarks/paired_margins.py --pairing search_vs_hard \\
        --a benchmarks/runs/search_t8_d8_vs_hard_seed37.json \\
        --b benchmarks/runs/search_vs_hard_seed37_deals.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.ai_strength import mean_ci


def deal_margins(paths: list[str], pairing: str) -> tuple[dict[int, float], set[int]]:
    """Deal number → margin over one side's pieces, and the seeds they were played on."""
    margins: dict[int, float] = {}
    seeds: set[int] = set()
    for source in paths:
        line = json.loads(Path(source).read_text().strip().splitlines()[-1])
        found = line.get(pairing)
        if not isinstance(found, dict) or "deal_margins" not in found:
            raise SystemExit(f"{source}: no {pairing!r} with deal_margins (run with --keep-deals)")
        seeds.add(int(line.get("seed", -1)))
        first = int(line.get("first_deal", 0))
        for i, margin in enumerate(found["deal_margins"]):
            if first + i in margins:
                raise SystemExit(f"{source}: deal {first + i} is in two pieces of one side")
            margins[first + i] = float(margin)
    return margins, seeds


def compare(a: dict[int, float], b: dict[int, float]) -> dict[str, object]:
    """Both sides on the deals both played, and A minus B deal by deal.

    >>> out = compare({0: 4.0, 1: -2.0, 2: 9.0}, {0: 1.0, 1: -4.0, 3: 7.0})
    >>> out["deals"], out["a_margin"], out["b_margin"], out["difference"]
    (2, 1.0, -1.5, 2.5)
    """
    common = sorted(set(a) & set(b))
    if not common:
        raise SystemExit("the two sides share no deal: same --seed, --deals-as and deals?")
    xs, ys = [a[d] for d in common], [b[d] for d in common]
    # How much of a deal's luck the two sides share: what pairing buys.
    correlation = round(statistics.correlation(xs, ys), 3) if len(common) > 2 else None
    out: dict[str, object] = {"deals": len(common)}
    for key, values in (("a_margin", xs), ("b_margin", ys), ("difference", _minus(xs, ys))):
        mean, low, high = mean_ci(values)  # mean ± 1.96 · sd / √deals, as ai_strength's
        out[key], out[f"{key}_ci95"] = round(mean, 3), [low, high]
    return {**out, "correlation": correlation}


def _minus(xs: list[float], ys: list[float]) -> list[float]:
    return [x - y for x, y in zip(xs, ys, strict=True)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairing", default="search_vs_hard")
    parser.add_argument("--a", nargs="+", required=True, help="side A's JSON lines (pieces)")
    parser.add_argument("--b", nargs="+", required=True, help="side B's JSON lines (pieces)")
    parser.add_argument(
        "--b-pairing", default="", help="side B's pairing if not --pairing (a control's)"
    )
    args = parser.parse_args()
    a, seeds_a = deal_margins(args.a, args.pairing)
    b, seeds_b = deal_margins(args.b, args.b_pairing or args.pairing)
    if seeds_a != seeds_b:
        raise SystemExit(f"different seeds: A {sorted(seeds_a)}, B {sorted(seeds_b)}")
    print(
        json.dumps(
            {
                "script": "paired_margins",
                "pairing": args.pairing,
                "b_pairing": args.b_pairing or args.pairing,
                "seed": sorted(seeds_a),
                "a": args.a,
                "b": args.b,
                **compare(a, b),
            }
        )
    )


if __name__ == "__main__":
    main()
