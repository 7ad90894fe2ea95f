from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageStat

from renderers import to_png

GOLDEN = Path(__file__).parent / "golden"
#: Mean absolute difference per channel (0-255) a golden may drift by: enough for font
#: hinting and resampling differences between Pillow/FreeType builds, far below a layout change.
TOLERANCE = 1.5


class Golden:
    def __init__(self, update: bool) -> None:
        self.update = update

    def check(self, name: str, image: Image.Image) -> None:
        path = GOLDEN / f"{name}.png"
        if self.update or not path.exists():
            if not self.update:
                pytest.fail(f"no golden {path.name}: run UPDATE_GOLDEN=1 pytest tests/renderers")
            GOLDEN.mkdir(exist_ok=True)
            path.write_bytes(to_png(image))
            return
        want = Image.open(path).convert("RGB")
        # Goldens are stored as the PNG the bot would post; compare like with like.
        got = Image.open(io.BytesIO(to_png(image))).convert("RGB")
        assert got.size == want.size, f"{name}: size {got.size}, golden {want.size}"
        diff = sum(ImageStat.Stat(ImageChops.difference(got, want)).mean) / 3
        if diff > TOLERANCE:
            got.save(GOLDEN / f"{name}.actual.png")
        assert diff <= TOLERANCE, f"{name}: mean pixel difference {diff:.2f} > {TOLERANCE}"

    def check_json(self, name: str, data: Any) -> None:
        """``data`` (a message's component tree, issue 47) against ``<name>.json`` beside the
        pictures: equal, or the test fails with the stored and the new side by side (the new
        written as ``<name>.actual.json`` to look at); written afresh with ``UPDATE_GOLDEN=1``."""
        path = GOLDEN / f"{name}.json"
        got = json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True) + "\n"
        if self.update or not path.exists():
            if not self.update:
                pytest.fail(f"no golden {path.name}: run UPDATE_GOLDEN=1 pytest on this test")
            path.write_text(got, encoding="utf-8")
            return
        want = path.read_text(encoding="utf-8")
        if got != want:
            (GOLDEN / f"{name}.actual.json").write_text(got, encoding="utf-8")
        assert got == want, f"{name}: the card changed (see {name}.actual.json)"


@pytest.fixture
def golden() -> Golden:
    return Golden(os.environ.get("UPDATE_GOLDEN") == "1")
