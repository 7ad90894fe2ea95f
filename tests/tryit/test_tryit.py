"""``python -m bot try``: a whole game in a terminal, played by a test through stdin.

The test is the player: it reads the real process's output up to the prompt, asks for its
legal moves (``moves``), answers one (a tile play when there is one), and goes on until the
game is over — with no token, no network settings, and the pictures checked as real PNGs.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

from PIL import Image

from tests.ops.helpers import ROOT

PROMPT = "your move> "


class Player:
    """The try-it process and its stdin/stdout, a prompt at a time. Its temporary files go to
    ``tmp`` (TMPDIR), so a test can see what it leaves behind."""

    def __init__(
        self, *args: str, cwd: Path, tmp: Path | None = None, prompt: str = PROMPT
    ) -> None:
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(ROOT)}
        if tmp is not None:
            tmp.mkdir(exist_ok=True)
            env["TMPDIR"] = str(tmp)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bot", "try", *args], cwd=cwd, env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )  # fmt: skip
        self.prompt = prompt
        self.transcript = ""

    def read_to_prompt(self) -> str | None:
        """Everything printed until the next prompt; None when the process ended instead."""
        assert self.proc.stdout is not None
        chunk = b""
        while not chunk.endswith(self.prompt.encode()):
            byte = self.proc.stdout.read(1)
            if not byte:
                self.transcript += chunk.decode()
                return None
            chunk += byte
        text = chunk.decode()
        self.transcript += text
        return text[: -len(self.prompt)]

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


def _legal(player: Player, ask: str = "moves", head: str = "Legal moves: ") -> list[str]:
    answer = player.send(ask)
    assert answer is not None
    line = next(x for x in answer.splitlines() if x.startswith(head))
    return line.removeprefix(head).split(", ")


def _play_to_the_end(player: Player, ask: str = "moves", head: str = "Legal moves: ") -> int:
    """Answer a legal move at every prompt (a tile when there is one) until the game ends;
    the number of moves made."""
    moves = 0
    while True:
        legal = _legal(player, ask, head)
        plays = [m for m in legal if m[0].isdigit()]
        choice = plays[0] if plays else legal[0]
        moves += 1
        after = player.send(choice)
        if after is None:
            return moves
        assert "✋" not in after, f"a legal move was refused: {choice}\n{after}"
        assert moves < 500


def test_a_whole_game_played_through_stdin_to_the_end(tmp_path: Path) -> None:
    pictures = tmp_path / "pictures"
    player = Player(
        "--players", "3", "--level", "easy", "--preset", "quick", "--seed", "11",
        "--pictures", str(pictures), "--name", "Ana", cwd=tmp_path,
    )  # fmt: skip
    try:
        first = player.read_to_prompt()
        assert first is not None and "Round 1 of 1" in first and "Your hand" in first
        moves = _play_to_the_end(player)
    finally:
        code = player.close()
    out = player.transcript
    assert code == 0, player.proc.stderr.read().decode() if player.proc.stderr else ""
    assert "Game over." in out and "won the match — Woo Woo!" in out
    assert "Final standings" in out and "Scores" in out
    # The channel's sentences, for the human and the computer players alike.
    assert re.search(r"Ana played \d+-\d+ on", out)
    assert re.search(r"CPU \d \(computer\) played \d+-\d+ on", out)
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
            "foo": "I don't understand “foo”: type help",
            "[13:2] @1": "13-2 is not in a double-12 set",
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


def test_ctrl_c_at_the_prompt_quits_at_once_and_leaves_no_file(tmp_path: Path) -> None:
    """Ctrl-C used to wait for Enter: ``input()`` held the event loop that asyncio's SIGINT
    handler needed, so the game never ended until a key was pressed. Now it quits with no
    key pressed at all (exit 130), its temporary folder gone. The fact tested is that no
    input is needed, not a speed: a loaded machine may take seconds to reap any process."""
    tmp = tmp_path / "tmp"
    player = Player("--preset", "quick", "--seed", "3", cwd=tmp_path, tmp=tmp)
    try:
        assert player.read_to_prompt() is not None
        assert list(tmp.iterdir()), "the game keeps its database and picture in TMPDIR"
        player.proc.send_signal(signal.SIGINT)
        code = player.proc.wait(timeout=60)  # nothing is ever typed: the old bug waited forever
    finally:
        if player.proc.poll() is None:
            player.proc.kill()
    assert code == 130, code
    assert player.proc.stderr is not None and b"Traceback" not in player.proc.stderr.read()
    assert list(tmp.iterdir()) == []


def test_end_of_input_and_quit_leave_nothing_in_the_temporary_folder(tmp_path: Path) -> None:
    tmp = tmp_path / "tmp"
    for last in ("", "quit\n"):
        player = Player("--preset", "quick", "--seed", "4", cwd=tmp_path, tmp=tmp)
        assert player.read_to_prompt() is not None
        assert player.proc.stdin is not None
        player.proc.stdin.write(last.encode())
        assert player.close() == 0
        assert list(tmp.iterdir()) == [], last
    # Without --pictures one picture is redrawn in place; its path was printed every time.
    printed = set(re.findall(r"🖼  (\S+)", player.transcript))
    assert len(printed) == 1 and printed.pop().endswith("table.png")


def test_nonsense_long_lines_and_ambiguous_tiles_get_terminal_answers(tmp_path: Path) -> None:
    player = Player("--players", "2", "--preset", "quick", "--seed", "5", cwd=tmp_path)
    try:
        start = player.read_to_prompt()
        assert start is not None
        answers = {
            # Once read as the tile "n importe" and the train "quoi": now refused, quoted.
            "n importe quoi": "✋ I don't understand “n importe quoi”: type help",
            "12-5 to the mexican": "✋ I don't understand “12-5 to the mexican”",
            "x" * 5000: "✋ That line is 5000 characters long: a move is a few words",
        }
        for typed, expected in answers.items():
            answer = player.send(typed)
            assert answer is not None and expected in answer, (typed[:30], answer)
            assert "🖼" not in answer
        # The echo and the refusal quote at most a few words of a long line.
        assert max(len(line) for line in player.transcript.splitlines()) < 200
        legal = _legal(player)
        tiles = [m.split()[0] for m in legal if m[0].isdigit()]
        twice = next((t for t in tiles if tiles.count(t) > 1), None)
        assert twice is not None  # seed 5 deals a tile that fits two trains
        answer = player.send(twice)  # no Discord "train option" in the terminal's answer
        assert answer is not None and "type it with its train, e.g." in answer
        assert "option" not in answer
    finally:
        player.close()


ENGLISH_ONLY = re.compile(r"[A-Za-zÀ-ÿ']+")


def _english_only_words() -> set[str]:
    """Words the English texts use and the French texts never do: none may reach a French
    player (names and file paths aside)."""
    from bot.i18n import CATALOG

    def words(text: str) -> set[str]:
        text = re.sub(r"\{\w+:([^}|]*)\|([^}]*)\}", r" \1 \2 ", text)  # plural forms
        return {w.lower() for w in ENGLISH_ONLY.findall(re.sub(r"\{[^}]*\}", "", text))}

    english: set[str] = set()
    french: set[str] = set()
    for entry in CATALOG.values():
        english |= words(entry["en"])
        french |= words(entry["fr"])
    return english - french


def test_the_whole_game_in_french_has_no_english_sentence(tmp_path: Path) -> None:
    tmp = tmp_path / "tmp"
    player = Player(
        "--language", "fr", "--players", "3", "--level", "easy", "--preset", "quick",
        "--seed", "5", cwd=tmp_path, tmp=tmp, prompt="ton coup> ",
    )  # fmt: skip
    try:
        assert player.read_to_prompt() is not None
        tries = ("aide", "indice", "main", "table", "piocher", "passer", "fini", "surprendre @2")
        for typed in (*tries, "n importe quoi", "x" * 80, "13-2 m", "12-5 @9", "12"):
            answer = player.send(typed)
            assert answer is not None and "Je ne comprends pas ce coup : aide" not in answer
        moves = _play_to_the_end(player, ask="coups", head="Coups possibles : ")
    finally:
        code = player.close()
    out = player.transcript
    assert code == 0 and moves > 3
    assert "Partie terminée." in out and "remporte la partie" in out and "Tape un coup" in out
    english = _english_only_words()
    seen = {
        (word, line)
        for line in out.splitlines()
        if not line.startswith("🖼")  # a file path
        for word in ENGLISH_ONLY.findall(re.sub(r"\S*/\S*", "", line))  # no paths
        if word.lower() in english
    }
    assert not seen, sorted(seen)[:10]
    assert list(tmp.iterdir()) == []


def test_the_players_limit_is_the_presets_own_everywhere(tmp_path: Path) -> None:
    """``--players 9`` on the standard rules: refused before the game, with the same limits
    ``--help`` and the README state (they once said 2-10 and the game said "full (8)")."""
    from bot.__main__ import players_limits
    from bot.engine import PRESETS

    limits = players_limits()
    assert limits.startswith("2 to 8;") and "2 to 4 with double-9" in limits
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(ROOT)}
    run = [sys.executable, "-m", "bot", "try"]
    helped = subprocess.run([*run, "--help"], env=env, capture_output=True, text=True, check=True)
    assert limits in " ".join(helped.stdout.split())
    # the presets' seat ranges are in the players' guide's table of presets
    readme = " ".join((ROOT / "README.md").read_text().split())
    guide = " ".join((ROOT / "docs" / "players.md").read_text().split())
    for preset, rules in PRESETS.items():
        low, high = rules.player_range
        assert f"| `{preset}` | {low} to {high} |" in guide, preset
        refused = subprocess.run(
            [*run, "--preset", preset, "--players", str(high + 1)], env=env, cwd=tmp_path,
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        assert refused.returncode == 2
        assert f"the {preset} rules seat {low} to {high} players" in refused.stderr
    assert f"`--players` (you included: {limits})" in readme
