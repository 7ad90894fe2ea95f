"""PNG bytes small enough to post after every move, made cheaply.

The pictures are a few dozen flat colours plus the anti-aliased blends between them, so a
256-colour palette without dithering keeps them crisp at a quarter of the RGB size. Each theme
has one fixed palette (:func:`renderers.theme.palette`: its flat colours plus the blends
between the colours that touch), and every picture the renderers make carries its theme in
``image.info["theme"]`` (a :class:`Theme` or a theme's name). Encoding is then one
nearest-entry mapping in C and zlib, with no per-image colour count or palette search (that
count cost as much as zlib did on the old 1400 px table). An image from elsewhere falls back
to a palette of its own most frequent colours. ``compress_level`` 3: level 6 takes twice as
long for 15 % fewer bytes, and a picture is encoded after every move.
"""

from __future__ import annotations

import functools
import io

from PIL import Image

from renderers.theme import THEMES, Theme, palette


@functools.cache
def theme_palette(th: Theme) -> Image.Image:
    """A 1x1 "P" image carrying ``th``'s fixed palette, for ``Image.quantize``."""
    flat = [v for colour in palette(th) for v in colour]
    flat.extend(flat[:3] * (256 - len(flat) // 3))  # pad with the background, never chosen
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat)
    return pal


def palette_for(rgb: Image.Image, colours: int = 256) -> Image.Image:
    """A "P" image holding the ``colours`` most frequent colours of ``rgb`` (sampled small):
    for images that carry no theme (and for the replay GIF's shared palette)."""
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
    """Encode ``image`` as PNG: mapped onto its theme's fixed palette when it names one
    (``image.info["theme"]``), else onto its own most frequent colours; ``palette=False``
    keeps full colour."""
    if palette and image.mode != "P":
        rgb = image if image.mode == "RGB" else image.convert("RGB")
        named = image.info.get("theme")
        th = named if isinstance(named, Theme) else THEMES.get(str(named))
        pal = theme_palette(th) if th is not None else palette_for(rgb)
        image = rgb.quantize(palette=pal, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    image.save(buf, "PNG", compress_level=3)
    return buf.getvalue()
