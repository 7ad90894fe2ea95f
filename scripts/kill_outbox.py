"""kill -9 during play, through the fake Discord: every committed move told once (issue 37).

The fake Discord runs in this process; the bot runs in a child process (the real bot,
``bot.app.create_bot``, pointed at the fake), on an SQLite file or a PostgreSQL database. Two
people play whole matches by typing moves (``/play``, ``/draw``, ``/pass``). Between normal
moves, the child is killed with SIGKILL ``--at-ack`` times the instant the mover's ✅ arrives,
and ``--random`` times at a random instant after a move was typed (0 to 0.6 s), then started
again on the same database. At the end (after a last restart has paid what was owed) it
checks, against the event log:

* **every committed move appears in the channel exactly once**: the lines the posts hold,
  as a multiset, against the lines of every move in the log (``missing``, ``duplicated``);
* **the next player is pinged exactly once**: per player, the notifications they got (a DM,
  a mention that pings) against the turns that came to them from someone else's move;
* the posts Discord answered from a nonce instead of posting twice (``nonce_repeats``).

``--at-undo N`` kills N times the instant the answer to the host's ``/mt undo`` arrives (after
a move to take back): the undo's line must appear once and the player to move be pinged once
(an undo's cancelled moves were told before it, so every line the log ever held counts).
``--explain`` prints on stderr, per user, the turns a ping was expected for (game, seq of the
event that gave the turn, round, when) and the pings got (when, how, the first line), and when
the bot was started: a missing ping is found by setting the two lists side by side.
``--orders``: half the time a player can, they type their train's plan as a standing order
(``/play first @N then: …``, issue 46), so kills land between an order's commit and its post
too; the JSON adds ``orders_typed`` and ``order_moves``.
``--from-dm``: a player with a live turn DM makes the move from it (a tap, not typed), so the
end-of-match DM rides on that click as a followup (issue 47: no nonce), and a kill at the end
lands between a followup and its crossing-off too; the JSON adds ``dm_moves`` and
``end_by_followup`` (the end DMs sent that way).
``--at-end N`` plays N matches to their end and kills the bot right after the answer to the
last move (at a random instant 0 to 0.3 s after it, to land between the end's DMs too): every
human must be told the end exactly once (``end_missing``, ``end_duplicated``).

Prints ONE JSON line.

    python scripts/kill_outbox.py --store sqlite --at-ack 10 --random 20
    python scripts/kill_outbox.py --store postgresql --at-ack 10 --random 20
    python scripts/kill_outbox.py --store sqlite --at-ack 0 --random 0 --at-undo 10 --at-end 5
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import dataclasses
import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere

from bot.config import Config
from bot.engine import Draw, Match, Pass, Play
from bot.engine.match import RoundStarted
from bot.service import GameService
from bot.service.eventlog import ENGINE_KINDS, UNDO_KIND, cancelled_seqs
from bot.service.outbox import PLAYED_FOR_KINDS, played_for_facts, undone_fact
from bot.service.outcome import Step, players_of, read_rules
from bot.service.replay import decode_event
from bot.store import EventRow, GameStatus, Store, open_store
from bot.store.outbox import OWING
from bot.ui.facts import undone_line
from bot.ui.messages import played_for_lines, step_lines

WAIT = 60.0


# ---------------------------------------------------------------------- the child: the bot


async def child(base: str, gateway: str, target: str, seed: int) -> None:
    import discord
    import yarl

    from bot.app import create_bot
    from bot.ui.deliver import Deliverer

    if os.environ.get("KILL_OUTBOX_CONTROL"):
        # The control run: nothing pays what a crash left owed, as before the outbox.
        async def nothing(self: Deliverer, **kwargs: Any) -> int:
            return 0

        async def idle(self: Deliverer, **kwargs: Any) -> None:
            await asyncio.Event().wait()

        Deliverer.drain = nothing  # type: ignore[method-assign]
        Deliverer.run = idle  # type: ignore[method-assign]

    discord.http.Route.BASE = base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    bot = create_bot(config_for(target, sync=True), rng=random.Random(seed))
    bot._connection.guild_ready_timeout = 0.05
    await bot.start("fake-token")


def config_for(target: str, *, sync: bool = False) -> Config:
    if target.startswith("postgresql://"):
        return Config(database_url=target, render_workers=0, sync_commands=sync)
    return Config(database=Path(target), render_workers=0, sync_commands=sync)


# ---------------------------------------------------------------------- the parent: players


class Run:
    def __init__(
        self, target: str, rng: random.Random, log: Path, *, explain: bool = False
    ) -> None:
        from tests.fakediscord import FakeDiscord

        self.target, self.rng, self.log = target, rng, log
        # Slow children under load must not lose interactions to the 3 s deadline: that is
        # not what this run measures.
        self.fake = FakeDiscord(strict=False, interaction_deadline=60.0)
        self.proc: asyncio.subprocess.Process | None = None
        self.starts = 0
        #: When each bot process was started: a commit after one is not the same cycle.
        self.restarts: list[datetime] = []
        self.store: Store | None = None
        self.service: GameService | None = None
        self.games: list[int] = []
        self.control = bool(os.environ.get("KILL_OUTBOX_CONTROL"))
        self.explain = explain
        #: --orders: players type their train's plan as a standing order half the time.
        self.orders = False
        self.orders_typed = 0
        #: --from-dm: a player with a live turn DM moves from it (the end DM's followup).
        self.from_dm = False
        self.dm_moves = 0

    async def start_child(self) -> None:
        from tests.fakediscord.server import API_PREFIX

        self.starts += 1
        self.restarts.append(datetime.now(UTC))
        before = self.fake.gateway.active
        with self.log.open("ab") as out:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                __file__,
                "--child",
                self.fake.base_url + API_PREFIX,
                self.fake.gateway_url,
                self.target,
                str(self.starts),
                stdout=out,
                stderr=out,
            )
        deadline = time.monotonic() + WAIT
        while True:
            session = self.fake.gateway.active
            ready = session is not None and session is not before and session.conn is not None
            if ready and self.fake.commands():
                break
            assert self.proc.returncode is None, f"the bot exited: see {self.log}"
            assert time.monotonic() < deadline, "the bot never connected"
            await asyncio.sleep(0.05)
        await self.paid()

    async def kill(self) -> None:
        assert self.proc is not None
        self.proc.kill()  # SIGKILL
        await self.proc.wait()
        self.proc = None

    async def paid(self) -> None:
        """Wait until the outbox owes nothing: everything committed was delivered. The control
        run (nothing pays what a crash left owed) gives each move a second instead."""
        assert self.store is not None
        if self.control:
            await asyncio.sleep(1.0)
            return
        deadline = time.monotonic() + WAIT
        # A row that only keeps where a held draw starts (``held_from``) owes nothing on its
        # own: the next move's post tells the draw (bot.ui.turnpost.TurnPost._held_lines).
        owing = "SELECT COUNT(*) FROM outbox WHERE " + OWING
        while int((await self.store.fetch_one(owing))[0]) != 0:
            assert time.monotonic() < deadline, "the outbox was never paid"
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.1)  # the last edit's answer on its way

    async def current_game(self) -> int:
        from tests.e2e.helpers import lobby_card

        assert self.service is not None
        room = self.room
        game = await self.service.game_in_channel(room.id)
        if game is not None and game.status is GameStatus.ACTIVE:
            return game.id
        host, other = self.alice, self.bob
        inv = await host.slash("mt new", channel=room, preset="quick")
        await inv.message(timeout=WAIT)
        # The card follows the host's answer, as the command's followup.
        lobby = await lobby_card(inv.fake, room, WAIT)
        assert lobby is not None
        await (await other.click(lobby, label="Join")).message(timeout=WAIT)
        await (await host.click(lobby, label="Start")).message(timeout=WAIT)
        await self.paid()
        game = await self.service.game_in_channel(room.id)
        assert game is not None
        self.games.append(game.id)
        return game.id

    async def type_a_move(self) -> Any:
        from tests.e2e.helpers import live_dm, type_move

        assert self.service is not None
        gid = await self.current_game()
        game = await self.service.game(gid)
        assert game.turn is not None and game.turn.user_id is not None
        user = self.users[game.turn.user_id]
        view = await self.service.seat_view(gid, user.id)
        moves = [m for m in view.legal if isinstance(m, Play | Draw | Pass)]
        plays = [m for m in moves if isinstance(m, Play)]
        if self.orders and view.hand and view.seat is not None and self.rng.random() < 0.5:
            # --orders: their train's plan as a standing order, typed (/play … then:).
            from bot.engine.ai import longest_train

            plan = longest_train(view.hand, view.trains[view.seat].end)
            if len(plan) > 1 and Play(plan[0], view.seat) in plays:
                self.orders_typed += 1
                then = " ".join(str(t) for t in plan[1:5])
                return await user.slash(
                    "play", channel=self.room, tile=str(plan[0]), train=f"@{view.seat + 1}",
                    then=then,
                )  # fmt: skip
        move = self.rng.choice(plays if plays and self.rng.random() < 0.8 else moves)
        dm = live_dm(user, game.version) if self.from_dm else None
        if dm is not None:  # --from-dm: the move from the turn DM, as a player taps it
            self.dm_moves += 1
            if isinstance(move, Draw | Pass):
                return await user.click(dm, label=str(move).capitalize())
            return await user.select(dm, values=[str(move)])
        return await type_move(user, self.room, str(move))

    async def undo_and_die(self) -> bool:
        """A move, then the host's ``/mt undo`` of it; killed the instant the undo's answer
        arrives. True when the undo was made (one right after a round's or a match's end is
        refused: nothing to take back)."""
        answer = await (await self.type_a_move()).message(timeout=WAIT)
        assert answer.text.startswith("✅"), answer.text
        await self.paid()
        inv = await self.alice.slash("mt undo", channel=self.room)  # Alice hosts every game
        answer = await inv.message(timeout=WAIT)
        await self.kill()
        return answer.content.startswith("Undone")

    async def end_and_die(self) -> None:
        """Play the current match to its end; kill right after the last move's answer."""
        assert self.service is not None
        gid = await self.current_game()
        for _ in range(1000):
            answer = await (await self.type_a_move()).message(timeout=WAIT)
            assert answer.text.startswith("✅"), answer.text
            if (await self.service.game(gid)).status is not GameStatus.ACTIVE:
                await asyncio.sleep(self.rng.uniform(0.0, 0.3))
                await self.kill()
                return
            await self.paid()
        raise AssertionError("the match never ended")

    async def main(
        self, at_ack: int, at_random: int, between: int, at_undo: int = 0, at_end: int = 0
    ) -> dict[str, Any]:
        await self.fake.start()
        self.room = self.fake.channel("games")
        self.alice, self.bob = self.fake.user("alice"), self.fake.user("bob")
        self.users = {u.id: u for u in (self.alice, self.bob)}
        self.store = await open_store(config_for(self.target))
        self.service = GameService(self.store)
        kills = ["ack"] * at_ack + ["random"] * at_random + ["undo"] * at_undo + ["end"] * at_end
        self.rng.shuffle(kills)
        acked = undone = 0
        try:
            await self.start_child()
            for how in kills:
                for _ in range(between):
                    answer = await (await self.type_a_move()).message(timeout=WAIT)
                    assert answer.text.startswith("✅"), answer.text
                    await self.paid()
                if how in ("undo", "end"):
                    if how == "undo":
                        undone += await self.undo_and_die()
                    else:
                        await self.end_and_die()
                    await self.start_child()
                    continue
                inv = await self.type_a_move()
                if how == "ack":
                    answer = await inv.message(timeout=WAIT)
                    await self.kill()
                    acked += answer.text.startswith("✅")
                else:
                    await asyncio.sleep(self.rng.uniform(0.0, 0.6))
                    await self.kill()
                await self.start_child()
            result = await self.check()
        finally:
            if self.proc is not None:
                await self.kill()
            await self.store.close()
            await self.fake.stop()
        result.update(kills_at_ack=at_ack, kills_random=at_random, acks_before_kill=acked)
        result.update(kills_at_undo=at_undo, undos_made=undone, kills_at_end=at_end)
        return result

    async def order_moves(self) -> int:
        """Moves standing orders made (by nobody, right after an ``order`` marker)."""
        assert self.store is not None
        count = 0
        for gid in self.games:
            record = await self.store.load(gid)
            assert record is not None
            seat = None
            for e in record.events:
                data = json.loads(e.payload) if e.payload else {}
                if e.kind == "order":
                    seat = data["seat"]
                elif e.kind == "move" and e.actor is None and data.get("seat") == seat:
                    count += 1
                else:
                    seat = None
        return count

    # ------------------------------------------------------------------ the checks

    async def check(self) -> dict[str, Any]:
        assert self.store is not None
        expected: collections.Counter[str] = collections.Counter()
        pings_due: collections.Counter[int] = collections.Counter()
        end_due: collections.Counter[tuple[int, int]] = collections.Counter()
        moves = 0
        due_log: list[tuple[int, str]] = []
        for gid in self.games:
            record = await self.store.load(gid)
            assert record is not None
            told = told_in(record, self.restarts)
            if self.explain:
                for u, turns in told.due.items():
                    for seq, round_no in turns:
                        at = next(e.at for e in record.events if e.seq == seq)
                        due_log.append((u, f"due  game {gid} seq {seq} round {round_no} at {at}"))
            expected.update(told.lines)
            moves += told.moves
            pings_due.update(told.pings)
            if record.game.status is GameStatus.FINISHED:
                end_due.update((gid, s.user_id) for s in record.seats if s.user_id is not None)
        said: collections.Counter[str] = collections.Counter()
        for message in self.room.messages():
            if message.author is not self.fake.bot_user:
                continue
            for line in lines_of(message):
                if line in expected:
                    said[line] += 1
        got = {u: len(self.fake.pings_for(self.users[u])) for u in self.users}
        if self.explain:
            self.explain_pings(due_log)
        end_got: collections.Counter[tuple[int, int]] = collections.Counter()
        by_followup = 0  # end DMs that rode on the player's DM click (issue 47: no nonce)
        for u, user in self.users.items():
            for ping in self.fake.pings_for(user):
                message = self.fake.messages[ping.message_id]
                for gid in self.games:
                    if f"Game #{gid} " in message.text and "is over" in message.text:
                        end_got[(gid, u)] += 1
                        by_followup += message.webhook_id == self.fake.application_id
        return (
            {
                "store": "postgresql" if self.target.startswith("postgresql") else "sqlite",
                "games": len(self.games),
                "moves_committed": moves,
                "move_lines_expected": sum(expected.values()),
                "missing": sum((expected - said).values()),
                "duplicated": sum((said - expected).values()),
                "pings_expected": sum(pings_due.values()) + sum(end_due.values()),
                "pings_got": sum(got.values()),
                "pings_missing": sum(
                    max(0, pings_due[u] + end_of(end_due, u) - got[u]) for u in self.users
                ),
                "pings_extra": sum(
                    max(0, got[u] - pings_due[u] - end_of(end_due, u)) for u in self.users
                ),
                "end_expected": sum(end_due.values()),
                "end_missing": sum((end_due - end_got).values()),
                "end_duplicated": sum((end_got - end_due).values()),
                "nonce_repeats": self.fake.nonce_repeats,
                "bot_starts": self.starts,
                "control": self.control,
            }
            | (
                {"orders_typed": self.orders_typed, "order_moves": await self.order_moves()}
                if self.orders
                else {}
            )
            | ({"dm_moves": self.dm_moves, "end_by_followup": by_followup} if self.from_dm else {})
        )

    def explain_pings(self, due_log: list[tuple[int, str]]) -> None:
        """Per user, on stderr: the turns a ping was expected for, then the pings got (when,
        how, the message's first line), each list oldest first, to set side by side."""
        # The nonce each message was sent with (a DM sent twice for one turn carried two).
        nonces = {m.id: n for n, (m, _) in self.fake._nonces.items()}
        for u, user in self.users.items():
            print(f"== {user.name} ({u})", file=sys.stderr)
            for who, line in due_log:
                if who == u:
                    print("  " + line, file=sys.stderr)
            for ping in self.fake.pings_for(user):
                message = self.fake.messages[ping.message_id]
                first = (message.text or str(message.embeds[:1])).splitlines()[:1]
                nonce = nonces.get(message.id, "-")
                print(
                    f"  got  {message.timestamp} {ping.how:7} {nonce:25} {first}", file=sys.stderr
                )
        starts = ", ".join(r.time().isoformat() for r in self.restarts)
        print(f"== bot started at {starts}", file=sys.stderr)


def end_of(due: collections.Counter[tuple[int, int]], user: int) -> int:
    return sum(n for (_, u), n in due.items() if u == user)


def lines_of(message: Any) -> Iterator[str]:
    """A channel message's lines as a reader reads them: its text (a classic post's content,
    or a card's text displays: a post the bot sends as its own message is a card since issue
    47) and its embeds' descriptions."""
    yield from message.text.splitlines()
    for embed in message.embeds:
        yield from str(embed.get("description") or "").splitlines()


@dataclasses.dataclass
class Told:
    """What the log says a game's channel and players were told."""

    lines: collections.Counter[str] = dataclasses.field(default_factory=collections.Counter)
    pings: collections.Counter[int] = dataclasses.field(default_factory=collections.Counter)
    moves: int = 0
    #: Per user, the turns each ping is owed for: (seq of the event that gave the turn, round).
    due: dict[int, list[tuple[int, int]]] = dataclasses.field(default_factory=dict)


def told_in(record: Any, restarts: list[datetime]) -> Told:
    """Every line the channel was owed (each move's, each undo's: a move an undo took back was
    told before it), and per user the turn pings: the first turn of the match when the host
    did not get it, each turn that came to them from the other player's move, and the turn an
    undo gave back to someone other than who undid it (a move that leaves its own player to
    move pings nobody: they are looking; a turn with no choice, played for its player by
    autoplay, is part of the move before it and pings nobody, unless the bot was restarted in
    between: then the mover's answer never told them, and the deliverer pings them)."""
    row, seats = record.game, record.seats
    rules = read_rules(row)
    names = [s.display_name for s in seats]
    players = players_of(seats)
    events = [e for e in record.events if e.kind in ENGINE_KINDS or e.kind == UNDO_KIND]
    told = Told()
    gone_at_end = cancelled_seqs(row.id, record.events)
    match: Match | None = None
    live: list[EventRow] = []
    actor: int | None = row.host_id  # the first deal comes from the host's Start
    # A turn played for someone (no choice, time out, away) is told in one line, not a line
    # a move: its moves (made by nobody, right after the marker) are gathered per marker.
    played_for: dict[int, list[Step]] = {}
    marker: EventRow | None = None
    for i, e in enumerate(events):
        if e.kind == UNDO_KIND:
            fact = undone_fact(e, record.events, players)
            told.lines.update(undone_line(dict(fact.params), "en").splitlines())
            gone = set(json.loads(e.payload)["seqs"])
            live = [x for x in live if x.seq not in gone]
            match = replayed(live, rules, names, row.engine_version)
            actor = e.actor
        else:
            live.append(e)
            event = decode_event(e, rules, len(names))
            if isinstance(event, RoundStarted):
                match = match or Match(rules, names, row.engine_version)
                match.start_round(event.order)
            else:
                assert match is not None and match.round is not None
                round_no = match.round.round_no
                applied = match.apply(event.move, event.seat)
                step = Step(e.seq, players[event.seat], event.move, applied, round_no)
                marker = marker_before(record.events, e, marker)
                if marker is not None and json.loads(marker.payload)["seat"] == event.seat:
                    played_for.setdefault(marker.seq, []).append(step)
                else:
                    marker = None
                    told.lines.update(step_lines(names, step, "en"))
                told.moves += e.seq not in gone_at_end
                if e.actor is not None:  # a turn played for nobody (autoplay) is the actor's
                    actor = e.actor
        nxt = events[i + 1] if i + 1 < len(events) else None
        if nxt is not None and nxt.kind == "round":
            continue  # the deal is part of the same commit
        if nxt is not None and nxt.kind == "move" and nxt.actor is None:
            # A turn with no choice played for its player: the same cycle, which pings at its
            # end. Played by a restarted bot, the mover's answer never told them: pinged too.
            if restarted_between(e, nxt, restarts):
                actor = None
            continue
        if match is None or match.is_over or match.round is None:
            continue
        seat = match.round.current_seat
        if seat is None:
            continue
        user = seats[seat].user_id
        if user is not None and user != actor:
            told.pings[user] += 1
            told.due.setdefault(user, []).append((e.seq, match.round.round_no))
    for seq, steps in played_for.items():
        for fact in played_for_facts(record.events, seq, players, steps)[:1]:
            told.lines.update(played_for_lines(steps, dict(fact.params), names, "en"))
    return told


def marker_before(
    events: tuple[EventRow, ...], move: EventRow, marker: EventRow | None
) -> EventRow | None:
    """The played-for marker whose turn ``move`` is part of: the marker itself just before it
    (a ``replace`` may sit between), or the one the move before it was part of; None for a
    move someone made."""
    if move.actor is not None:
        return None
    before = [e for e in events if e.seq < move.seq][-2:]
    for e in reversed(before):
        if e.kind in PLAYED_FOR_KINDS:
            return e
        if e.kind != "replace":
            break
    return marker


def restarted_between(before: EventRow, after: EventRow, restarts: list[datetime]) -> bool:
    start, end = datetime.fromisoformat(before.at), datetime.fromisoformat(after.at)
    return any(start < r <= end for r in restarts)


def replayed(live: list[EventRow], rules: Any, names: list[str], version: int) -> Match:
    """The match as these (live) events leave it."""
    match: Match | None = None
    for e in live:
        event = decode_event(e, rules, len(names))
        if isinstance(event, RoundStarted):
            match = match or Match(rules, names, version)
            match.start_round(event.order)
        else:
            assert match is not None
            match.apply(event.move, event.seat)
    assert match is not None
    return match


@contextlib.contextmanager
def database(kind: str) -> Iterator[str]:
    if kind == "sqlite":
        with tempfile.TemporaryDirectory() as folder:
            yield str(Path(folder) / "games.db")
        return
    from tests import pg

    with pg.start(durable=True) as server:
        yield server.url


async def parent(args: argparse.Namespace) -> dict[str, Any]:
    t0 = time.monotonic()
    log = Path(tempfile.mkdtemp()) / "bot.log"
    with database(args.store) as target:
        run = Run(target, random.Random(args.seed), log, explain=args.explain)
        run.orders, run.from_dm = args.orders, args.from_dm
        result = await run.main(args.at_ack, args.random, args.between, args.at_undo, args.at_end)
    result["seconds"] = round(time.monotonic() - t0, 1)
    result["load_avg"] = [round(x, 2) for x in os.getloadavg()]
    result["bot_log"] = str(log)
    return result


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        base, gateway, target, seed = sys.argv[2:6]
        asyncio.run(child(base, gateway, target, int(seed)))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--at-ack", type=int, default=10, help="kills at the mover's ✅")
    parser.add_argument("--random", type=int, default=20, help="kills at random instants")
    parser.add_argument("--at-undo", type=int, default=0, help="kills at the undo's answer")
    parser.add_argument("--at-end", type=int, default=0, help="kills at a match's end")
    parser.add_argument("--between", type=int, default=1, help="normal moves between kills")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--orders", action="store_true",
        help="players type their train's plan as a standing order (/play … then:) half the time",
    )  # fmt: skip
    parser.add_argument(
        "--from-dm", action="store_true",
        help="a player with a live turn DM moves from it (the end DM rides on that click)",
    )  # fmt: skip
    parser.add_argument(
        "--explain",
        action="store_true",
        help="print on stderr, per user, the turns a ping was expected for and the pings got",
    )
    parser.add_argument(
        "--control",
        action="store_true",
        help="the same run with the deliverer switched off (what main did): expect losses",
    )
    args = parser.parse_args()
    if args.control:
        os.environ["KILL_OUTBOX_CONTROL"] = "1"  # the children inherit it
    print(json.dumps(asyncio.run(parent(args))))


if __name__ == "__main__":
    main()
