"""Pictures drawn off the event loop: a pool of render worker processes.

``RenderPool`` takes a picture's inputs (the engine's view and the renderer's options, plain
picklable data) and returns PNG bytes, drawn in a worker process so the event loop only
awaits. See ``docs/rendering.md`` for sizing, settings and what happens on a crash, a
timeout or a backlog.
"""

from bot.drawing.jobs import (
    draw_chart,
    draw_hand,
    draw_replay,
    draw_round_end,
    draw_table,
    hand_key,
)
from bot.drawing.pool import (
    PoolClosed,
    RenderFailed,
    RenderPool,
    RenderTimeout,
    Superseded,
    WorkerCrashed,
    default_workers,
)

__all__ = [
    "PoolClosed",
    "RenderFailed",
    "RenderPool",
    "RenderTimeout",
    "Superseded",
    "WorkerCrashed",
    "default_workers",
    "draw_chart",
    "draw_hand",
    "draw_replay",
    "draw_round_end",
    "draw_table",
    "hand_key",
]
