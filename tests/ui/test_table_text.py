"""The table as text (the terminal game, a post whose picture failed): long trains counted
right."""

from __future__ import annotations

import random

from bot.engine import MEXICAN, Tile, TrainView
from bot.engine.tiles import double_set
from bot.ui.pictures import LONG_TRAIN, laid_tiles


def _train(length: int, rng: random.Random, engine: int = 12) -> TrainView:
    """A train of ``length`` tiles built from ``engine``, each matching the one before."""
    tiles: list[Tile] = []
    end = engine
    left = [t for t in double_set(18) if t != Tile(engine, engine)]
    while len(tiles) < length:
        fits = [t for t in left if end in t and t not in tiles]
        tile = rng.choice(fits)
        tiles.append(tile)
        end = tile.other(end)
    return TrainView(MEXICAN, tuple(tiles), end, False, None)


def test_a_long_train_shows_its_ends_and_counts_what_it_leaves_out() -> None:
    """Every length up to 40: the tiles written plus the ``(+N)`` count are the train's
    length, the written ones are its first and last tiles, and at most LONG_TRAIN show. A
    10-tile train once printed ``12-10 (+3)`` and 8 tiles."""
    rng = random.Random(36)
    for length in range(41):
        train = _train(length, rng)
        words = laid_tiles(train, 12).split()
        if length == 0:
            assert words == ["—"]
            continue
        hidden = [w for w in words if w.startswith("(+")]
        shown = [w for w in words if not w.startswith("(+")]
        left_out = int(hidden[0][2:-1]) if hidden else 0
        assert len(shown) + left_out == length, (length, words)
        assert len(shown) == min(length, LONG_TRAIN)
        assert bool(hidden) == (length > LONG_TRAIN)
        laid = [f"{t.high}-{t.low}" for t in train.tiles]
        turned = [f"{t.low}-{t.high}" for t in train.tiles]
        for word, i in zip(shown, [0, *range(length - len(shown) + 1, length)], strict=True):
            assert word in (laid[i], turned[i]), (length, i, word)
