"""The bot's door to pictures: ``table_png`` and ``hand_png`` -> PNG bytes, via ``renderers``.

Hidden hands never reach a picture by construction: the table is drawn from the spectator's
view (``GameService.table_view``), which holds other hands only under the open-hands rule, and
a hand picture is only ever made from the viewer's own ``seat_view`` for a DM or an ephemeral.
Both are blocking CPU work (tens of milliseconds): callers run them with ``asyncio.to_thread``.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import SeatView, Tile
from bot.engine.ai import longest_train
from bot.i18n import language_of
from bot.service import Player
from renderers import HandOptions, TableOptions, render_hand, render_table, to_png


def computer_seats(players: Sequence[Player]) -> tuple[bool, ...]:
    """Which seats a computer plays, in seat order, for the picture's robot badges."""
    flags = [False] * len(players)
    for p in players:
        flags[p.seat] = p.is_computer
    return tuple(flags)


def table_png(view: SeatView, players: Sequence[Player] = (), language: str = "en") -> bytes:
    """The public table as a PNG (give it ``table_view``: never a seat's view), its labels in
    ``language`` (a catalog language or a Discord locale)."""
    options = TableOptions(is_computer=computer_seats(players), language=language_of(language))
    return to_png(render_table(view, options))


def hand_png(
    view: SeatView, show_plan: bool = True, language: str = "en", tiles: str = "pips"
) -> bytes:
    """One seat's hand as a PNG; with ``show_plan`` (the game's hints option) the longest own
    train the hand can build is marked as its plan; ``tiles`` is the player's tile mode
    (``/mt me tiles:``)."""
    plan: tuple[Tile, ...] = ()
    if show_plan and view.hand and view.seat is not None:
        plan = longest_train(view.hand, view.trains[view.seat].end)
    return to_png(
        render_hand(view, HandOptions(plan=plan, language=language_of(language), tiles=tiles))
    )
