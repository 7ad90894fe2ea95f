"""Standing orders in words (issue 46): what a player's order is and when it stops, for the
answers of ``/mt orders``, ``/play … then:`` and the turn DM's one-tap order."""

from __future__ import annotations

from typing import Any

from bot.i18n import tr
from bot.service.orders import STOP_NAMES, Order, Stops
from bot.ui.limits import shown


def stops_text(stops: Stops, lang: str | None) -> str:
    """When the order stops, in words ("when a double is open or when someone plays on your
    train")."""
    kept = [tr(f"orders.stop.{name}", lang) for name in STOP_NAMES if getattr(stops, name)]
    said = tr("orders.stop.or", lang).join(kept) if kept else tr("orders.stop.nothing", lang)
    # With the last-tile stop off the order plays its player's last tiles too (and knocks).
    return said if stops.last else f"{said}. {tr('orders.stop.knocks', lang).removesuffix('.')}"


def order_text(order: Order, lang: str | None) -> str:
    """The order as set: its tiles, when it stops, how to change it (and, set during the
    player's own turn, that this turn is still theirs)."""
    tiles = " → ".join(f"`{t}`" for t in order.tiles)
    text = tr("orders.set", lang, game=order.game_id, tiles=tiles,
              stops=stops_text(order.stops, lang))  # fmt: skip
    return text


def shown_order(order: Order | None, game_id: int, lang: str | None) -> str:
    """``/mt orders`` with no option: the order the player has in ``game_id``, or how to
    give one."""
    if order is None or not order.active:
        return tr("orders.none", lang, game=game_id)
    tiles = " → ".join(f"`{t}`" for t in order.tiles)
    return tr("orders.show", lang, game=game_id, tiles=tiles, stops=stops_text(order.stops, lang))


def stopped_line(reason: str, params: dict[str, Any], lang: str | None) -> str:
    """Why a standing order stopped (:class:`bot.service.orders.Note`), in the reader's words
    (a turn DM's line)."""
    if reason == "double" and not params.get("name"):
        reason = "double-open"
    name = params.get("name")
    return tr(f"orders.stopped.{reason}", lang, name=shown(str(name)) if name else "",
              tile=params.get("tile", ""))  # fmt: skip
