"""Tiles, moves and rules read and print in one notation; bad strings get clear errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.engine import (
    DRAW,
    MEXICAN,
    PASS,
    PRESETS,
    Catch,
    MoveError,
    Play,
    Rules,
    RulesError,
    Tile,
    TileError,
    double_set,
    parse_move,
    preset,
)
from bot.engine.tiles import parse_tiles


@pytest.mark.parametrize("text", ["12-5", "12|5", "5-12", " 12 - 5 ", "12 5", "[12:5]", "5/12"])
def test_tile_accepts_the_ways_people_write_it(text: str) -> None:
    assert Tile.parse(text) == Tile(12, 5) and str(Tile.parse(text)) == "12-5"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("13-2", "13-2 is not in a double-12 set"),
        ("", "an empty string is not a tile"),
        ("12", "12 is not a tile: write it like 12-5"),
        ("a-b", "a-b is not a tile"),
        ("12-5-3", "is not a tile"),
        ("-1-2", "is not a tile"),
    ],
)
def test_tile_bad_strings_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(TileError, match=message):
        Tile.parse(text, max_pip=12)
    assert issubclass(TileError, ValueError)


def test_tile_outside_every_set_and_construction_normalises() -> None:
    with pytest.raises(TileError, match="ends run from 0 to 18"):
        Tile.parse("19-2")
    with pytest.raises(TileError):
        Tile(20, 1)
    assert Tile(5, 12) == Tile(12, 5) and Tile(5, 12).high == 12
    assert Tile.parse("15-15", max_pip=18).is_double


@given(st.integers(0, 18), st.integers(0, 18))
def test_tile_round_trips(a: int, b: int) -> None:
    t = Tile(a, b)
    assert Tile.parse(str(t)) == t and Tile.parse(f"{b}|{a}") == t and t.pips == a + b


def test_tile_lists_round_trip_for_every_set() -> None:
    for n in (9, 12, 15, 18):
        tiles = double_set(n)
        assert parse_tiles(" ".join(map(str, tiles)), n) == tiles


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("12-5 mexican", Play(Tile(12, 5), MEXICAN)),
        ("5|12 MX", Play(Tile(12, 5), MEXICAN)),
        ("12 5 m", Play(Tile(12, 5), MEXICAN)),
        ("7-5 @2", Play(Tile(7, 5), 1)),
        ("7-5 2", Play(Tile(7, 5), 1)),
        ("draw", DRAW),
        (" Pass ", PASS),
        ("catch @3", Catch(2)),
    ],
)
def test_moves_read_in_notation(text: str, move: object) -> None:
    assert parse_move(text) == move
    assert parse_move(str(move)) == move


def test_moves_own_train_needs_the_actor() -> None:
    assert parse_move("12-5 mine", seat=2) == Play(Tile(12, 5), 2)
    with pytest.raises(MoveError, match="needs to know whose train"):
        parse_move("12-5 own")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "an empty move"),
        ("12-5", "'12-5' needs a train"),
        ("12-5 @0", "there is no train @0"),
        ("12-5 @5", "seats are numbered 1 to 4"),
        ("12-5 caboose", "'caboose' is not a train"),
        ("13-5 mexican", "13-5 is not in a double-12 set"),
        ("catch mexican", "the Mexican Train holds no tiles to catch"),
        ("catch", "write catch @N"),
        ("jump", "jump is not a tile"),
    ],
)
def test_bad_moves_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(MoveError, match=message):
        parse_move(text, players=4, max_pip=12)


@given(st.text(max_size=30))
def test_fuzzed_move_strings_never_crash(text: str) -> None:
    try:
        move = parse_move(text, players=4, max_pip=12)
    except MoveError as exc:
        assert str(exc)
    else:
        assert parse_move(str(move), players=4, max_pip=12) == move


@given(st.text(max_size=20))
def test_fuzzed_tile_strings_never_crash(text: str) -> None:
    try:
        t = Tile.parse(text, max_pip=12)
    except TileError as exc:
        assert str(exc)
    else:
        assert Tile.parse(str(t)) == t


def test_rules_round_trip_and_refuse_unknown_values() -> None:
    for rules in PRESETS.values():
        assert Rules.from_json(rules.to_json()) == rules
    with pytest.raises(RulesError, match="unknown rule 'jokers'"):
        Rules.from_dict({"jokers": True})
    with pytest.raises(RulesError, match="double_rule must be one of satisfy, any-open-train"):
        Rules.from_dict({"double_rule": "triple"})
    with pytest.raises(RulesError, match="there is no preset 'speedy'"):
        preset("speedy")
    assert preset("fundex").house_rules() == {
        "first_turn": "fast-start",
        "hand_sizes": "fundex",
        "knock": True,
        "scoring": "fundex-blanks",
    }


#: What phones and keyboards put between 12 and 10: en and em dashes (autocorrect), the
#: minus sign, the (non-breaking) hyphen, the figure dash, fullwidth and small hyphen-minus.
TYPED_DASHES = "\u2013\u2014\u2212\u2010\u2011\u2012\u2015\uff0d\ufe63\ufe58\u2796\u207b"


def test_every_dash_and_minus_sign_reads_as_the_notations_hyphen() -> None:
    import sys
    import unicodedata

    from bot.engine import plain_dashes
    from bot.engine.tiles import DASHES

    every_dash = [chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Pd"]
    assert len(every_dash) > 20
    for dash in [*every_dash, *TYPED_DASHES]:
        assert dash == "-" or dash in DASHES, f"U+{ord(dash):04X} is not read as a dash"
        assert Tile.parse(f"12{dash}10") == Tile(12, 10), f"U+{ord(dash):04X}"
        assert Tile.parse(f"[10 {dash} 12]", max_pip=12) == Tile(12, 10)
        assert parse_move(f"12{dash}10 @1", seat=0, players=2) == Play(Tile(12, 10), 0)
    assert plain_dashes("12\u201410 mexican") == "12-10 mexican"
    # Only the separator changes: other punctuation is still refused by name.
    with pytest.raises(TileError, match="12~10 is not a tile"):
        Tile.parse("12~10")
