"""The engine stays pure: no Discord, database, Pillow, clock, global random or I/O.

Two guards: ruff's banned-api rule in ``bot/engine/ruff.toml`` (run here, so the test suite
enforces it even where nobody runs ruff by hand), and a walk over every import statement in
the engine, which catches what a lint config could be edited to allow.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "bot" / "engine"
FORBIDDEN = {
    "discord",
    "aiosqlite",
    "sqlite3",
    "PIL",
    "asyncio",
    "time",
    "datetime",
    "os",
    "socket",
    "renderers",
    "bot.store",
    "bot.service",
    "bot.cogs",
    "secrets",
    "threading",
    "subprocess",
}
# The command line is the engine's edge: it times a run and prints, nothing more.
EDGE = {ENGINE / "__main__.py": {"time"}}


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            if node.module == "random":
                found.update(f"random.{alias.name}" for alias in node.names)
    return found


def test_engine_imports_nothing_impure() -> None:
    files = sorted(ENGINE.rglob("*.py"))
    assert len(files) > 5
    for path in files:
        allowed = EDGE.get(path, set())
        for name in _imports(path):
            root = name.split(".")[0]
            banned = {f for f in FORBIDDEN if name == f or name.startswith(f + ".")}
            banned |= {root} & FORBIDDEN
            assert not (banned - allowed), f"{path.relative_to(ENGINE)} imports {name}"
            # Only random.Random instances: no module-level random functions.
            assert not (name.startswith("random.") and name != "random.Random"), (
                f"{path.relative_to(ENGINE)} imports {name}"
            )


def test_engine_ruff_bans_hold() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--select", "TID251", str(ENGINE)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_engine_ruff_bans_catch_an_impure_import(tmp_path: Path) -> None:
    """The lint config really bans: a file importing discord in the engine fails it."""
    probe = ENGINE / "_purity_probe.py"
    probe.write_text("import discord\nimport random\nrandom.shuffle([])\n")
    try:
        result = subprocess.run(
            [sys.executable, "-m", "ruff", "check", "--select", "TID251", str(probe)],
            capture_output=True,
            text=True,
            check=False,
        )
    finally:
        probe.unlink()
    assert result.returncode != 0
    assert "no Discord in bot/engine" in result.stdout
    assert "no global random generator" in result.stdout
