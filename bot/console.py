"""What the process prints on an output that cannot show every character: a Windows console
or redirect in cp1252, ``PYTHONIOENCODING=ascii``. The terminal game's glyphs (``→``, ``🤖``,
``✋``…) become ASCII instead of a ``UnicodeEncodeError`` at the first line (issue 50).
Imports nothing of the bot, so every command can install it before anything else loads.
"""

from __future__ import annotations

import codecs
import io
from typing import TextIO

#: What the glyphs the terminal game prints become on an output that cannot show them (a
#: Windows console or redirect in cp1252, ``PYTHONIOENCODING=ascii``): ASCII of about the
#: same width, so the table's columns still line up. Anything else becomes ``?``.
ASCII_GLYPHS = {
    "→": "->", "─": "-", "—": "-", "\u2013": "-", "·": ".", "•": "*", "…": "...", "▶": ">",
    "🤖": "AI", "✋": "!", "💡": "*", "🖼": "#", "\u2019": "'", "«": '"', "»": '"',
    "\u00a0": " ", "\u202f": " ",
}  # fmt: skip

#: The codec error handler :func:`degrade_gracefully` installs.
ERRORS = "mexican-train-glyphs"


def _replace_glyphs(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    bad = exc.object[exc.start : exc.end]
    return "".join(ASCII_GLYPHS.get(char, "?") for char in bad), exc.end


codecs.register_error(ERRORS, _replace_glyphs)


def degrade_gracefully(*streams: TextIO) -> None:
    """Make ``streams`` (stdout, stderr) print what their encoding cannot show as ASCII
    (:data:`ASCII_GLYPHS`) instead of raising ``UnicodeEncodeError`` mid-game. Streams that are
    not text files of the standard kind (a test's ``StringIO``) are left as they are."""
    for stream in streams:
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors=ERRORS)
