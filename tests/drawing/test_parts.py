"""Sync checks of the render pool's parts: the hand cache's key, the pool's sizing, and the
move's picture jobs (PNG and alt text together)."""

from __future__ import annotations

import dataclasses

import pytest

from bot.config import Config
from bot.configvalues import ConfigError
from bot.drawing import (
    RenderPool,
    draw_hand,
    hand_key,
    hand_picture,
    hand_picture_key,
    table_picture,
)
from bot.drawing.jobs import HAND_IGNORES, sample_views
from bot.engine import SeatView
from bot.engine.ai import Level
from bot.service import Player
from bot.ui.alt_text import describe_hand, describe_table
from bot.ui.pictures import computer_seats, hand_png, short_names, table_png
from bot.workers import default_workers
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


@pytest.mark.parametrize("moves", [0, 9, 27])
def test_a_move_s_pictures_come_with_their_words_from_one_job(moves: int) -> None:
    """The worker's jobs draw the picture and describe it from the same options: the PNG is
    the one the Discord layer's blocking helpers draw, the alt text the one its describers
    write, and a hand carries the names cut as a turn DM writes them."""
    table, hand = sample_views(players=3, seed=5, moves=moves)
    players = [Player(seat=s, name=f"P{s}", user_id=None if s == 1 else 100 + s,
                      computer=Level.EASY if s == 1 else None) for s in range(3)]  # fmt: skip
    drawn = table_picture(table, computer_seats(players), "fr")
    assert drawn.png == table_png(table, players, "fr")
    assert drawn.alt == describe_table(table, players, "fr")
    assert drawn.names == ()
    shown = hand_picture(hand, True, "en", "numerals", True)
    assert shown.png == hand_png(hand, True, "en", "numerals", pick=True)
    assert shown.alt == describe_hand(hand, True, "en")
    assert shown.names == short_names(hand.names)


def test_the_hand_picture_key_follows_the_plan() -> None:
    """The plan is made in the worker from the hand and the seat's own train end: with the
    hints on, that end is in the cache key (the reduced view keeps only the open doubles'
    trains); with them off, it is not."""
    _table, hand = sample_views(players=3, seed=5, moves=9)
    assert hand.seat is not None
    trains = list(hand.trains)
    trains[hand.seat] = dataclasses.replace(trains[hand.seat], end=trains[hand.seat].end + 1)
    moved = dataclasses.replace(hand, trains=tuple(trains))
    args = ("en", "pips", True)
    assert hand_picture_key(moved, True, *args) != hand_picture_key(hand, True, *args)
    assert hand_picture_key(moved, False, *args) == hand_picture_key(hand, False, *args)
    us = hand_picture_key(hand, True, "en-US", "pips", True)
    assert us == hand_picture_key(hand, True, *args)
