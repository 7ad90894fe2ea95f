"""The feature index of docs/layout.md ("Features: one name in every layer") is true.

A feature keeps one name in every layer folder; the index lists each feature's modules per
layer (with the few older ones named otherwise). Checked here: every module the index names
exists, every cog is in it, and every module named like a feature is in that feature's row —
so a newcomer who opens a feature's name in each folder finds all of it.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAYOUT = ROOT / "docs" / "layout.md"
#: The table's layer columns, in order, after the feature's own.
FOLDERS = ("cogs", "ui", "service", "texts", "store")
HEADING = "## Features: one name in every layer"


def feature_rows(text: str) -> dict[str, dict[str, list[str]]]:
    """feature -> folder -> module names, read off the index table."""
    section = text.split(HEADING, 1)[1].split("\n## ", 1)[0]
    rows: dict[str, dict[str, list[str]]] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("|") or len(cells) != 1 + len(FOLDERS):
            continue
        key = re.match(r"`(\w+)`", cells[0])
        if key is None:
            continue  # the header and its rule
        rows[key[1]] = {
            folder: re.findall(r"`(\w+)`", cell)
            for folder, cell in zip(FOLDERS, cells[1:], strict=True)
        }
    return rows


def modules(folder: str) -> set[str]:
    return {p.stem for p in (ROOT / "bot" / folder).glob("*.py") if p.stem != "__init__"}


def test_the_index_has_rows() -> None:
    rows = feature_rows(LAYOUT.read_text(encoding="utf-8"))
    assert {"play", "lobby", "catchup", "schedule"} <= rows.keys()


def test_every_module_the_index_names_exists() -> None:
    rows = feature_rows(LAYOUT.read_text(encoding="utf-8"))
    missing = [
        f"{feature}: bot/{folder}/{name}.py"
        for feature, layers in rows.items()
        for folder, names in layers.items()
        for name in names
        if name not in modules(folder)
    ]
    assert not missing, missing


def test_every_cog_is_in_the_index() -> None:
    rows = feature_rows(LAYOUT.read_text(encoding="utf-8"))
    listed = {name for layers in rows.values() for name in layers["cogs"]}
    assert modules("cogs") - listed == set()


def test_a_module_named_like_a_feature_is_in_its_row() -> None:
    rows = feature_rows(LAYOUT.read_text(encoding="utf-8"))
    strays = [
        f"bot/{folder}/{feature}.py is not in the row of `{feature}`"
        for feature, layers in rows.items()
        for folder in FOLDERS
        if feature in modules(folder) and feature not in layers[folder]
    ]
    assert not strays, strays


def test_the_reader_finds_a_stray_module() -> None:
    """The check itself: a row that leaves out a module of its own name is named."""
    text = f"{HEADING}\n\n| f | c | u | s | t | st |\n| --- |\n| `play` | `play` | | | | |\n"
    rows = feature_rows(text)
    assert rows == {"play": {"cogs": ["play"], "ui": [], "service": [], "texts": [], "store": []}}
    assert "play" in modules("service") and "play" not in rows["play"]["service"]
