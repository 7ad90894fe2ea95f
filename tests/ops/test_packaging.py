"""The image checks its own health and stops within Docker's grace period."""

from __future__ import annotations

import json
import re

from bot.config import DEFAULT_SHUTDOWN_GRACE
from tests.ops.helpers import ROOT


def test_image_healthcheck_asks_the_bot_and_shutdown_fits_dockers_grace() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    check = re.search(r"^HEALTHCHECK .*?CMD (\[.*\])$", dockerfile, re.M)
    assert check and json.loads(check.group(1)) == ["python", "-m", "bot", "health"]
    assert DEFAULT_SHUTDOWN_GRACE < 10  # docker stop: SIGKILL 10 s after SIGTERM by default
    compose = (ROOT / "compose.yaml").read_text()
    grace = float(re.search(r'MT_SHUTDOWN_GRACE: "(\d+)"', compose).group(1))  # type: ignore[union-attr]
    period = float(re.search(r"stop_grace_period: (\d+)s", compose).group(1))  # type: ignore[union-attr]
    assert grace < period
