"""The terminal game as a newcomer meets it: how fast Ctrl-C stops it, what it leaves behind,
and whether ``--language fr`` says anything in English.

Prints one JSON line: over ``--trials`` runs of ``try`` each stopped by SIGINT at the prompt,
the exit codes seen and the slowest time from SIGINT to exit; the files left in the temporary
folder (TMPDIR pointed at an empty one) after those runs and after one whole French game
played to its end through stdin; that game's moves, and the English-only words it printed
(words the catalog's English texts use and its French texts never do). ``--command`` runs
another ``try`` (e.g. the installed console script ``mexican-train-bot``).
Run: ``python benchmarks/first_hour.py`` (``--trials N``). Not a unit test.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.i18n import CATALOG  # noqa: E402 - after the path above

WORD = re.compile(r"[A-Za-zÀ-ÿ']+")


def english_only() -> set[str]:
    def words(text: str) -> set[str]:
        text = re.sub(r"\{\w+:([^}|]*)\|([^}]*)\}", r" \1 \2 ", text)
        return {w.lower() for w in WORD.findall(re.sub(r"\{[^}]*\}", "", text))}

    english: set[str] = set()
    french: set[str] = set()
    for entry in CATALOG.values():
        english |= words(entry["en"])
        french |= words(entry["fr"])
    return english - french


def start(command: list[str], tmp: Path, *args: str) -> subprocess.Popen[bytes]:
    env = dict(os.environ, TMPDIR=str(tmp))
    if "-m" in command:  # python -m bot: this tree; an installed script: its own package
        env["PYTHONPATH"] = str(ROOT)
    return subprocess.Popen(
        [*command, "try", *args], env=env, cwd=tmp.parent,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip


def read_to(proc: subprocess.Popen[bytes], prompt: bytes) -> str | None:
    assert proc.stdout is not None
    chunk = b""
    while not chunk.endswith(prompt):
        byte = proc.stdout.read(1)
        if not byte:
            return None
        chunk += byte
    return chunk.decode()


def sigint_runs(command: list[str], tmp: Path, trials: int) -> tuple[list[int], float]:
    codes, slowest = [], 0.0
    for seed in range(trials):
        proc = start(command, tmp, "--preset", "quick", "--seed", str(seed))
        assert read_to(proc, b"your move> ") is not None
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        codes.append(proc.wait(timeout=30))
        slowest = max(slowest, time.monotonic() - sent)
    return codes, slowest


def french_game(command: list[str], tmp: Path) -> tuple[int, int, list[str]]:
    """(exit code, moves, English-only words printed) for a whole game in French."""
    prompt = b"ton coup> "
    proc = start(command, tmp, "--language", "fr", "--preset", "quick", "--level", "easy",
                 "--seed", "7")  # fmt: skip
    out = read_to(proc, prompt) or ""
    moves = 0
    assert proc.stdin is not None
    while moves < 500:
        proc.stdin.write(b"coups\n")
        proc.stdin.flush()
        answer = read_to(proc, prompt)
        if answer is None:
            break
        out += answer
        line = next(x for x in answer.splitlines() if x.startswith("Coups possibles : "))
        legal = line.split(" : ", 1)[1].split(", ")
        plays = [m for m in legal if m[0].isdigit()]
        proc.stdin.write(((plays or legal)[0] + "\n").encode())
        proc.stdin.flush()
        moves += 1
        answer = read_to(proc, prompt)
        if answer is None:
            break
        out += answer
    proc.stdin.close()
    assert proc.stdout is not None
    out += proc.stdout.read().decode()
    code = proc.wait(timeout=30)
    english = english_only()
    seen = sorted(
        {
            w
            for line in out.splitlines()
            if not line.startswith("🖼")
            for w in WORD.findall(re.sub(r"\S*/\S*", "", line))
            if w.lower() in english
        }
    )
    return code, moves, seen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--command", default=f"{sys.executable} -m bot")
    args = parser.parse_args()
    command = shlex.split(args.command)
    with tempfile.TemporaryDirectory() as base:
        tmp = Path(base) / "tmp"
        tmp.mkdir()
        codes, slowest = sigint_runs(command, tmp, args.trials)
        left_after_sigint = len(list(tmp.iterdir()))
        code, moves, english = french_game(command, tmp)
        left_after_game = len(list(tmp.iterdir()))
    print(
        json.dumps(
            {
                "benchmark": "first_hour",
                "sigint_trials": args.trials,
                "sigint_exit_codes": sorted(set(codes)),
                "sigint_to_exit_max_s": round(slowest, 3),
                "files_left_after_sigint": left_after_sigint,
                "french_game_exit": code,
                "french_game_moves": moves,
                "french_english_only_words": english,
                "files_left_after_game": left_after_game,
                "load_average": [round(x, 2) for x in os.getloadavg()],
                "python": sys.version.split()[0],
            }
        )
    )


if __name__ == "__main__":
    main()
