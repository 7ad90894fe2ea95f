"""PNG bytes small enough to post after every move.

The pictures are a few dozen flat colours plus the anti-aliased blends between them, so a
256-colour palette without dithering keeps them crisp at a quarter of the RGB size. Pillow's
fast octree quantizer merges neighbouring light greys (the light theme's white page, grey lanes
and ivory tiles would all become one colour), so the palette is instead the 256 most frequent
exact colours of a third-size copy: every flat colour survives exactly, and each blend takes
its nearest entry. ``compress_level`` 3: on the worst table, level 6 takes twice as long
(about 10 ms against 5) to save 13 KB of 82, and a picture is encoded after every move.
"""

from __future__ import annotations

import io

from PIL import Image


def palette_for(rgb: Image.Image, colours: int = 256) -> Image.Image:
    """A "P" image holding the ``colours`` most frequent colours of ``rgb`` (sampled small)."""
    small = rgb.reduce(3) if min(rgb.size) >= 30 else rgb
    counts = small.getcolors(small.width * small.height) or []
    counts.sort(key=lambda c: c[0], reverse=True)
    flat: list[int] = []
    for _n, colour in counts[:colours]:
        assert isinstance(colour, tuple)  # an RGB image counts (r, g, b) tuples
        flat.extend(colour)
    flat.extend([0] * (768 - len(flat)))
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat)
    return pal


def to_png(image: Image.Image, *, palette: bool = True) -> bytes:
    """Encode ``image`` as PNG (quantized to a 256-colour palette unless ``palette=False``)."""
    if palette and image.mode != "P":
        rgb = image if image.mode == "RGB" else image.convert("RGB")
        image = rgb.quantize(palette=palette_for(rgb), dither=Image.Dither.NONE)
    buf = io.BytesIO()
    image.save(buf, "PNG", compress_level=3)
    return buf.getvalue()
