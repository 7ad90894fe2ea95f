"""Write tests/engine/data/legal_moves.jsonl: positions with their exact legal moves.

One line per case, a JSON object: ``case`` (a name), ``rule`` (the row of docs/rules.md it
pins down), ``legal`` (the player to move's legal moves in notation, sorted), ``side`` (the
knock and catch moves each seat may make, by seat, where any) and ``position`` (the whole
table in the position format of ``bot.engine.position``, loadable by ``from_position``).
tests/engine/test_legal_moves_data.py loads every position and compares the engine's moves
with the listed ones exactly.

The positions are built here from a few named tiles (``tests.engine.helpers.table``) and, where
a case is the middle of a turn, by applying the moves that lead there, so every position is
one the engine itself can reach. The moves are the engine's answer when this script ran and
were checked by hand against the rules; run it again after a deliberate rules change and
read the diff of the data file: each changed line is a position whose legal moves changed.

    python scripts/make_legal_moves.py            # rewrite the file
    python scripts/make_legal_moves.py --check    # exit 1 if the file differs from the engine
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere

from bot.engine import DoubleRule, FirstTurn, HandSizes, Match, Round, Rules, parse_move
from bot.engine.position import from_position, to_position
from tests.engine.helpers import NAMES, table

DATA = Path(__file__).resolve().parents[1] / "tests" / "engine" / "data" / "legal_moves.jsonl"

STD = Rules()
NINE = Rules(max_pip=9, hand_sizes=HandSizes.DOUBLE_NINE)
FAST = Rules(first_turn=FirstTurn.FAST_START)

Case = tuple[str, str, Round]


def then(rnd: Round, *moves: str) -> Round:
    """``rnd`` after the current player's ``moves`` (each refused if illegal, as a player's)."""
    for text in moves:
        rnd.apply(parse_move(text, players=rnd.players, max_pip=rnd.rules.max_pip))
    return rnd


def cases() -> Iterator[Case]:
    # ---------------------------------------------------------------- eligible trains
    rule = "A turn 1: eligible trains are your own, the Mexican Train and marked trains"
    yield (
        "own-and-mexican",
        rule,
        table(STD, ["12-3 12-7 3-3 5-1", "11-3 4-4 9-2"], trains={"@1": "12-6", "@2": "12-4"}),
    )
    yield (
        "unmarked-other-train-closed",
        rule,
        table(STD, ["6-2 4-1 8-8", "11-3 9-9"], trains={"@1": "12-6", "@2": "12-4"}),
    )
    yield (
        "marked-other-train-open",
        rule,
        table(
            STD, ["6-2 4-1 8-8", "11-3 9-9"], trains={"@1": "12-6", "@2": "12-4"}, marked=("@2",)
        ),
    )
    yield (
        "marked-trains-of-three",
        rule,
        table(
            STD,
            ["6-2 4-1 11-8 3-0", "11-3 9-9", "11-10 1-0"],
            trains={"@1": "12-6", "@2": "12-4", "@3": "12-11", "mexican": "12-3"},
            marked=("@2", "@3"),
            current=0,
        ),
    )
    rule = "A turn 1: a train that has not started is started by a tile matching the engine"
    yield "unstarted-trains-need-engine", rule, table(STD, ["12-5 5-5 11-2", "12-1 3-3"])
    yield (
        "unstarted-marked-train-startable",
        rule,
        table(STD, ["12-5 11-2", "3-3 4-1"], trains={"@1": "12-9"}, marked=("@2",)),
    )
    yield (
        "mexican-started-any-player",
        "A turn 6: any player may play on the Mexican Train",
        (table(STD, ["7-2 9-1", "3-3 4-1"], trains={"@1": "12-9", "mexican": "12-7"}, current=0)),
    )
    # ---------------------------------------------------------------- must play / draw / pass
    rule = "A turn 2: holding a playable tile you must play; you may not draw"
    yield (
        "must-play-no-draw",
        rule,
        table(STD, ["6-2 10-10", "12-4"], trains={"@1": "12-6", "mexican": "12-1"}),
    )
    rule = "A turn 3: nothing playable: draw one"
    yield (
        "nothing-playable-draw",
        rule,
        table(STD, ["10-10 2-2", "12-4"], trains={"@1": "12-6", "mexican": "12-1"}, draws="9-8"),
    )
    rule = "A turn 3: a drawn tile that plays must be played (only it can be)"
    yield (
        "drawn-tile-playable",
        rule,
        then(
            table(
                STD, ["10-10 2-2", "12-4"], trains={"@1": "12-6", "mexican": "12-1"}, draws="6-9"
            ),
            "draw",
        ),
    )
    yield (
        "drawn-tile-fits-two-trains",
        rule,
        then(
            table(
                STD, ["10-10 2-2", "12-4"], trains={"@1": "12-6", "mexican": "12-1"}, draws="6-1"
            ),
            "draw",
        ),
    )
    rule = "A turn 3: a drawn tile that does not play: pass (and mark your train)"
    yield (
        "drawn-tile-useless-pass",
        rule,
        then(
            table(
                STD, ["10-10 2-2", "12-4"], trains={"@1": "12-6", "mexican": "12-1"}, draws="9-8"
            ),
            "draw",
        ),
    )
    rule = "A turn 3: with an empty boneyard you pass at once"
    yield "empty-boneyard-pass", rule, _empty_boneyard()
    # ---------------------------------------------------------------- markers
    rule = "A turn 5: your own marked train is yours to play on (the marker comes off)"
    yield (
        "own-marked-train",
        rule,
        table(STD, ["6-2 1-0", "12-4"], trains={"@1": "12-6", "mexican": "12-9"}, marked=("@1",)),
    )
    rule = "A turn 5: a marker on an unstarted train lets others start it"
    yield (
        "marker-on-empty-start",
        rule,
        table(STD, ["12-0 6-2", "3-3"], trains={"@1": "12-6", "mexican": "12-9"}, marked=("@2",)),
    )
    # ---------------------------------------------------------------- open doubles (earlier turns)
    rule = "Doubles: an open double binds the next player, even on a private unmarked train"
    yield (
        "open-double-on-other-private-train",
        rule,
        table(
            STD,
            ["4-1 6-2 12-0", "9-9"],
            trains={"@1": "12-6", "@2": "12-4 4-4"},
            open_doubles=("@2",),
        ),
    )
    yield (
        "open-double-on-own-train",
        rule,
        table(
            STD,
            ["6-0 6-5 12-0", "9-9"],
            trains={"@1": "12-6 6-6", "@2": "12-4"},
            open_doubles=("@1",),
        ),
    )
    yield (
        "open-double-on-mexican",
        rule,
        table(
            STD,
            ["6-2 3-1 3-0", "9-9"],
            trains={"@1": "12-6", "mexican": "12-3 3-3"},
            open_doubles=("mexican",),
        ),
    )
    rule = "Doubles: unable to satisfy an open double: draw, even with a tile for another train"
    yield (
        "open-double-cannot-satisfy-draw",
        rule,
        table(
            STD,
            ["6-2 12-0", "9-9"],
            trains={"@1": "12-6", "@2": "12-4 4-4"},
            open_doubles=("@2",),
            draws="11-10",
        ),
    )
    rule = "Doubles: still unable after the draw: pass, even with a tile for another train"
    yield (
        "open-double-after-draw-pass",
        rule,
        then(
            table(
                STD,
                ["6-2 12-0", "9-9"],
                trains={"@1": "12-6", "@2": "12-4 4-4"},
                open_doubles=("@2",),
                draws="11-10",
            ),
            "draw",
        ),
    )
    rule = "Doubles: the drawn tile satisfies the open double: it must go there"
    yield (
        "open-double-drawn-satisfier",
        rule,
        then(
            table(
                STD,
                ["6-2 12-0", "9-9"],
                trains={"@1": "12-6", "@2": "12-4 4-4"},
                open_doubles=("@2",),
                draws="4-2",
            ),
            "draw",
        ),
    )
    rule = "Doubles: several open doubles are satisfied in the order they were played"
    yield (
        "two-open-doubles-oldest-first",
        rule,
        table(
            STD,
            ["4-1 6-0 8-2", "9-9", "10-10"],
            trains={"@1": "12-6 6-6", "@2": "12-4 4-4"},
            open_doubles=("@2", "@1"),
        ),
    )
    yield (
        "two-open-doubles-other-order",
        rule,
        table(
            STD,
            ["4-1 6-0 8-2", "9-9", "10-10"],
            trains={"@1": "12-6 6-6", "@2": "12-4 4-4"},
            open_doubles=("@1", "@2"),
        ),
    )
    rule = (
        "Doubles: a double that cannot be satisfied (all tiles of its number laid) blocks nothing"
    )
    yield "unsatisfiable-double-released", rule, _unsatisfiable(NINE)
    yield (
        "unsatisfiable-double-binds-without-release",
        (rule + " (house rule off: it binds and nobody can play)"),
        _unsatisfiable(NINE.replace(release_unsatisfiable_doubles=False)),
    )
    # ---------------------------------------------------------------- a double laid this turn
    rule = "Doubles (standard, satisfy): after your double the second tile goes on that double"
    yield (
        "satisfy-own-double",
        rule,
        then(
            table(STD, ["6-6 6-2 6-1 9-1", "3-3"], trains={"@1": "12-6", "mexican": "12-9"}),
            "6-6 @1",
        ),
    )
    yield (
        "satisfy-double-on-mexican",
        rule,
        then(
            table(STD, ["9-9 9-2 6-1 9-1", "3-3"], trains={"@1": "12-6", "mexican": "12-9"}),
            "9-9 mexican",
        ),
    )
    rule = "Doubles: cannot satisfy your own double: draw one"
    yield (
        "own-double-unsatisfied-draw",
        rule,
        then(
            table(
                STD, ["6-6 11-1 2-1", "3-3"], trains={"@1": "12-6", "mexican": "12-9"}, draws="10-0"
            ),
            "6-6 @1",
        ),
    )
    rule = "Doubles: drawn tile does not fit your own double: pass"
    yield (
        "own-double-unsatisfied-pass",
        rule,
        then(
            table(
                STD, ["6-6 11-1 2-1", "3-3"], trains={"@1": "12-6", "mexican": "12-9"}, draws="10-0"
            ),
            "6-6 @1",
            "draw",
        ),
    )
    any_open = STD.replace(double_rule=DoubleRule.ANY_OPEN_TRAIN)
    rule = (
        "Doubles house rule any-open-train (001): a non-double, on the double or an eligible train"
    )
    yield (
        "any-open-train-after-double",
        rule,
        then(
            table(
                any_open,
                ["6-6 6-2 9-9 9-1 3-3", "11-0"],
                trains={"@1": "12-6", "mexican": "12-9", "@2": "12-3"},
                marked=("@2",),
            ),
            "6-6 @1",
        ),
    )
    chain = STD.replace(double_rule=DoubleRule.CHAIN)
    rule = (
        "Doubles house rule chain (002): more doubles, then one non-double on the Mexican Train,"
        " the first double's train, or an eligible train not ending in a double"
    )
    yield (
        "chain-after-first-double",
        rule,
        then(
            table(
                chain,
                ["6-6 6-2 9-9 9-1 3-3 3-1", "11-0"],
                trains={"@1": "12-6", "mexican": "12-9", "@2": "12-3"},
                marked=("@2",),
            ),
            "6-6 @1",
        ),
    )
    yield (
        "chain-after-two-doubles",
        rule,
        then(
            table(
                chain,
                ["6-6 6-2 9-9 9-1 3-3 3-1", "11-0"],
                trains={"@1": "12-6", "mexican": "12-9", "@2": "12-3"},
                marked=("@2",),
            ),
            "6-6 @1",
            "9-9 mexican",
        ),
    )
    yield (
        "chain-double-on-marked-train",
        rule,
        then(
            table(
                chain,
                ["6-6 6-2 9-9 9-1 3-3 3-1", "11-0"],
                trains={"@1": "12-6", "mexican": "12-9", "@2": "12-3"},
                marked=("@2",),
            ),
            "6-6 @1",
            "3-3 @2",
        ),
    )
    # ---------------------------------------------------------------- last tile
    rule = "Doubles: your last tile may be a double; you may go out with it"
    yield (
        "last-tile-double",
        rule,
        table(STD, ["6-6", "12-3 3-1"], trains={"@1": "12-6", "mexican": "12-9"}),
    )
    # ---------------------------------------------------------------- first turn
    rule = "Doubles, first turn (standard): one tile, like any turn, on any eligible train"
    yield "first-turn-single", rule, table(STD, ["12-5 5-3 12-9 2-2", "3-3 1-0"], first_turn=True)
    no_mex = STD.replace(mexican_train_on_first_turn=False)
    rule = "A turn 6, house rule (004): not the Mexican Train (nor others' trains) in a first turn"
    yield (
        "first-turn-no-mexican",
        rule,
        table(no_mex, ["12-5 5-3 12-9 2-2", "3-3 1-0"], first_turn=True),
    )
    yield "first-turn-no-mexican-marked-train", rule, _first_turn_marked(no_mex)
    yield (
        "later-turn-mexican-allowed",
        "A turn 6, house rule (004): after your first turn, the Mexican Train is open",
        table(no_mex, ["12-5 9-3 2-2", "3-3 1-0"], trains={"@1": "12-6", "mexican": "12-9"}),
    )
    rule = "Doubles, first turn house rule fast start (000, 003, 004): own train only, many tiles"
    yield (
        "fast-start-begin",
        rule,
        table(FAST, ["12-5 5-3 12-9 3-1 2-2", "3-3 1-0"], first_turn=True),
    )
    yield (
        "fast-start-goes-on",
        rule,
        then(table(FAST, ["12-5 5-3 12-9 3-1 2-2", "3-3 1-0"], first_turn=True), "12-5 @1"),
    )
    rule += "; a double in it need not be satisfied in that turn"
    yield (
        "fast-start-double-need-not-be-satisfied",
        rule,
        then(
            table(FAST, ["12-5 5-5 5-3 12-9 3-1 2-2", "3-3 1-0"], first_turn=True),
            "12-5 @1",
            "5-5 @1",
        ),
    )
    yield (
        "fast-start-nothing-fits-draw",
        rule,
        table(FAST, ["11-5 5-3 2-2", "3-3 1-0"], first_turn=True, draws="10-10"),
    )
    yield (
        "fast-start-drawn-tile-starts",
        rule,
        then(table(FAST, ["11-5 5-3 2-2", "3-3 1-0"], first_turn=True, draws="12-5"), "draw"),
    )
    rule = "Doubles, fast start (004): a double left open at its end is open for the next player"
    yield (
        "fast-start-open-double-binds-next",
        rule,
        then(table(FAST, ["12-5 5-5 2-2", "12-3 5-1 3-3"], first_turn=True), "12-5 @1", "5-5 @1"),
    )
    # ---------------------------------------------------------------- knock
    knock = STD.replace(knock=True)
    rule = "A turn 7, house rule knock (000, 003): at one tile, knock before the next player acts"
    yield (
        "knock-window",
        rule,
        then(
            table(knock, ["6-2 9-9", "12-3 3-1 4-4"], trains={"@1": "12-6", "mexican": "12-9"}),
            "6-2 @1",
        ),
    )
    rule += "; a missed knock can be caught"
    yield (
        "catch-missed-knock",
        rule,
        then(
            table(knock, ["6-2 9-9", "12-3 3-1 4-4"], trains={"@1": "12-6", "mexican": "12-9"}),
            "6-2 @1",
            "12-3 @2",
        ),
    )
    # ---------------------------------------------------------------- over
    rule = "End of a round: a player who plays their last tile ends it; nobody moves after"
    yield (
        "round-over",
        rule,
        then(table(STD, ["6-2", "12-3 3-1"], trains={"@1": "12-6", "mexican": "12-9"}), "6-2 @1"),
    )


def _empty_boneyard() -> Round:
    """Alice cannot play and Bob holds every tile left: the boneyard is empty."""
    rnd = table(STD, ["10-10 2-2", "12-4"], trains={"@1": "12-6", "mexican": "12-1"})
    rnd.hands[1].extend(rnd.boneyard)
    rnd.boneyard = []
    rnd.reindex()
    return rnd


def _unsatisfiable(rules: Rules) -> Round:
    """Every tile bearing a 5 is laid and @1 ends in an open 5-5: nothing can satisfy it."""
    return table(
        rules,
        ["9-3 4-2 0-0", "8-8 6-6", "3-2 7-7"],
        trains={
            "@1": "9-5 5-5",
            "@2": "9-8 8-5 5-4 4-1 1-5 5-0",
            "@3": "9-7 7-5 5-3",
            "mexican": "9-6 6-5 5-2",
        },
        open_doubles=("@1",),
    )


def _first_turn_marked(rules: Rules) -> Round:
    """Bob passed his first turn (marker up); Alice's first turn comes after his."""
    rnd = table(rules, ["12-5 5-3 12-9 2-2", "3-3 1-0"], first_turn=True, current=1, draws="4-4")
    return then(rnd, "draw", "pass")


def line(name: str, rule: str, rnd: Round) -> str:
    match = Match(rnd.rules, NAMES[: rnd.players])
    match.round = rnd
    twice = sorted(str(t) for t, n in Counter(rnd.tiles_everywhere()).items() if n > 1)
    if twice:
        raise SystemExit(f"{name}: {' '.join(twice)} named twice")
    from_position(to_position(match))  # the position loads back (the whole set, once)
    side = {f"@{s + 1}": sorted(map(str, rnd.side_moves(s))) for s in range(rnd.players)}
    record: dict[str, Any] = {
        "case": name,
        "rule": rule,
        "legal": sorted(str(m) for m in rnd.legal_moves()),
        "side": {seat: moves for seat, moves in side.items() if moves},
        "position": to_position(match),
    }
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def render(make: Callable[[], Iterator[Case]] = cases) -> str:
    return "".join(line(*case) + "\n" for case in make())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args()
    text = render()
    if args.check:
        same = DATA.exists() and DATA.read_text(encoding="utf-8") == text
        print(json.dumps({"file": str(DATA), "cases": text.count("\n"), "same": same}))
        return 0 if same else 1
    DATA.parent.mkdir(parents=True, exist_ok=True)
    DATA.write_text(text, encoding="utf-8")
    print(json.dumps({"file": str(DATA), "cases": text.count("\n")}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
