"""Every picture the bot sends, said in words, as the Discord layer asks for it: by players.

The describers are :mod:`renderers.alt_text`'s, pure functions of the view and the picture's
own options, so that a render worker describes the table or hand it has just drawn (a move's
pictures never pass through here). This module serves the other callers — ``/mt replay``,
``/mt stats``, the tests — in the Discord layer's terms: the players (for the robot badges)
and the reader's locale become the picture's options, and :func:`picture_file`
(``bot.ui.pictures``) makes the attachment.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import SeatView
from bot.service import Player
from bot.ui.pictures import hand_options, picture_file, table_options
from renderers import alt_text
from renderers.alt_text import LIMIT, describe_chart

__all__ = [
    "LIMIT",
    "describe_chart",
    "describe_hand",
    "describe_replay",
    "describe_table",
    "picture_file",
]


def describe_table(
    view: SeatView, players: Sequence[Player] = (), locale: str | None = None
) -> str:
    """The table picture in words (see :func:`renderers.alt_text.describe_table`)."""
    return alt_text.describe_table(view, table_options(players, locale))


def describe_hand(view: SeatView, show_plan: bool = False, locale: str | None = None) -> str:
    """A hand picture in words (``show_plan``: the game's hints, which mark the train plan on
    the picture; see :func:`renderers.alt_text.describe_hand`)."""
    return alt_text.describe_hand(view, hand_options(view, show_plan, locale))


def describe_replay(
    views: Sequence[SeatView],
    game_id: int,
    frames: int,
    players: Sequence[Player] = (),
    locale: str | None = None,
) -> str:
    """The replay GIF in words: which round, how many pictures, and the last one."""
    return alt_text.describe_replay(views, game_id, frames, table_options(players, locale))
