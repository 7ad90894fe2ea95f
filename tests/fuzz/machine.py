"""A property-based fuzzer of the whole bot: hypothesis drives random sequences of what people
can do in Discord — slash commands with sensible or hostile options, real clicks on fresh and
stale buttons, forged custom ids, select values offered or not, autocomplete with any text,
legal moves, time passing — from several people in several channels, through the fake
Discord to the real bot on a real SQLite file, and checks after every step:

- every interaction was answered within Discord's 3 s (the fake refuses a late answer) and
  what it showed was delivered (no "thinking…" left, no answer Discord refused);
- nothing was logged at ERROR, nothing with a traceback, and the fake saw no unknown route;
- every tile of every game in play is in exactly one place (the engine's own count, and
  the counts everyone sees: hands, boneyard, trains and the engine add up to the set);
- a game's version only grows;
- no channel has two unfinished games;
- nobody was shown another player's hand: a hand message is private to one person, a
  seated player, and shows no tile another seat holds.

The bot and the fake run on an event loop in a thread of their own (:class:`Driver`): the
state machine (synchronous, as hypothesis wants it) sends each step there and waits.
``tests/fuzz/test_fuzz.py`` runs a bounded number of steps in the suite; ``scripts/fuzz.py
--steps N`` runs a long one and prints one JSON line.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import random
import re
import threading
from collections.abc import Awaitable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from bot.app import MexicanTrainBot, create_bot
from bot.cogs.timing import cog_of
from bot.config import Config
from bot.engine import Play, Tile, TileError
from bot.service.replay import replay_game
from bot.store import GameStatus
from tests.clock import FakeClock
from tests.fakediscord import (
    FakeChannel,
    FakeDiscord,
    FakeMessage,
    FakeUser,
    Invocation,
    fake_discord,
    running_bot,
)
from tests.fakediscord.server import InteractionRecord

T = TypeVar("T")

#: Seconds a step may take to settle before the fuzzer calls it stuck.
SETTLE = 30.0
PEOPLE = 4
CHANNELS = 3
ACTIONS = ("play", "draw", "pass", "hand", "knock", "nuke", "")
LOBBY_ACTIONS = ("join", "leave", "start", "cancel", "cpu", "uncpu", "nuke")
HAND_TITLE = re.compile(r"(?:game #|partie n°)(\d+), (?:round|manche) (\d+)/")
TILE_IN_HAND = re.compile(r"`(\d+-\d+)`")

#: Draws that pick among things the bot made (messages, buttons, options, channels with a game
#: in play, known game ids) draw an index in a fixed range, taken modulo the list's length:
#: hypothesis records the shape of every draw and refuses a case whose draws change shape
#: between runs (FlakyStrategyDefinition). ``sampled_from(live_list)`` changed shape with the
#: bot's state, which differs between runs (the deal's random generator and the game ids are
#: the long-running bot's, and what has landed when a step draws depends on the machine's
#: load). For the same reason no rule has a precondition on that state, and a rule draws
#: everything before it decides there is nothing to do.
PICK = st.integers(0, 63)

#: Text of any script, invisible characters included, sometimes very long.
ANY_TEXT = st.one_of(
    st.text(st.characters(exclude_categories=("Cs",)), max_size=30),
    st.builds(lambda c, n: c * n, st.characters(exclude_categories=("Cs",)), st.integers(50, 2500)),
    st.sampled_from(
        [
            "12-5",
            "@everyone",
            "<@&1>",
            "\u202e5-21",
            "\uff11\uff12-\uff15",
            "\u200b",
            "mexican",
            "@2",
        ]
    ),
)


@dataclasses.dataclass
class Counters:
    """What a run did, for the script's JSON line."""

    steps: int = 0
    interactions: int = 0
    moves: int = 0
    games: int = 0
    #: Of ``games``, those played in a thread of their own (``/mt new thread:``).
    thread_games: int = 0
    finished: int = 0


class Capture(logging.Handler):
    """Records at ERROR, and any record with a traceback, from every logger."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.bad: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.ERROR or record.exc_info:
            self.bad.append(f"{record.levelname} {record.name}: {record.getMessage()[:300]}")


class Driver:
    """The fake Discord and the real bot on an event loop in a thread of their own."""

    def __init__(self, directory: Path, seed: int = 7) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="fuzz-loop", daemon=True)
        self.thread.start()
        self.clock = FakeClock()
        self.counters = Counters()
        self.capture = Capture()
        self._stack = contextlib.AsyncExitStack()
        self.directory = directory
        self.seed = seed
        self.worlds = 0
        self.run(self._start())
        logging.getLogger().addHandler(self.capture)

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = 120.0) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    async def _start(self) -> None:
        self.fake: FakeDiscord = await self._stack.enter_async_context(fake_discord())
        config = Config(database=self.directory / "fuzz.sqlite3", render_workers=0)
        bot = create_bot(config, clock=self.clock, rng=random.Random(self.seed))
        assert isinstance(bot, MexicanTrainBot)
        self.bot = bot
        await self._stack.enter_async_context(running_bot(self.fake, bot))

    def close(self) -> None:
        logging.getLogger().removeHandler(self.capture)
        try:
            self.run(self._stack.aclose())  # the fake's own check (unknown routes) runs here
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)


class BotFuzz(RuleBasedStateMachine):
    """One "world" per example: new people and channels on the one long-running bot."""

    driver: Driver  # set by the test or the script before running
    #: Whether ``/mt new`` may open its game in a thread (the long runs of scripts/fuzz.py do;
    #: the suite's bounded run does not: see tests/fuzz/test_fuzz.py).
    threads: bool = True

    def __init__(self) -> None:
        super().__init__()
        d = self.driver
        d.worlds += 1
        fake = d.fake
        n = d.worlds
        self.users = [fake.user(f"w{n}p{i}") for i in range(PEOPLE)]
        self.channels = [fake.channel(f"w{n}c{i}") for i in range(CHANNELS)]
        self.games: set[int] = set()
        #: Channels with a game in play, after the last step.
        self.active: list[FakeChannel] = []
        self.finished: set[int] = set()
        self.versions: dict[int, int] = {}
        self.started: list[InteractionRecord] = []
        self.seen_edits: dict[int, int] = {}

    # ------------------------------------------------------------------ plumbing

    @property
    def fake(self) -> FakeDiscord:
        return self.driver.fake

    @property
    def bot(self) -> MexicanTrainBot:
        return self.driver.bot

    def step(self, coro: Awaitable[None]) -> None:
        """Run one step on the loop, then let it settle (answers, computers, posts)."""
        before = set(self.fake.interactions)

        async def go() -> None:
            await coro
            await self._settle(before)

        self.driver.run(go())
        self.driver.counters.steps += 1

    async def _settle(self, before: set[int]) -> None:
        fake, bot = self.fake, self.bot
        new = [r for i, r in fake.interactions.items() if i not in before]
        self.started = new
        self.driver.counters.interactions += len(new)

        def done() -> bool:
            for r in new:
                if r.rejections:
                    return True  # judged by the invariant
                if r.callback_type is None:
                    return False
                if r.callback_type == 5 and r.original is not None and r.original.loading:
                    return False
            return bot.games_busy() == 0

        await fake.wait_for(done, timeout=SETTLE, what="the step's answers")
        for _ in range(int(SETTLE / 0.02)):
            if bot.games_busy() == 0 and not await bot.service.computer_turns():
                break
            await asyncio.sleep(0.02)
        await self._quiet()
        self.active = []
        # Games opened in their own thread are played there: threads are places too.
        for channel in self.places():
            game = await bot.service.game_in_channel(channel.id)
            if game is not None and game.id not in self.games:
                self.games.add(game.id)
                self.driver.counters.games += 1
                self.driver.counters.thread_games += channel not in self.channels
            if game is not None and game.status is GameStatus.ACTIVE:
                self.active.append(channel)

    def places(self) -> list[FakeChannel]:
        """The world's channels and the threads opened from them, in the order they were
        made (the same in every replay of a case)."""
        return self.channels + [t for c in self.channels for t in c.threads()]

    async def _quiet(self) -> None:
        """Wait until Discord's side stops changing: what a step set going (a thread's card
        edited, a thread archived at a match's end, a post or DM after the answer) has all
        landed before the next step draws from the messages. A draw whose shape depended on
        what had landed yet is what made hypothesis see inconsistent data with thread games."""

        def signature() -> tuple[int, int, int]:
            messages = list(self.fake.messages.values())
            return len(messages), sum(m.edits for m in messages), len(self.fake.requests)

        last, calm = signature(), 0
        for _ in range(int(SETTLE / 0.02)):
            await asyncio.sleep(0.02)
            now = signature()
            calm = calm + 1 if now == last and self.bot.games_busy() == 0 else 0
            if calm >= 5:
                return
            last = now

    # ------------------------------------------------------------------ strategies in use

    def _user(self, data: st.DataObject) -> FakeUser:
        return data.draw(st.sampled_from(self.users), label="who")

    def _channel(self, data: st.DataObject) -> FakeChannel:
        """A channel, or the thread of the game opened from it (the draw's shape is the same
        whether or not the thread exists, as hypothesis needs to replay a case)."""
        channel = data.draw(st.sampled_from(self.channels), label="where")
        in_thread = data.draw(st.booleans(), label="in its thread")
        # An archived thread offers no commands or buttons (the fake refuses a test that acts
        # there, as a person cannot): its parent channel instead.
        threads = [t for t in channel.threads() if not getattr(t, "archived", False)]
        return threads[-1] if in_thread and threads else channel

    def _game_ids(self) -> st.SearchStrategy[int]:
        """A game id: one of this world's (by index, see :data:`PICK`), any number, a huge one."""

        def known(i: int) -> int:
            ids = sorted(self.games) or [1]
            return ids[i % len(ids)]

        return st.one_of(PICK.map(known), st.integers(0, 10**6), st.just(10**30))

    # ------------------------------------------------------------------ rules

    @initialize(data=st.data(), computer=st.booleans())
    def a_game_in_play(self, data: st.DataObject, computer: bool) -> None:
        """Every world starts with a game being played in its first channel."""
        host, guest = self.users[0], data.draw(st.sampled_from(self.users[1:]), label="guest")
        self._open(data, host, self.channels[0], [guest], computer=computer, start=True)

    @rule(data=st.data(), computer=st.booleans(), start=st.sampled_from([True, True, False]))
    def open_game(self, data: st.DataObject, computer: bool, start: bool) -> None:
        """/mt new, others join (through the button), maybe a computer, mostly Start."""
        host, channel = self._user(data), self._channel(data)
        others = data.draw(
            st.lists(st.sampled_from(self.users), min_size=1, max_size=3, unique=True)
        )
        self._open(data, host, channel, others, computer=computer, start=start)

    def _open(
        self,
        data: st.DataObject,
        host: FakeUser,
        channel: FakeChannel,
        others: list[FakeUser],
        *,
        computer: bool,
        start: bool,
    ) -> None:
        options = data.draw(
            st.fixed_dictionaries(
                {"preset": st.sampled_from(["quick", "double-9", "standard"])},
                optional={
                    "rounds": st.integers(1, 2),
                    "knock": st.booleans(),
                    "open_hands": st.booleans(),
                    "fast_start": st.booleans(),
                    "deadline_hours": st.sampled_from([0, 24]),
                    "on_timeout": st.sampled_from(["computer", "skip", "replace"]),
                    "thread": st.booleans() if self.threads else st.just(False),
                },
            )
        )

        async def go() -> None:
            await self._shown(host.slash("mt new", channel=channel, **options))
            # The card follows the host's answer (the command's followup, issue 47): the
            # command's own work is over once no interaction is running.
            await self.bot.metrics.wait_idle(SETTLE)
            await self._idle()
            card = self._card(channel)
            if card is None:
                return
            for person in others:
                if person is not host:
                    await self._click(person, card, "Join")
            if computer:
                cpu = next(s["custom_id"] for s in card.selects if s["custom_id"].endswith(":cpu"))
                await self._shown(host.select(card, values=["easy"], custom_id=cpu))
                await self._idle()
            if start:
                await self._click(host, card, "Start")

        self.step(go())

    @rule(where=PICK, moves=st.integers(1, 40), buttons=st.booleans(), seed=st.integers(0, 2**32))
    def play_legal_moves(self, where: int, moves: int, buttons: bool, seed: int) -> None:
        """The player to move makes a legal move (typed, or with the Play button and the move
        list), a few times: games go on to their end. The moves are chosen by a generator
        seeded by one draw: how many are chosen depends on the game (see :data:`PICK`)."""
        if not self.active:
            return
        channel = self.active[where % len(self.active)]
        choice = random.Random(seed)

        async def go() -> None:
            for _ in range(moves):
                game = await self.bot.service.game_in_channel(channel.id)
                if game is None or game.status is not GameStatus.ACTIVE or game.turn is None:
                    return
                uid = game.turn.user_id
                mover = next((u for u in self.fake.users.values() if u.id == uid), None)
                if mover is None:
                    return
                view = await self.bot.service.seat_view(game.id, mover.id)
                if not view.legal:
                    return
                move = choice.choice(view.legal)
                self.driver.counters.moves += 1
                typed = isinstance(move, Play) or str(move) in ("draw", "pass", "knock")
                table = self._latest_with(channel, "Play")
                if (buttons or not typed) and table is not None:
                    listed = await self._click(mover, table, "Play")
                    offered = [
                        o["value"] for s in (listed.selects if listed else []) for o in s["options"]
                    ]
                    if listed is not None and str(move) in offered:
                        await self._shown(mover.select(listed, values=[str(move)]))
                        await self._idle()
                        continue
                if isinstance(move, Play):
                    text = {"tile": str(move.tile), "train": str(move).partition(" ")[2]}
                    await self._shown(mover.slash("play", channel=channel, **text))
                elif typed:
                    await self._shown(mover.slash(str(move), channel=channel))
                else:
                    return  # a move only the move list offers, and it did not show
                await self._idle()

        self.step(go())

    @rule(data=st.data(), command=st.sampled_from([
        "mt join", "mt leave", "mt start", "mt cancel", "mt status", "mt scores", "mt hint",
        "mt end", "mt undo", "mt history", "mt mygames", "mt nudge", "hand", "table",
        "draw", "pass", "knock", "mt catchup",
    ]))  # fmt: skip
    def slash(self, data: st.DataObject, command: str) -> None:
        user, channel = self._user(data), self._channel(data)
        self.step(self._answered(user.slash(command, channel=channel)))

    @rule(data=st.data(), text=ANY_TEXT, train=st.one_of(st.none(), ANY_TEXT), forged=st.booleans())
    def play_text(self, data: st.DataObject, text: str, train: str | None, forged: bool) -> None:
        """/play with any text as the tile and the train (forged: longer than the option
        allows, as a modified client could send)."""
        user, channel = self._user(data), self._channel(data)
        options = {"tile": text} | ({} if train is None else {"train": train})
        if forged:
            self.step(self._answered(user.forge_slash("play", channel=channel, **options)))
            return
        options = {k: v[: 16 if k == "tile" else 40] or "x" for k, v in options.items()}
        self.step(self._answered(user.slash("play", channel=channel, **options)))

    @rule(data=st.data(), option=st.sampled_from(["time_zone", "language", "tiles", "level",
                                                   "preset", "state", "rounds", "page", "ping",
                                                   "file", "rules"]),
          value=st.one_of(ANY_TEXT, st.integers(-(2**70), 2**70), st.booleans()))  # fmt: skip
    def forged_option(self, data: st.DataObject, option: str, value: object) -> None:
        """A command with an option value no client offers (any type, any length)."""
        path = {
            "time_zone": "mt me", "language": "mt me", "tiles": "mt me", "level": "mt computer",
            "preset": "mt new", "state": "mt away", "rounds": "mt new", "page": "mt history",
            "ping": "mt me", "file": "mt history", "rules": "mt status",
        }[option]  # fmt: skip
        user, channel = self._user(data), self._channel(data)
        self.step(self._answered(user.forge_slash(path, channel=channel, **{option: value})))

    @rule(data=st.data(), which=PICK, button=PICK)
    def click_any_button(self, data: st.DataObject, which: int, button: int) -> None:
        """A real click on a button of any message the person can see: the latest or an old
        one whose buttons went stale."""
        user, channel = self._user(data), self._channel(data)
        messages = [
            m for m in channel.messages(visible_to=user)
            if any(not b.get("disabled") and b.get("custom_id") for b in m.buttons)
        ][-6:]  # fmt: skip
        if not messages:
            return
        message = messages[which % len(messages)]
        buttons = [b for b in message.buttons if not b.get("disabled") and b.get("custom_id")]
        chosen = buttons[button % len(buttons)]
        self.step(self._answered(user.click(message, custom_id=chosen["custom_id"])))

    @rule(
        data=st.data(), offered=st.booleans(), values=st.lists(ANY_TEXT, max_size=3),
        which=PICK, select_no=PICK, option_no=PICK,
    )  # fmt: skip
    def pick_in_a_select(
        self, data: st.DataObject, offered: bool, values: list[str],
        which: int, select_no: int, option_no: int,
    ) -> None:  # fmt: skip
        """A select used: with a value it offers, or (forged) with any values at all."""
        user, channel = self._user(data), self._channel(data)
        messages = [
            m for m in channel.messages(visible_to=user)
            if any(not s.get("disabled") for s in m.selects)
        ][-6:]  # fmt: skip
        if not messages:
            return
        message = messages[which % len(messages)]
        usable = [s for s in message.selects if not s.get("disabled")]
        select = usable[select_no % len(usable)]
        if offered:
            options = select.get("options") or [{"value": "-"}]
            option = options[option_no % len(options)]
            invocation = user.select(
                message, values=[option["value"]], custom_id=select["custom_id"]
            )
        else:
            invocation = user.forge_click(message, custom_id=select["custom_id"], values=values)
        self.step(self._answered(invocation))

    @rule(data=st.data(), kind=st.sampled_from(["turn", "lobby", "hist", "other", "text"]),
          action=st.sampled_from(ACTIONS + LOBBY_ACTIONS), number=st.integers(-5, 10**20),
          values=st.one_of(st.none(), st.lists(ANY_TEXT, max_size=2)), text=ANY_TEXT,
          which=PICK)  # fmt: skip
    def forged_click(
        self, data: st.DataObject, kind: str, action: str, number: int,
        values: list[str] | None, text: str, which: int,
    ) -> None:  # fmt: skip
        """A click whose custom_id no message carries: our ids with other numbers and
        actions, ids of other servers' games, or any text at all."""
        user, channel = self._user(data), self._channel(data)
        game = data.draw(self._game_ids(), label="game")
        messages = channel.messages(visible_to=user)[-4:]
        if not messages:
            return
        message = messages[which % len(messages)]
        custom_id = {
            "turn": f"mt:{game}:{number}:{action}",
            "lobby": f"mt:{game}:lobby:{action}",
            "hist": f"mt:{game}:hist:{number}:{action}",
            "other": f"mt:{game}:{action}",
            "text": text[:100],
        }[kind][:100]
        self.step(self._answered(user.forge_click(message, custom_id=custom_id, values=values)))

    @rule(data=st.data(), which=st.sampled_from(["tile", "train", "time_zone"]), text=ANY_TEXT)
    def autocomplete(self, data: st.DataObject, which: str, text: str) -> None:
        user, channel = self._user(data), self._channel(data)
        path = "mt me" if which == "time_zone" else "play"
        options: dict[str, Any] = {which: text}
        if which == "train":
            options["tile"] = text[:16] or "1"

        async def go() -> None:
            with contextlib.suppress(TimeoutError):  # judged by the invariant, not here
                await user.autocomplete(
                    path, focused=which, channel=channel, timeout=SETTLE, **options
                )

        self.step(go())

    @rule(hours=st.sampled_from([1, 13, 25, 72]))
    def time_passes(self, hours: int) -> None:
        """Hours go by: reminders, timeouts and stalled games come due and are delivered."""
        if not self.games:
            return

        async def go() -> None:
            self.driver.clock.tick(hours * 3600)
            cog_of(self.bot).scheduler.wake()
            for _ in range(int(SETTLE / 0.05)):
                await asyncio.sleep(0.05)
                due = await self.bot.schedule.next_due()
                if (due is None or due > self.driver.clock()) and self.bot.games_busy() == 0:
                    break

        self.step(go())

    # ------------------------------------------------------------------ helpers

    async def _answered(self, invocation: Awaitable[Any]) -> None:
        await invocation

    async def _shown(self, invocation: Awaitable[Invocation]) -> None:
        """Wait for what an action shows (a deferral's "thinking…" replaced)."""
        with contextlib.suppress(TimeoutError):  # judged by the invariants, not here
            await (await invocation).message(timeout=SETTLE)

    async def _idle(self) -> None:
        await self.fake.wait_for(
            lambda: self.bot.games_busy() == 0, timeout=SETTLE, what="the bot to be idle"
        )

    async def _click(self, user: FakeUser, message: FakeMessage, label: str) -> FakeMessage | None:
        try:
            button = message.button(label)
        except (LookupError, ValueError):
            return None
        if button.get("disabled"):
            return None
        invocation = await user.click(message, custom_id=button["custom_id"])
        with contextlib.suppress(TimeoutError):
            shown = await invocation.message(timeout=SETTLE)
            await self._idle()
            return shown
        return None

    def _card(self, channel: FakeChannel) -> FakeMessage | None:
        return self._latest_with(channel, "Join")

    def _latest_with(self, channel: FakeChannel, label: str) -> FakeMessage | None:
        for message in reversed(channel.messages()):
            if any(b.get("label") == label and not b.get("disabled") for b in message.buttons):
                return message
        return None

    # ------------------------------------------------------------------ the checks

    @invariant()
    def every_interaction_answered_in_time_and_delivered(self) -> None:
        for r in self.started:
            what = f"{r.name} by {r.user.name}"
            assert not r.rejections, f"{what}: Discord refused the answer: {r.rejections}"
            assert r.callback_type is not None, f"{what}: never answered"
            if r.type == 4:
                assert r.choices is not None and len(r.choices) <= 25, what
            elif r.callback_type == 5:
                assert r.original is not None and not r.original.loading, f"{what}: still thinking"

    @invariant()
    def nothing_logged_at_error(self) -> None:
        bad = self.driver.capture.bad + self.fake.server_errors + self.fake.unknown_routes
        assert not bad, "\n".join(bad)

    @invariant()
    def state_holds(self) -> None:
        self.driver.run(self._check_state())

    async def _check_state(self) -> None:
        service = self.bot.service
        rows = await service.store.fetch_all(
            "SELECT channel_id, COUNT(*) FROM games WHERE status IN ('lobby', 'active') "
            "GROUP BY channel_id HAVING COUNT(*) > 1"
        )
        assert not rows, f"channels with two unfinished games: {rows}"
        hands: dict[int, tuple[int, list[tuple[int | None, set[Tile]]]]] = {}
        for game_id in sorted(self.games):
            game = await service.game(game_id)
            assert game.version >= self.versions.get(game_id, 0), f"game {game_id} went back"
            self.versions[game_id] = game.version
            if game.status is GameStatus.FINISHED and game_id not in self.finished:
                self.finished.add(game_id)
                self.driver.counters.finished += 1
            record = await service.game_record(game_id)
            match = replay_game(record).match
            if match is None or match.round is None:
                continue
            rnd = match.round
            assert sorted(rnd.tiles_everywhere()) == sorted(match.rules.tiles()), (
                f"game {game_id}: tiles not conserved"
            )
            if game.status is GameStatus.ACTIVE:
                view = await service.table_view(game_id)
                on_table = sum(len(t.tiles) for t in view.trains) + 1  # and the engine
                counted = sum(view.hand_counts) + view.boneyard_count + on_table
                assert counted == len(match.rules.tiles()), f"game {game_id}: {counted} tiles seen"
            seats = [(p.user_id, set(rnd.hands[p.seat])) for p in game.players]
            hands[game_id] = (rnd.round_no, seats)
        self._check_hands(hands)

    def _check_hands(
        self, hands: dict[int, tuple[int, list[tuple[int | None, set[Tile]]]]]
    ) -> None:
        """Every hand message new or edited since the last step: private to one seated
        player, showing no tile another seat holds in that round."""
        for message in list(self.fake.messages.values()):
            if self.seen_edits.get(message.id) == message.edits or message.loading:
                continue
            self.seen_edits[message.id] = message.edits
            title = HAND_TITLE.search(message.content.split("\n", 1)[0])
            is_hand = any(a.file.filename == "hand.png" for a in message.attachments)
            if title is None and not is_hand:
                continue
            channel = self.fake.channels[message.channel_id]
            viewer = message.visible_to or (channel.recipient.id if channel.recipient else None)
            assert viewer is not None, f"a hand shown in public in #{channel.name}"
            if title is None:
                continue
            game_id, round_no = int(title[1]), int(title[2]) - 1
            if game_id not in hands or hands[game_id][0] != round_no:
                continue  # another world's game, or a round since replaced
            seats = hands[game_id][1]
            assert any(uid == viewer for uid, _ in seats), f"game {game_id}: hand to a stranger"
            shown = set()
            for text in TILE_IN_HAND.findall(message.content.split("\n")[1]):
                with contextlib.suppress(TileError):
                    shown.add(Tile.parse(text, 18))
            for uid, tiles in seats:
                if uid != viewer:
                    assert not shown & tiles, f"game {game_id}: {viewer} shown tiles of {uid}"
