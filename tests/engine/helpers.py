"""Building fixed tables for rule tests: name the hands, trains and boneyard, nothing else.

``table()`` builds a :class:`Round` mid-play from notation. By default the boneyard holds the
``draws`` a test names (drawn in that order) followed by every tile nobody named, so the set
stays whole; ``boneyard=""`` empties it for end-of-round tests.
"""

from __future__ import annotations

from bot.engine import MEXICAN, FirstTurn, Play, Round, Rules, Tile
from bot.engine.moves import parse_train
from bot.engine.round import begin_turn
from bot.engine.tiles import parse_tiles

NAMES = ("Alice", "Bob", "Carol", "Dan", "Erin", "Frank", "Grace", "Heidi", "Ivan", "Judy")


def table(
    rules: Rules,
    hands: list[str],
    *,
    trains: dict[str, str] | None = None,
    marked: tuple[str, ...] = (),
    open_doubles: tuple[str, ...] = (),
    draws: str = "",
    boneyard: str | None = None,
    current: int = 0,
    first_turn: bool = False,
    engine: str | None = None,
) -> Round:
    """A round with seat ``current`` to act at the start of its turn.

    ``first_turn`` makes this everyone's first turn of the round; otherwise all have played.
    ``open_doubles`` lists trains (``@2``, ``mexican``) ending in an open double, oldest first.
    """
    players = len(hands)
    mp = rules.max_pip
    eng = Tile.parse(engine, mp) if engine else rules.engine_for_round(0)
    rnd = Round(rules, NAMES[:players], 0, eng)
    rnd.hands = [list(parse_tiles(h, mp)) for h in hands]
    used = {eng, *(t for h in rnd.hands for t in h)}
    for name, tiles in (trains or {}).items():
        tr = rnd.trains[parse_train(name, players=players)]
        for t in parse_tiles(tiles, mp):
            assert t.has(tr.end), f"{t} does not follow {tr.end} on {name}"
            tr.tiles.append(t)
            tr.end = t.other(tr.end)
            rnd.table_pips[t.high] += 1
            if t.low != t.high:
                rnd.table_pips[t.low] += 1
            used.add(t)
    for name in marked:
        rnd.trains[parse_train(name, players=players)].marked = True
    rnd.open_doubles = [parse_train(n, players=players) for n in open_doubles]
    if boneyard is None:
        top = list(parse_tiles(draws, mp))
        rest = [t for t in rules.tiles() if t not in used and t not in top]
        pile = top + rest
    else:
        pile = list(parse_tiles(boneyard, mp))
    assert not used.intersection(pile), "a tile is both in play and in the boneyard"
    rnd.boneyard = pile[::-1]  # the engine draws from the end of the list
    rnd.reindex()
    rnd.turns_taken = [0 if first_turn else 1] * players
    begin_turn(rnd, current)
    return rnd


def plays(rnd: Round) -> set[str]:
    """The current player's legal moves in notation, for readable assertions."""
    return {str(m) for m in rnd.legal_moves()}


def seat_could_play_after_the_remaining_passes(rnd: Round) -> int | None:
    """For a round that just ended blocked: a seat that could still have played, or None.

    The oracle for the blocked-round rule, written apart from the engine's own check: the turns
    after the last pass go on, each seat that cannot play passing and raising its marker, for a
    whole lap (after which nothing on the table can change). The open-double limits are the
    engine's own ``legal_moves`` at the start of each of those turns.
    """
    assert rnd.result is not None and rnd.result.blocked
    probe = rnd.copy()
    probe.result = None
    seat = rnd.log[-1].seat
    for _ in range(probe.players):
        seat = (seat + 1) % probe.players
        # The start of ``seat``'s turn, as the engine begins one.
        probe.current, probe.drawn, probe.turn_plays, probe.turn_doubles = seat, False, 0, []
        first = probe.turns_taken[seat] == 0
        probe.fast = first and probe.rules.first_turn is FirstTurn.FAST_START
        if any(isinstance(m, Play) for m in probe.legal_moves()):
            return seat
        probe.trains[seat].marked = True
    return None


__all__ = [
    "MEXICAN",
    "NAMES",
    "plays",
    "seat_could_play_after_the_remaining_passes",
    "table",
]
