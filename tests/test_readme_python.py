"""The README's first command on a Python that is too old (issue 50): word for word on Python
3.10 (Ubuntu 22.04's) the try-it commands ended in pip's ``ResolutionImpossible`` about
``pillow==13.0.0``, and "Python 3.11 or newer" first appeared after them. Now the requirement
comes before the first command, and that command stops with one line on an older Python."""

from __future__ import annotations

import glob
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _first_command() -> str:
    block = re.search(r"^```sh\n(.*?)^```", README, flags=re.M | re.S)
    assert block
    return block.group(1).splitlines()[0]


def _check_code() -> str:
    """The Python the first command runs (``python3 -c '…'``)."""
    words = shlex.split(_first_command())
    assert words[:2] == ["python3", "-c"] and len(words) == 3, words
    return words[2]


def test_the_requirement_comes_before_the_first_command() -> None:
    first_block = README.index("```sh")
    assert "Python 3.11 or newer" in README[:first_block]


def test_the_first_command_passes_on_this_python() -> None:
    result = subprocess.run(
        [sys.executable, "-c", _check_code()], capture_output=True, text=True, check=False
    )
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def _old_pythons() -> list[str]:
    found = [shutil.which(f"python3.{minor}") for minor in (9, 10)]
    real = [path for path in found if path and "/shims/" not in path]  # not pyenv's stand-ins
    return real + glob.glob(str(Path.home() / ".pyenv/versions/3.10*/bin/python"))


def test_the_first_command_stops_an_older_python_with_one_line() -> None:
    # As Python 3.10 runs it (its version faked, so this runs everywhere)...
    fake = "import sys; sys.version_info = (3, 10, 12); sys.version = '3.10.12 (fake)'\n"
    runs = [[sys.executable, "-c", fake + _check_code()]]
    # ...and on a real older Python where this machine has one.
    runs += [[python, "-c", _check_code()] for python in _old_pythons()]
    for argv in runs:
        result = subprocess.run(argv, capture_output=True, text=True, check=False)
        lines = result.stderr.strip().splitlines()
        assert result.returncode == 1 and len(lines) == 1, result.stderr
        assert "needs Python 3.11 or newer; this python3 is 3." in lines[0], lines


def test_pip_refuses_an_older_python_by_its_requires_python() -> None:
    """constraints.txt's pins apply from requires-python's version on, so pip's answer on an
    older Python is "requires a different Python", not a pin it cannot resolve (checked by
    hand on 3.10.13 with pip 23.0.1: ``ERROR: Package 'mexican-train-bot' requires a different
    Python: 3.10.13 not in '>=3.11'``)."""
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'requires-python = ">=3.11"' in pyproject
    pins = [
        line
        for line in (ROOT / "constraints.txt").read_text().splitlines()
        if line and not line.startswith("#")
    ]
    assert pins and all(line.endswith(' ; python_version >= "3.11"') for line in pins)
