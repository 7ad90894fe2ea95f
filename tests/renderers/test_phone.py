"""Every picture read on a phone: scaled to 400 px wide, no text may be under 9 px tall.

The renderers report the pixel size of every piece of text they drew (labels, names, and the
numerals on tiles) in ``image.info["text_px"]``; these tests scale each golden picture to a
phone's width and check each reported size there, so a layout change that shrinks a label
below what a phone shows legibly fails here before anyone squints at it.
"""

from __future__ import annotations

import pytest
from PIL import Image

from renderers import text_sizes
from tests.renderers.conftest import GOLDEN
from tests.renderers.test_golden import CASES

PHONE_W = 400
MIN_PX = 9.0


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_text_is_readable_at_phone_width(name: str) -> None:
    image = CASES[name]()
    drawn = text_sizes(image)
    assert drawn, f"{name}: the renderer reported no text"
    # The golden on disk is the same picture: scale it as a phone would, and use its width.
    golden = Image.open(GOLDEN / f"{name}.png")
    assert golden.size == image.size
    phone = golden.resize(
        (PHONE_W, round(golden.height * PHONE_W / golden.width)), Image.Resampling.LANCZOS
    )
    scale = phone.width / golden.width
    small = sorted({(round(px * scale, 1), label) for px, label in drawn if px * scale < MIN_PX})
    assert not small, f"{name}: text under {MIN_PX} px at {PHONE_W} px wide: {small[:8]}"
