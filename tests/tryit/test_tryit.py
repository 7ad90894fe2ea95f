"""``python -m bot try``: a whole game in a terminal, played by a test through stdin.

The test is the player: it reads the real process's output up to the prompt, asks for its
legal moves (``moves``), answers one (a tile play when there is one), and goes on until the
game is over — with no token, no network settings, and the pictures checked as real PNGs.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from PIL import Image

from tests.ops.helpers import ROOT

PROMPT = "your move> "


class Player:
    """The try-it process and its stdin/stdout, a prompt at a time."""

    def __init__(self, *args: str, cwd: Path) -> None:
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bot", "try", *args], cwd=cwd, env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )  # fmt: skip
        self.transcript = ""

    def read_to_prompt(self) -> str | None:
        """Everything printed until the next prompt; None when the process ended instead."""
        assert self.proc.stdout is not None
        chunk = b""
        while not chunk.endswith(PROMPT.encode()):
            byte = self.proc.stdout.read(1)
            if not byte:
                self.transcript += chunk.decode()
                return None
            chunk += byte
        text = chunk.decode()
        self.transcript += text
        return text[: -len(PROMPT)]

    def send(self, line: str) -> str | None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()
        return self.read_to_prompt()

    def close(self) -> int:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        rest = self.proc.stdout.read().decode() if self.proc.stdout else ""
        self.transcript += rest
        return self.proc.wait(timeout=60)


def _legal(player: Player) -> list[str]:
    answer = player.send("moves")
    assert answer is not None
    line = next(x for x in answer.splitlines() if x.startswith("legal: "))
    return line.removeprefix("legal: ").split(", ")


def test_a_whole_game_played_through_stdin_to_the_end(tmp_path: Path) -> None:
    pictures = tmp_path / "pictures"
    player = Player(
        "--players", "3", "--level", "easy", "--preset", "quick", "--seed", "11",
        "--pictures", str(pictures), "--name", "Ana", cwd=tmp_path,
    )  # fmt: skip
    try:
        first = player.read_to_prompt()
        assert first is not None and "Round 1 of 1" in first and "Your hand" in first
        moves = 0
        while True:
            legal = _legal(player)
            plays = [m for m in legal if m[0].isdigit()]
            choice = plays[0] if plays else legal[0]
            moves += 1
            after = player.send(choice)
            if after is None:
                break
            assert "✋" not in after, f"a legal move was refused: {choice}\n{after}"
            assert moves < 500
    finally:
        code = player.close()
    out = player.transcript
    assert code == 0, player.proc.stderr.read().decode() if player.proc.stderr else ""
    assert "Game over." in out and "won the match — Woo Woo!" in out
    assert "Final standings" in out and "Scores" in out
    # The channel's sentences, for the human and the computer players alike.
    assert re.search(r"Ana played \d+-\d+ on", out)
    assert re.search(r"CPU \d played \d+-\d+ on .*\(computer\)", out)
    # A picture per table message, each path printed, each a real PNG of the table.
    printed = [Path(p) for p in re.findall(r"🖼  (\S+)", out)]
    assert len(printed) >= moves and all(p.parent == pictures for p in printed)
    assert sorted(pictures.iterdir()) == sorted(printed)
    with Image.open(printed[-1]) as last:
        assert last.format == "PNG" and last.width == 800  # the phone-first table


def test_refusals_are_the_ones_discord_gives_and_change_nothing(tmp_path: Path) -> None:
    player = Player("--players", "2", "--preset", "quick", "--seed", "3",
                    "--pictures", str(tmp_path), cwd=tmp_path)  # fmt: skip
    try:
        start = player.read_to_prompt()
        assert start is not None
        hand = next(x for x in start.splitlines()[::-1] if re.fullmatch(r"[\d\- ]+", x))
        missing = next(
            f"{a}-{b}" for a in range(12, -1, -1) for b in range(a, -1, -1)
            if f"{a}-{b}" not in hand.split()
        )  # fmt: skip
        refusals = {
            "13-2": "13-2 is not in a double-12 set",
            "foo": "foo is not a tile: write it like 12-5",
            f"{missing} mexican": f"you do not hold {missing}",
            "draw": "you hold a playable tile, so you may not draw",
            "pass": "you hold a playable tile, so you may not pass",
            "12-8 @2": "CPU 1's train has no marker, so only its owner plays there",
        }
        for typed, reason in refusals.items():
            answer = player.send(typed)
            assert answer is not None and f"{typed}\n✋ " in answer, (typed, answer)
            assert reason in answer, (typed, answer)
            assert "🖼" not in answer  # nothing was played: no new table message
        assert "won" not in player.transcript
        assert len(list(tmp_path.glob("table-*.png"))) == 1  # only the deal's picture
        assert player.send("quit") is None
    finally:
        assert player.close() == 0
