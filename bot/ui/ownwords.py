"""What the mover alone reads, in the second person: their own move ("You played 12-8 on
your own train", what to play next after a double) and what their draw brought (where the
tile fits, or that their turn passed).

The channel's lines tell every move in the third person (:mod:`bot.ui.messages`); these go
to the one player who moved — the answer to their click or command, the terminal game's
note — and name trains as a sentence does ("the Mexican Train").
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import MEXICAN, Draw, Pass, Play
from bot.i18n import tr
from bot.service import Step
from bot.service.turn import Drawn
from bot.ui.messages import step_lines, train_label


def train_in_sentence(
    view_names: Sequence[str], train: int, me: int | None, locale: str | None
) -> str:
    """A train as a sentence names it: "the Mexican Train" (a label says "Mexican Train")."""
    if train == MEXICAN:
        return tr("catchup.train.mexican", locale)
    return train_label(view_names, train, me, locale)


def own_step_lines(
    names: Sequence[str], step: Step, locale: str | None, *, again: bool = False
) -> list[str]:
    """The actor's own move told to them, in the second person ("You played 12-8 on your
    own train"); after a double that leaves them to move (``again``), what to play next.
    Other moves (a knock, a catch) fall back to the channel's words."""
    move, applied = step.move, step.applied
    tile = str(move.tile) if isinstance(move, Play) else ""
    if isinstance(move, Play):
        if move.train == MEXICAN:
            key = "you.start.mexican" if applied.started_mexican else "you.play.mexican"
            text = tr(key, locale, tile=tile)
        elif move.train == step.player.seat:
            text = tr("you.play.own", locale, tile=tile)
        else:
            text = tr("you.play.other", locale, tile=tile, owner=names[move.train])
        if applied.satisfied is not None:
            text += " (" + tr("move.satisfied", locale, double=str(applied.satisfied)) + ")"
        if applied.opened_double and again:
            text += ". " + tr("you.double", locale, pips=move.tile.high)
        return [text]
    if isinstance(move, Draw):
        return [tr("you.draw", locale)]
    if isinstance(move, Pass):
        return [tr("you.pass" if applied.marker_raised else "you.pass.marked", locale)]
    return step_lines(names, step, locale)


def drawn_note(drawn: Drawn, names: Sequence[str], seat: int, locale: str | None) -> str:
    """What a player's draw brought, for them alone: where the tile fits (they must play it
    now), or that it fit nowhere and their turn was passed; the terminal game says it too."""
    tile = str(drawn.tile)
    if drawn.passed:
        return tr("draw.passed", locale, tile=tile)
    if drawn.must_play:
        where = ", ".join(train_in_sentence(names, t, seat, locale) for t in drawn.fits)
        return tr("draw.fits", locale, tile=tile, where=where or "?")
    return tr("draw.drew", locale, tile=tile)
