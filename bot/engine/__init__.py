"""The rules engine: pure Mexican Train, with no Discord, database, pictures, clock or I/O.

Start with :class:`Match` (rules + seat names), deal with ``match.start_round(order)`` where
``order`` comes from ``match.shuffle(random.Random(seed))`` or from a stored event, then ask
``match.round.legal_moves()`` and ``match.apply(move)``. Everything a player may see leaves the
engine through :func:`view_for`.

A round's opening, as a test or a bug report would write it (the seed fixes the deal)::

    >>> import random
    >>> match = Match(Rules(), ["Alice", "Bob"])
    >>> rnd = match.start_round(match.shuffle(random.Random(3)))
    >>> rnd.legal_moves()
    LegalMoves(12-2 @1, 12-8 @1, 12-2 mexican, 12-8 mexican)
    >>> parse_move("12-8 own", seat=0) in rnd.legal_moves(), DRAW in rnd.legal_moves()
    (True, False)

A refused move says why in a player's words and changes nothing::

    >>> match.apply(DRAW)
    Traceback (most recent call last):
    ...
    bot.engine.legality.IllegalMove: you hold a playable tile, so you may not draw: 12-2 @1, ...
    >>> applied = match.apply(parse_move("12-8 @1"))
    >>> applied.turn_over, rnd.names[rnd.current], str(rnd.log[-1].move)
    (True, 'Bob', '12-8 @1')
"""

from bot.engine.ending import hand_score, tile_score
from bot.engine.errors import EngineError
from bot.engine.legality import IllegalMove, LegalMoves
from bot.engine.match import Event, EventError, Match, Moved, RoundStarted, standing_places
from bot.engine.moves import (
    DONE,
    DRAW,
    KNOCK,
    MEXICAN,
    PASS,
    Catch,
    Done,
    Draw,
    Knock,
    Move,
    MoveError,
    Pass,
    Play,
    check_fits,
    parse_move,
    parse_train,
    train_name,
)
from bot.engine.round import Applied, Round
from bot.engine.rules import (
    ENGINE_VERSION,
    PRESETS,
    DoubleRule,
    EnginePlacement,
    FirstPlayer,
    FirstTurn,
    HandSizes,
    Rules,
    RulesError,
    Scoring,
    preset,
)
from bot.engine.state import RoundResult
from bot.engine.tiles import Tile, TileError, double_set, plain_dashes, tile
from bot.engine.view import SeatView, TrainView, round_view, view_for

__all__ = [
    "DONE",
    "DRAW",
    "ENGINE_VERSION",
    "KNOCK",
    "MEXICAN",
    "PASS",
    "PRESETS",
    "Applied",
    "Catch",
    "Done",
    "DoubleRule",
    "Draw",
    "EngineError",
    "EnginePlacement",
    "Event",
    "EventError",
    "FirstPlayer",
    "FirstTurn",
    "HandSizes",
    "IllegalMove",
    "Knock",
    "LegalMoves",
    "Match",
    "Move",
    "MoveError",
    "Moved",
    "Pass",
    "Play",
    "Round",
    "RoundResult",
    "RoundStarted",
    "Rules",
    "RulesError",
    "Scoring",
    "SeatView",
    "Tile",
    "TileError",
    "TrainView",
    "check_fits",
    "double_set",
    "hand_score",
    "parse_move",
    "parse_train",
    "plain_dashes",
    "preset",
    "round_view",
    "standing_places",
    "tile",
    "tile_score",
    "train_name",
    "view_for",
]
