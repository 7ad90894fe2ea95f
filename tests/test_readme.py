"""The README's and docs' Python examples run as written, so the documentation stays true."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
ADMIN = ROOT / "docs" / "admin.md"
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
    from bot.ui.permissions import invite_permissions

    needed = invite_permissions()
    text = README.read_text()
    assert f"permission integer `{needed.value}`" in text
    assert f"permissions={needed.value}" in text


def test_readme_documents_every_command_line_entry() -> None:
    """The console script, try-it and the backup folder form are in the README or the
    admin's guide it links to."""
    text = README.read_text() + ADMIN.read_text()
    for needed in (
        "mexican-train-bot",
        "python -m bot try",
        "mexican-train-bot try",
        "python -m bot backup backups/",
        "MT_ON_CONFIG_ERROR",
        "env_file",
    ):
        assert needed in text, f"the README does not mention {needed}"


def _shell_block_after(heading: str) -> str:
    """The first ```sh block after ``heading`` in the admin's guide."""
    text = ADMIN.read_text()
    start = text.index(heading)
    match = re.search(r"```sh\n(.*?)```", text[start:], re.S)
    assert match is not None, f"no shell block after {heading!r}"
    return match.group(1)


def test_the_backup_rehearsal_runs_as_written_on_a_fresh_install(tmp_path: Path) -> None:
    """The admin's guide's rehearsal, word for word, in an empty folder: ``init`` creates the
    database without a token, ``backup`` copies it, the copy is put back, ``init`` checks it.
    (``python`` is this test's interpreter, the package on its path as after ``pip install``.)
    """
    import os
    import subprocess
    import sys

    block = _shell_block_after("Rehearse a backup and a restore")
    assert "python -m bot init" in block and "python -m bot backup" in block
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "python"  # (a symlink would lose the virtual environment)
    wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    wrapper.chmod(0o755)
    work = tmp_path / "clone"
    work.mkdir()
    env = {
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}",
        "PYTHONPATH": str(ROOT),
    }
    result = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", block], cwd=work, env=env, capture_output=True,
        text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("database created: data/mexican-train.sqlite3 (schema version")
    assert lines[1].startswith("backup written to backups/mexican-train-")
    assert "integrity ok" in lines[1]
    assert lines[2].startswith("database checked: data/mexican-train.sqlite3 (schema version")
    assert "0 games" in lines[2] and result.stderr == ""
    assert len(list((work / "backups").iterdir())) == 1


def test_the_rules_page_names_every_house_rule_preset_and_sheet() -> None:
    """docs/rules.md is the project's own rules page (the team's rule sheets are not in the
    repository): every ``Rules`` field and every preset is on it, each rule cites sheets, and
    nothing points at a file outside the repository any more."""
    import dataclasses

    from bot.engine import PRESETS, Rules

    page = (ROOT / "docs" / "rules.md").read_text()
    for field in dataclasses.fields(Rules):
        if field.name != "max_pip":  # the set: "double-N", by its sizes
            assert f"`{field.name}" in page, f"docs/rules.md does not name {field.name}"
    for name, rules in PRESETS.items():
        low, high = rules.player_range
        rows = [line for line in page.splitlines() if line.startswith("| `")]
        row = next((line for line in rows if f"`{name}`" in line.split("|")[1]), "")
        assert f"{low} to {high}" in row, name
    for sheet in ("000", "001", "002", "003", "004"):
        assert page.count(sheet) >= 3, f"docs/rules.md hardly cites sheet {sheet}"
    for path in [README, *ROOT.glob("docs/*.md"), *ROOT.glob("bot/**/*.py")]:
        assert "shared/RULES.md" not in path.read_text(), f"{path} points outside the repository"
