"""Players' names as the service keeps them: folded, bounded, and showing something.

A name is shown in every post, DM and picture of a game; it is stored as the player wrote it
(the Discord layer escapes it where text could read it as a mention or markdown), but it must
show ink: a name of only zero-width or blank characters is refused like an empty one.
"""

from __future__ import annotations

import unicodedata

from bot.service import errors

__all__ = ["MAX_NAME", "clean_name", "visible"]

#: Longest display name kept (Discord's own limit is 32).
MAX_NAME = 64


def clean_name(text: str) -> str:
    """A display name as stored: spaces folded, at most :data:`MAX_NAME` characters. It must
    show something: a name of only zero-width or blank characters would be an empty space in
    every message and picture, so it is refused like an empty one."""
    name = " ".join(text.split())[:MAX_NAME]
    if not name:
        raise errors.BadSetting("a player needs a name", code="bad-name")
    if not any(visible(ch) for ch in name):
        raise errors.BadSetting("a name needs a visible character", code="invisible-name")
    return name


#: Letters and symbols that draw as blank space (Hangul fillers, the braille blank…), the
#: usual way to make a name look empty.
_BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e\u17b4\u17b5")


def visible(ch: str) -> bool:
    """Whether a character shows ink: not a control, format (zero-width), space or mark
    alone, nor a letter that draws as blank."""
    return unicodedata.category(ch)[0] not in "CZM" and ch not in _BLANK
