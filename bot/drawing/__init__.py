"""Pictures drawn off the event loop: a pool of render worker processes.

``RenderPool`` takes a picture's inputs (the engine's view and the renderer's options, plain
picklable data) and returns PNG bytes — for the bot's table and hand pictures a ``Picture``,
the PNG with its alt text — drawn in a worker process so the event loop only awaits, on the
machinery of :mod:`bot.workers` (whose failures a caller catches: ``WorkerFailed``,
``Superseded``). See ``docs/rendering.md`` for sizing, settings and what happens on a crash,
a timeout or a backlog.
"""

from bot.drawing.jobs import (
    Picture,
    cut_names,
    draw_chart,
    draw_hand,
    draw_rating_chart,
    draw_replay,
    draw_round_end,
    draw_season_post,
    draw_table,
    hand_key,
    hand_options,
    hand_picture,
    hand_picture_key,
    table_options,
    table_picture,
)
from bot.drawing.pool import RenderPool

__all__ = [
    "Picture",
    "RenderPool",
    "cut_names",
    "draw_chart",
    "draw_hand",
    "draw_rating_chart",
    "draw_replay",
    "draw_round_end",
    "draw_season_post",
    "draw_table",
    "hand_key",
    "hand_options",
    "hand_picture",
    "hand_picture_key",
    "table_options",
    "table_picture",
]
