"""A round replayed as an animated GIF: the table picture after each move.

Frames are :func:`renderers.render_table` pictures of spectator views (never a hand), scaled
down and mapped onto their theme's fixed palette (the one every table PNG uses), so every
frame shows the true colours: a seat's swatch in the GIF is the same colour as in the table
picture, whatever the frames hold (a palette taken from one frame turned a seat's yellow into
another seat's orange in the others). Pillow's GIF writer
stores each frame as its difference from the previous one, so a frame where one tile was laid
costs a few kilobytes. :func:`render_replay` keeps the file under a byte budget (Discord's
upload limit) by dropping frames, then shrinking, until it fits.
"""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Callable, Sequence

from PIL import Image

from bot.engine import SeatView
from renderers.png import palette_for, theme_palette
from renderers.table import TableOptions, render_table
from renderers.theme import Theme, theme

#: Hard bounds, whatever the caller asks: frames per GIF and the frame width.
MAX_FRAMES = 120
MAX_WIDTH = 1000


def _frames(views: Sequence[SeatView], options: TableOptions, width: int) -> list[Image.Image]:
    out = []
    for view in views:
        img = render_table(view, options)
        if img.width != width:
            img = img.resize(
                (width, round(img.height * width / img.width)), Image.Resampling.LANCZOS
            )
        out.append(img)
    return out


def encode_gif(
    frames: Sequence[Image.Image],
    *,
    frame_ms: int = 900,
    last_ms: int = 4000,
    palette_theme: str | Theme | None = None,
) -> bytes:
    """Frames (RGB, same size) as a looping GIF with one shared palette: the theme's fixed
    palette (``palette_theme``), or, for frames of no theme, the last frame's colours."""
    if not frames:
        raise ValueError("a replay needs at least one frame")
    if palette_theme is not None:
        palette = theme_palette(theme(palette_theme))
    else:
        palette = palette_for(frames[-1])
    quantized = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in frames]
    durations = [frame_ms] * (len(quantized) - 1) + [last_ms]
    buf = io.BytesIO()
    quantized[0].save(
        buf,
        "GIF",
        save_all=True,
        append_images=quantized[1:],
        duration=durations,
        loop=0,
        optimize=False,
        disposal=1,
    )
    return buf.getvalue()


def pick(views: Sequence[SeatView], limit: int) -> list[SeatView]:
    """At most ``limit`` views, evenly spread, keeping the first and the last."""
    if len(views) <= limit:
        return list(views)
    if limit < 2:
        return [views[-1]]
    step = (len(views) - 1) / (limit - 1)
    return [views[i] for i in sorted({round(i * step) for i in range(limit)})]


def render_replay(
    views: Sequence[SeatView],
    options: TableOptions | None = None,
    *,
    max_frames: int = 60,
    width: int = 700,
    max_bytes: int = 8 * 1024 * 1024,
    frame_ms: int = 900,
    progress: Callable[[int], None] | None = None,
) -> bytes:
    """The views as an animated GIF of at most ``max_bytes`` (fewer frames, then smaller
    frames, until it fits; ValueError if even a small single frame does not)."""
    # Frames that keep one layout: a lane does not grow when a double comes (issue 47's
    # shorter lanes are for the single picture).
    opts = dataclasses.replace(options or TableOptions(), steady=True)
    frames_wanted = max(1, min(max_frames, MAX_FRAMES))
    w = max(200, min(width, MAX_WIDTH))
    while True:
        chosen = pick(views, frames_wanted)
        data = encode_gif(_frames(chosen, opts, w), frame_ms=frame_ms, palette_theme=opts.theme)
        if progress is not None:
            progress(len(data))
        if len(data) <= max_bytes:
            return data
        if frames_wanted > 8:
            frames_wanted = max(8, frames_wanted // 2)
        elif w > 300:
            w = max(300, w * 3 // 4)
        else:
            raise ValueError(f"a replay of {len(chosen)} frames is still {len(data)} bytes")
