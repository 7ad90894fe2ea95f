"""A fresh machine on the day a newer release appears: the README's commands, as written.

Copies this checkout's files (what a clone holds) into a temporary directory, makes a
"newer release" of a test tool available to pip (a wheel of hypothesis, numbered above the
pinned one, that breaks on import, in a find-links directory beside the machine's indexes),
then runs the README's own command lines, read out of README.md (not copied here): the
quick start's virtual environment and install, then the test command's install, and the
suite's collection (``pytest --collect-only``) plus tests/test_dockerfile.py (which checks
that the environment holds the pinned versions). The README's words carry the pins
(``-c constraints.txt``), so pip must ignore the newer release and everything collects.

``--control`` also runs the same with ``-c constraints.txt`` taken out of the words (the
README before the pins were in it): pip then picks the newer release and collection fails,
which shows the fake release really was within pip's reach.

Needs the network (or the machine's package indexes) and a few minutes. Prints one JSON line.
Usage: python scripts/fresh_machine.py [--control]
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FAKE_TOOL = "hypothesis"
FAKE_VERSION = "6.999.0"
PINS = "-c constraints.txt"
# The same pattern .ci/run greps the test command with.
TEST_COMMAND = re.compile(r"^pip install .*&& python -m pytest$")


def readme_commands(text: str) -> dict[str, str]:
    """The README's command lines a newcomer types: the virtual environment, the quick
    start (the block that starts the bot with ``--sync``) and the test command."""
    blocks = re.findall(r"^```sh\n(.*?)^```", text, flags=re.M | re.S)
    quick = next(b for b in blocks if "python -m bot --sync" in b).splitlines()
    venv = next(line for line in quick if line.startswith("python3 -m venv"))
    install = next(line for line in quick if line.startswith("pip install"))
    tests = [line for b in blocks for line in b.splitlines() if TEST_COMMAND.match(line)]
    if len(tests) != 1:
        raise ValueError(f"README.md: expected one test command line, found {tests}")
    return {"venv": venv, "quick_start": install, "test": tests[0]}


def pip_part(line: str) -> str:
    """The ``pip install …`` step of a command line (the rest starts the bot or the suite)."""
    return next(part.strip() for part in line.split("&&") if part.strip().startswith("pip "))


def _fake_wheel(folder: Path) -> Path:
    """A wheel numbered above any pinned release; importing it fails, so a suite that
    installed it cannot even collect."""
    name = f"{FAKE_TOOL}-{FAKE_VERSION}"
    files = {
        f"{FAKE_TOOL}/__init__.py": (
            'raise ImportError("a newer release than constraints.txt pins '
            '(scripts/fresh_machine.py)")\n'
        ),
        f"{name}.dist-info/METADATA": (
            f"Metadata-Version: 2.1\nName: {FAKE_TOOL}\nVersion: {FAKE_VERSION}\n"
        ),
        f"{name}.dist-info/WHEEL": (
            "Wheel-Version: 1.0\nGenerator: fresh_machine\nRoot-Is-Purelib: true\n"
            "Tag: py3-none-any\n"
        ),
    }
    record = []
    for path, body in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(body.encode()).digest()).rstrip(b"=")
        record.append(f"{path},sha256={digest.decode()},{len(body.encode())}")
    record.append(f"{name}.dist-info/RECORD,,")
    files[f"{name}.dist-info/RECORD"] = "\n".join(record) + "\n"
    wheel = folder / f"{name}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for path, body in files.items():
            archive.writestr(path, body)
    return wheel


def _clone(target: Path) -> None:
    """The files a clone of this checkout holds (tracked, plus new files not ignored)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout.split(b"\0")
    for raw in filter(None, listed):
        source = ROOT / raw.decode()
        if source.is_file():
            destination = target / raw.decode()
            destination.parent.mkdir(parents=True, exist_ok=True)
            destination.write_bytes(source.read_bytes())
            destination.chmod(source.stat().st_mode)


def _environment(find_links: Path) -> dict[str, str]:
    """This machine's environment without our virtual environment or pin settings: a new
    user's shell, plus the newer release where pip looks for packages."""
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PIP_CONSTRAINT")}
    venv = os.environ.get("VIRTUAL_ENV")
    if venv:
        env["PATH"] = os.pathsep.join(
            p for p in env.get("PATH", "").split(os.pathsep) if not p.startswith(venv)
        )
    env["PIP_FIND_LINKS"] = " ".join(filter(None, [env.get("PIP_FIND_LINKS"), str(find_links)]))
    env.pop("PYTHONPATH", None)
    return env


def _run(commands: dict[str, str], clone: Path, env: dict[str, str]) -> dict[str, object]:
    script = "\n".join(
        [
            "set -e",
            commands["venv"],
            f"{pip_part(commands['quick_start'])} --quiet",
            f"{pip_part(commands['test'])} --quiet",
            "python -m pip show " + FAKE_TOOL + " | sed -n 's/^Version: //p' > .tool-version",
            "set +e",
            "python -m pytest --collect-only -q -p no:cacheprovider > .collect.txt 2>&1",
            "echo $? > .collect.rc",
            "python -m pytest -q -p no:cacheprovider tests/test_dockerfile.py > .pins.txt 2>&1",
            "echo $? > .pins.rc",
        ]
    )
    started = time.monotonic()
    done = subprocess.run(["bash", "-c", script], cwd=clone, env=env, capture_output=True)
    out: dict[str, object] = {"install_rc": done.returncode}
    if done.returncode:
        out["install_error"] = done.stderr.decode(errors="replace")[-800:]
        return out
    collected = (clone / ".collect.txt").read_text()
    # `--collect-only -q` prints "path: count" per test file.
    counted = sum(int(n) for n in re.findall(r"^tests/\S+\.py: (\d+)$", collected, flags=re.M))
    out.update(
        {
            "installed_" + FAKE_TOOL: (clone / ".tool-version").read_text().strip(),
            "collect_rc": int((clone / ".collect.rc").read_text()),
            "collected": counted,
            "pinned_environment_test_rc": int((clone / ".pins.rc").read_text()),
            "seconds": round(time.monotonic() - started, 1),
        }
    )
    if out["collect_rc"]:
        out["collect_tail"] = collected[-400:]
    if out["pinned_environment_test_rc"]:
        out["pinned_environment_test_tail"] = (clone / ".pins.txt").read_text()[-1500:]
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--control", action="store_true", help="also run without the pins")
    args = parser.parse_args()
    commands = readme_commands((ROOT / "README.md").read_text())
    result: dict[str, object] = {
        "readme": commands,
        "newer_release": f"{FAKE_TOOL} {FAKE_VERSION}",
    }
    with tempfile.TemporaryDirectory(prefix="fresh-machine-") as tmp:
        wheels = Path(tmp) / "newer"
        wheels.mkdir()
        _fake_wheel(wheels)
        env = _environment(wheels)
        clone = Path(tmp) / "clone"
        _clone(clone)
        result["as_written"] = _run(commands, clone, env)
        if args.control:
            unpinned = {k: v.replace(PINS + " ", "") for k, v in commands.items()}
            control = Path(tmp) / "control"
            _clone(control)
            result["without_pins"] = _run(unpinned, control, env)
    as_written = result["as_written"]
    assert isinstance(as_written, dict)
    ok = as_written.get("collect_rc") == 0 and as_written.get("pinned_environment_test_rc") == 0
    result["ok"] = ok
    result["load_avg"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(result))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
