"""Sync checks of the render pool's parts: the hand cache's key and the pool's sizing."""

from __future__ import annotations

import dataclasses

import pytest

from bot.config import Config, ConfigError
from bot.drawing import RenderPool, default_workers, draw_hand, hand_key
from bot.drawing.jobs import HAND_IGNORES, sample_views
from bot.engine import SeatView
from renderers import HandOptions


def views_along_a_round() -> list[SeatView]:
    views = []
    for moves in range(0, 40, 3):
        _table, hand = sample_views(players=3, seed=11, moves=moves)
        views.append(hand)
    return views


@pytest.mark.parametrize("view", views_along_a_round(), ids=lambda v: f"{len(v.log)}-moves")
def test_what_the_hand_key_ignores_is_not_in_the_hand_picture(view: SeatView) -> None:
    """Guards the cache: every field ``hand_key`` leaves out, changed, leaves the PNG equal
    (if the hand picture starts showing one, remove it from ``HAND_IGNORES``)."""
    options = HandOptions()
    changed = dataclasses.replace(
        view,
        log=(),
        boneyard_count=view.boneyard_count + 7,
        hand_counts=tuple(n + 3 for n in view.hand_counts),
        visible_hands=(),
        totals=tuple(t + 50 for t in view.totals),
        round_scores=((1,) * view.players,),
        knocked=(0,),
        catchable=(1,),
        side_moves=(),
        turn_plays=view.turn_plays + 1,
        turn_drawn=not view.turn_drawn,
        trains=tuple(dataclasses.replace(t, marked=not t.marked) for t in view.trains)
        if not any(t.open_double is not None for t in view.trains)
        else view.trains,
    )
    assert {f.name for f in dataclasses.fields(SeatView)} >= set(HAND_IGNORES)
    assert hand_key(changed, options) == hand_key(view, options)
    assert draw_hand(changed, options) == draw_hand(view, options)
    # ... while what it shows is in the key.
    if view.hand:
        fewer = dataclasses.replace(view, hand=view.hand[1:])
        assert hand_key(fewer, options) != hand_key(view, options)
        assert hand_key(view, HandOptions(plan=view.hand[:1])) != hand_key(view, options)


def test_sizing_and_the_setting() -> None:
    assert default_workers(1) == 1
    assert default_workers(2) == 2
    assert default_workers(16) == 4
    assert 1 <= default_workers() <= 4
    assert Config.from_env({}).render_workers is None
    assert Config.from_env({"MT_RENDER_WORKERS": "0"}).render_workers == 0
    assert Config.from_env({"MT_RENDER_WORKERS": " 3 "}).render_workers == 3
    for bad, why in (("-1", "at least 0"), ("two", "whole number")):
        with pytest.raises(ConfigError, match=f"MT_RENDER_WORKERS must be .*{why}"):
            Config.from_env({"MT_RENDER_WORKERS": bad})
    with pytest.raises(ValueError, match="0 or more"):
        RenderPool(-1)
