"""Moves and round ends told in words, in the reader's language.

The Discord layer posts one message per move; this module writes its sentences from the
engine's :class:`~bot.engine.Applied` record alone (plus seat names), so the same words serve
human and computer moves, live posts and the history, and can be tested without Discord.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import MEXICAN, Applied, Catch, Done, Draw, Knock, Move, Pass, Play, RoundResult
from bot.i18n import tr


def play_extras(applied: Applied, locale: str | None = None) -> str:
    """What a tile play did besides landing, in brackets after its sentence (a double
    satisfied, one opened, a train's marker taken off); empty when nothing."""
    extras = []
    if applied.satisfied is not None:
        extras.append(tr("move.satisfied", locale, double=str(applied.satisfied)))
    if applied.opened_double:
        extras.append(tr("move.double", locale))
    if applied.marker_removed:
        extras.append(tr("move.marker_off", locale))
    return " (" + ", ".join(extras) + ")" if extras else ""


def describe_move(
    names: Sequence[str], actor: int, move: Move, applied: Applied, locale: str | None = None
) -> str:
    """One sentence for one move, e.g. "Alice played 12-5 on the Mexican Train"."""
    name = names[actor]
    if isinstance(move, Play):
        tile = str(move.tile)
        if move.train == MEXICAN:
            key = "move.start.mexican" if applied.started_mexican else "move.play.mexican"
            text = tr(key, locale, name=name, tile=tile)
        elif move.train == actor:
            text = tr("move.play.own", locale, name=name, tile=tile)
        else:
            text = tr("move.play.other", locale, name=name, tile=tile, owner=names[move.train])
        text += play_extras(applied, locale)
        if applied.released:
            doubles = ", ".join(map(str, applied.released))
            text += ". " + tr("move.released", locale, doubles=doubles)
        return text
    if isinstance(move, Draw):
        key = "move.draw.fits" if applied.must_play_drawn else "move.draw"
        return tr(key, locale, name=name)
    if isinstance(move, Pass):
        key = "move.pass" if applied.marker_raised else "move.pass.marked"
        return tr(key, locale, name=name)
    if isinstance(move, Done):
        return tr("move.done", locale, name=name)
    if isinstance(move, Knock):
        return tr("move.knock", locale, name=name)
    if isinstance(move, Catch):
        return tr(
            "move.catch", locale, catcher=name, name=names[move.seat], count=len(applied.drawn)
        )
    raise TypeError(f"not a move: {move!r}")


def describe_round_end(
    names: Sequence[str], result: RoundResult, round_no: int, locale: str | None = None
) -> str:
    if result.went_out is None:
        return tr("round.blocked", locale, round=round_no + 1)
    return tr("round.out", locale, name=names[result.went_out], round=round_no + 1)
