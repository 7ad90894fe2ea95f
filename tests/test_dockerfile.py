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
    assert "pip install /wheels/" in runs
    readme = (ROOT / "README.md").read_text()
    assert "pip install ." in readme


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
        assert env["MT_DATABASE"].startswith("postgresql://") and "@db:5432/" in env["MT_DATABASE"]
        assert service["depends_on"]["db"]["condition"] == "service_healthy"
        assert service["restart"] == "unless-stopped" and env["MT_ON_CONFIG_ERROR"] == "wait"
        filled = {k: v.replace("${POSTGRES_PASSWORD}", "pw") for k, v in env.items()}
        config = Config.from_env(filled)  # the bot would accept this process's settings
        assert config.clustered and config.shard_ids is not None
        shards += config.shard_ids
        counts.add(config.shard_count)
    (count,) = counts
    assert sorted(shards) == list(range(count)) and len(services) >= 2
