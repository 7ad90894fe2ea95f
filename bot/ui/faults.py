"""The faults an interaction can meet that are nobody's bug: a player's odd input, quoted back
short, and a database outage, logged once rather than once per click.

:func:`quote_input` is the one way the Discord layer repeats what someone typed: a few dozen
characters at most, on one line, with mentions and markdown made inert, so a 2,000-character
tile or an ``@everyone`` in a time zone never makes the answer itself too long or loud.

:class:`Outage` is the bot's memory of the database being unreachable. The error funnel asks
:func:`bot.store.outage.unreachable` whether a failure is an outage; the first one is logged
at ERROR with its reason, the ones that follow only counted, and the first interaction that
gets through again closes the outage with one line saying how long it lasted and how many
players were told to try again. The players get one sentence each, never a traceback.
"""

from __future__ import annotations

import logging
import time
import unicodedata

import discord

log = logging.getLogger(__name__)

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


def shown(name: str) -> str:
    """A player's name as a message shows it: as written, whatever it holds — a ``<@&role>``
    or ``@everyone`` is text, not a mention (rendered or pinging), ``*stars*`` are stars,
    not markdown. Pictures draw names as they are; only text needs this."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


class Outage:
    """Whether the game database is down, since when, and how many were turned away.

    An outage can be partial (a file system remounted read-only: reads work, writes fail),
    so it ends when a kind of request that met it — a command or button, by name — gets
    through again, not when anything at all does."""

    def __init__(self) -> None:
        self.since: float | None = None
        self.refused = 0
        #: Outages seen since start-up (each logged once).
        self.count = 0
        self._failed: set[str] = set()

    @property
    def down(self) -> bool:
        return self.since is not None

    def failed(self, reason: str, what: str = "") -> None:
        """An interaction (``what``: its command) met the outage: the first one is logged."""
        self.refused += 1
        self._failed.add(what)
        if self.since is not None:
            log.debug("database still unreachable: %s", reason)
            return
        self.since = time.monotonic()
        self.count += 1
        log.error(
            "the game database is unreachable: %s; players are told to try again shortly "
            "until it answers again (logged once per outage)",
            reason,
        )

    def recovered(self, what: str = "") -> None:
        """An interaction (``what``: its command) got through: if that kind of request had
        met the outage, the outage is over, told in one line."""
        if self.since is None or what not in self._failed:
            return
        lasted, refused = time.monotonic() - self.since, self.refused
        self.since, self.refused = None, 0
        self._failed.clear()
        log.warning(
            "the game database answers again after %.0f s; %d interaction(s) were refused "
            "meanwhile, nothing was changed by them",
            lasted,
            refused,
        )
