"""The admin's guide's systemd section can be followed as written (issue 50: its unit ran as
``User=mtbot`` with no step creating that user): the user the unit runs as is created first,
with the unit's working directory as its home, and owns that folder."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ADMIN = (ROOT / "docs" / "admin.md").read_text(encoding="utf-8")


def test_the_systemd_unit_runs_as_a_user_the_guide_creates_first() -> None:
    section = ADMIN.split("### systemd", 1)[1].split("\n## ", 1)[0]
    unit = re.search(r"```ini\n(.*?)```", section, re.S)
    assert unit, "no unit in the systemd section"
    user = re.search(r"^User=(\S+)$", unit.group(1), re.M)
    home = re.search(r"^WorkingDirectory=(\S+)$", unit.group(1), re.M)
    assert user and home
    before = section[: unit.start()]
    created = re.search(rf"^useradd .*--home-dir {re.escape(home.group(1))} .*{user.group(1)}$",
                        before, re.M)  # fmt: skip
    assert created, f"no useradd step for {user.group(1)} before the unit"
    assert f"chown -R {user.group(1)}:{user.group(1)} {home.group(1)}" in before
