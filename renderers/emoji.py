"""The tiles as application emojis (issue 47): one small square picture per tile, for the
move list and the buttons that name a tile (``bot/ui/tileemoji.py`` names and uploads them).

Each is the table picture's own tile (:func:`renderers.paint.tile_sprite`) laid flat across
a transparent square of :data:`SIZE` px, the size Discord asks for ("the 128x128 emoji
image", Create Application Emoji), in the pictures' ``numerals`` mode (the big near-black
numeral, a firm line between the halves): Discord shows an emoji at about 22 px beside an
option's text, where that mode's numerals still read and the ``pips`` mode's coloured ones
with their pips blur (looked at side by side at 22 px). The higher end is on the left, as
the notation writes a tile (``12-5``).
"""

from __future__ import annotations

import io

from PIL import Image

from renderers.paint import tile_sprite
from renderers.theme import DARK

#: The emoji's side in px ("the 128x128 emoji image").
SIZE = 128
#: Discord's cap on one image (Create Application Emoji: "a maximum file size of 256 KiB").
MAX_BYTES = 256 * 1024


def tile_image(a: int, b: int) -> Image.Image:
    """The tile ``a``-``b`` (higher end on the left) centred on a transparent :data:`SIZE`
    px square."""
    high, low = max(a, b), min(a, b)
    sprite = tile_sprite(DARK, SIZE // 2, high, low, False, "numerals")
    # The sprite is 2s x (s + 2 px of shadow): a little narrower, so no edge is cut.
    scale = (SIZE - 2) / sprite.width
    size = (round(sprite.width * scale), round(sprite.height * scale))
    sprite = sprite.resize(size, Image.Resampling.LANCZOS)
    square = Image.new("RGBA", (SIZE, SIZE), (0, 0, 0, 0))
    square.alpha_composite(sprite, ((SIZE - sprite.width) // 2, (SIZE - sprite.height) // 2))
    return square


def tile_png(a: int, b: int) -> bytes:
    """The emoji's PNG bytes (full colour with its transparency: 3-8 KiB)."""
    buf = io.BytesIO()
    tile_image(a, b).save(buf, "PNG", optimize=True)
    return buf.getvalue()
