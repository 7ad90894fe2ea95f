"""Pictures of the game: pure Pillow functions from an engine view to an image.

``render_table(view)`` draws the table (pass a spectator view, ``view_for(match, None)``, for
the channel); ``render_hand(view)`` draws one seat's own hand; ``to_png(image)`` makes the
bytes to upload. Nothing here does I/O except reading the fonts shipped in ``fonts/``, and
nothing reads a hand the view does not already show. Renders are CPU work: call them from a
worker thread, not the event loop.
"""

from renderers.hand import HandOptions, render_hand
from renderers.png import to_png
from renderers.table import TableOptions, render_table, table_size
from renderers.theme import DARK, LIGHT, THEMES, Theme

__all__ = [
    "DARK",
    "LIGHT",
    "THEMES",
    "HandOptions",
    "TableOptions",
    "Theme",
    "render_hand",
    "render_table",
    "table_size",
    "to_png",
]
