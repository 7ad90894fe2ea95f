"""Fixed positions for the renderer tests, built by seeded playouts and by hand-made rounds.

Everything here is deterministic: the same function always returns the same table.
"""

from __future__ import annotations

import random

from bot.engine import MEXICAN, PRESETS, Match, Round, Rules, SeatView, Tile, round_view, view_for
from bot.engine.simulate import play_match, random_move
from bot.engine.tiles import double_set


def playout(
    players: int, seed: int, moves: int, preset: str = "standard", names: list[str] | None = None
) -> Match:
    """A first round played ``moves`` random moves in (or to its end)."""
    m = Match(PRESETS[preset], names or [f"Player {i + 1}" for i in range(players)])
    rng = random.Random(seed)
    m.start_round(m.shuffle(rng))
    for _ in range(moves):
        assert m.round is not None
        if m.round.result is not None:
            break
        m.apply(random_move(m.round, rng))
    return m


def built(
    players: int,
    lengths: dict[int, int],
    *,
    open_doubles: tuple[int, ...] = (),
    marked: tuple[int, ...] = (),
    current: int = 0,
    max_pip: int = 12,
    seed: int = 4,
    names: list[str] | None = None,
) -> SeatView:
    """A round laid out by hand: trains of the given lengths (ref -> tiles), open doubles on
    the listed trains (in that order), markers, and the rest dealt to hands and the boneyard."""
    rules = Rules(max_pip=max_pip)
    rnd = Round(
        rules, names or [f"Player {i + 1}" for i in range(players)], 0, Tile(max_pip, max_pip)
    )
    pool = set(double_set(max_pip)) - {rnd.engine}
    rng = random.Random(seed)
    for ref, length in lengths.items():
        train = rnd.trains[ref]
        while len(train.tiles) < length:
            fits = sorted(t for t in pool if t.has(train.end) and not t.is_double)
            if not fits:
                break
            t = rng.choice(fits)
            pool.discard(t)
            train.tiles.append(t)
            train.end = t.other(train.end)
    for ref in open_doubles:
        train = rnd.trains[ref]
        d = Tile(train.end, train.end)
        assert d in pool, f"{d} already used"
        pool.discard(d)
        train.tiles.append(d)
        rnd.open_doubles.append(ref)
    for ref in marked:
        rnd.trains[ref].marked = True
    rest = sorted(pool)
    rng.shuffle(rest)
    per = min(6, len(rest) // (players + 1))
    for s in range(players):
        rnd.hands[s] = rest[s * per : (s + 1) * per]
    rnd.boneyard = rest[players * per :]
    rnd.reindex()
    rnd.current = current
    return round_view(rnd, None)


def match_over(players: int = 4, seed: int = 2) -> Match:
    rules = PRESETS["double-9"].replace(rounds=2) if players <= 4 else Rules(rounds=2)
    return play_match(rules, [f"Player {i + 1}" for i in range(players)], random.Random(seed))


def spectator(m: Match) -> SeatView:
    return view_for(m, None)


__all__ = ["MEXICAN", "built", "match_over", "playout", "spectator"]
