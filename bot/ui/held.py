"""A draw held for the next post, told by that post after a restart too (issue 34).

A draw from the turn DM whose tile fits leaves the same player to move. Growing the live post
to say so would cost a request against the bot's global limit (no interaction token can edit
it), so the channel hears of the draw with the move that follows, in one post
(:meth:`bot.ui.posts.PostBook.hold_if_paid`). The lines wait in memory; the outbox keeps,
durably, the seq of the first event held (``held_from``, written as the draw's announcement
is settled: :func:`bot.ui.owed.settle`). After a restart memory has lost the lines, so the
next post rebuilds them from the event log, from ``held_from`` up to its own first move, in
the words the live path used (the deliverer's :func:`bot.service.outbox.owed_outcome` and
:func:`bot.ui.messages.outcome_parts`). A seq rather than the words: nothing rendered is
stored (the outbox's rule), and an undo of the draw meanwhile leaves it out.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from bot.service import Outcome
from bot.ui import messages
from bot.ui.host import GameBot


async def held_lines(
    bot: GameBot, game_id: int, outs: Sequence[Outcome], locale: str, *, head: Sequence[str]
) -> list[str]:
    """The lines held for the post being made now: from memory; else, when this process did
    not make the live post (it restarted since: the post book does not know that post's
    turn), from the log. None with ``head`` (an undo: a held draw was taken back with it)."""
    lines = bot.posts.take_held(game_id)
    if lines or head:
        return list(lines)
    latest = await bot.posts.latest_table(bot.service, game_id)
    if latest is not None and latest.turn is not None:
        return []  # this process made the live post: what it held is in memory
    row = await bot.service.outbox.owed(game_id)
    if row is None or row.held_from is None:
        return []
    out = await bot.service.owed_outcome(game_id, row.held_from)
    if out is None:
        return []
    first = next((s.seq for o in outs for s in o.steps), None)
    steps = tuple(s for s in out.steps if first is None or s.seq < first)
    if not steps:
        return []
    told = dataclasses.replace(
        out, steps=steps, rounds_ended=(), rounds_started=(), facts=(), match_over=None
    )
    return messages.outcome_parts(told, locale)[-1][0]
