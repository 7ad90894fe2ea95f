"""Outside text repeated in a message, made inert: what someone typed (:func:`quote_input`: a
few dozen characters at most, on one line), a player's name (:func:`shown`), a name in a code
block (:func:`in_code`).

A name or a typed value is the players' text, not ours: an ``@everyone`` in a time zone, a
``<@&role>`` or ``*stars*`` in a name, a bidirectional override, a 2,000-character tile. Each
place a message repeats one passes it through here, so it reads as written — no mention
rendered or pinging, no markdown, nothing reordered or hidden — and never makes the answer
itself too long or loud. Apart from :mod:`bot.ui.limits` (what a message may hold, and how
many requests the bot sends): these are about whose text it is, not about its size.
"""

from __future__ import annotations

import re
import unicodedata

import discord

#: How much of a player's input an answer repeats.
QUOTE_LIMIT = 32


def quote_input(text: object, limit: int = QUOTE_LIMIT) -> str:
    """``text`` as an answer may repeat it: one line, at most ``limit`` characters (then
    "…"), control and invisible formatting characters dropped, mentions and markdown inert.

    Invisible characters (zero-width spaces, bidirectional overrides) are dropped so the
    quote reads as what it is, not reordered or hidden inside the answer.
    """
    raw = str(text)
    kept = "".join(
        " " if ch in "\r\n\t" else ch
        for ch in raw[: limit * 4]
        if ch in "\r\n\t" or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Cn")
    )
    kept = " ".join(kept.split())
    short = kept if len(kept) <= limit else kept[: limit - 1].rstrip() + "…"
    if len(raw) > limit * 4 and not short.endswith("…"):
        short += "…"
    return discord.utils.escape_mentions(discord.utils.escape_markdown(short))


#: Characters that reorder or hide the text after them (bidirectional controls), dropped from
#: a name in a message: a name's override would run on into the sentence around it.
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
#: Line breaks and tabs: a name in a message is one line, so each is a space.
_BREAKS = frozenset("\r\n\t\x0b\x0c\x85\u2028\u2029")
#: Unicode categories never shown from a name: controls, surrogates, private use, unassigned.
_HIDDEN = frozenset(("Cc", "Cs", "Co", "Cn"))
#: An opening bracket nothing escaped yet (after an even run of backslashes, each pair one
#: written backslash): ``escape_markdown`` escapes a masked link only when it is whole, so a
#: cut name ("[click](https://ev…") would leave it open for the text after.
_OPEN_BRACKET = re.compile(r"(?<!\\)((?:\\\\)*)\[")


def _plain(name: str) -> str:
    """``name`` on one line, without controls or bidirectional overrides."""
    return "".join(
        " " if ch in _BREAKS else ch
        for ch in name
        if ch not in _BIDI and (ch in _BREAKS or unicodedata.category(ch) not in _HIDDEN)
    )


def shown(name: str) -> str:
    """A player's name as a message shows it: as written, whatever it holds — a ``<@&role>``
    or ``@everyone`` is text, not a mention (rendered or pinging), ``*stars*`` are stars,
    ``[a](link)`` is not a link, ``# name`` opening a line is no heading: markdown made
    inert, after control characters and bidirectional overrides are dropped (a line break is
    a space), so what they hid cannot turn back into markdown. Pictures draw names as they
    are; only text needs this."""
    # A backslash is written as one (doubled), so it cannot escape what follows the name.
    escaped = discord.utils.escape_markdown(_plain(name).replace("\\", "\\\\"))
    return discord.utils.escape_mentions(_OPEN_BRACKET.sub(r"\1\\[", escaped))


def in_code(name: str) -> str:
    """A name inside a code block (a monospace table), where markdown and mentions show as
    written and escapes would show their backslashes: only a backtick could end the block,
    so it becomes a look-alike (U+02CB); controls and overrides are dropped as in
    :func:`shown`."""
    return _plain(name).replace("`", "\u02cb")
