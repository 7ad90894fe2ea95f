"""``/mt hint`` in words: the Hard player's move and reason, and the longest own train.

Pure text from the asking seat's own view, so it can never reveal more than that player sees;
the search is CPU work, so the command asks the bot's thinking workers for the advice
(:meth:`bot.thinking.pool.Thinker.advise`) and words it here.

Under the knock rule a hint also says when to knock: the Hard player's search leaves knocks
out (the service knocks for computer players), so a player who followed hints alone used to
reach one tile without knocking and could be caught.
"""

from __future__ import annotations

from bot.engine import KNOCK, Move, Play, SeatView
from bot.engine.ai import Hint, hint
from bot.i18n import CATALOG, tr
from bot.ui.messages import move_text


def knocks_with(view: SeatView, move: Move) -> bool:
    """Whether ``move`` leaves the player one tile under the knock rule: they must knock with
    it (the next player, a computer above all, may act at once and close the chance)."""
    return view.rules.knock and isinstance(move, Play) and len(view.hand or ()) == 2


def hint_text(
    view: SeatView, locale: str | None, advice: Hint | None = None, *, typed: bool = False
) -> str:
    """The hint for ``view``'s player: ``advice`` (Hard's, from :func:`bot.engine.ai.hint`;
    found here when not given) in words. ``typed``: for the terminal game, where a move and
    its knock are one typed line (``12-5 mexican knock``); on Discord the knock is picked with
    the move in the Play list, or given as ``/play``'s ``knock`` option."""
    if advice is None:
        advice = hint(view)
    key = f"hint.reason.{advice.reason}"
    reason = tr(key, locale) if key in CATALOG else advice.text
    form = "typed" if typed else "discord"
    lines = []
    if KNOCK in view.side_moves:  # down to one tile mid-turn (a fast start, a double)
        lines.append(tr(f"hint.knock-now.{form}", locale))
    # In the reader's words (12-5 mexicain for a French player), as they would type it.
    move = move_text(advice.move, locale)
    knock = knocks_with(view, advice.move)
    if knock and typed:
        move = f"{move} {tr('notation.word.knock', locale)}"
    lines.append(tr("hint.move", locale, move=move, reason=reason))
    if knock:
        tile = advice.move.tile if isinstance(advice.move, Play) else ""
        lines.append(tr(f"hint.knock.{form}", locale, tile=tile, knock=tr("button.knock", locale)))
    if advice.train:
        tiles = " → ".join(f"`{t}`" for t in advice.train)
        lines.append(tr("hint.train", locale, count=len(advice.train), tiles=tiles))
    else:
        lines.append(tr("hint.no-train", locale))
    return "\n".join(lines)
