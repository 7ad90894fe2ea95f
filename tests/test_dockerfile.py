"""No Docker engine runs here, so the image's recipe is checked as text, line by line.

What matters: it installs the same package the README does (a wheel of ``.``, in a build
stage), runs the installed package rather than a source copy, runs as a
non-root user, keeps the database in the ``/data`` volume, uses an exec-form command, and the
build context leaves out what the image does not need.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]


def _instructions() -> list[tuple[str, str]]:
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            out.append((word.upper(), rest.strip()))
    return out


def _stages() -> list[list[tuple[str, str]]]:
    """The instructions, one list per ``FROM``."""
    stages: list[list[tuple[str, str]]] = []
    for word, rest in _instructions():
        if word == "FROM":
            stages.append([])
        stages[-1].append((word, rest))
    return stages


def test_dockerfile_installs_the_package_like_the_readme() -> None:
    build, final = _stages()
    for stage in (build, final):
        assert re.match(r"python:3\.1[1-9]-slim", stage[0][1])
    copied = " ".join(rest for word, rest in build if word == "COPY")
    for needed in ("pyproject.toml", "bot", "renderers"):
        assert needed in copied, f"the build stage does not copy {needed}"
    assert any(re.search(r"pip wheel .* \.$", rest) for word, rest in build if word == "RUN")
    runs = " ".join(rest for word, rest in final if word == "RUN")
    assert "pip install -c /wheels/constraints.txt /wheels/" in runs
    readme = (ROOT / "README.md").read_text()
    assert "pip install -c constraints.txt ." in readme


def test_the_image_runs_the_installed_package_not_a_source_copy() -> None:
    """`python -m` imports from the working directory first: the final stage must hold no
    sources, and must not run from the directory the build stage put them in."""
    build, final = _stages()
    for word, rest in final:
        if word == "COPY":
            assert rest.startswith("--from="), f"the final stage copies sources: {rest}"
    build_dirs = {rest for word, rest in build if word == "WORKDIR"}
    workdir = [rest for word, rest in final if word == "WORKDIR"]
    assert workdir and workdir[-1] not in build_dirs | {"/app"}
    assert workdir[-1] == "/data"  # the volume: the database, never a package


def test_dockerfile_runs_as_non_root_with_data_volume_and_exec_form() -> None:
    steps = _stages()[-1]
    words = [w for w, _ in steps]
    user = [rest for w, rest in steps if w == "USER"]
    assert user and user[-1] not in ("root", "0")
    assert words.index("USER") > max(i for i, w in enumerate(words) if w == "RUN")
    volume = [rest for w, rest in steps if w == "VOLUME"]
    assert volume and "/data" in json.loads(volume[0])
    env = " ".join(rest for w, rest in steps if w == "ENV")
    assert "MT_DATABASE=/data/" in env
    cmd = [rest for w, rest in steps if w == "CMD"]
    assert len(cmd) == 1 and json.loads(cmd[0]) == ["python", "-m", "bot"]


def test_dockerignore_keeps_the_context_small_and_secret_free() -> None:
    ignored = {
        line.strip()
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }
    for entry in (".git", ".venv", "tests", ".env", "data"):
        assert entry in ignored, f".dockerignore misses {entry}"
    for kept in ("bot", "renderers", "pyproject.toml", "README.md"):
        assert kept not in ignored


def _compose_service() -> dict[str, Any]:
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    (service,) = compose["services"].values()
    assert isinstance(service, dict)
    return service


def test_compose_example_mounts_data_and_reads_the_token_from_env() -> None:
    service = _compose_service()
    assert "mt-data:/data" in service["volumes"]
    env = service["environment"]
    assert env["DISCORD_TOKEN"].startswith("${DISCORD_TOKEN:?")  # compose up stops without it
    assert env["MT_DATABASE"].startswith("/data/")  # in the volume, whatever .env says


def test_compose_passes_every_setting_in_env_file_to_the_bot() -> None:
    """MT_SYNC_COMMANDS, MT_DEV_GUILD, MT_LOG_LEVEL... come from .env: env_file passes them
    all, and `environment:` (which wins over it) pins none of the settings an admin sets."""
    service = _compose_service()
    env_file = service["env_file"]
    files = [env_file] if isinstance(env_file, str) else env_file
    assert ".env" in [f if isinstance(f, str) else f["path"] for f in files]
    pinned = set(service["environment"])
    for setting in ("MT_SYNC_COMMANDS", "MT_DEV_GUILD", "MT_LOG_LEVEL", "MT_LOG_FORMAT"):
        assert setting not in pinned, f"compose.yaml overrides {setting} from .env"
    assert pinned <= {"DISCORD_TOKEN", "MT_DATABASE", "MT_SHUTDOWN_GRACE", "MT_ON_CONFIG_ERROR"}


def test_compose_does_not_restart_a_configuration_error_in_a_loop() -> None:
    """Compose cannot restart "except on exit 2", so a configuration error must not exit:
    restart: unless-stopped (crashes, reboots) with MT_ON_CONFIG_ERROR=wait (the bot waits
    to be stopped; tests/ops/test_config_cli.py runs that), or a bounded on-failure policy."""
    service = _compose_service()
    restart = service["restart"]
    waits = service["environment"].get("MT_ON_CONFIG_ERROR") == "wait"
    bounded = re.fullmatch(r"on-failure:[1-9]\d?", restart) is not None
    assert waits or bounded, (restart, service["environment"])
    assert restart in ("unless-stopped", "always") or bounded


def test_cluster_compose_runs_every_shard_once_over_one_postgresql() -> None:
    """compose.cluster.yaml (docs/postgresql.md): a PostgreSQL service and bot services that
    together run shards 0..count-1 once each, all on that database, each valid for the bot."""
    from bot.config import Config

    compose = yaml.safe_load((ROOT / "compose.cluster.yaml").read_text())
    services = compose["services"]
    db = services.pop("db")
    assert db["image"].startswith("postgres:") and "mt-pg" in compose["volumes"]
    assert db["environment"]["POSTGRES_PASSWORD"].startswith("${POSTGRES_PASSWORD:?")
    shards: list[int] = []
    counts = set()
    for service in services.values():
        env = dict(service["environment"])
        assert env["DISCORD_TOKEN"].startswith("${DISCORD_TOKEN:?")
        # The password beside the URL (PGPASSWORD), never in it: any password works unescaped.
        assert env["MT_DATABASE"] == "postgresql://db:5432/mexican_train"
        assert env["PGPASSWORD"] == "${POSTGRES_PASSWORD}"
        assert env["PGUSER"] == db["environment"]["POSTGRES_USER"]
        assert service["depends_on"]["db"]["condition"] == "service_healthy"
        assert service["restart"] == "unless-stopped" and env["MT_ON_CONFIG_ERROR"] == "wait"
        for password in ("pw", "a/b", "a#b", "a@b", "a?b:c%"):
            filled = {k: v.replace("${POSTGRES_PASSWORD}", password) for k, v in env.items()}
            config = Config.from_env(filled)  # the bot would accept this process's settings
        assert config.clustered and config.shard_ids is not None
        shards += config.shard_ids
        counts.add(config.shard_count)
    (count,) = counts
    assert sorted(shards) == list(range(count)) and len(services) >= 2


def _pins() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            pin, _, marker = line.partition(";")
            name, sep, version = pin.strip().partition("==")
            assert sep and version, f"constraints.txt: {line!r} is not pinned with =="
            # From requires-python on: an older Python gets pip's clear refusal (issue 50).
            assert marker.strip() == 'python_version >= "3.11"', line
            pins[re.sub(r"[-_.]+", "-", name).lower()] = version
    return pins


def test_constraints_pin_every_dependency_and_test_tool() -> None:
    """Runtime and test tools alike, so a new ruff or mypy release cannot fail the style
    check with no change of ours; the file says how to regenerate it."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = [*project["dependencies"], *project["optional-dependencies"]["test"]]
    pins = _pins()
    for requirement in wanted:
        name = re.split(r"[<>=!~\[; ]", requirement, maxsplit=1)[0]
        assert re.sub(r"[-_.]+", "-", name).lower() in pins, f"{name} is not pinned"
    assert "ruff" in pins and "mypy" in pins and "mexican-train-bot" not in pins
    assert "scripts/lock" in (ROOT / "constraints.txt").read_text()
    assert (ROOT / "scripts" / "lock").stat().st_mode & 0o111, "scripts/lock is not executable"


def test_the_environment_running_the_suite_is_the_pinned_one() -> None:
    """What the README's test command installs is what constraints.txt says (checked here,
    where it runs): its words carry the pins, so this holds for a newcomer as for CI."""
    from importlib.metadata import PackageNotFoundError, version

    for name, pinned in _pins().items():
        if name == "pip":
            continue  # the environment's own installer
        try:
            found = version(name)
        except PackageNotFoundError:
            continue  # a dependency of another platform or Python version
        assert found == pinned, f"{name} {found} installed, constraints.txt pins {pinned}"


def _readme_commands() -> dict[str, str]:
    import importlib.util

    spec = importlib.util.spec_from_file_location("fresh", ROOT / "scripts" / "fresh_machine.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    commands: dict[str, str] = module.readme_commands((ROOT / "README.md").read_text())
    return commands


def test_the_readme_commands_carry_the_pins_themselves() -> None:
    """A newcomer types the README's words and nothing else: every install in them asks for
    constraints.txt, so a newer release of any dependency cannot reach the suite."""
    readme = (ROOT / "README.md").read_text()
    commands = _readme_commands()
    assert commands["venv"] == "python3 -m venv .venv && . .venv/bin/activate"
    for key in ("quick_start", "test"):
        assert commands[key].startswith("pip install -c constraints.txt "), commands[key]
    assert commands["test"].endswith("&& python -m pytest")
    installs = re.findall(r"^pip install.*$", readme, flags=re.M)
    assert len(installs) >= 3  # try-it, quick start, tests
    for line in installs:
        assert line.startswith("pip install -c constraints.txt "), line
    assert "PIP_CONSTRAINT" not in readme  # no setting outside the words


def test_ci_runs_the_readmes_test_command_with_no_settings_of_its_own() -> None:
    """.ci/run reads the test command out of README.md (they cannot drift) and runs it in a
    new virtual environment, with no PIP_CONSTRAINT or other variable of its own."""
    ci = (ROOT / ".ci" / "run").read_text()
    assert "PIP_CONSTRAINT" not in ci and "export" not in ci
    assert "mktemp -d" in ci and ".venv" not in ci  # never a leftover environment
    assert "set -euo pipefail" in ci  # a failing command fails CI
    grep = re.search(r'grep -m1 -E "([^"]+)" README\.md', ci)
    assert grep, "the test command is not read out of README.md"
    readme_lines = (ROOT / "README.md").read_text().splitlines()
    found = [line for line in readme_lines if re.search(grep.group(1), line)]
    assert found[0] == _readme_commands()["test"]
    assert 'eval "$command"' in ci


def test_the_image_installs_the_pinned_versions() -> None:
    build, final = _stages()
    build_env = " ".join(rest for word, rest in build if word == "ENV")
    assert "PIP_CONSTRAINT=" in build_env  # also reaches the wheel's isolated build
    assert any("constraints.txt" in rest for word, rest in build if word == "COPY")
    runs = " ".join(rest for word, rest in final if word == "RUN")
    assert "pip install -c /wheels/constraints.txt /wheels/" in runs
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert "constraints.txt" not in ignored
