"""PNG bytes small enough to post after every move.

The pictures are flat colours, anti-aliased edges and text: an adaptive 256-colour palette
without dithering keeps them crisp and four times smaller than RGB. ``compress_level`` 6
is where zlib stops paying for itself on these images.
"""

from __future__ import annotations

import io

from PIL import Image


def to_png(image: Image.Image, *, palette: bool = True) -> bytes:
    """Encode ``image`` as PNG (quantized to a 256-colour palette unless ``palette=False``)."""
    if palette and image.mode != "P":
        rgb = image if image.mode == "RGB" else image.convert("RGB")
        image = rgb.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    image.save(buf, "PNG", optimize=False, compress_level=6)
    return buf.getvalue()
