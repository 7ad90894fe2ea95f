"""The README's and docs' Python examples run as written, so the documentation stays true."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]


def _examples(page: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", page.read_text(), re.S)


def test_the_documentation_keeps_its_python_examples() -> None:
    assert sum(len(_examples(page)) for page in PAGES) >= 3, "the docs lost their examples"


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_python_examples_run(page: Path) -> None:
    for block in _examples(page):
        exec(compile(block, str(page), "exec"), {})


def test_readme_links_to_pages_that_exist() -> None:
    for page in PAGES:
        for target in re.findall(r"\]\(([^)#:]+\.(?:md|png))", page.read_text()):
            assert (page.parent / target).exists(), f"{page.name} links to missing {target}"


def test_readme_invite_permission_integer_is_what_the_bot_needs() -> None:
    import discord

    needed = discord.Permissions(
        view_channel=True, send_messages=True, embed_links=True, attach_files=True
    )
    text = README.read_text()
    assert f"permission integer `{needed.value}`" in text
    assert f"permissions={needed.value}" in text


def test_readme_documents_every_command_line_entry() -> None:
    """The console script, try-it and the backup folder form are in the README."""
    text = README.read_text()
    for needed in (
        "mexican-train-bot",
        "python -m bot try",
        "mexican-train-bot try",
        "python -m bot backup backups/",
        "MT_ON_CONFIG_ERROR",
        "env_file",
    ):
        assert needed in text, f"the README does not mention {needed}"
