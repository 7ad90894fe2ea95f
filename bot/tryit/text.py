"""Discord's text for a terminal: the sentences are the channel's own, but a terminal shows
markdown (``**bold**``, ```code```) raw, so :func:`plain` drops it. The table as text is
:func:`bot.ui.pictures.table_lines`, the same lines a post carries when its picture fails.
"""

from __future__ import annotations

import re


def plain(text: str) -> str:
    """Discord markdown to terminal text: no bold, no code spans or fences."""
    text = re.sub(r"```\w*\n?", "", text)
    return text.replace("**", "").replace("`", "")
