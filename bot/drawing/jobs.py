"""What a render worker runs: engine view + renderer options in, PNG bytes out.

These are module-level functions of plain, picklable data, so the pool can send them to a
worker process by name (pickle sends a function as its module and name) or run them in a
thread. ``warm_up`` is run once per worker before it takes work: it imports Pillow, loads
the fonts and draws a small table and hand, so the first real picture is not the slow one.
``hand_key`` says when two hand pictures would be the same picture, for the pool's cache.
``draw_round_end``, ``draw_replay`` and ``draw_chart`` are the other pictures the bot posts
(a round's end, ``/mt replay``, ``/mt stats``), run through the pool's ``run``.
"""

from __future__ import annotations

import dataclasses
import os
import random
from collections.abc import Hashable, Sequence

from bot.engine import PRESETS, Match, SeatView, view_for
from renderers import HandOptions, TableOptions, render_hand, render_table, to_png
from renderers.chart import ChartGame, render_stats_chart
from renderers.replay import render_replay
from renderers.round_end import RoundEndOptions, render_round_end


def draw_table(view: SeatView, options: TableOptions) -> bytes:
    """The table picture as PNG bytes (give it a spectator's view)."""
    return to_png(render_table(view, options))


def draw_hand(view: SeatView, options: HandOptions) -> bytes:
    """One seat's hand picture as PNG bytes (give it that seat's own view)."""
    return to_png(render_hand(view, options))


def draw_round_end(view: SeatView, options: RoundEndOptions) -> bytes:
    """The round-end picture as PNG bytes (give it the spectator's view of an ended round)."""
    return to_png(render_round_end(view, options))


def draw_replay(
    views: Sequence[SeatView], options: TableOptions, max_frames: int, width: int, max_bytes: int
) -> bytes:
    """A round's replay as a GIF of at most ``max_bytes``; empty bytes when even a small one
    does not fit (the renderer's ValueError, which would not cross the process boundary as
    such: the caller tells the player the replay is too big)."""
    try:
        return render_replay(
            views, options, max_frames=max_frames, width=width, max_bytes=max_bytes
        )
    except ValueError:
        return b""


def draw_chart(name: str, games: Sequence[ChartGame], language: str) -> bytes:
    """A player's statistics chart as PNG bytes."""
    return to_png(render_stats_chart(name, games, language=language))


def sample_views(players: int = 4, seed: int = 7, moves: int = 12) -> tuple[SeatView, SeatView]:
    """A table and a hand view from a short seeded playout (warm-up, tests, benchmarks)."""
    from bot.engine.simulate import random_move

    match = Match(PRESETS["standard"], [f"Player {i + 1}" for i in range(players)])
    rng = random.Random(seed)
    match.start_round(match.shuffle(rng))
    for _ in range(moves):
        assert match.round is not None
        if match.round.result is not None:
            break
        match.apply(random_move(match.round, rng))
    return view_for(match, None), view_for(match, 0)


def warm_up() -> int:
    """Load fonts and caches by drawing once; returns the worker's pid."""
    table, hand = sample_views(players=2, moves=4)
    draw_table(table, TableOptions())
    draw_hand(hand, HandOptions())
    return os.getpid()


#: SeatView fields that change with every move but that the hand picture does not show
#: (tests/drawing checks each one really leaves the picture unchanged). Everything else
#: is part of the cache key, so a field the renderer starts to read is safe by default.
HAND_IGNORES = (
    "log",
    "boneyard_count",
    "hand_counts",
    "visible_hands",
    "totals",
    "round_scores",
    "knocked",
    "catchable",
    "side_moves",
    "turn_plays",
    "turn_drawn",
)


def hand_key(view: SeatView, options: HandOptions) -> Hashable:
    """Equal keys mean equal hand pictures: the hand, the plan, the options and what the
    header shows (whose turn, the legal moves, the open doubles to cover), not the rest of
    the table. The trains count only through their open doubles."""
    blank: dict[str, object] = {name: () for name in HAND_IGNORES}
    blank.update(boneyard_count=0, turn_plays=0, turn_drawn=False)
    reduced = dataclasses.replace(view, trains=tuple(view.open_doubles), **blank)  # type: ignore[arg-type]
    return (reduced, _plain(options))


def _plain(options: object) -> tuple[object, ...]:
    """The options as a tuple of their fields (sequences as tuples), whatever they hold."""
    values: list[object] = []
    for field in dataclasses.fields(options):  # type: ignore[arg-type]
        value = getattr(options, field.name)
        if isinstance(value, Sequence) and not isinstance(value, str):
            value = tuple(value)
        values.append((field.name, value))
    return tuple(values)
