"""How long an interaction has waited in this bot, on the bot's own monotonic clock.

Discord drops an interaction not acknowledged within 3 s of making it. The bot cannot read
that age reliably: the interaction's id carries Discord's time, and comparing it with the
host's clock charges the host's offset to the interaction (a clock 2 s fast would make every
fresh interaction look late, and the bot would answer them all "busy"). What the bot can
measure exactly is how long the interaction has been in its hands: from the moment its
gateway event was read (:meth:`Arrivals.install` stamps it, before discord.py builds the
``Interaction``) to now, on ``time.monotonic`` — no wall clock, no offset. The network's
share before that is Discord's, and small beside the 3 s; the wait that grows under load,
behind an event loop busy with game work, is the one counted here.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

#: Stamps older than this are dropped: an interaction is acknowledged within Discord's 3 s or
#: never, so its arrival is not needed for long.
KEEP_FOR = 60.0

#: The gateway event discord.py builds interactions from.
EVENT = "INTERACTION_CREATE"


class Arrivals:
    """When each interaction's gateway event reached the bot (``time.monotonic``), by id."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._seen: dict[int, float] = {}  # in arrival order (ids and times grow together)

    def install(self, parsers: dict[str, Callable[[Any], None]]) -> None:
        """Stamp every INTERACTION_CREATE before discord.py's own parser handles it
        (``ConnectionState.parsers``: the gateway reads its handlers from that dict). That
        dict is discord.py's inside, not its API: a release without the handler leaves the
        stamps off (every interaction then counts as fresh: nothing is answered "busy") rather
        than stopping the bot at start-up."""
        parse = parsers.get(EVENT)
        if parse is None:
            log.warning("discord.py has no %s parser: interactions are not timed", EVENT)
            return

        def stamped(data: Any) -> None:
            self.arrived(int(data["id"]))
            parse(data)

        parsers[EVENT] = stamped

    def arrived(self, interaction_id: int) -> None:
        now = self.clock()
        self._seen[interaction_id] = now
        # Drop the stale ones from the front (the oldest first): amortised O(1) per event.
        while self._seen:
            old = next(iter(self._seen))
            if now - self._seen[old] <= KEEP_FOR:
                break
            del self._seen[old]

    def waited(self, interaction_id: int) -> float | None:
        """Seconds since the interaction reached the bot; None if its arrival was not seen
        (built outside the gateway, or older than :data:`KEEP_FOR`)."""
        at = self._seen.get(interaction_id)
        return None if at is None else self.clock() - at
