"""Discord's text for a terminal: the sentences are the channel's own, but a terminal shows
markdown (``**bold**``, ```code```) raw, so :func:`plain` drops it. The table as text is
:func:`bot.ui.pictures.table_lines`, the same lines a post carries when its picture fails.
"""

from __future__ import annotations

import codecs
import io
import re
from typing import TextIO


def plain(text: str) -> str:
    """Discord markdown to terminal text: no bold, no code spans or fences."""
    text = re.sub(r"```\w*\n?", "", text)
    return text.replace("**", "").replace("`", "")


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
