"""The package as ``pip install .`` leaves it, run from a directory without the sources.

The other tests import the working tree (``PYTHONPATH=.``); this module installs a copy of
the package with pip (no build isolation, no dependencies: offline, the test environment
already holds them), then runs its console script from an empty directory, so what it checks
is what a user gets: the build says nothing deprecated, ``mexican-train-bot --help`` names
itself, and the package imported is the installed one.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.ops.helpers import ROOT

#: What pip needs to build the package (as the Dockerfile copies it).
SOURCES = ("pyproject.toml", "README.md", "bot", "renderers")


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """(the install target, pip's verbose output)."""
    base = tmp_path_factory.mktemp("installed")
    src = base / "src"
    src.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(ROOT / name, src / name)
    # The Dockerfile's recipe: a wheel built from the sources, then only the wheel installed.
    wheels, target = base / "wheels", base / "site"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-cache-dir"]
    offline = ["--no-index", "--no-deps", "--no-build-isolation"]
    build = subprocess.run(
        [*pip, "wheel", "-v", *offline, "--wheel-dir", str(wheels), str(src)],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    output = build.stdout + build.stderr
    assert build.returncode == 0, output[-3000:]
    (wheel,) = wheels.glob("mexican_train_bot-*.whl")
    install = subprocess.run(
        [*pip, "install", *offline, "--target", str(target), str(wheel)],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert install.returncode == 0, install.stdout + install.stderr
    shutil.rmtree(src)  # as in the image: the sources are not there at run time
    return target, output


def run_installed(
    target: Path, *args: str, cwd: Path, **env: str
) -> subprocess.CompletedProcess[str]:
    """The console script pip wrote, with only the install target on the import path."""
    script = target / "bin" / "mexican-train-bot"
    return subprocess.run(
        [str(script), *args], cwd=cwd, capture_output=True, text=True, timeout=120, check=False,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(target)} | env,
    )  # fmt: skip


def test_the_build_prints_no_deprecation_warning(installed: tuple[Path, str]) -> None:
    target, output = installed
    # setuptools said "`project.license` as a TOML table is deprecated" on every install of
    # license = { text = "MIT" }; the SPDX string (PEP 639) is the current form.
    assert "deprecat" not in output.lower(), output[-3000:]
    (metadata,) = target.glob("mexican_train_bot-*.dist-info/METADATA")
    assert "License-Expression: MIT" in metadata.read_text().splitlines()


def test_console_script_names_itself_in_its_help(
    installed: tuple[Path, str], tmp_path: Path
) -> None:
    target, _ = installed
    result = run_installed(target, "--help", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("usage: mexican-train-bot "), result.stdout
    module = subprocess.run(
        [sys.executable, "-m", "bot", "--help"], cwd=tmp_path, capture_output=True, text=True,
        env={"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(target)}, timeout=60,
        check=False,
    )  # fmt: skip
    assert module.stdout.startswith("usage: python -m bot "), module.stdout


def test_the_installed_package_is_the_one_imported(
    installed: tuple[Path, str], tmp_path: Path
) -> None:
    """The image runs from /data, with no sources there: `python -m bot` imports the
    installed package. From a directory holding a bot/ folder, that folder would win."""
    target, _ = installed
    where = "import bot, renderers; print(bot.__file__); print(renderers.__file__)"
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(target)}
    result = subprocess.run(
        [sys.executable, "-c", where], cwd=tmp_path, env=env, capture_output=True, text=True,
        timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    for line in result.stdout.splitlines():
        assert Path(line).is_relative_to(target), line
    fonts = target / "renderers" / "fonts"
    assert any(p.suffix == ".ttf" for p in fonts.iterdir()), "the fonts were not installed"
    # Why the working directory matters: a bot/ folder there shadows the installed package.
    (tmp_path / "bot").mkdir()
    (tmp_path / "bot" / "__init__.py").write_text("")
    shadowed = subprocess.run(
        [sys.executable, "-c", "import bot; print(bot.__file__)"], cwd=tmp_path, env=env,
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert Path(shadowed.stdout.strip()).parent == tmp_path / "bot"


def test_try_it_works_right_after_install_without_token_or_network(
    installed: tuple[Path, str], tmp_path: Path
) -> None:
    target, _ = installed
    script = target / "bin" / "mexican-train-bot"
    result = subprocess.run(
        [str(script), "try", "--players", "2", "--preset", "quick", "--seed", "1",
         "--pictures", str(tmp_path / "pictures")],
        input="moves\nquit\n", cwd=tmp_path, capture_output=True, text=True, timeout=120,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(target)},
        check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "Your hand" in result.stdout and "Legal moves: " in result.stdout
    assert (tmp_path / "pictures" / "table-001.png").is_file()
