"""``try`` on an output that is not UTF-8 (a Windows console or redirect in cp1252,
``PYTHONIOENCODING=ascii``): the glyphs degrade to ASCII (``->`` for ``→``) instead of the game
dying of ``UnicodeEncodeError`` at its first line (issue 50)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.console import ASCII_GLYPHS, degrade_gracefully
from tests.ops.helpers import ROOT

#: Seed 3 deals the human 12-2 and 12-8 (both playable): a refusal, a move, the help, a hint.
SCRIPT = "moves\ndraw\npass\n12-2 mexican\nhelp\nhint\nmoves\nquit\n"


@pytest.mark.parametrize(
    ("encoding", "language"), [("cp1252", "en"), ("cp1252", "fr"), ("ascii", "en")]
)
def test_the_game_plays_on_an_output_that_is_not_utf8(
    tmp_path: Path, encoding: str, language: str
) -> None:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(ROOT),
        "PYTHONIOENCODING": encoding,
        "TMPDIR": str(tmp_path),
    }
    script = SCRIPT if language == "en" else SCRIPT.replace("mexican", "mexicain").replace(
        "moves", "coups").replace("draw", "piocher").replace("pass", "passer").replace(
        "help", "aide").replace("hint", "indice").replace("quit", "quitter")  # fmt: skip
    result = subprocess.run(
        [sys.executable, "-m", "bot", "try", "--seed", "3", "--preset", "quick",
         "--language", language],
        cwd=tmp_path, env=env, input=script.encode(), capture_output=True, timeout=120,
        check=False,
    )  # fmt: skip
    out = result.stdout.decode(encoding)
    err = result.stderr.decode(encoding)
    assert result.returncode == 0 and "Traceback" not in err, err
    assert "UnicodeEncodeError" not in out + err
    assert "->" in out and "AI" in out  # → and 🤖, in ASCII of the same width
    assert out.count("your move> " if language == "en" else "ton coup> ") >= 7, out
    if encoding == "cp1252" and language == "fr":
        assert "é" in out  # what the encoding can show stays as it is


def test_only_what_cannot_be_shown_is_replaced() -> None:
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="cp1252")
    degrade_gracefully(stream)
    stream.write("12-5 → @2 · café 🤖 ☃\n")
    stream.flush()
    assert raw.getvalue().decode("cp1252") == "12-5 -> @2 · café AI ?\n"
    assert all(value.isascii() for value in ASCII_GLYPHS.values())
