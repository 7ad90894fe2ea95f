"""longest_train: exact against brute force on small hands, valid and bounded on big ones."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.ai import longest_train
from bot.engine.ai.trains import train_ends
from bot.engine.tiles import Tile, double_set, parse_tiles


def _brute(hand: list[Tile], start: int) -> tuple[int, int]:
    """The best (tiles, pips) over every train that can be laid, by trying every order."""
    best = (0, 0)

    def go(end: int, left: list[Tile], count: int, pips: int) -> None:
        nonlocal best
        best = max(best, (count, pips))
        for i, t in enumerate(left):
            if t.has(end):
                go(t.other(end), left[:i] + left[i + 1 :], count + 1, pips + t.pips)

    go(start, hand, 0, 0)
    return best


def _assert_valid(train: tuple[Tile, ...], hand: list[Tile], start: int) -> None:
    assert len(set(train)) == len(train)
    assert set(train) <= set(hand)
    end = start
    for t in train:
        assert t.has(end), f"{t} does not follow {end}"
        end = t.other(end)


@settings(max_examples=300, deadline=None)
@given(
    max_pip=st.sampled_from([4, 6, 9]),
    size=st.integers(0, 9),
    seed=st.integers(0, 2**32 - 1),
)
def test_longest_train_matches_brute_force(max_pip: int, size: int, seed: int) -> None:
    rng = random.Random(seed)
    hand = rng.sample(double_set(max_pip), min(size, len(double_set(max_pip))))
    start = rng.randrange(max_pip + 1)
    train = longest_train(hand, start)
    _assert_valid(train, hand, start)
    assert (len(train), sum(t.pips for t in train)) == _brute(hand, start)


def test_doubles_are_spliced_where_the_train_reaches_them() -> None:
    hand = parse_tiles("5-3 3-3 12-5 3-1 9-9 12-12")
    assert longest_train(hand, 12) == parse_tiles("12-12 12-5 5-3 3-3 3-1")
    assert train_ends(parse_tiles("12-5 5-3"), 12) == [5, 3]


def test_nothing_fits_gives_an_empty_train() -> None:
    assert longest_train(parse_tiles("1-2 9-9"), 7) == ()
    assert longest_train((), 3) == ()


def test_big_and_dense_hands_stay_valid_within_the_budget() -> None:
    rng = random.Random(7)
    for max_pip, size in [(15, 20), (18, 20), (18, 30), (12, 30)]:
        for _ in range(20):
            hand = rng.sample(double_set(max_pip), size)
            start = rng.randrange(max_pip + 1)
            _assert_valid(longest_train(hand, start), hand, start)
    # Every tile of a double-6 set: the search stops at its budget with an Euler-like train.
    dense = list(double_set(6))
    train = longest_train(dense, 0)
    _assert_valid(train, dense, 0)
    assert len(train) >= 20
