"""The replay GIF stays within its frame and byte bounds; the stats chart draws any history."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.engine import Match, SeatView, preset, view_for
from bot.engine.simulate import random_move
from renderers import TableOptions
from renderers.chart import ChartGame, render_stats_chart
from renderers.replay import pick, render_replay


def _round_views(players: int = 4, seed: int = 3) -> list[SeatView]:
    match = Match(preset("standard"), [f"P{i}" for i in range(players)])
    match.start_round(match.shuffle(random.Random(seed)))
    rng = random.Random(seed)
    views = [view_for(match, None)]
    while match.round is not None and match.round.result is None:
        match.apply(random_move(match.round, rng))
        views.append(view_for(match, None))
    return views


def test_pick_keeps_the_first_and_last_frames() -> None:
    views = _round_views()
    chosen = pick(views, 10)
    assert len(chosen) == 10 and chosen[0] is views[0] and chosen[-1] is views[-1]
    assert pick(views[:3], 10) == views[:3]


def test_replay_fits_its_budget_by_dropping_frames_then_shrinking() -> None:
    views = _round_views(players=2)
    roomy = render_replay(views, max_frames=8, width=400)
    gif = Image.open(io.BytesIO(roomy))
    assert gif.n_frames == 8 and gif.size[0] == 400
    budget = len(roomy) * 4 // 5
    tight = render_replay(views, TableOptions(language="fr"), max_frames=16, width=400,
                          max_bytes=budget)  # fmt: skip
    assert len(tight) <= budget
    small = Image.open(io.BytesIO(tight))
    assert small.n_frames < 16 or small.size[0] < 400
    with pytest.raises(ValueError):
        render_replay(views, max_frames=4, width=300, max_bytes=1000)


def test_stats_chart_draws_empty_and_full_histories() -> None:
    empty = render_stats_chart("Alice", [], language="fr")
    assert empty.size == (900, 380)
    rng = random.Random(1)
    games = [ChartGame(i, tuple(rng.randint(0, 80) for _ in range(13)), i % 3 == 0)
             for i in range(1, 25)]  # fmt: skip
    full = render_stats_chart("🚂 Zoë", games, theme_name="light")
    assert full.size == (900, 380) and full.getcolors(1 << 16) is not None


def test_chart_axis_has_whole_distinct_ticks() -> None:
    from renderers.chart import axis_ticks

    for peak in (0.0, 0.4, 1.0, 1.4, 2.6, 7.5, 19.0, 37.2, 160.0, 999.0):
        ticks = axis_ticks(peak)
        assert ticks[0] == 0 and ticks[-1] >= peak and len(ticks) <= 5
        assert all(isinstance(t, int) for t in ticks)
        assert ticks == sorted(set(ticks)), ticks
    assert axis_ticks(1.4) == [0, 1, 2]


def test_chart_shows_a_zero_score_and_its_whole_title() -> None:
    from renderers import text_sizes

    games = [ChartGame(7, (0, 0, 0), True), ChartGame(8, (4, 6), False)]
    img = render_stats_chart("A name long enough to push the title off the edge " * 2, games)
    labels = [label for _px, label in text_sizes(img)]
    title = next(x for x in labels if "average round score" in x)
    assert title.endswith("average round score, last 2 games")
    assert "0" in labels  # the zero bar's value is written above its stub
    # The zero game's stub: gold just above the baseline, in the middle of its slot.
    from renderers.chart import HEIGHT, MARGIN, WIDTH
    from renderers.theme import DARK

    left, right, bottom = MARGIN + 64, WIDTH - MARGIN - 84, HEIGHT - MARGIN - 48
    cx = round(left + (right - left) / 4)
    assert img.getpixel((cx, bottom - 2)) == DARK.open_double
