"""What a render worker runs: engine view + renderer options in, PNG bytes out.

These are module-level functions of plain, picklable data, so the pool can send them to a
worker process by name (pickle sends a function as its module and name) or run them in a
thread. The bot's own pictures of a move, :func:`table_picture` and :func:`hand_picture`,
take plain values (the view, robot flags, a language, the player's settings) and return a
:class:`Picture`: the PNG with its alt text, and for a hand the names cut as the pictures cut
them (the turn DM's text uses them), so everything a picture needs — its options, the hand's
train plan (a search of the computer players' ``longest_train``), its words, the fonts that
measure names — runs in the worker, and the bot's process only awaits the result.
``warm_up`` is run once per worker before it takes work: it imports Pillow, loads
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

from bot.engine import PRESETS, Match, SeatView, Tile, view_for
from bot.engine.ai import longest_train
from bot.i18n import language_of
from renderers import HandOptions, TableOptions, render_hand, render_table, to_png
from renderers.alt_text import describe_hand, describe_table
from renderers.chart import ChartGame, render_stats_chart
from renderers.names import distinct
from renderers.replay import render_replay
from renderers.round_end import RoundEndOptions, render_round_end

#: Names in a turn DM are cut as the table picture's move sentence cuts them (20 px regular
#: type in 220 px: "Bartholomew Fi…001"), never two alike (:mod:`renderers.names`).
NAME_SIZE, NAME_ROOM = 20, 220


@dataclasses.dataclass(frozen=True, slots=True)
class Picture:
    """A picture as the bot sends it: the PNG, what it shows in words (its alt text), and
    for a hand the view's names cut as the pictures cut them (for the DM's text) and the
    train plan it marks (with the game's hints: the DM's one-tap standing order, issue 46)."""

    png: bytes
    alt: str
    names: tuple[str, ...] = ()
    plan: tuple[str, ...] = ()


def table_options(is_computer: Sequence[bool] = (), language: str | None = None) -> TableOptions:
    """The table picture's options: robot badges (per seat) and labels in ``language`` (a
    catalog language or a Discord locale)."""
    return TableOptions(is_computer=tuple(is_computer), language=language_of(language))


def hand_options(
    view: SeatView, show_plan: bool, language: str | None, tiles: str = "pips", pick: bool = False
) -> HandOptions:
    """The hand picture's options; with ``show_plan`` (the game's hints option) the longest
    own train the hand can build is marked as its plan (a search of well under 1 ms);
    ``tiles`` is the player's tile mode (``/mt me tiles:``); ``pick``: the moves are in a
    list beside the picture (a turn DM), so its hint says to pick, not to type."""
    plan: tuple[Tile, ...] = ()
    if show_plan and view.hand and view.seat is not None:
        plan = longest_train(view.hand, view.trains[view.seat].end)
    return HandOptions(plan=plan, language=language_of(language), tiles=tiles, pick=pick)


def cut_names(names: Sequence[str]) -> tuple[str, ...]:
    """The names as a turn DM writes them: cut as the picture cuts them, no two alike."""
    return tuple(distinct(names, NAME_SIZE, NAME_ROOM, "regular"))


def table_picture(view: SeatView, is_computer: Sequence[bool], language: str | None) -> Picture:
    """The table picture and its alt text, from one set of options (a spectator's view)."""
    options = table_options(is_computer, language)
    return Picture(draw_table(view, options), describe_table(view, options))


def hand_picture(
    view: SeatView, show_plan: bool, language: str | None, tiles: str, pick: bool
) -> Picture:
    """A seat's hand picture (its own view), its alt text, and the names cut for the DM."""
    options = hand_options(view, show_plan, language, tiles, pick)
    plan = tuple(str(t) for t in options.plan)
    return Picture(
        draw_hand(view, options), describe_hand(view, options), cut_names(view.names), plan
    )


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


def draw_rating_chart(
    name: str, course: Sequence[int], anchors: Sequence[tuple[str, int]], language: str
) -> bytes:
    """A player's rating course as PNG bytes (issue 48)."""
    from renderers.ratingchart import render_rating_chart

    return to_png(render_rating_chart(name, course, anchors, language=language))


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
    return (_reduced(view), _plain(options))


def hand_picture_key(
    view: SeatView, show_plan: bool, language: str | None, tiles: str, pick: bool
) -> Hashable:
    """:func:`hand_key` for a :func:`hand_picture`, from its arguments: the plan is made in
    the worker from the hand and the seat's own train end, so with ``show_plan`` that end is
    part of the key (the reduced view keeps only the open doubles' trains). The alt text and
    the cut names read nothing the reduced view leaves out."""
    end = view.trains[view.seat].end if show_plan and view.seat is not None else None
    return ("picture", _reduced(view), end, language_of(language), tiles, pick)


def _reduced(view: SeatView) -> SeatView:
    blank: dict[str, object] = {name: () for name in HAND_IGNORES}
    blank.update(boneyard_count=0, turn_plays=0, turn_drawn=False)
    return dataclasses.replace(view, trains=tuple(view.open_doubles), **blank)  # type: ignore[arg-type]


def _plain(options: object) -> tuple[object, ...]:
    """The options as a tuple of their fields (sequences as tuples), whatever they hold."""
    values: list[object] = []
    for field in dataclasses.fields(options):  # type: ignore[arg-type]
        value = getattr(options, field.name)
        if isinstance(value, Sequence) and not isinstance(value, str):
            value = tuple(value)
        values.append((field.name, value))
    return tuple(values)
