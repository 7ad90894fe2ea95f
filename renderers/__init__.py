"""Pictures of the game: pure Pillow functions from an engine view to an image.

``render_table(view)`` draws the table (pass a spectator view, ``view_for(match, None)``, for
the channel); ``render_hand(view)`` draws one seat's own hand; ``to_png(image)`` makes the
bytes to upload. Both pictures are 800 px wide, made to be read on a phone at 400 px (see
``docs/pictures.md``); ``TableOptions``/``HandOptions`` choose the theme (``dark``/``light``),
the language (``en``/``fr``) and how tiles show their numbers (``tiles="pips"``, pips with a
numeral, or ``"numerals"``, high-contrast numerals only). Each image carries its theme and the
font size of every text it drew (``text_sizes(image)``) and its ink on its ground
(``text_inks(image)``). Nothing here does I/O except reading
the fonts shipped in ``fonts/``, and nothing reads a hand the view does not already show.
Renders are CPU work: call them off the event loop.
"""

from renderers.hand import HandOptions, render_hand
from renderers.paint import TILE_MODES
from renderers.png import to_png
from renderers.table import TableOptions, render_table, table_size
from renderers.text import text_inks, text_sizes
from renderers.theme import DARK, LIGHT, THEMES, Theme

__all__ = [
    "DARK",
    "LIGHT",
    "THEMES",
    "TILE_MODES",
    "HandOptions",
    "TableOptions",
    "Theme",
    "render_hand",
    "render_table",
    "table_size",
    "text_inks",
    "text_sizes",
    "to_png",
]
