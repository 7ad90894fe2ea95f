"""The terminal game's turns, played in-process by a scripted player at the prompt.

The subprocess tests in ``test_tryit.py`` prove the installed command; these drive the same
:class:`~bot.tryit.game.Terminal` through its ``ask`` hook, with a real SQLite file and the
real service, so a test can read the game between prompts (whose turn, who may be caught).
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

from bot.engine import Play
from bot.engine.ai import Level
from bot.i18n import tr
from bot.service import GameService
from bot.store import Store
from bot.tryit.game import YOU, Terminal, TryOptions
from bot.ui.messages import move_text

#: Decides the next typed line from what was printed since the last prompt (EOFError: stop).
Decide = Callable[[Terminal, str], Awaitable[str]]


async def play(tmp_path: Path, options: TryOptions, decide: Decide) -> str:
    """Play ``options``' game with ``decide`` at every prompt; the whole transcript."""
    store = await Store.open(tmp_path / f"try-{options.seed}.sqlite3", synchronous="NORMAL")
    out = io.StringIO()
    printed = 0
    terminal: Terminal | None = None

    async def ask(prompt: str) -> str:
        nonlocal printed
        out.write(prompt)
        text = out.getvalue()[printed:]
        printed = len(out.getvalue())
        assert terminal is not None
        return await decide(terminal, text)

    try:
        svc = GameService(store, rng=random.Random(options.seed))
        terminal = Terminal(svc, options, tmp_path, out, ask)
        assert await terminal.play() == 0
    finally:
        await store.close()
    return out.getvalue()


SUGGESTED = re.compile(r"Suggested move: (.+?) — ")


async def test_a_knock_round_played_by_hints_alone_is_never_caught(tmp_path: Path) -> None:
    """Under the knock rule (the fundex preset) a player who types only ``hint`` and then
    the move it suggests knocks every time they are down to one tile: at no prompt of the
    first round can anyone catch them. (Hints once never said to knock: 22 times down to one
    tile, 0 knocks.)"""
    down_to_one = 0
    knocks = 0
    for seed in range(6):
        asked = False

        async def decide(terminal: Terminal, printed: str, seed: int = seed) -> str:
            nonlocal asked, down_to_one, knocks
            svc, gid = terminal.svc, terminal.game_id
            game = await svc.game(gid)
            if game.round_no != 0:
                raise EOFError  # the first round is over
            view = await svc.seat_view(gid, YOU)
            assert view.seat is not None
            assert view.seat not in view.catchable, f"seed {seed}: catchable\n{printed}"
            if not asked:
                asked = True
                return "hint"
            asked = False
            if "knock now (knock)" in printed:
                knocks += 1
                return "knock"
            move = SUGGESTED.search(printed)
            assert move is not None, printed
            if move.group(1).endswith(" knock"):
                assert len(view.hand or ()) == 2 and "It leaves you one tile" in printed
                down_to_one += 1
            return move.group(1)

        options = TryOptions(players=2, level=Level.NORMAL, preset="fundex", seed=seed)
        transcript = await play(tmp_path, options, decide)
        assert "✋" not in transcript  # every suggested move was taken as typed
    assert down_to_one + knocks >= 3, "the rounds never brought the player down to one tile"


async def test_enter_on_an_empty_line_prints_nothing_and_help_prints_once(
    tmp_path: Path,
) -> None:
    lines = iter(["", "   ", "", "help", ""])

    async def decide(_terminal: Terminal, _printed: str) -> str:
        line = next(lines, None)
        if line is None:
            raise EOFError
        return line

    options = TryOptions(players=2, preset="quick", seed=1)
    transcript = await play(tmp_path, options, decide)
    help_first_line = tr("try.help", "en").splitlines()[0]
    assert transcript.count(help_first_line) == 1
    prompts = transcript.split(tr("try.prompt", "en"))
    # Between the prompts after a blank line: at most the echoed (empty) line, no text.
    for after_blank in (prompts[1], prompts[2], prompts[5]):
        assert after_blank.strip() == "", after_blank


async def test_a_move_typed_with_a_phones_dash_is_played(tmp_path: Path) -> None:
    """12-10 typed with an en dash, an em dash, a minus sign or a fullwidth hyphen (what a
    phone's keyboard types) is read as the notation's hyphen, not refused."""
    for seed, dash in enumerate(("\u2013", "\u2014", "\u2212", "\uff0d")):
        played: list[str] = []

        async def decide(
            terminal: Terminal, printed: str, dash: str = dash, played: list[str] = played
        ) -> str:
            if played:
                assert "✋" not in printed, printed
                raise EOFError
            view = await terminal.svc.seat_view(terminal.game_id, YOU)
            move = next(str(m) for m in view.legal if isinstance(m, Play))
            typed = move.replace("-", dash, 1)
            played.append(typed)
            return typed

        transcript = await play(tmp_path, TryOptions(players=2, preset="quick", seed=seed), decide)
        tile = played[0].split()[0].replace(dash, "-")
        assert f"played {tile}" in transcript or f"plays {tile}" in transcript, transcript[-800:]


async def test_a_french_game_reads_as_french_typography(tmp_path: Path) -> None:
    """A French game of three rounds (to see the scores), with help, a hint, the legal
    moves, the hand and the table asked for once: the computer players have French names,
    every colon of a sentence has its space before it, and the Mexican Train is spelt one
    way."""

    asks = ["aide", "indice", "coups", "main", "table"]  # every other screen once

    async def decide(terminal: Terminal, _printed: str) -> str:
        if asks:
            return asks.pop(0)
        if ((await terminal.svc.game(terminal.game_id)).round_no or 0) >= 3:
            raise EOFError
        view = await terminal.svc.seat_view(terminal.game_id, YOU)
        plays = [m for m in view.legal if isinstance(m, Play)]
        return move_text(plays[0] if plays else view.legal[0], "fr")  # as a French player types

    options = TryOptions(players=3, preset="standard", seed=4, language="fr")
    transcript = await play(tmp_path, options, decide)
    assert "CPU" not in transcript and "Ordi 1" in transcript
    assert "Scores :" in transcript and "Coup conseillé :" in transcript
    assert "Train Mexicain" not in transcript and "Train mexicain" in transcript
    for line in transcript.splitlines():
        if line.startswith("🖼") or "/" in line.split(":")[0]:
            continue  # a file path
        bare = re.findall(r"\S:(?:\s|$)", line)
        assert not bare, f"a French colon without its space: {line!r}"
