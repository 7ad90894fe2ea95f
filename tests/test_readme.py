"""The README's Python examples run as written, so the README stays true."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_examples_run() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    assert blocks, "the README lost its Python example"
    for block in blocks:
        exec(compile(block, str(README), "exec"), {})
