""".ci/run removes its virtual environment (about 370 MB) however the run ends (issue 50: one
was left behind when the run was killed): Ctrl-C and SIGTERM stop the README's command and
remove it at once; one left by a SIGKILLed run is removed by the next run.

The script runs as written, on a scratch copy of the repository whose README's test command
marks that it started and then sleeps (no suite, no network: pip is told there is no index).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
COMMAND = (
    "pip install --help >/dev/null && sh -c 'echo $$ > job.pid; exec sleep 120' && python -m pytest"
)


def _scratch(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    repo = tmp_path / "repo"
    (repo / ".ci").mkdir(parents=True)
    shutil.copy(ROOT / ".ci" / "run", repo / ".ci" / "run")
    (repo / "README.md").write_text(f"```sh\n{COMMAND}\n```\n")
    (repo / "constraints.txt").write_text("")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "TMPDIR": str(tmp),
           "PIP_NO_INDEX": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}  # fmt: skip
    return repo, env


def _start(repo: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    (repo / "job.pid").unlink(missing_ok=True)
    proc = subprocess.Popen(
        ["bash", str(repo / ".ci" / "run")], cwd=repo, env=env, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while not (repo / "job.pid").exists() or not (repo / "job.pid").read_text().strip():
        assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
        assert time.monotonic() < deadline, "the README's command never started"
        time.sleep(0.1)
    return proc


def _venvs(env: dict[str, str]) -> list[Path]:
    return sorted(Path(env["TMPDIR"]).glob("mexican-train-ci.*"))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.parametrize(("how", "code"), [("ctrl-c", 130), ("sigterm", 143), ("sighup", 129)])
def test_a_stopped_run_leaves_no_environment_and_no_job(
    tmp_path: Path, how: str, code: int
) -> None:
    repo, env = _scratch(tmp_path)
    proc = _start(repo, env)
    assert len(_venvs(env)) == 1
    job = int((repo / "job.pid").read_text())
    if how == "ctrl-c":  # the terminal signals the whole foreground process group
        os.killpg(proc.pid, signal.SIGINT)
    else:  # `timeout` and `kill` signal the script alone
        proc.send_signal(signal.SIGTERM if how == "sigterm" else signal.SIGHUP)
    assert proc.wait(timeout=20) == code
    assert _venvs(env) == []
    deadline = time.monotonic() + 10
    while _alive(job) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(job), "the README's command outlived the run"


def test_one_left_by_a_sigkilled_run_is_removed_by_the_next(tmp_path: Path) -> None:
    repo, env = _scratch(tmp_path)
    proc = _start(repo, env)
    job = int((repo / "job.pid").read_text())
    os.killpg(proc.pid, signal.SIGKILL)  # nothing can trap it (its job lives on: ours to end)
    proc.wait(timeout=20)
    os.kill(job, signal.SIGTERM)
    with_pid = _venvs(env)
    assert len(with_pid) == 1  # left behind
    proc = _start(repo, env)
    assert with_pid[0] not in _venvs(env) and len(_venvs(env)) == 1
    job = int((repo / "job.pid").read_text())
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=20)
    assert _venvs(env) == []
    deadline = time.monotonic() + 10
    while _alive(job) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(job)
