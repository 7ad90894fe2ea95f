"""``/mt hint`` in words: the Hard player's move and reason, and the longest own train.

Pure text from the asking seat's own view, so it can never reveal more than that player sees;
the search is CPU work, so the command runs :func:`hint_text` in a worker thread.
"""

from __future__ import annotations

from bot.engine import SeatView
from bot.engine.ai import hint
from bot.i18n import CATALOG, tr
from bot.ui.messages import move_text


def hint_text(view: SeatView, locale: str | None) -> str:
    advice = hint(view)
    key = f"hint.reason.{advice.reason}"
    reason = tr(key, locale) if key in CATALOG else advice.text
    # In the reader's words (12-5 mexicain for a French player), as they would type it.
    lines = [tr("hint.move", locale, move=move_text(advice.move, locale), reason=reason)]
    if advice.train:
        tiles = " → ".join(f"`{t}`" for t in advice.train)
        lines.append(tr("hint.train", locale, count=len(advice.train), tiles=tiles))
    else:
        lines.append(tr("hint.no-train", locale))
    return "\n".join(lines)
