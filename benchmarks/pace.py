"""How many days a match takes at its players' pace, and what a human was asked (issue 46).

Whole matches through the loopback fake Discord, the real bot driven by the real discord.py
client (the machinery of ``scripts/play_through_fake.py``: the lobby, the moves as a client
makes them, the fake's clock skipped between two players' moves). Each human is a model:

* a time zone (``--zones``, UTC offsets in hours, given to the bot with ``/mt me time_zone:``
  and quiet hours over their night), waking hours (``--wake`` to ``--sleep``, local);
* after their turn comes (the bot pings them, or it comes back to them), they answer after a
  log-normal delay counted in AWAKE minutes (median ``--delay-median``, spread
  ``--delay-sigma``, at most ``--delay-max`` awake hours): pinged asleep, they answer after
  waking; a delay that runs into their night resumes the next morning. A draw and the play
  after it, a double and the tile on it, are one sitting (no second delay), and so is a turn
  back to them within ``--stay`` minutes of their own answer with no other human moving in
  between (every turn between was played at once: they are still looking). ``sittings``
  counts the waits.

Each player's own cadence (issue 46, item 6; docs/benchmarks.md, The players' cadence in the
pace model): ``--digest-share`` of the seats (drawn with the seed) are in daily digest mode
(``/mt me digest_hour:``): they hear of nothing per turn and answer once a day, at their
``--digest-hour``, after ``--digest-answer-median`` awake minutes, and any turn back to them
within ``--digest-sitting`` minutes of an answer at once; a turn that comes later waits for
the next day's digest. ``--remind-after`` gives every other player that reminder interval
(``/mt me remind_after:``) and models the reminder: a second ping, with its own answer delay,
``--remind-after`` hours into a turn (after their night); they answer at the first one due.
Without it the model ignores reminders (the figures before issue 46's cadence). The baseline
is always today's cadence: a ping per turn, reminders ignored.

The fake's clock (which the bot shares) jumps over every wait, so no real time is slept: the
scheduler's reminders, deadlines and away turns fire as they would. Moves are chosen by the
engine's Normal computer player from the player's own seat view, made from their turn DM when
it carries the controls, else with ``/play``, ``/draw``, ``/pass``.

``--orders on``, the declared policy: whenever a player's turn DM offers the plan (its one-tap
standing order, docs/players.md), they take it — ``then`` plays the plan's first tile now and
queues the rest, ``queue`` queues it all from their next turn (the turn's move is then theirs
as usual); the stops stay at their defaults. Stops are counted by reason off each order's note
(``orders_stopped``), which the service keeps apart from the log.

Every seat turn of a human is classified off the event log: a human's own (``human_decisions``:
two or more legal moves when it came; ``human_one_move``: one), played by their standing order
(``played_by_orders``), played for them with no choice or one legal move (``played_forced``,
``/mt me autoplay:``), by the scheduler (``timeouts``, ``away``: counted apart), and anything
else (``played_otherwise``, which must be 0: nobody decides for a human). The same seeds are
then played as the ``baseline``: today's default before issue 46, every player on ``autoplay:
forced``, no orders; ``days_ratio`` = ``days_median`` / the baseline's.

    python benchmarks/pace.py --players 4 --preset standard --seeds 5
    python benchmarks/pace.py --players 2 --preset quick --seeds 2 --orders off

Prints ONE JSON line. The defaults, and why: docs/benchmarks.md (The pace of a match).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import math
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere

from bot.app import MexicanTrainBot, create_bot
from bot.config import Config
from bot.engine.ai import Level, choose_move
from bot.service.eventlog import ORDER_KIND
from bot.service.outbox import PLAYED_FOR_KINDS
from bot.service.settings import next_digest
from bot.store import GameStatus
from scripts.play_through_fake import away, budget, open_match, send_move, settle, turn_dm
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser, fake_discord, running_bot
from tests.fakediscord.clock import DiscordClock

NAMES = ("alice", "bob", "carol", "dave", "erin", "fay", "gus", "hana", "ivan", "jade")
#: Monday 5 January 2026, 18:00 UTC: the match opens in the evening in Europe, at lunch in
#: New York, at 03:00 in Tokyo (``--start-hour`` moves it).
DAY_ONE = datetime(2026, 1, 5, tzinfo=UTC)
#: Marker kinds of a turn played by a standing order (issue 46, item 2).
ORDER_KINDS: frozenset[str] = frozenset({ORDER_KIND})


@dataclass(frozen=True)
class Human:
    """One player's day: UTC offset (hours), waking hours (local, whole or not)."""

    offset_h: float
    wake: float = 7.0
    sleep: float = 23.0

    def _local_hour(self, t: datetime) -> float:
        local = t + timedelta(hours=self.offset_h)
        return local.hour + local.minute / 60 + local.second / 3600 + local.microsecond / 3.6e9

    def awake(self, t: datetime) -> bool:
        h = self._local_hour(t)
        if self.wake < self.sleep:
            return self.wake <= h < self.sleep
        return h >= self.wake or h < self.sleep  # (a night owl: awake across midnight)

    def answer_at(self, since: datetime, awake_minutes: float) -> datetime:
        """When they answer a turn that came at ``since``, ``awake_minutes`` of their waking
        time later (their night does not count)."""
        t, left = since, awake_minutes * 60.0
        for _ in range(10_000):
            h = self._local_hour(t)
            if not self.awake(t):
                t += timedelta(hours=(self.wake - h) % 24)  # to the next wake-up
                continue
            until_sleep = ((self.sleep - h) % 24) * 3600 or 24 * 3600
            if left <= until_sleep:
                return t + timedelta(seconds=left)
            left -= until_sleep
            t += timedelta(seconds=until_sleep)
        raise RuntimeError("no waking hours")  # (wake == sleep is refused by the flags)


def zone_name(offset_h: float) -> str:
    """An IANA name for a whole-hour UTC offset (``Etc/GMT+5`` is UTC-5: POSIX signs)."""
    if offset_h == 0:
        return "UTC"
    return f"Etc/GMT{-int(offset_h):+d}"


def delay_minutes(rng: random.Random, args: argparse.Namespace) -> float:
    minutes = rng.lognormvariate(math.log(args.delay_median), args.delay_sigma)
    return min(minutes, args.delay_max * 60)


def digest_delay_minutes(rng: random.Random, args: argparse.Namespace) -> float:
    """From a digest DM to the answer (awake minutes): the player chose that hour to play."""
    minutes = rng.lognormvariate(math.log(args.digest_answer_median), args.delay_sigma)
    return min(minutes, args.delay_max * 60)


def digest_seats(args: argparse.Namespace, seed: int) -> set[int]:
    """The players (by index) in daily digest mode: ``--digest-share`` of them, drawn with the
    seed, at least one for any share above 0."""
    count = min(args.players, math.ceil(args.digest_share * args.players - 1e-9))
    return set(random.Random(seed * 31 + 7).sample(range(args.players), count))


def percentile(values: list[float], q: float) -> float:
    """Linear interpolation between the closest ranks (numpy's default)."""
    xs = sorted(values)
    if len(xs) == 1:
        return xs[0]
    k = (len(xs) - 1) * q
    lo = math.floor(k)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def seat_turns(record: Any, human_seats: set[int]) -> Counter[str]:
    """Every seat turn of a human off the event log, by who made it: ``human`` (one of its
    moves made by its player: a draw played for them whose tile they then placed is theirs),
    else the marker's kind before its first move (``autoplay``, ``timeout``, ``away``, an
    order's), else ``otherwise`` (moves by nobody with no marker: must never happen). A turn
    is a run of moves of one seat in one round (a draw and its play, a double and the tile on
    it)."""
    kinds: Counter[str] = Counter()
    markers = PLAYED_FOR_KINDS | ORDER_KINDS
    marker: tuple[str, Any] | None = None
    turn: tuple[int, Any] | None = None  # (round, seat) of the turn being read
    made_by = ""  # what the turn being read is, so far

    def close() -> None:
        if turn is not None and turn[1] in human_seats:
            kinds[made_by] += 1

    round_no = 0
    for e in record.events:
        data = json.loads(e.payload) if e.payload else {}
        if e.kind == "round":
            close()
            round_no += 1
            turn = marker = None
        elif e.kind in markers:
            marker = (e.kind, data.get("seat"))
        elif e.kind == "move":
            seat = data.get("seat")
            if turn != (round_no, seat):
                close()
                turn = (round_no, seat)
                made_by = marker[0] if marker is not None and marker[1] == seat else "otherwise"
            if e.actor is not None:
                made_by = "human"
            marker = None
    close()
    return kinds


class Stopped:
    """The orders' stops by reason: each player's order carries the note of its last stop
    (``bot.service.orders``: kept apart from the log, private), read after every move and
    every wait; each stop counted once."""

    def __init__(self, users: list[int]) -> None:
        self.users = users
        self.seen: set[tuple[int, str]] = set()
        self.reasons: Counter[str] = Counter()

    async def look(self, bot: MexicanTrainBot, game_id: int) -> None:
        orders = getattr(bot.service, "orders", None)
        if orders is None:
            return
        for uid in self.users:
            order = await orders.get(game_id, uid)
            note = None if order is None else order.note
            if note is None:
                continue
            key = (uid, note.to_json())  # (the note says where it was written: once each)
            if key not in self.seen:
                self.seen.add(key)
                self.reasons[note.reason] += 1


def plan_control(dm: FakeMessage) -> str | None:
    """The turn DM's one-tap standing order, if it offers one (docs/players.md, Standing
    orders: ``mt:<game>:<version>:dm:then:<tiles>`` plays the plan's first tile now and queues
    the rest; ``…:dm:queue:<tiles>`` queues it all from the next turn)."""
    for button in dm.buttons:
        custom_id = str(button.get("custom_id") or "")
        if ":dm:then:" in custom_id or ":dm:queue:" in custom_id:
            return custom_id
    return None


async def wait_for_human(bot: MexicanTrainBot, game_id: int) -> Any:
    """The game once a human is to move or it is over (the bot plays computers and turns
    with no choice right after a human's answer)."""
    summary = await bot.service.game(game_id)
    for _ in range(500):
        if summary.turn is None or summary.turn.user_id is not None:
            break
        await asyncio.sleep(0.01)
        summary = await bot.service.game(game_id)
    return summary


async def one_match(
    args: argparse.Namespace,
    seed: int,
    *,
    autoplay: str | None,
    orders: bool,
    cadence: bool = True,
) -> dict[str, Any]:
    """One whole match on seed ``seed``: its figures."""
    with tempfile.TemporaryDirectory() as tmp:
        config = Config(database=Path(tmp) / "pace.sqlite3", synchronous="NORMAL")
        start = DAY_ONE + timedelta(hours=args.start_hour)
        async with fake_discord(clock=DiscordClock(1.0, start=start)) as fake:
            bot = create_bot(config, clock=fake.clock, rng=random.Random(seed))
            async with running_bot(fake, bot):
                return await _play(
                    args, fake, bot, seed, autoplay=autoplay, orders=orders, cadence=cadence
                )


async def _play(
    args: argparse.Namespace,
    fake: FakeDiscord,
    bot: MexicanTrainBot,
    seed: int,
    *,
    autoplay: str | None,
    orders: bool,
    cadence: bool = True,
) -> dict[str, Any]:
    """``cadence``: the players' own cadence as the flags say (digest seats, the reminder
    interval); else today's, a ping per turn (the baseline)."""
    rng = random.Random(seed)  # the players' moves
    delays = random.Random(seed * 7919 + 1)  # their answer times, apart from their moves
    # A reminder's and a digest's answer times apart again: the first pings' draws stay the
    # same with or without them, so a reminder can only make an answer sooner.
    reminded_delays = random.Random(seed * 7919 + 2)
    digest_delays = random.Random(seed * 7919 + 3)
    channel = fake.channel("mexican-train")
    users = [fake.user(NAMES[i]) for i in range(args.players)]
    zones = [args.zones[i % len(args.zones)] for i in range(args.players)]
    humans = {u.id: Human(z, args.wake, args.sleep) for u, z in zip(users, zones, strict=True)}
    by_id: dict[int, FakeUser] = {u.id: u for u in users}
    digest = {users[i].id for i in digest_seats(args, seed)} if cadence else set()
    remind_after = args.remind_after if cadence else None
    for u, z in zip(users, zones, strict=True):
        await bot.service.update_user_settings(
            u.id, bot.now(), time_zone=zone_name(z), autoplay=autoplay,
            quiet_start=int(args.sleep) % 24, quiet_end=int(args.wake) % 24,
            digest_hour=args.digest_hour if u.id in digest else None,
            reminders=None if remind_after is None else remind_after > 0,
            reminder_after_s=int(remind_after * 3600) if remind_after else None,
        )  # fmt: skip
    budget_before = fake.budget_report()
    _, place, game = await open_match(fake, bot, channel, users, preset=args.preset)
    started = fake.clock()
    seen: set[tuple[Any, ...]] = set()
    legal_when_handed: Counter[str] = Counter()
    human_moves = sittings = orders_set = 0
    stopped = Stopped([u.id for u in users])
    last_answer: dict[int, datetime] = {}
    last_mover: int | None = None
    for _ in range(args.max_moves):
        summary = await wait_for_human(bot, game.id)
        if summary.status is not GameStatus.ACTIVE or summary.turn is None:
            break
        uid = summary.turn.user_id
        assert uid is not None, "a computer's turn that never ended"
        key = (summary.round_no, summary.turn.seat, summary.turn_since)
        if key not in seen:  # their turn came (a ping, or their own answer showed it)
            seen.add(key)
            came = summary.turn_since or fake.clock()
            # Still looking: nobody else was waited for since their own answer (every turn
            # between played at once), and it came back within --stay minutes.
            looking = last_answer.get(uid) if last_mover == uid else None
            stay = args.digest_sitting if uid in digest else args.stay
            if looking is None or (came - looking).total_seconds() > stay * 60:
                if uid in digest:  # their digest DM, at their hour, lists this game
                    at = next_digest(came, zone_name(humans[uid].offset_h), args.digest_hour)
                    answer = humans[uid].answer_at(at, digest_delay_minutes(digest_delays, args))
                else:
                    answer = humans[uid].answer_at(came, delay_minutes(delays, args))
                    if remind_after:  # the reminder pings them again, after their night
                        again_at = came + timedelta(hours=remind_after)
                        reminded = humans[uid].answer_at(
                            again_at, delay_minutes(reminded_delays, args)
                        )
                        answer = min(answer, reminded)
                wait = (answer - fake.clock()).total_seconds()
                if wait > 0:
                    await away(fake, bot, wait, place)
                    await stopped.look(bot, game.id)
                sittings += 1
            # else: back to them moments after their own answer (every other turn played
            # at once): they are still looking, and answer now
            again = await wait_for_human(bot, game.id)
            if again.version != summary.version:
                continue  # the scheduler played meanwhile (a timeout, away): counted apart
            view = await bot.service.seat_view(game.id, uid)
            legal_when_handed["one" if len(view.legal) == 1 else "several"] += 1
        view = await bot.service.seat_view(game.id, uid)
        dm = turn_dm(fake, by_id[uid], summary.version)
        plan = plan_control(dm) if orders and dm is not None else None
        if plan is not None and dm is not None:  # the policy: take the plan the DM offers
            await (await by_id[uid].click(dm, custom_id=plan)).message()
            await settle(bot)
            orders_set += 1
        if plan is None or ":dm:then:" not in plan:  # (then: that tap was this turn's move)
            move = choose_move(view, Level.NORMAL, rng.randrange(2**32))
            await send_move(bot, by_id[uid], move, place, "en", dm=dm)
            await settle(bot)
        human_moves += 1
        last_answer[uid], last_mover = fake.clock(), uid
        await stopped.look(bot, game.id)
    ended = fake.clock()
    finished = (await bot.service.game(game.id)).status is GameStatus.FINISHED
    record = await bot.service.game_record(game.id)
    human_seats = {p.seat for p in (await bot.service.game(game.id)).humans}
    kinds = seat_turns(record, human_seats)
    stops = stopped.reasons
    pings = sum(len(fake.pings_for(u)) for u in users)
    humans_now = (await bot.service.game(game.id)).humans
    digest_kinds = seat_turns(record, {p.seat for p in humans_now if p.user_id in digest})
    spent = budget(budget_before, fake.budget_report(), human_moves)
    return {
        "seed": seed,
        "finished": finished,
        "days": (ended - started).total_seconds() / 86400,
        "human_seat_turns": sum(kinds.values()),
        "human_turns": kinds["human"],
        "human_decisions": legal_when_handed["several"],
        "human_one_move": legal_when_handed["one"],
        "played_by_orders": sum(kinds[k] for k in ORDER_KINDS),
        "played_forced": kinds["autoplay"],
        "timeouts": kinds["timeout"],
        "away": kinds["away"],
        "played_otherwise": kinds["otherwise"],
        "orders_stopped": dict(stops),
        "pings": pings,
        "digest_seats": len(digest),
        "digest_seat_turns": sum(digest_kinds.values()),
        "digest_pings": sum(len(fake.pings_for(by_id[uid])) for uid in digest),
        "sittings": sittings,
        "orders_set": orders_set,
        "human_moves": human_moves,
        "global_limited": round(spent["global_limited_per_human_move"] * human_moves),
    }


def summarise(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures over the seeds: days median and p90, counts summed, rates pooled."""
    days = [r["days"] for r in runs]
    total = {
        k: sum(r[k] for r in runs)
        for k in (
            "human_seat_turns", "human_turns", "human_decisions", "human_one_move",
            "played_by_orders", "played_forced", "timeouts", "away", "played_otherwise",
            "pings", "sittings", "orders_set", "human_moves", "global_limited",
            "digest_seat_turns", "digest_pings",
        )
    }  # fmt: skip
    stops: Counter[str] = Counter()
    for r in runs:
        stops.update(r["orders_stopped"])
    moves = max(1, total.pop("human_moves"))
    return {
        "days_median": round(statistics.median(days), 2),
        "days_p90": round(percentile(days, 0.9), 2),
        "days": [round(d, 2) for d in days],
        "finished": sum(r["finished"] for r in runs),
        "digest_seats": max(r["digest_seats"] for r in runs),
        "pings_per_seat_turn": round(total["pings"] / max(1, total["human_seat_turns"]), 3),
        # A digest player's pings are their digest DMs (one a day with something waiting).
        "pings_per_digest_seat_turn": round(
            total["digest_pings"] / max(1, total["digest_seat_turns"]), 3
        ),
        **total,
        "global_limited_per_human_move": round(total.pop("global_limited") / moves, 3),
        "orders_stopped": dict(sorted(stops.items())),
    }


async def main(args: argparse.Namespace) -> dict[str, Any]:
    logging.getLogger("discord").setLevel(logging.ERROR)
    began = time.perf_counter()
    seeds = [args.seed + i for i in range(args.seeds)]
    autoplay = None if args.autoplay == "default" else args.autoplay
    runs = [await one_match(args, s, autoplay=autoplay, orders=args.orders == "on") for s in seeds]
    base = [await one_match(args, s, autoplay="forced", orders=False, cadence=False) for s in seeds]
    figures = summarise(runs)
    baseline = summarise(base)
    return {
        "benchmark": "pace",
        "players": args.players,
        "preset": args.preset,
        "seeds": args.seeds,
        "first_seed": args.seed,
        "orders": args.orders,
        "autoplay": args.autoplay,
        "model": {
            "zones": [args.zones[i % len(args.zones)] for i in range(args.players)],
            "wake": args.wake,
            "sleep": args.sleep,
            "delay_median_min": args.delay_median,
            "delay_sigma": args.delay_sigma,
            "delay_max_h": args.delay_max,
            "start_utc": (DAY_ONE + timedelta(hours=args.start_hour)).isoformat(),
            "digest_share": args.digest_share,
            "digest_hour": args.digest_hour,
            "digest_answer_median_min": args.digest_answer_median,
            "digest_sitting_min": args.digest_sitting,
            "remind_after_h": args.remind_after,
        },
        **figures,
        "baseline": baseline,
        "days_ratio": round(figures["days_median"] / max(1e-9, baseline["days_median"]), 3),
        "wall_s": round(time.perf_counter() - began, 1),
    }


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--players", type=int, default=4, choices=range(2, len(NAMES) + 1))
    p.add_argument("--preset", default="standard")
    p.add_argument("--seeds", type=int, default=5, help="matches per run (and per baseline)")
    p.add_argument("--seed", type=int, default=1, help="the first seed")
    p.add_argument(
        "--orders", choices=("on", "off"), default="on",
        help="on: every player takes the standing order their turn DM offers",
    )  # fmt: skip
    p.add_argument(
        "--autoplay", choices=("default", "off", "forced", "only"), default="default",
        help="every player's /mt me autoplay: in the run (the baseline is always forced)",
    )  # fmt: skip
    p.add_argument(
        "--zones", type=lambda s: [float(x) for x in s.split(",")], default=[-5.0, 0.0, 1.0, 9.0],
        help="UTC offsets in whole hours, one per player, repeated for more players",
    )  # fmt: skip
    p.add_argument("--wake", type=float, default=7.0, help="local hour they wake up")
    p.add_argument("--sleep", type=float, default=23.0, help="local hour they go to sleep")
    p.add_argument("--delay-median", type=float, default=40.0, help="awake minutes to answer")
    p.add_argument("--delay-sigma", type=float, default=1.0, help="log-normal spread")
    p.add_argument("--delay-max", type=float, default=16.0, help="awake hours at most")
    p.add_argument(
        "--stay", type=float, default=5.0,
        help="minutes a player keeps looking after their answer: a turn back by then, at once",
    )  # fmt: skip
    p.add_argument("--start-hour", type=float, default=18.0, help="UTC hour the match opens")
    p.add_argument(
        "--digest-share", type=float, default=0.0,
        help="share of the players in daily digest mode (0 to 1; drawn with the seed)",
    )  # fmt: skip
    p.add_argument(
        "--digest-hour", type=int, default=18, help="local hour a digest player's digest comes"
    )
    p.add_argument(
        "--digest-answer-median", type=float, default=20.0,
        help="awake minutes from the digest DM to a digest player's answer",
    )  # fmt: skip
    p.add_argument(
        "--digest-sitting", type=float, default=30.0,
        help="minutes a digest player stays after an answer: a turn back by then, at once",
    )  # fmt: skip
    p.add_argument(
        "--remind-after", type=float, default=None,
        help="hours into a turn every other player is reminded (0: never); unset: the model "
        "ignores reminders",
    )  # fmt: skip
    p.add_argument("--max-moves", type=int, default=5000, help="human moves per match at most")
    args = p.parse_args(argv)
    if args.wake % 24 == args.sleep % 24:
        p.error("--wake and --sleep must differ: nobody is awake all day or never")
    if not 0 <= args.digest_share <= 1:
        p.error("--digest-share is a share of the players, from 0 to 1")
    if not 0 <= args.digest_hour <= 23:
        p.error("--digest-hour is a whole hour from 0 to 23")
    if args.remind_after is not None and args.remind_after < 0:
        p.error("--remind-after is hours (0: never)")
    if any(z != int(z) or not -12 <= z <= 14 for z in args.zones):
        p.error("--zones are whole-hour UTC offsets from -12 to 14")
    return args


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(parse()))))
