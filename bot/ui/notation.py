"""What a player types, read as a move: shared by ``/play`` and the terminal game.

Both front ends take the same words (``12-5``, ``12-5 mexican``, ``5-7 @2``, ``draw``) and must
refuse the same way, so the reading lives here once, beside the sentences in
:mod:`bot.ui.messages`, and the service still checks every move again.
"""

from __future__ import annotations

from bot.engine import MEXICAN, Move, SeatView, Tile, parse_move
from bot.ui import messages
from bot.ui.interactions import Refusal


def parse_tile(text: str, max_pip: int) -> Tile:
    """A typed tile, in any of the forms :meth:`Tile.parse` reads."""
    return Tile.parse(text.strip(), max_pip)


def choose_train(view: SeatView, tile: Tile, train: str | None) -> str:
    """The move's text: the train given, or the only train the tile legally fits."""
    if train:
        return f"{tile} {train.strip()}"
    trains = messages.plays_by_tile(view).get(tile, [])
    if len(trains) == 1:
        return f"{tile} {messages.train_ref(trains[0])}"
    if not trains:
        # Let the service say exactly why (not your turn, no fit, must satisfy a double).
        return f"{tile} {messages.train_ref(view.seat if view.seat is not None else MEXICAN)}"
    raise Refusal("error.which-train", tile=str(tile))


def check_notation(text: str, view: SeatView) -> Move:
    """A whole typed move (``12-5 @2``, ``draw``) for this seat, or a ``MoveError``."""
    return parse_move(text, seat=view.seat, players=view.players, max_pip=view.rules.max_pip)
