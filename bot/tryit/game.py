"""A game in the terminal against computer players, through the bot's own service and store.

What a person deciding whether to install the bot wants is a game, without a Discord token,
an application or a server. This runs the real thing minus Discord: a lobby, computer seats
and the deal through :class:`~bot.service.GameService` on a temporary SQLite file, moves typed
in the README's notation and checked like ``/play``, ``/draw`` and ``/pass`` check them (the
same parsing, the same refusals in the same words), and after every move what the channel
would get — the same sentences (``bot.ui.messages``), the table as text and the table picture,
saved as a PNG whose path is printed. No Discord client is created and nothing touches the
network.
"""

from __future__ import annotations

import dataclasses
import random
import re
import sqlite3
import sys
import tempfile
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from bot.engine import IllegalMove, MoveError, Play, TileError
from bot.engine.ai import Level
from bot.i18n import tr
from bot.service import GameService, GameSummary, Outcome, ServiceError
from bot.store import GameStatus, Store
from bot.tryit.text import plain
from bot.ui import messages as render
from bot.ui.hints import hint_text
from bot.ui.interactions import Refusal, error_text
from bot.ui.notation import check_notation, choose_train, parse_tile
from bot.ui.pictures import table_lines, table_png
from bot.ui.turns import after_draw

#: The player's user id in the game (a Discord id in the bot; any number here).
YOU = 1
#: What a refusal can be: the same kinds the Discord layer's error funnel answers.
REFUSALS = (ServiceError, IllegalMove, MoveError, TileError, Refusal)

HELP = """\
Type a move as in the README's notation:
  12-5 mexican     play 12-5 on the Mexican Train (also: mx, m)
  5-7 @2           play 5-7 on seat 2's train (@1 is yours; also: own)
  12-5             play 12-5 where it fits, when it fits one train only
  12-5 @1 knock    play and knock (knock house rule)
  draw · pass · done · knock · catch @3
Other words: hand, table, moves (your legal moves), hint, help, quit."""


@dataclasses.dataclass(frozen=True, slots=True)
class TryOptions:
    players: int = 3
    level: Level = Level.NORMAL
    preset: str = "standard"
    seed: int | None = None
    name: str = "Player"
    language: str = "en"
    pictures: Path | None = None


class Terminal:
    """One game: the service, the printed messages, the saved pictures."""

    def __init__(
        self,
        svc: GameService,
        options: TryOptions,
        pictures: Path,
        out: TextIO,
        ask: Callable[[str], str],
    ) -> None:
        self.svc = svc
        self.options = options
        self.locale = options.language
        self.pictures = pictures
        self.out = out
        self.ask = ask
        self.saved = 0
        self.game_id = 0

    def say(self, text: str = "") -> None:
        print(plain(text), file=self.out, flush=True)

    # ------------------------------------------------------------------ setting up

    async def open(self) -> Outcome:
        opts = self.options
        lobby = await self.svc.create_lobby(
            guild_id=0, channel_id=0, user_id=YOU, display_name=opts.name,
            now=_now(), preset_name=opts.preset,
        )  # fmt: skip
        self.game_id = lobby.game.id
        for _ in range(opts.players - 1):
            await self.svc.add_computer(self.game_id, YOU, _now(), level=opts.level)
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
            self.say(tr("table.scores", loc) + ":")
            self.say(render.scores_table(game.players, scores, totals, loc))
        if last.match_over is not None:
            winners = ", ".join(p.name for p in last.match_over.winners)
            self.say(tr("table.final", loc) + ":")
            self.say(render.standings_text(last.match_over.standings, loc))
            self.say(tr("match.winner", loc, names=winners))
        nxt = last.next_player
        if nxt is not None and game.status is GameStatus.ACTIVE:
            self.say(tr("turn.next", loc, mention=nxt.name))
        if game.round_no is not None:
            await self.save_picture(game)

    async def save_picture(self, game: GameSummary) -> None:
        """The channel's picture of the table (the spectator's view), as a numbered PNG: one
        per message, as the channel gets one per move."""
        self.saved += 1
        path = self.pictures / f"table-{self.saved:03d}.png"
        view = await self.svc.table_view(game.id)
        path.write_bytes(table_png(view, game.players, self.locale))
        self.say(f"🖼  {path}")

    async def run_computers(self) -> None:
        """Computer players move one at a time, each told like anyone's move."""
        for _ in range(100_000):  # a bound, never reached: a round always ends
            out = await self.svc.advance_computers(self.game_id, _now(), max_moves=1)
            if not out.steps:
                return
            await self.publish([out])
            if not out.computer_pending:
                return

    # ------------------------------------------------------------------ your turn

    async def show_turn(self) -> None:
        game = await self.svc.game(self.game_id)
        view = await self.svc.seat_view(self.game_id, YOU)
        self.say()
        table = await self.svc.table_view(self.game_id)
        lines = table_lines(table, game.players, self.locale, laid=True, me=view.seat)
        self.say("\n".join(lines))
        self.say(render.hand_text(view, game, self.locale))

    async def move(self, line: str) -> list[Outcome]:
        """One typed move, applied the way the slash commands apply it; refusals raise."""
        svc, gid, now = self.svc, self.game_id, _now()
        words = line.split()
        if line == "draw":
            out = await svc.draw(gid, YOU, now, computer_moves=0)
            note, passed = await after_draw(svc, out, YOU, _now(), self.locale)
            outs = [out] if passed is None else [out, passed]
            if note:
                self.say(f"(only you) {note}")
            return outs
        if line == "pass":
            return [await svc.pass_turn(gid, YOU, now, computer_moves=0)]
        if line == "knock":
            return [await svc.knock(gid, YOU, now)]
        if words and _looks_like_tile(words[0]):
            # /play tile [train] [knock]: the tile read and checked first, the train found
            # when the tile fits only one, then the whole move checked as notation.
            knock = words[-1] == "knock"
            if knock:
                words = words[:-1]
            view = await svc.seat_view(gid, YOU)
            tile = parse_tile(words[0], view.rules.max_pip)
            train = " ".join(words[1:]) or None
            move = check_notation(choose_train(view, tile, train), view)
            if not isinstance(move, Play):
                raise Refusal("error.which-train", tile=str(tile))
            return [await svc.move(gid, YOU, move, now, knock=knock, computer_moves=0)]
        # done, catch @N…: read as notation first, so a typo gets the notation's own reason.
        move = check_notation(line, await svc.seat_view(gid, YOU))
        return [await svc.move(gid, YOU, move, now, computer_moves=0)]

    async def answer(self, line: str) -> bool:
        """Handle one typed line; False when the player asked to stop."""
        line = " ".join(line.strip().lower().split())
        if line in ("quit", "exit", "q"):
            return False
        if line in ("", "help", "?"):
            self.say(HELP)
            return True
        view = await self.svc.seat_view(self.game_id, YOU)
        if line == "hand":
            self.say(render.hand_text(view, await self.svc.game(self.game_id), self.locale))
        elif line == "table":
            await self.show_turn()
        elif line in ("moves", "legal"):
            self.say("legal: " + ", ".join(str(m) for m in (*view.legal, *view.side_moves)))
        elif line == "hint":
            if not view.my_turn:
                turn = view.current
                name = view.names[turn] if turn is not None else "—"
                self.say(f"✋ {error_text(Refusal('hint.not-your-turn', name=name), self.locale)}")
            else:
                self.say(hint_text(view, self.locale))
        else:
            try:
                outs = await self.move(line)
            except REFUSALS as exc:
                self.say(f"✋ {error_text(exc, self.locale)}")
                return True
            await self.publish(outs)
            if outs[-1].computer_pending:
                await self.run_computers()
        return True

    async def play(self) -> int:
        try:
            out = await self.open()
        except REFUSALS as exc:
            self.say(f"✋ {error_text(exc, self.locale)}")
            return 2
        self.say(f"Pictures of the table go to {self.pictures}. Type help for the notation.")
        await self.publish([out])
        if out.computer_pending:
            await self.run_computers()
        shown = -1
        while True:
            game = await self.svc.game(self.game_id)
            if game.status is not GameStatus.ACTIVE:
                self.say(f"Game over. The pictures are in {self.pictures}")
                return 0
            if game.version != shown:  # the table changed: show it and the hand again
                await self.show_turn()
                shown = game.version
            try:
                line = self.ask("your move> ")
            except EOFError:
                self.say()
                return 0
            if not sys.stdin.isatty():
                self.say(line)  # a piped game reads like a transcript
            if not await self.answer(line):
                return 0


def _now() -> datetime:
    return datetime.now(UTC)


def _looks_like_tile(word: str) -> bool:
    """Two numbers joined as the notation joins them (``12-5``, ``12|5``, ``[12:5]``): read as
    a tile, and refused as one (``13-2 is not in a double-12 set``) like ``/play``'s tile."""
    return _TILE_LIKE.fullmatch(word) is not None


_TILE_LIKE = re.compile(r"\[?\d+[-|:]\d+\]?")


async def run(options: TryOptions, out: TextIO = sys.stdout) -> int:
    """Play one game on a temporary database (deleted at the end); the pictures stay."""
    pictures = options.pictures or Path(tempfile.mkdtemp(prefix="mexican-train-try-"))
    pictures.mkdir(parents=True, exist_ok=True)
    rng = random.Random(options.seed)
    with tempfile.TemporaryDirectory(prefix="mexican-train-try-db-") as tmp:
        try:
            store = await Store.open(Path(tmp) / "try.sqlite3", synchronous="NORMAL")
        except (OSError, sqlite3.Error) as exc:
            print(f"mexican-train-bot: cannot open a temporary database: {exc}", file=sys.stderr)
            return 2
        try:
            terminal = Terminal(GameService(store, rng=rng), options, pictures, out, input)
            return await terminal.play()
        finally:
            await store.close()
