"""Fixed positions for the computer-player tests, written as hands and trains in notation."""

from __future__ import annotations

import random
from typing import Any

from bot.engine import Round, Rules
from bot.engine.position import round_from_dict
from bot.engine.tiles import parse_tiles


def table(
    hands: list[str],
    trains: dict[str, str],
    *,
    rules: Rules | None = None,
    engine: str = "12-12",
    marked: tuple[str, ...] = (),
    open_doubles: tuple[str, ...] = (),
    seat: int = 0,
    turns_taken: int = 3,
    log: list[tuple[int, str]] | None = None,
) -> Round:
    """A round where ``seat`` is to play; every tile not named goes to the boneyard."""
    rules = rules or Rules()
    players = len(hands)
    named = list(parse_tiles(engine))
    for text in [*hands, *trains.values()]:
        named.extend(parse_tiles(text))
    if len(set(named)) != len(named):
        raise ValueError(f"a tile is named twice in {hands} {trains}")
    boneyard = [t for t in rules.tiles() if t not in set(named)]
    data: dict[str, Any] = {
        "round": rules.max_pip - int(engine.split("-")[0]),
        "engine": engine,
        "hands": hands,
        "boneyard": " ".join(map(str, boneyard)),
        "trains": {
            name: {"tiles": trains.get(name, ""), "marked": name in marked}
            for name in [*(f"@{s + 1}" for s in range(players)), "mexican"]
        },
        "open_doubles": list(open_doubles),
        "first_seat": 0,
        "turns_taken": [turns_taken] * players,
        "turn": {"seat": seat, "drawn": False, "plays": 0, "doubles": [], "fast": False},
        "knock": {"knocked": [], "window": None, "catchable": []},
        "result": None,
        "log": [list(e) for e in (log or [])],
    }
    return round_from_dict(data, rules, tuple(f"P{s + 1}" for s in range(players)))


def rehide(rnd: Round, seat: int, rng: random.Random) -> Round:
    """The same round with the tiles ``seat`` cannot see dealt differently (same counts)."""
    twin = rnd.copy()
    others = [s for s in range(rnd.players) if s != seat]
    pool = [t for s in others for t in rnd.hands[s]] + rnd.boneyard
    rng.shuffle(pool)
    for s in others:
        n = len(rnd.hands[s])
        twin.hands[s], pool = pool[:n], pool[n:]
    twin.boneyard = pool
    twin.reindex()
    return twin
