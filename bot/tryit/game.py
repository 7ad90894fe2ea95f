"""A game in the terminal against computer players, through the bot's own service and store.

What a person deciding whether to install the bot wants is a game, without a Discord token,
an application or a server. This runs the real thing minus Discord: a lobby, computer seats
and the deal through :class:`~bot.service.GameService` on a temporary SQLite file, moves typed
in the README's notation (read by :mod:`bot.tryit.reading`) and checked like ``/play``,
``/draw`` and ``/pass`` check them (the same parsing, the same refusals in the same words), and
after every move what the channel would get — the same sentences (``bot.ui.messages``), the
table as text and the table picture, saved as a PNG whose path is printed. No Discord client
is created and nothing touches the network. Everything it writes goes into one temporary
folder, removed when the game ends however it ends (quit, end of input, Ctrl-C), unless
``--pictures DIR`` asks for the pictures to be kept there, one per move.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import random
import sqlite3
import sys
import tempfile
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from bot.engine import IllegalMove, MoveError, Play, TileError, parse_move
from bot.engine.ai import Level
from bot.i18n import tr
from bot.service import GameService, GameSummary, Outcome, ServiceError
from bot.service.turn import Turns
from bot.store import GameStatus, Store, StoreError
from bot.thinking.pool import Thinker
from bot.tryit.reading import Command, quote, read
from bot.tryit.text import plain
from bot.ui import messages as render
from bot.ui.hints import hint_text
from bot.ui.options import TileOption, TrainOption, WhichTrain, check_notation
from bot.ui.pictures import table_lines, table_png
from bot.ui.refusals import Refusal, error_text

#: The player's user id in the game (a Discord id in the bot; any number here).
YOU = 1
#: What a refusal can be: the same kinds the Discord layer's error funnel answers.
REFUSALS = (ServiceError, IllegalMove, MoveError, TileError, Refusal)


@dataclasses.dataclass(frozen=True, slots=True)
class TryOptions:
    players: int = 3
    level: Level = Level.NORMAL
    preset: str = "standard"
    seed: int | None = None
    #: None: "Player" in the game's language.
    name: str | None = None
    language: str = "en"
    #: Keep one picture per move in this folder; None: one picture, redrawn, then deleted.
    pictures: Path | None = None


class Keyboard:
    """The player's lines, read from stdin by the event loop itself.

    A game that waited in ``input()`` could not be stopped with Ctrl-C: ``asyncio.run``
    answers SIGINT by cancelling the main task, which cannot happen while the loop's thread
    sits in a blocking read (and when the signal lands on another thread, as it may with
    aiosqlite's, that read is not even interrupted). Waiting for stdin to become readable on
    the loop instead, Ctrl-C cancels the wait at once, wherever the signal lands. A stdin the
    loop cannot watch (a regular file, or Windows) is read directly: it never blocks long.
    """

    #: A line longer than this is handed over cut (and refused as too long), never buffered.
    LIMIT = 1 << 16

    def __init__(self, out: TextIO, stdin: TextIO = sys.stdin) -> None:
        self.out = out
        self.fd = stdin.fileno()
        self.buffer = b""
        self.eof = False

    async def ask(self, prompt: str) -> str:
        """One line (without its end); EOFError at the end of input."""
        print(prompt, end="", file=self.out, flush=True)
        while b"\n" not in self.buffer and len(self.buffer) < self.LIMIT:
            if self.eof:
                if not self.buffer:
                    raise EOFError
                break
            chunk = await self._read()
            self.eof = not chunk
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode("utf-8", "replace").rstrip("\r")

    async def _read(self) -> bytes:
        loop = asyncio.get_running_loop()
        ready: asyncio.Future[None] = loop.create_future()

        def wake() -> None:
            if not ready.done():
                ready.set_result(None)

        try:
            loop.add_reader(self.fd, wake)
        except (NotImplementedError, OSError, ValueError):
            return os.read(self.fd, self.LIMIT)
        try:
            await ready
        finally:
            loop.remove_reader(self.fd)
        return os.read(self.fd, self.LIMIT)


class Terminal:
    """One game: the service, the printed messages, the saved pictures."""

    def __init__(
        self,
        svc: GameService,
        options: TryOptions,
        pictures: Path,
        out: TextIO,
        ask: Callable[[str], Awaitable[str]],
    ) -> None:
        self.svc = svc
        #: The same turn use case as the bot's (no scheduler here: no away players, no pings).
        self.turns = Turns(svc)
        self.options = options
        self.locale = options.language
        #: The folder the pictures go to: the kept one (--pictures), or the temporary one.
        self.pictures = pictures
        self.keep = options.pictures is not None
        self.out = out
        self.ask = ask
        self.saved = 0
        self.game_id = 0

    def say(self, text: str = "") -> None:
        print(plain(text), file=self.out, flush=True)

    def refuse(self, exc: BaseException) -> None:
        self.say(f"✋ {error_text(exc, self.locale)}")

    # ------------------------------------------------------------------ setting up

    async def open(self) -> Outcome:
        opts = self.options
        name = opts.name or tr("try.default-name", self.locale)
        lobby = await self.svc.create_lobby(
            guild_id=0, channel_id=0, user_id=YOU, display_name=name,
            now=_now(), preset_name=opts.preset,
        )  # fmt: skip
        self.game_id = lobby.game.id
        for _ in range(opts.players - 1):
            await self.svc.add_computer(
                self.game_id, YOU, _now(), level=opts.level, stem=tr("computer.stem", self.locale)
            )
        return await self.svc.start(self.game_id, YOU, _now(), computer_moves=0)

    # ------------------------------------------------------------------ the channel

    async def publish(self, outs: Sequence[Outcome]) -> None:
        """What the channel's table message says: its sentences, the scores at a round's
        end, the standings at the match's end, the next player; then the picture."""
        last = outs[-1]
        game = last.game
        loc = self.locale
        title = tr(
            "table.title", loc, game=game.id, round=(game.round_no or 0) + 1,
            rounds=game.rules.rounds_total,
        )  # fmt: skip
        self.say(f"── {title} ──")
        for line in (line for o in outs for line in render.outcome_lines(o, loc)):
            self.say(line)
        if any(o.rounds_ended for o in outs):
            scores = await self.svc.round_scores(game.id)
            totals = [sum(r[p.seat] for r in scores) for p in game.players]
            self.say(tr("try.heading", loc, text=tr("table.scores", loc)))
            self.say(render.scores_table(game.players, scores, totals, loc))
        if last.match_over is not None:
            winners = ", ".join(p.name for p in last.match_over.winners)
            self.say(tr("try.heading", loc, text=tr("table.final", loc)))
            rounds = last.game.rules.rounds_total
            self.say(render.standings_text(last.match_over.standings, loc, rounds=rounds))
            self.say(tr("match.winner", loc, names=winners))
        nxt = last.next_player
        if nxt is not None and game.status is GameStatus.ACTIVE:
            self.say(tr("turn.next", loc, mention=nxt.name))
        if game.round_no is not None:
            await self.save_picture(game)

    async def save_picture(self, game: GameSummary) -> None:
        """The channel's picture of the table (the spectator's view): one numbered PNG per
        message when they are kept, else one file drawn again each time (replaced whole, so
        an image viewer left open on it never reads half a picture)."""
        self.saved += 1
        name = f"table-{self.saved:03d}.png" if self.keep else "table.png"
        path = self.pictures / name
        view = await self.svc.table_view(game.id)
        partial = path.with_name(f".{name}.partial")
        partial.write_bytes(table_png(view, game.players, self.locale))
        os.replace(partial, path)
        self.say(f"🖼  {path}")

    async def run_computers(self, outs: Sequence[Outcome]) -> None:
        """Computer players move one at a time after ``outs``, each told like anyone's move."""
        async for out in self.turns.until_human(self.game_id, outs, _now()):
            await self.publish([out])

    # ------------------------------------------------------------------ your turn

    async def show_turn(self) -> None:
        game = await self.svc.game(self.game_id)
        view = await self.svc.seat_view(self.game_id, YOU)
        self.say()
        table = await self.svc.table_view(self.game_id)
        lines = table_lines(table, game.players, self.locale, laid=True, me=view.seat)
        self.say("\n".join(lines))
        self.say(render.hand_text(view, game, self.locale))

    async def move(self, command: Command) -> list[Outcome]:
        """One typed move, applied the way the slash commands apply it (the same turn use
        case, the same refusals); a draw's private note is said at once."""
        gid = self.game_id
        knock = False
        if command.text in ("draw", "pass", "knock"):
            move = parse_move(command.text)  # a word: read without the table
        else:
            view = await self.svc.seat_view(gid, YOU)
            if command.action != "play":  # done, catch @N: a typo gets the notation's reason
                move = check_notation(command.text, view)
            else:
                # /play tile [train] [knock]: the tile read and checked first, the train found
                # when the tile fits only one, then the whole move checked as notation.
                tile = TileOption.parse(command.text, view.rules.max_pip)
                try:
                    move = TrainOption.move(view, tile, command.train)
                except WhichTrain as exc:
                    # The terminal's own words: an example to type, not a slash option.
                    example = render.move_text(Play(tile, exc.trains[0]), self.locale)
                    raise Refusal("try.which-train", tile=str(tile), example=example) from None
                if not isinstance(move, Play):
                    raise Refusal("try.unknown", text=quote(command.text))
                knock = command.knock
        turn = await self.turns.take(gid, YOU, move, _now(), knock=knock)
        if turn.drawn is not None:
            names = [p.name for p in turn.last.game.players]
            seat = turn.outs[0].steps[0].applied.seat
            note = render.drawn_note(turn.drawn, names, seat, self.locale)
            self.say(tr("try.only-you", self.locale, text=note))
        return list(turn.outs)

    async def answer(self, line: str) -> bool:
        """Handle one typed line; False when the player asked to stop."""
        loc = self.locale
        try:
            command = read(line)
        except Refusal as exc:
            self.refuse(exc)
            return True
        if command is None:  # Enter on an empty line: the prompt again, as in a shell
            return True
        if command.action == "help":
            self.say(tr("try.help", loc))
            return True
        if command.action == "quit":
            return False
        view = await self.svc.seat_view(self.game_id, YOU)
        if command.action == "hand":
            self.say(render.hand_text(view, await self.svc.game(self.game_id), loc))
        elif command.action == "table":
            await self.show_turn()
        elif command.action == "moves":
            moves = (*view.legal, *view.side_moves)
            self.say(tr("try.legal", loc, moves=", ".join(render.move_text(m, loc) for m in moves)))
        elif command.action == "hint":
            if not view.my_turn:
                turn = view.current
                name = view.names[turn] if turn is not None else "—"
                self.refuse(Refusal("hint.not-your-turn", name=name))
            else:
                self.say(hint_text(view, loc, typed=True))
        else:
            try:
                outs = await self.move(command)
            except REFUSALS as exc:
                self.refuse(exc)
                return True
            await self.publish(outs)
            await self.run_computers(outs)
        return True

    async def play(self) -> int:
        """The game to its end: 0 when it is over or the player quits (``quit``, end of
        input). Ctrl-C cancels it (``asyncio.run`` then raises KeyboardInterrupt)."""
        loc = self.locale
        try:
            out = await self.open()
        except REFUSALS as exc:
            self.refuse(exc)
            return 2
        start = "try.start.kept" if self.keep else "try.start"
        where = self.pictures if self.keep else self.pictures / "table.png"
        self.say(tr(start, loc, path=where))
        await self.publish([out])
        await self.run_computers([out])
        shown = -1
        while True:
            game = await self.svc.game(self.game_id)
            if game.status is not GameStatus.ACTIVE:
                over = tr("try.over.kept", loc, path=self.pictures) if self.keep else None
                self.say(over or tr("try.over", loc))
                return 0
            if game.version != shown:  # the table changed: show it and the hand again
                await self.show_turn()
                shown = game.version
            try:
                line = await self.ask(tr("try.prompt", loc))
            except EOFError:
                self.say()
                return 0
            if not sys.stdin.isatty():
                self.say(quote(line))  # a piped game reads like a transcript
            if not await self.answer(line):
                return 0


def _now() -> datetime:
    return datetime.now(UTC)


async def run(
    options: TryOptions,
    out: TextIO = sys.stdout,
    ask: Callable[[str], Awaitable[str]] | None = None,
) -> int:
    """Play one game. The database (and, unless ``options.pictures`` says where to keep
    them, the pictures) live in one temporary folder, removed however the game ends — Ctrl-C
    included, which cancels this coroutine."""
    with tempfile.TemporaryDirectory(prefix="mexican-train-try-") as tmp:
        folder = Path(tmp)
        if options.pictures is not None:
            try:
                options.pictures.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                print(
                    f"mexican-train-bot: cannot use {options.pictures} for the pictures "
                    f"({exc.strerror or exc})",
                    file=sys.stderr,
                )
                return 2
        try:
            store = await Store.open(folder / "try.sqlite3", synchronous="NORMAL")
        except (OSError, sqlite3.Error, StoreError) as exc:
            print(f"mexican-train-bot: cannot open a temporary database: {exc}", file=sys.stderr)
            return 2
        try:
            # One player at one table: the computers think here, between the player's moves,
            # through the bot's chooser with no workers (the Expert's CPU budget holds).
            service = GameService(store, rng=random.Random(options.seed), chooser=Thinker(0))
            terminal = Terminal(
                service, options, options.pictures or folder, out, ask or Keyboard(out).ask
            )
            return await terminal.play()
        finally:
            with contextlib.suppress(Exception):
                await store.close()
