"""How strong and how quick the computer players are, in points: one line of JSON.

Heads-up single rounds between two players on the standard rules, each deal played twice
with the chairs swapped; 4-player tables (one player and three Hard, and the old mixed table
Easy, Normal and two Hard), seats rotated; then Hard's decision time in full double-15 and
double-18 games.

What each heads-up pairing reports, the measured player first:

* ``margin``: the mean points per round it gains on its opponent (the opponent's round score
  minus its own; positive is better) with a 95 % interval. **The deal is the sample**: both
  rounds of a chair-swapped deal are averaged into one number first, and the interval is
  mean ± 1.96 · sd / √deals over those. The two rounds of a deal share its luck (whoever holds
  the doubles and the heavy tiles), so they are not independent; averaging them cancels that
  luck, and the spread left is what the players did. ``margin_ci95_unpaired`` treats the
  rounds as independent, for comparison: it is wider, because it keeps the deal's luck.
* ``match_share``: the share of 13-round matches that margin wins, Φ(13 · m / 216) (issue 35:
  a round's margin has a spread of about 60 points, so 13 rounds of it, summed, about
  60 · √13 ≈ 216), at the margin and at its interval's ends.
* ``win_rate``: rounds won (the lower score; a tie counts half), with Wilson's interval over
  the rounds (``ci95``, as before) and the deal-paired interval (``win_ci95_paired``).

A table reports each of its players' share of rounds won (a fair share is 25 %; a shared
lowest score shares the win) with Wilson's interval, and for the one player at a table of
three Hard its margin: the Hard players' mean score minus its own, per round (rounds are
independent deals, so the round is the sample).

Decision times: every decision each player made in the run (forced ones included), on the
wall clock and in CPU time (``decision_cpu_ms``: what a decision costs a core of its own, on a
machine other work shares).

    python benchmarks/ai_strength.py                          # 2,000 rounds per pairing
    python benchmarks/ai_strength.py --rounds 200 --jobs 2    # quicker, in two processes
    python benchmarks/ai_strength.py --only hard_vs_normal --rounds 600
    nice -n 19 python benchmarks/ai_strength.py --only search_vs_hard --rounds 20000 \
        --stop-after 3600   # as many deals of a slow player as an hour holds

``--jobs N`` plays the deals in N worker processes (``multiprocessing``; results are the same
for any N: each deal's tiles and seeds come from its own number, not from the order deals are
played in), but the decision times are then measured while the processes share the CPU. The
machine is shared: give the load average with every figure.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import math
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import expert_search
from benchmarks.expert_search import flat_search_move, search_move
from bot.engine import KNOCK, PRESETS, Match, Round, Rules
from bot.engine.ai import Level, choose_move, expert
from bot.engine.ai.rollout import rollout_move
from bot.engine.moves import Move
from bot.engine.view import SeatView, round_view


def _level(level: Level) -> Callable[[SeatView, int], Move]:
    # The CPU clock bounds the Expert as the bot's thinking workers bound it ("expert" plays
    # the moves "search" plays); the other levels ignore it.
    return lambda view, seed: choose_move(view, level, seed, clock=time.process_time)


def _rollout(view: SeatView, seed: int) -> Move:
    return rollout_move(view, random.Random(seed))


#: Every player a pairing may name: a function from a seat's view and a seed to its move.
#: ``rollout`` is the playouts' policy (bot/engine/ai/rollout.py) as a player: measured, not
#: offered to players.
PLAYERS: dict[str, Callable[[SeatView, int], Move]] = {lv.value: _level(lv) for lv in Level}
PLAYERS["rollout"] = _rollout
#: The Expert's search (bot/engine/ai/expert.py, via benchmarks/expert_search.py): Hard plus
#: rollouts at contested decisions.
PLAYERS["search"] = search_move
#: The same search over unweighted worlds (the control for the weighting).
PLAYERS["flat_search"] = flat_search_move

#: Heads-up pairings: (name, the player measured, its opponent, rounds as a share of --rounds).
HEADS_UP: tuple[tuple[str, str, str, float], ...] = (
    ("hard_vs_normal", "hard", "normal", 1.0),
    ("normal_vs_easy", "normal", "easy", 1.0),
    ("hard_vs_easy", "hard", "easy", 0.25),
    ("rollout_vs_hard", "rollout", "hard", 0.2),
    ("search_vs_hard", "search", "hard", 0.05),
    ("flat_search_vs_hard", "flat_search", "hard", 0.05),
)
#: Pairings played only when ``--only`` names them (the experimental search is slow).
OPT_IN = {"search_vs_hard", "flat_search_vs_hard", "search_and_three_hard"}
#: 4-player tables: (name, the seats' players, rounds as a share of --rounds). A table of one
#: player and three Hard measures that player against Hard (issue 35: about 2.3 times cheaper
#: per CPU-second than heads-up).
TABLES: tuple[tuple[str, tuple[str, ...], float], ...] = (
    ("mixed_four", ("easy", "normal", "hard", "hard"), 0.25),
    ("normal_and_three_hard", ("normal", "hard", "hard", "hard"), 0.25),
    ("rollout_and_three_hard", ("rollout", "hard", "hard", "hard"), 0.25),
    # Issue 35's cross-check: the Expert's search and three Hard (opt-in: slow).
    ("search_and_three_hard", ("search", "hard", "hard", "hard"), 0.05),
)
Z95 = 1.959964
#: The spread of one 13-round match's total margin, in points (issue 35's Φ(13·m/216)).
MATCH_SPREAD = 216.0
MATCH_ROUNDS = 13
#: One chunk of a pairing: (pairing, first deal or round, last (exclusive), seed).
Job = tuple[str, int, int, int]
#: A chunk's result: counts, per-deal (or per-round) samples, each player's decision times.
Result = tuple[dict[str, float], dict[str, list[float]], dict[str, list[float]]]


#: Heads-up deals are dealt as this pairing's (``--deals-as``; None: each pairing its own), so
#: two pairings' runs on one seed play the very same deals and seeds (issue 49's protocol).
DEALS_AS: str | None = None


def configure(settings: expert.Settings, deals_as: str | None) -> None:
    """This process's search variant and deals (the main process's and every worker's)."""
    global DEALS_AS
    DEALS_AS = deals_as
    expert_search.configure(settings)


def deal_seed(seed: int, pairing: str, deal: int) -> int:
    digest = hashlib.blake2b(f"{seed}:{pairing}:{deal}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def play(
    rules: Rules,
    players: Sequence[str],
    order: Sequence[object],
    seed: int,
    timings: dict[str, list[float]],
) -> tuple[int, ...]:
    """Play one round with ``players[seat]`` in each seat; return the scores."""
    names = [f"P{i + 1}" for i in range(len(players))]
    rnd = Round.deal(rules, names, 0, order)  # type: ignore[arg-type]
    step = 0
    while rnd.result is None:
        seat = rnd.current
        view = round_view(rnd, seat)
        who = players[seat]
        t0, c0 = time.perf_counter(), time.thread_time()
        move = PLAYERS[who](view, seed * 1_000 + step)
        timings.setdefault(who, []).append(time.perf_counter() - t0)
        timings.setdefault(f"cpu:{who}", []).append(time.thread_time() - c0)
        applied = rnd.apply(move, seat)
        step += 1
        knocks = rules.knock and applied.turn_over and rnd.result is None
        if knocks and rnd.knock_window is not None:
            rnd.apply(KNOCK, rnd.knock_window)
    return rnd.result.scores


def deal_sample(first: tuple[int, int], second: tuple[int, int]) -> tuple[float, float]:
    """One chair-swapped deal as one sample: (margin, win) of the measured player, averaged
    over its two rounds. Each round is (its score, the opponent's score); the margin is the
    opponent's score minus its own (positive: it did better), a win 1, a tie 0.5, a loss 0.

    >>> deal_sample((10, 40), (40, 10))  # whoever sat in chair 1 won by 30: a wash
    (0.0, 0.5)
    """
    margins = [theirs - mine for mine, theirs in (first, second)]
    wins = [1.0 if m > 0 else 0.5 if m == 0 else 0.0 for m in margins]
    return (sum(margins) / 2, sum(wins) / 2)


def heads_up_chunk(job: Job) -> Result:
    """Deals ``first`` to ``last`` (exclusive) of a heads-up pairing, both chairs each."""
    name, first, last, seed = job
    _, a, b, _ = next(p for p in HEADS_UP if p[0] == name)
    rules = PRESETS["standard"]
    probe = Match(rules, ["A", "B"])
    tally = dict.fromkeys(("wins", "losses", "ties", "score_a", "score_b"), 0.0)
    samples: dict[str, list[float]] = {"margin": [], "win": [], "round_margin": []}
    timings: dict[str, list[float]] = {}
    for deal in range(first, last):
        ds = deal_seed(seed, DEALS_AS or name, deal)
        order = probe.shuffle(random.Random(ds))
        rounds: list[tuple[int, int]] = []
        for chair in (0, 1):
            players = (a, b) if chair == 0 else (b, a)
            scores = play(rules, players, order, ds % 1_000_003 + chair, timings)
            sa, sb = scores[chair], scores[1 - chair]
            rounds.append((sa, sb))
            tally["score_a"] += sa
            tally["score_b"] += sb
            key = "wins" if sa < sb else "losses" if sa > sb else "ties"
            tally[key] += 1
            samples["round_margin"].append(sb - sa)
        margin, win = deal_sample(rounds[0], rounds[1])
        samples["margin"].append(margin)
        samples["win"].append(win)
    return tally, samples, timings


def table_chunk(job: Job) -> Result:
    """Rounds ``first`` to ``last`` of a 4-player table, the seats rotated each round."""
    name, first, last, seed = job
    _, base, _ = next(t for t in TABLES if t[0] == name)
    rules = PRESETS["standard"]
    probe = Match(rules, ["A", "B", "C", "D"])
    tally: dict[str, float] = {}
    samples: dict[str, list[float]] = {"margin": []}
    timings: dict[str, list[float]] = {}
    for i in range(first, last):
        ds = deal_seed(seed, name, i)
        k = i % 4
        players = base[k:] + base[:k]
        scores = play(rules, players, probe.shuffle(random.Random(ds)), ds % 1_000_003, timings)
        low = min(scores)
        winners = [s for s, v in enumerate(scores) if v == low]
        for seat, (who, score) in enumerate(zip(players, scores, strict=True)):
            tally[f"score:{who}"] = tally.get(f"score:{who}", 0) + score
            tally[f"seats:{who}"] = tally.get(f"seats:{who}", 0) + 1
            # A shared lowest score shares the win.
            share = 1 / len(winners) if seat in winners else 0.0
            tally[f"wins:{who}"] = tally.get(f"wins:{who}", 0) + share
        if _one_and_three_hard(base):
            one = next(s for s, who in enumerate(players) if who != "hard")
            hards = [v for s, v in enumerate(scores) if s != one]
            samples["margin"].append(sum(hards) / 3 - scores[one])
    return tally, samples, timings


def _one_and_three_hard(base: Sequence[str]) -> bool:
    return sorted(base).count("hard") == 3 and len(base) == 4


def big_sets_chunk(job: Job) -> Result:
    """Hard's decision times in full double-15 and double-18 rounds (4 Hard players)."""
    _, first, last, seed = job
    timings: dict[str, list[float]] = {}
    for name in ("double-15", "double-18"):
        rules = PRESETS[name]
        probe = Match(rules, ["A", "B", "C", "D"])
        for i in range(first, last):
            ds = deal_seed(seed, name, i)
            play(rules, ["hard"] * 4, probe.shuffle(random.Random(ds)), ds % 1_000_003, timings)
    return {}, {}, {f"big:{k}": v for k, v in timings.items()}


# ------------------------------------------------------------------ statistics


def wilson(successes: float, n: int) -> tuple[float, float]:
    """Wilson's 95 % score interval for a rate of ``successes`` out of ``n``."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (round(centre - half, 4), round(centre + half, 4))


def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean of independent samples and its 95 % interval, mean ± 1.96 · sd / √n (the
    normal approximation: the runs here have hundreds of samples; sd with n - 1).

    >>> mean_ci([1.0, 2.0, 3.0, 4.0, 5.0])
    (3.0, 1.614, 4.386)
    """
    n = len(values)
    if n == 0:
        return (0.0, -math.inf, math.inf)
    mean = sum(values) / n
    if n == 1:
        return (mean, -math.inf, math.inf)
    half = Z95 * statistics.stdev(values) / math.sqrt(n)
    return (round(mean, 3), round(mean - half, 3), round(mean + half, 3))


def match_share(margin: float) -> float:
    """The share of 13-round matches a player gaining ``margin`` points a round wins:
    Φ(13 · m / 216) (issue 35; checked there on Hard vs Normal, 88 % predicted, 89 % measured).

    >>> match_share(0.0), round(match_share(4.0), 3)
    (0.5, 0.595)
    """
    z = MATCH_ROUNDS * margin / MATCH_SPREAD
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def ms(values: list[float]) -> dict[str, float]:
    return {
        "decisions": len(values),
        "p50": round(1000 * pct(values, 0.5), 2),
        "p90": round(1000 * pct(values, 0.9), 2),
        "p99": round(1000 * pct(values, 0.99), 2),
        "max": round(1000 * max(values), 2),
    }


def margin_report(values: Sequence[float]) -> dict[str, object]:
    """A margin per round with its interval and the 13-round match share it implies."""
    mean, lo, hi = mean_ci(values)
    return {
        "margin": mean,
        "margin_ci95": [lo, hi],
        "match_share": round(match_share(mean), 3),
        "match_share_ci95": [round(match_share(lo), 3), round(match_share(hi), 3)],
    }


def heads_up_report(t: dict[str, float], s: dict[str, list[float]]) -> dict[str, object]:
    n = int(t["wins"] + t["losses"] + t["ties"])
    won = t["wins"] + t["ties"] / 2
    _, wlo, whi = mean_ci(s["win"])
    _, ulo, uhi = mean_ci(s["round_margin"])
    return {
        "rounds": n,
        "deals": len(s["margin"]),
        **margin_report(s["margin"]),
        "margin_ci95_unpaired": [ulo, uhi],
        "wins": int(t["wins"]),
        "losses": int(t["losses"]),
        "ties": int(t["ties"]),
        "win_rate": round(won / n, 4),
        "ci95": wilson(won, n),
        "win_ci95_paired": [round(wlo, 4), round(whi, 4)],
        "mean_score": [round(t["score_a"] / n, 2), round(t["score_b"] / n, 2)],
    }


def table_report(
    t: dict[str, float], s: dict[str, list[float]], base: Sequence[str]
) -> dict[str, object]:
    """Each player's share of the rounds it won (a shared lowest score shares the win), and
    at a table of one player and three Hard, that player's margin over the Hard players."""
    out: dict[str, object] = {
        "rounds": int(sum(v for k, v in t.items() if k.startswith("seats:")) / 4)
    }
    for who in dict.fromkeys(base):
        seats = int(t[f"seats:{who}"])
        out[who] = {
            "seats": seats,
            "win_share": round(t[f"wins:{who}"] / seats, 4),
            "ci95": wilson(t[f"wins:{who}"], seats),
            "mean_score": round(t[f"score:{who}"] / seats, 2),
        }
    if s.get("margin"):
        out["margin_vs_hard"] = margin_report(s["margin"])
    return out


# ------------------------------------------------------------------ running


def run_job(job: Job) -> Result:
    """One chunk of one pairing (in this process or a worker's)."""
    name = job[0]
    if any(p[0] == name for p in HEADS_UP):
        return heads_up_chunk(job)
    if any(t[0] == name for t in TABLES):
        return table_chunk(job)
    return big_sets_chunk(job)


def plan(args: argparse.Namespace) -> list[Job]:
    only = {s for s in args.only.split(",") if s}
    unknown = only - {p[0] for p in HEADS_UP} - {t[0] for t in TABLES} - {"big_sets"}
    if unknown:
        raise SystemExit(f"no such pairing: {', '.join(sorted(unknown))}")
    jobs: list[Job] = []

    first = args.from_deal

    def chunks(name: str, count: int, size: int) -> None:
        # --from-deal N: this run plays deals (or table rounds) N.. of the seed's sequence, so
        # runs on one seed made in pieces (several machines, several sessions) cover disjoint
        # deals of the very same sequence and can be paired deal by deal.
        if name in only or (not only and name not in OPT_IN):
            end = first + count
            jobs.extend((name, i, min(end, i + size), args.seed) for i in range(first, end, size))

    for name, _, _, share in HEADS_UP:
        chunks(name, max(1, round(args.rounds * share) // 2), 5)  # deals, two rounds each
    for name, _, share in TABLES:
        chunks(name, max(4, round(args.rounds * share)), 10)
    chunks("big_sets", max(1, args.rounds // 100), 1)
    return jobs


def add_search_flags(parser: argparse.ArgumentParser) -> None:
    """Issue 49's variants of the search (``search`` and ``flat_search``; defaults: the
    Expert as offered)."""
    o = expert.OFFERED
    group = parser.add_argument_group("the search's variant (search, flat_search)")
    group.add_argument(
        "--search-temperature", type=float, default=o.temperature, help="the weighting's softmax"
    )
    group.add_argument(
        "--search-dealt", type=float, default=o.dealt, help="worlds dealt per world kept"
    )
    group.add_argument(
        "--search-no-crn",
        action="store_true",
        help="each candidate its own worlds and playout seeds (default: common ones)",
    )
    group.add_argument(
        "--search-endgame",
        type=int,
        default=o.endgame,
        metavar="TILES",
        help="finish heads-up playouts exactly once the boneyard holds at most TILES",
    )


def search_settings(args: argparse.Namespace) -> expert.Settings:
    return expert.Settings(
        temperature=args.search_temperature,
        dealt=args.search_dealt,
        crn=not args.search_no_crn,
        endgame=args.search_endgame,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000, help="rounds per heads-up pairing")
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes playing the rounds")
    parser.add_argument("--only", default="", help="comma-separated pairings (default: all)")
    parser.add_argument(
        "--stop-after",
        type=float,
        default=0.0,
        help="seconds: start no chunk of deals after this and report those played (0: all)",
    )
    parser.add_argument(
        "--deals-as",
        default="",
        metavar="PAIRING",
        help="deal every heads-up pairing's rounds as this pairing's (the same deals, seeds)",
    )
    parser.add_argument(
        "--keep-deals",
        action="store_true",
        help="keep each deal's margin in the line (to pair two runs on the same deals)",
    )
    parser.add_argument(
        "--from-deal",
        type=int,
        default=0,
        metavar="N",
        help="start at the seed's deal (table: round) N, to play one seed's deals in pieces",
    )
    add_search_flags(parser)
    args = parser.parse_args()
    settings = search_settings(args)
    if args.deals_as and not any(p[0] == args.deals_as for p in HEADS_UP):
        raise SystemExit(f"no such heads-up pairing: {args.deals_as}")
    configure(settings, args.deals_as or None)
    started = time.perf_counter()
    jobs = plan(args)
    results: list[Result] = []
    if args.jobs > 1:
        context = multiprocessing.get_context("spawn")
        with context.Pool(args.jobs, configure, (settings, args.deals_as or None)) as pool:
            for result in pool.imap(run_job, jobs, chunksize=1):
                results.append(result)
                if args.stop_after and time.perf_counter() - started > args.stop_after:
                    break  # leaving the pool's block ends the workers
    else:
        for job in jobs:
            if args.stop_after and time.perf_counter() - started > args.stop_after:
                break
            results.append(run_job(job))
    jobs = jobs[: len(results)]  # a slow run stopped early reports the chunks it finished
    tallies: dict[str, dict[str, float]] = {}
    samples: dict[str, dict[str, list[float]]] = {}
    timings: dict[str, list[float]] = {}
    for job, (tally, sample, times) in zip(jobs, results, strict=True):
        into = tallies.setdefault(job[0], {})
        for k, count in tally.items():
            into[k] = into.get(k, 0) + count
        # Jobs come back in plan order, so samples keep the deals' order for any --jobs.
        for k, values in sample.items():
            samples.setdefault(job[0], {}).setdefault(k, []).extend(values)
        for k, spent in times.items():
            timings.setdefault(k, []).extend(spent)
    out: dict[str, object] = {
        "benchmark": "ai_strength",
        "rules": "standard",
        "margin": "opponent's points minus the player's, per round; 95% interval over deals "
        "(each chair-swapped deal's two rounds averaged into one sample)",
        "ties": "count half in win_rate",
        "ci": "95% Wilson over rounds (ci95); over deals (win_ci95_paired)",
        "jobs": args.jobs,
        # The search's variant (issue 49's protocol): what search and flat_search played.
        "search_settings": dataclasses.asdict(settings),
    }
    if args.deals_as:
        out["deals_as"] = args.deals_as
    out["seed"] = args.seed
    if args.from_deal:
        out["first_deal"] = args.from_deal  # deal_margins[i] is deal first_deal + i
    for name, *_ in HEADS_UP:
        if name in tallies:
            report = heads_up_report(tallies[name], samples[name])
            if args.keep_deals:  # for a comparison paired on the same deals
                report["deal_margins"] = samples[name]["margin"]
            out[name] = report
    for name, base, _ in TABLES:
        if name in tallies:
            out[name] = table_report(tallies[name], samples.get(name, {}), base)
    decision: dict[str, dict[str, float]] = {
        who: ms(timings[who]) for who in PLAYERS if timings.get(who)
    }
    if timings.get("big:hard"):
        decision["hard_big_sets"] = ms(timings["big:hard"])
    out["decision_ms"] = decision
    # CPU time per decision: what it costs a core of its own, whatever else the machine ran.
    out["decision_cpu_ms"] = {
        who: ms(timings[f"cpu:{who}"]) for who in PLAYERS if timings.get(f"cpu:{who}")
    }
    out["seconds"] = round(time.perf_counter() - started, 1)
    out["load_avg"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(out))


if __name__ == "__main__":
    main()
