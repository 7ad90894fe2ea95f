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


def test_readme_invite_permission_integer_is_what_the_bot_needs() -> None:
    import discord

    needed = discord.Permissions(
        view_channel=True, send_messages=True, embed_links=True, attach_files=True
    )
    text = README.read_text()
    assert f"permission integer `{needed.value}`" in text
    assert f"permissions={needed.value}" in text
