"""One named test per rule row of docs/rules.md, each from a fixed deal, citing its seed.

Seeds: 000 Fundex (French + English), 001 French sheet (bilingual), 002 a family's house
rules, 003 Fundex 2003, 004 a rules-site write-up. Tables are built from notation with
``tests.engine.helpers.table``: seat 1 is Alice, seat 2 Bob, seat 3 Carol, seat 4 Dan.
"""

from __future__ import annotations

import pytest

from bot.engine import (
    DONE,
    DRAW,
    KNOCK,
    MEXICAN,
    PASS,
    Catch,
    DoubleRule,
    EnginePlacement,
    FirstPlayer,
    FirstTurn,
    HandSizes,
    IllegalMove,
    Match,
    Play,
    Round,
    Rules,
    RulesError,
    Scoring,
    Tile,
    double_set,
    hand_score,
    parse_move,
    preset,
    tile_score,
    view_for,
)
from bot.engine.round import round_tiles
from bot.engine.view import round_view
from tests.engine.helpers import NAMES, plays, table

STD = Rules()


def mv(text: str) -> object:
    return parse_move(text)


def t(text: str) -> Tile:
    return Tile.parse(text)


def deal_with(rules: Rules, players: int, hands: list[str], round_no: int = 0) -> Round:
    """Round.deal from an order whose first hands are exactly ``hands`` (rest sorted)."""
    named = [list(map(t, h.split())) for h in hands]
    flat = [x for h in named for x in h]
    rest = [x for x in round_tiles(rules, round_no) if x not in flat]
    return Round.deal(rules, NAMES[:players], round_no, flat + rest)


# ---------------------------------------------------------------- Equipment


def test_equipment_double_n_sets_hold_every_pair() -> None:
    """(N+1)(N+2)/2 tiles: double-12 is standard; 9, 15 and 18 are house rules (001)."""
    for n, size in ((9, 55), (12, 91), (15, 136), (18, 190)):
        tiles = double_set(n)
        assert len(tiles) == len(set(tiles)) == size == Rules(max_pip=n).set_size
        assert all(0 <= x.low <= x.high <= n for x in tiles)
    assert preset("standard").max_pip == 12
    assert preset("double-9").max_pip == 9
    assert preset("double-15").max_pip == 15
    assert preset("double-18").max_pip == 18


def test_equipment_one_train_per_player_and_one_mexican_train() -> None:
    rnd = deal_with(STD, 4, [])
    assert len(rnd.trains) == 5
    assert [tr.owner for tr in rnd.trains] == [0, 1, 2, 3, MEXICAN]
    assert rnd.trains[MEXICAN] is rnd.trains[-1]


# ---------------------------------------------------------------- Match structure


def test_rounds_standard_n_plus_one_from_n_n_down_to_0_0() -> None:
    """000, 001, 003, 004: thirteen rounds with double-12, engines 12-12 … 0-0."""
    assert STD.rounds_total == 13
    assert [str(STD.engine_for_round(r)) for r in range(13)] == [
        f"{p}-{p}" for p in range(12, -1, -1)
    ]
    assert Rules(max_pip=9, hand_sizes=HandSizes.DOUBLE_NINE).rounds_total == 10


def test_rounds_house_any_count_from_any_double_and_a_single_round() -> None:
    rules = Rules(starting_double=6, rounds=3)
    assert [str(rules.engine_for_round(r)) for r in range(3)] == ["6-6", "5-5", "4-4"]
    match = Match(Rules(rounds=1), NAMES[:2])
    import random

    rng = random.Random(4)
    match.start_round(match.shuffle(rng))
    assert match.round is not None and match.round.engine == t("12-12")
    from bot.engine.simulate import play_match

    one = play_match(Rules(rounds=1), NAMES[:3], rng)
    assert one.is_over and one.rounds_played == 1 and one.winners()


def test_engine_standard_set_aside_before_the_deal() -> None:
    """000, 001, 003, 004-note: the round's double is out of the deal; the rest is shuffled."""
    tiles = round_tiles(STD, 2)
    assert t("10-10") not in tiles and len(tiles) == 90
    rnd = deal_with(STD, 3, [], round_no=2)
    assert rnd.engine == t("10-10")
    assert all(t("10-10") not in h for h in rnd.hands)
    assert [len(h) for h in rnd.hands] == [16, 16, 16] and len(rnd.boneyard) == 90 - 48


def test_engine_house_highest_double_holder_lays_it_and_starts() -> None:
    """000, 003: deal first; the player holding the highest double lays it as engine."""
    rules = Rules(engine_placement=EnginePlacement.HIGHEST_DOUBLE, hand_size=3)
    rnd = deal_with(rules, 3, ["9-9 1-2 3-4", "11-11 5-6 7-8", "10-10 0-1 0-2"])
    assert rnd.engine == t("11-11")
    assert rnd.current == 1 and t("11-11") not in rnd.hands[1] and len(rnd.hands[1]) == 2
    assert all(tr.end == 11 for tr in rnd.trains)


def test_engine_house_highest_double_nobody_holds_one_draws_in_turn() -> None:
    """003: with no double dealt, players draw in turn until one turns up."""
    rules = Rules(engine_placement=EnginePlacement.HIGHEST_DOUBLE, hand_size=2)
    singles = [x for x in double_set(12) if not x.is_double]
    doubles = [x for x in double_set(12) if x.is_double]
    # Hands 12-11 12-10 | 12-9 12-8; the pile starts 12-7, 12-6, then 3-3.
    order = singles[:4] + singles[4:6] + [t("3-3")] + [x for x in doubles if x != t("3-3")]
    order += singles[6:]
    rnd = Round.deal(rules, NAMES[:2], 0, order)
    # Alice draws 12-7, Bob 12-6, Alice draws 3-3 and lays it.
    assert rnd.engine == t("3-3") and rnd.current == 0
    assert rnd.hands[0] == [t("12-11"), t("12-10"), t("12-7")]
    assert rnd.hands[1] == [t("12-9"), t("12-8"), t("12-6")]


def test_engine_house_draw_until_found() -> None:
    """004: whoever holds the round's double lays it and starts; if nobody, draw in turn."""
    rules = Rules(engine_placement=EnginePlacement.DRAW_UNTIL_FOUND, hand_size=2)
    held = deal_with(rules, 3, ["1-2 3-4", "12-12 5-6", "7-8 9-10"])
    assert held.engine == t("12-12") and held.current == 1 and held.hands[1] == [t("5-6")]
    order = [t(x) for x in ["1-2", "3-4", "5-6", "7-8", "0-1", "0-2", "12-12"]]
    order += [x for x in double_set(12) if x not in order]
    rnd = Round.deal(rules, NAMES[:2], 0, order)
    assert rnd.engine == t("12-12") and rnd.current == 0  # Alice drew 0-1, Bob 0-2, Alice 12-12
    assert rnd.hands == [[t("1-2"), t("3-4"), t("0-1")], [t("5-6"), t("7-8"), t("0-2")]]


def test_first_player_standard_host_then_rotates_clockwise() -> None:
    """001: the host (seat 1) starts round 1; the first player moves one seat each round."""
    assert [deal_with(STD, 3, [], round_no=r).current for r in range(5)] == [0, 1, 2, 0, 1]


def test_first_player_house_highest_n_x_tile() -> None:
    """002: the player holding the highest 12-x tile plays first."""
    rules = Rules(first_player=FirstPlayer.HIGHEST_TILE, hand_size=3)
    rnd = deal_with(rules, 3, ["12-5 1-1 2-2", "3-3 4-4 5-5", "12-9 0-0 6-6"])
    assert rnd.current == 2


def test_hand_sizes_standard_table() -> None:
    """001, 002: 2:16, 3:16, 4:15, 5:14, 6:12, 7:10, 8:9."""
    assert [STD.hand_size_for(p) for p in range(2, 9)] == [16, 16, 15, 14, 12, 10, 9]
    with pytest.raises(RulesError, match="2 to 8 players, not 9"):
        STD.check(9)


def test_hand_sizes_house_tables() -> None:
    """000, 003 (Fundex); 004 with 9-10 players; 001's double-9 variation."""
    fundex = Rules(hand_sizes=HandSizes.FUNDEX)
    assert [fundex.hand_size_for(p) for p in range(2, 9)] == [15, 15, 15, 11, 11, 8, 8]
    site = Rules(hand_sizes=HandSizes.RULES_SITE)
    assert [site.hand_size_for(p) for p in range(2, 11)] == [15, 15, 15, 11, 11, 10, 10, 8, 8]
    site.check(10)
    nine = preset("double-9")
    assert [nine.hand_size_for(p) for p in range(2, 5)] == [15, 13, 10]
    with pytest.raises(RulesError, match="2 to 4 players, not 5"):
        nine.check(5)
    # 9-10 players also play with a bigger set.
    assert preset("double-15").check(10).hand_size_for(10) == 8


def test_invalid_combinations_are_refused_with_a_clear_message() -> None:
    with pytest.raises(RulesError, match="9 players with 16-tile hands need 145 tiles"):
        Rules(hand_size=16).check(9)
    with pytest.raises(RulesError, match="no 12-12"):
        Rules(max_pip=9, hand_sizes=HandSizes.DOUBLE_NINE, starting_double=12).check()
    with pytest.raises(RulesError, match="double-10 is not offered"):
        Rules(max_pip=10).check()
    with pytest.raises(RulesError, match="1 to 7 rounds, not 9"):
        Rules(starting_double=6, rounds=9).check()
    with pytest.raises(RulesError, match="double-9 hand-size table is for a double-9 set"):
        Rules(hand_sizes=HandSizes.DOUBLE_NINE).check()


def _finished(rules: Rules, names: int, rounds: list[tuple[tuple[int, ...], int | None]]) -> Match:
    from bot.engine.round import RoundResult

    m = Match(rules, NAMES[:names])
    for scores, out in rounds:
        m.results.append(RoundResult(scores, out))
        m.totals = [a + b for a, b in zip(m.totals, scores, strict=True)]
    return m


def test_winner_lowest_cumulative_score_after_the_last_round() -> None:
    m = _finished(Rules(rounds=2), 3, [((10, 0, 30), 1), ((0, 25, 5), 0)])
    assert m.totals == [10, 25, 35] and m.winners() == [0]
    assert _finished(Rules(rounds=3), 2, [((1, 0), 1)]).winners() == []  # not over yet


def test_winner_tie_broken_by_rounds_won_then_last_round_standard() -> None:
    m = _finished(Rules(rounds=2), 3, [((0, 10, 9), 0), ((10, 0, 1), 1)])
    assert m.totals == [10, 10, 10]
    # Alice and Bob each went out once; Carol never did. Bob scored less in the last round.
    assert m.winners() == [1]


def test_winner_house_ties_share_the_win() -> None:
    m = _finished(Rules(rounds=2, ties_share_win=True), 3, [((0, 10, 9), 0), ((10, 0, 1), 1)])
    assert m.winners() == [0, 1, 2]


# ---------------------------------------------------------------- A turn


def test_turn_eligible_trains_own_mexican_and_marked() -> None:
    """001: your own train, the Mexican Train, and any train carrying a marker."""
    rnd = table(
        STD,
        ["5-1 7-2 6-3", "1-0", "2-0", "3-0"],
        trains={"@1": "12-4 4-9", "@2": "12-5", "@3": "12-6", "mexican": "12-7"},
        marked=("@3",),
    )
    # 9-… on own train: none; 7-2 on Mexican (ends 7); 6-3 on Carol's marked train (ends 6).
    # 5-1 would fit Bob's train, but Bob's train has no marker.
    assert plays(rnd) == {"7-2 mexican", "6-3 @3"}
    with pytest.raises(IllegalMove, match="Bob's train has no marker"):
        rnd.apply(mv("5-1 @2"))


def test_turn_unstarted_train_starts_with_a_tile_matching_the_engine() -> None:
    rnd = table(STD, ["12-3 3-4", "1-0"])
    assert plays(rnd) == {"12-3 @1", "12-3 mexican"}
    with pytest.raises(
        IllegalMove, match=r"4-3 can't start Alice's train: it must match the engine, 12"
    ):
        rnd.apply(mv("3-4 @1"))
    rnd.apply(mv("12-3 @1"))
    assert rnd.trains[0].end == 3 and rnd.current == 1


def test_turn_must_play_when_able_and_may_not_draw() -> None:
    """000, 001, 003, 004: holding a playable tile you must play; drawing is refused."""
    rnd = table(STD, ["12-3 1-1", "1-0"])
    before = rnd.copy()
    with pytest.raises(IllegalMove, match="you hold a playable tile, so you may not draw"):
        rnd.apply(DRAW)
    with pytest.raises(IllegalMove, match="you may not pass"):
        rnd.apply(PASS)
    assert rnd.hands == before.hands and rnd.boneyard == before.boneyard


def test_turn_draw_then_must_play_the_drawn_tile() -> None:
    rnd = table(STD, ["1-1 2-2", "1-0"], trains={"@1": "12-5"}, draws="5-9")
    assert plays(rnd) == {"draw"}
    applied = rnd.apply(DRAW)
    assert applied.drawn == (t("5-9"),) and applied.must_play_drawn
    assert plays(rnd) == {"9-5 @1"}
    with pytest.raises(IllegalMove, match="may not pass"):
        rnd.apply(PASS)
    rnd.apply(mv("5-9 @1"))
    assert rnd.current == 1


def test_turn_unplayable_draw_passes_and_raises_the_marker() -> None:
    rnd = table(STD, ["1-1 2-2", "1-0"], trains={"@1": "12-5"}, draws="3-4")
    rnd.apply(DRAW)
    assert plays(rnd) == {"pass"}
    with pytest.raises(IllegalMove, match="drawn already"):
        rnd.apply(DRAW)
    applied = rnd.apply(PASS)
    assert applied.marker_raised and rnd.trains[0].marked and rnd.current == 1


def test_turn_empty_boneyard_pass_and_mark_at_once() -> None:
    rnd = table(STD, ["1-1 2-2", "5-0 6-6"], trains={"@1": "12-5", "@2": "12-3"}, boneyard="")
    assert plays(rnd) == {"pass"}
    rnd.apply(PASS)
    assert rnd.trains[0].marked and not rnd.is_over  # Bob can still play 5-0 on Alice's train


def test_turn_one_tile_per_turn() -> None:
    rnd = table(STD, ["12-3 3-4 4-5", "1-0"])
    applied = rnd.apply(mv("12-3 @1"))
    assert applied.turn_over and rnd.current == 1
    with pytest.raises(IllegalMove, match="it's Bob's turn"):
        rnd.apply(mv("3-4 @1"), 0)


def test_markers_come_off_when_you_play_on_your_own_train() -> None:
    rnd = table(STD, ["5-6 9-9", "1-0"], trains={"@1": "12-5"}, marked=("@1",))
    applied = rnd.apply(mv("5-6 @1"))
    assert applied.marker_removed and not rnd.trains[0].marked


def test_markers_stay_when_playing_on_another_marked_train() -> None:
    """004: the owner of a marked train playing on another marked train leaves both markers."""
    rnd = table(STD, ["7-8 9-9", "1-0"], trains={"@1": "12-5", "@2": "12-7"}, marked=("@1", "@2"))
    rnd.apply(mv("7-8 @2"))
    assert rnd.trains[0].marked and rnd.trains[1].marked


def test_markers_on_an_unstarted_train_let_others_start_it() -> None:
    """001, 004: the marker goes where the train would start; others may start it."""
    rnd = table(STD, ["1-1", "12-4 2-2"], boneyard="3-3", trains={"@2": "12-9"})
    rnd.apply(DRAW)
    rnd.apply(PASS)
    assert rnd.trains[0].marked and not rnd.trains[0].started
    assert "12-4 @1" in plays(rnd)
    rnd.apply(mv("12-4 @1"))
    assert rnd.trains[0].tiles == [t("12-4")] and rnd.trains[0].marked


def test_mexican_train_exactly_one_started_by_anyone_any_turn() -> None:
    """001, 002: anyone may start the one Mexican Train with a tile matching the engine."""
    rnd = table(STD, ["12-3 1-1", "12-4 3-3"], first_turn=True)
    applied = rnd.apply(mv("12-3 mexican"))
    assert applied.started_mexican and rnd.trains[MEXICAN].end == 3
    # Bob's 12-4 cannot start a second Mexican Train: it now ends in 3.
    assert plays(rnd) == {"12-4 @2", "3-3 mexican"}


def test_mexican_train_house_not_during_your_first_turn() -> None:
    """004: no starting the Mexican Train (nor playing on others' trains) on a first turn."""
    rules = Rules(mexican_train_on_first_turn=False)
    rnd = table(rules, ["12-3 12-5 1-1", "12-4 3-3"], first_turn=True)
    assert plays(rnd) == {"12-3 @1", "12-5 @1"}
    with pytest.raises(IllegalMove, match="on your first turn you may play only on your own"):
        rnd.apply(mv("12-3 mexican"))
    rnd.apply(mv("12-3 @1"))
    rnd.apply(mv("12-4 @2"))
    # Alice's second turn: now the Mexican Train may be started.
    assert plays(rnd) == {"12-5 mexican"}


def test_last_tile_is_announced_to_everyone() -> None:
    rnd = table(STD, ["12-3 1-1", "5-0 6-6"])
    applied = rnd.apply(mv("12-3 @1"))
    assert applied.last_tile and len(rnd.hands[0]) == 1


def test_knock_house_rule_announce_before_the_next_player_acts() -> None:
    """000, 003: knock while the next player has not acted; then nobody can catch you."""
    rules = Rules(knock=True)
    rnd = table(rules, ["12-3 1-1", "12-4 6-6 5-5"])
    rnd.apply(mv("12-3 @1"))
    assert rnd.side_moves(0) == [KNOCK]
    rnd.apply(KNOCK, 0)
    rnd.apply(mv("12-4 @2"))
    assert rnd.side_moves(1) == []
    with pytest.raises(IllegalMove, match="knocked in time"):
        rnd.apply(Catch(0), 1)


def test_knock_house_rule_again_after_drawing_back_above_one_tile() -> None:
    """A knock covers one stretch at one tile: draw, play down to one, and knock again."""
    rules = Rules(knock=True)
    rnd = table(rules, ["12-3 1-1", "12-4 6-6 5-5"], draws="3-9")
    rnd.apply(mv("12-3 @1"))
    rnd.apply(KNOCK, 0)
    rnd.apply(mv("12-4 @2"))
    rnd.apply(DRAW)  # Alice: 1-1 fits nothing; she draws 3-9, which fits her train
    rnd.apply(mv("9-3 @1"))
    assert rnd.hands[0] == [t("1-1")] and rnd.side_moves(0) == [KNOCK]


def test_knock_house_rule_caught_player_draws_two() -> None:
    """000, 003: a missed knock caught by anyone costs two tiles from the boneyard."""
    rules = Rules(knock=True)
    rnd = table(rules, ["12-3 1-1", "12-4 6-6 5-5", "9-9"], draws="7-7 8-8 0-0")
    rnd.apply(mv("12-3 @1"))
    with pytest.raises(IllegalMove, match="may still knock until the next player acts"):
        rnd.apply(Catch(0), 2)
    rnd.apply(mv("12-4 @2"))  # Bob acts: Alice's chance to knock is gone
    with pytest.raises(IllegalMove, match="too late to knock"):
        rnd.apply(KNOCK, 0)
    assert Catch(0) in rnd.side_moves(2)
    applied = rnd.apply(Catch(0), 2)
    assert applied.drawn == (t("7-7"), t("8-8"))
    assert rnd.hands[0] == [t("1-1"), t("7-7"), t("8-8")] and rnd.current == 2
    with pytest.raises(IllegalMove):
        rnd.apply(Catch(0), 1)  # caught once only
    with pytest.raises(IllegalMove, match="not using the knock rule"):
        table(STD, ["1-1"] * 2).apply(KNOCK, 0)


# ---------------------------------------------------------------- Doubles


def test_double_standard_must_be_satisfied_on_that_double_in_the_same_turn() -> None:
    """000, 003, 004: after a double, the second tile goes on that double."""
    rnd = table(STD, ["5-5 5-2 7-1 8-8", "1-0"], trains={"@1": "12-5", "mexican": "12-7"})
    applied = rnd.apply(mv("5-5 @1"))
    assert applied.opened_double and not applied.turn_over and rnd.current == 0
    assert plays(rnd) == {"5-2 @1"}
    with pytest.raises(IllegalMove, match="you must satisfy your double 5-5 first"):
        rnd.apply(mv("7-1 mexican"))
    applied = rnd.apply(mv("5-2 @1"))
    assert applied.satisfied == t("5-5") and applied.turn_over and rnd.open_doubles == []


def test_double_house_any_open_train_second_tile_is_a_non_double_anywhere() -> None:
    """001: the second tile is a non-double, on the double or any eligible train."""
    rules = Rules(double_rule=DoubleRule.ANY_OPEN_TRAIN)
    rnd = table(rules, ["5-5 5-2 7-1 7-7", "1-0"], trains={"@1": "12-5", "mexican": "12-7"})
    rnd.apply(mv("5-5 @1"))
    assert plays(rnd) == {"5-2 @1", "7-1 mexican"}
    with pytest.raises(IllegalMove, match="non-double"):
        rnd.apply(mv("7-7 mexican"))
    rnd.apply(mv("7-1 mexican"))
    # 5-5 is left open: Bob must satisfy it.
    assert rnd.current == 1 and rnd.open_doubles == [0]


def test_double_house_chain_several_doubles_then_one_non_double() -> None:
    """002: doubles in succession, then a non-double on the Mexican Train, the first
    double's train, or an eligible train ending in a non-double."""
    rules = Rules(double_rule=DoubleRule.CHAIN)
    rnd = table(
        rules,
        ["5-5 7-7 7-2 5-1 9-3", "1-0"],
        trains={"@1": "12-5", "mexican": "12-7", "@2": "12-9"},
        marked=("@2",),
    )
    rnd.apply(mv("5-5 @1"))
    rnd.apply(mv("7-7 mexican"))
    # 7-2 on the Mexican Train (it ends in 7-7); 5-1 on the first double's train; 9-3 on
    # Bob's marked train, which ends in a non-double.
    assert plays(rnd) == {"7-2 mexican", "5-1 @1", "9-3 @2"}
    rnd.apply(mv("9-3 @2"))
    # Both doubles stay open, to be satisfied in the order they were laid.
    assert rnd.current == 1 and rnd.open_doubles == [0, MEXICAN]


def test_double_chain_non_double_not_on_a_later_double_of_the_chain() -> None:
    rules = Rules(double_rule=DoubleRule.CHAIN)
    rnd = table(
        rules,
        ["5-5 9-9 9-4 2-2", "1-0"],
        trains={"@1": "12-5", "@2": "12-9"},
        marked=("@2",),
    )
    rnd.apply(mv("5-5 @1"))
    rnd.apply(mv("9-9 @2"))
    with pytest.raises(IllegalMove, match="not ending in your double"):
        rnd.apply(mv("9-4 @2"))
    assert plays(rnd) == {"draw"}  # nothing fits 5, no Mexican Train yet for 2-2


def test_double_cannot_satisfy_your_own_draw_then_pass_and_mark() -> None:
    """Standard: draw one; play it on the double if it fits; else pass and mark."""
    rnd = table(STD, ["5-5 1-1", "1-0"], trains={"@1": "12-5"}, draws="3-4")
    rnd.apply(mv("5-5 @1"))
    assert plays(rnd) == {"draw"}
    rnd.apply(DRAW)
    applied = rnd.apply(PASS)
    assert applied.marker_raised and rnd.open_doubles == [0] and rnd.current == 1


def test_double_cannot_satisfy_your_own_drawn_tile_fits() -> None:
    rnd = table(STD, ["5-5 1-1", "1-0"], trains={"@1": "12-5"}, draws="5-3")
    rnd.apply(mv("5-5 @1"))
    rnd.apply(DRAW)
    assert plays(rnd) == {"5-3 @1"}
    assert rnd.apply(mv("5-3 @1")).satisfied == t("5-5")


def test_open_double_binds_the_next_player_even_on_a_private_train() -> None:
    """000, 003, 004: the next player must satisfy it even on an unmarked train; if they
    cannot after one draw, they pass and mark, even holding a tile for another train."""
    rnd = table(
        STD,
        ["1-1", "5-2 12-0 7-7", "5-9"],
        trains={"@1": "12-5 5-5", "@2": "12-7"},
        open_doubles=("@1",),
        current=1,
    )
    assert plays(rnd) == {"5-2 @1"}  # on Alice's unmarked train
    rnd.apply(mv("5-2 @1"))
    assert rnd.open_doubles == [] and rnd.current == 2 and not rnd.trains[0].marked
    # And when the next player cannot satisfy it:
    rnd = table(
        STD,
        ["1-1", "7-3 12-0", "5-9"],
        trains={"@1": "12-5 5-5", "@2": "12-7"},
        open_doubles=("@1",),
        current=1,
        draws="8-8",
    )
    with pytest.raises(IllegalMove, match="an open double on 5-5 must be satisfied first"):
        rnd.apply(mv("7-3 @2"))
    rnd.apply(DRAW)
    assert plays(rnd) == {"pass"}  # 7-3 fits Bob's own train, but the double binds
    rnd.apply(PASS)
    assert rnd.trains[1].marked and rnd.current == 2 and plays(rnd) == {"9-5 @1"}


def test_several_open_doubles_satisfied_in_the_order_played() -> None:
    """002, 004: the oldest open double first."""
    rnd = table(
        STD,
        ["1-0", "5-1 7-1 9-9"],
        trains={"@1": "12-5 5-5", "mexican": "12-7 7-7"},
        open_doubles=("mexican", "@1"),
        current=1,
    )
    assert plays(rnd) == {"7-1 mexican"}
    rnd.apply(mv("7-1 mexican"))
    assert rnd.open_doubles == [0] and rnd.current == 0


# Bob's train carries eleven 6-x tiles and the Mexican Train the twelfth (12-6): once 6-6 is
# laid, no tile can ever satisfy it.
ALL_SIXES = {
    "mexican": "12-6",
    "@2": "12-11 11-6 6-0 0-1 1-6 6-2 2-3 3-6 6-4 4-5 5-6 6-7 7-8 8-6 6-9 9-10 10-6",
}


def test_unsatisfiable_double_blocks_nothing() -> None:
    """001, 002: once every tile bearing its number is on the table, a double binds nobody."""
    rnd = table(STD, ["6-6 1-1", "2-2 9-1"], trains=ALL_SIXES, marked=("@2",))
    applied = rnd.apply(mv("6-6 mexican"))
    assert applied.released == (t("6-6"),) and applied.turn_over
    assert rnd.open_doubles == [] and rnd.current == 1


def test_unsatisfiable_double_released_at_once_still_needs_a_non_double_any_open() -> None:
    """001: after any double the next tile is a non-double, even if the double is released."""
    rules = Rules(double_rule=DoubleRule.ANY_OPEN_TRAIN)
    rnd = table(rules, ["6-6 1-1 11-2", "2-2 9-1"], trains=ALL_SIXES, marked=("@2",))
    applied = rnd.apply(mv("6-6 mexican"))
    assert applied.released == (t("6-6"),) and not applied.turn_over
    assert plays(rnd) == {"draw"}  # 1-1 is a double; 11-2 fits nothing


def test_unsatisfiable_double_release_can_be_switched_off() -> None:
    rules = Rules(release_unsatisfiable_doubles=False)
    rnd = table(rules, ["6-6 1-1", "2-2 9-1"], trains=ALL_SIXES, marked=("@2",))
    applied = rnd.apply(mv("6-6 mexican"))
    assert applied.released == () and not applied.turn_over and plays(rnd) == {"draw"}


def test_last_tile_double_goes_out_and_ends_the_round_at_once() -> None:
    """001, 004: you may go out on a double."""
    rnd = table(STD, ["5-5", "9-1"], trains={"@1": "12-5"})
    applied = rnd.apply(mv("5-5 @1"))
    assert applied.round_over and rnd.result is not None and rnd.result.went_out == 0
    assert rnd.result.scores == (0, 10)


def test_last_tile_double_house_must_still_be_satisfied() -> None:
    rules = Rules(go_out_on_double=False)
    rnd = table(rules, ["5-5", "9-1"], trains={"@1": "12-5"}, draws="5-1")
    applied = rnd.apply(mv("5-5 @1"))
    assert not applied.round_over and plays(rnd) == {"draw"}
    rnd.apply(DRAW)
    assert rnd.apply(mv("5-1 @1")).round_over


def test_first_turn_standard_one_tile_like_any_turn() -> None:
    """001, 002."""
    rnd = table(STD, ["12-3 3-4", "1-0"], first_turn=True)
    assert rnd.apply(mv("12-3 @1")).turn_over


def test_first_turn_house_fast_start_many_tiles_on_own_train_only() -> None:
    """000, 003, 004: play as many tiles as you can on your own train on your first turn."""
    rules = Rules(first_turn=FirstTurn.FAST_START)
    rnd = table(rules, ["12-3 3-4 4-4 4-9 12-6 1-0", "12-1"], first_turn=True)
    assert plays(rnd) == {"12-3 @1", "12-6 @1"}  # own train only: no Mexican Train
    assert not rnd.apply(mv("12-3 @1")).turn_over
    assert plays(rnd) == {"4-3 @1", "done"}
    rnd.apply(mv("3-4 @1"))
    # A double during a fast start need not be satisfied in that turn…
    assert not rnd.apply(mv("4-4 @1")).turn_over
    assert plays(rnd) == {"9-4 @1", "done"}
    applied = rnd.apply(DONE)
    # …and one left open at its end is an open double for the next player (004).
    assert applied.turn_over and rnd.current == 1 and rnd.open_doubles == [0]
    assert not rnd.trains[0].marked


def test_first_turn_fast_start_ends_by_itself_when_nothing_fits() -> None:
    rules = Rules(first_turn=FirstTurn.FAST_START)
    rnd = table(rules, ["12-3 3-4 9-9", "12-1 8-8"], first_turn=True)
    rnd.apply(mv("12-3 @1"))
    applied = rnd.apply(mv("3-4 @1"))
    assert applied.turn_over and rnd.current == 1
    # The second turn is an ordinary one-tile turn.
    rnd.apply(mv("12-1 @2"))
    assert rnd.fast is False


def test_first_turn_fast_start_draws_once_when_nothing_fits() -> None:
    rules = Rules(first_turn=FirstTurn.FAST_START)
    rnd = table(rules, ["3-4 9-9", "12-1"], first_turn=True, draws="12-3 5-5")
    rnd.apply(DRAW)
    assert plays(rnd) == {"12-3 @1"}
    rnd.apply(mv("12-3 @1"))
    assert plays(rnd) == {"4-3 @1", "done"}
    with pytest.raises(IllegalMove, match="you have played this turn: play on or say done"):
        rnd.apply(DRAW)
    with pytest.raises(IllegalMove, match="say done to end your fast start"):
        rnd.apply(PASS)


# ---------------------------------------------------------------- End of round, scoring


def test_round_ends_when_a_player_plays_their_last_tile() -> None:
    rnd = table(STD, ["12-3", "9-1 2-2"])
    applied = rnd.apply(mv("12-3 @1"))
    assert applied.round_over and rnd.result is not None and rnd.result.went_out == 0
    assert len(rnd.legal_moves()) == 0 and rnd.current_seat is None
    with pytest.raises(IllegalMove, match="this round is over"):
        rnd.apply(PASS, 1)


def test_round_ends_blocked_when_the_boneyard_is_empty_and_nobody_can_play() -> None:
    """001: "when the bone pile is depleted and no one can play anymore"; docs/rules.md: every
    player passed in a row. Alice's pass alone does not end it: Bob's turn comes first."""
    rnd = table(STD, ["1-1 2-3", "4-4 2-0"], trains={"@1": "12-5", "@2": "12-6"}, boneyard="")
    rnd.apply(PASS)  # Alice marks her train; Bob still cannot play 4-4/2-0 on 5, 6 or 12
    assert not rnd.is_over and plays(rnd) == {"pass"}
    applied = rnd.apply(PASS)  # Bob marks his; Alice cannot use 6 either: a full lap, blocked
    assert applied.round_over and rnd.result is not None and rnd.result.blocked
    assert rnd.result.scores == (2 + 5, 8 + 2)


def test_round_not_blocked_while_a_pass_opens_a_train_someone_can_use() -> None:
    rnd = table(STD, ["1-1 2-3", "5-0 2-0"], trains={"@1": "12-5", "@2": "12-6"}, boneyard="")
    rnd.apply(PASS)
    assert not rnd.is_over and plays(rnd) == {"5-0 @1"}


# Issue 15, reproduced: 3 players, engine 12-12, boneyard empty, Alice to move, no markers.
# Every 6 is on the table and every 0 is on the table or in Alice's hand, so Bob and Carol hold
# neither. Nobody can play *now*, but the passes to come open @2 and @3 (both end in 0).
ISSUE_15_TRAINS = {
    "@1": "12-6",
    "@2": "12-0",
    "@3": "12-3 3-0",
    "mexican": "12-1 1-6 6-0 0-2 2-6 6-3 3-4 4-6 6-5 5-7 7-6 6-6 6-8 8-9 9-6 6-10 10-11 11-6",
}
ISSUE_15_ALICE = "0-0 0-1 0-4 0-5 0-7 0-8 0-9 0-10 0-11"


def issue_15_table() -> Round:
    named = {t("12-12"), *map(t, ISSUE_15_ALICE.split())}
    for tiles in ISSUE_15_TRAINS.values():
        named.update(map(t, tiles.split()))
    rest = [x for x in double_set(12) if x not in named]
    bob, carol = rest[0::2], rest[1::2]
    assert not any(x.has(0) or x.has(6) for x in rest)
    return table(
        STD,
        [ISSUE_15_ALICE, " ".join(map(str, bob)), " ".join(map(str, carol))],
        trains=ISSUE_15_TRAINS,
        boneyard="",
    )


def test_round_blocked_only_after_every_player_passed_in_a_row_issue_15() -> None:
    """001: "Quand la pioche est épuisée, un joueur qui ne peut jouer doit passer et poser son
    marqueur" and the round ends "when the bone pile is depleted and no one can play anymore";
    docs/rules.md: the boneyard is empty and every player passed in a row. A pass raises a marker,
    so nobody-can-play-now is not yet nobody-can-play: Bob's and Carol's passes open @2 and @3.
    """
    rnd = issue_15_table()
    assert plays(rnd) == {"pass"}
    assert not rnd.apply(PASS).round_over  # Alice marks @1
    assert plays(rnd) == {"pass"}
    assert not rnd.apply(PASS).round_over  # Bob marks @2 (ends in 0)
    assert plays(rnd) == {"pass"}
    assert not rnd.apply(PASS).round_over  # Carol marks @3 (ends in 0): a lap, but Alice can play
    assert rnd.current == 0 and {mv("0-1 @2"), mv("0-1 @3")} <= set(rnd.legal_moves())
    rnd.apply(mv("0-1 @2"))
    assert not rnd.is_over and rnd.current == 1 and rnd.trains[1].marked


def test_round_blocked_early_rule_kept_for_games_recorded_by_engine_version_1() -> None:
    """Version 1 ended this round at Alice's pass (55/387/368): replaying its games keeps that."""
    rnd = issue_15_table()
    rnd.engine_version = 1
    applied = rnd.apply(PASS)
    assert applied.round_over and rnd.result is not None and rnd.result.blocked
    assert rnd.result.scores == (55, 387, 368)
    with pytest.raises(IllegalMove, match="this round is over"):
        rnd.apply(PASS, 1)


def test_round_blocked_lap_counts_a_pass_after_drawing_the_last_tile() -> None:
    """The pass that follows an unplayable draw of the last tile is one of the lap's passes."""
    rnd = table(STD, ["1-1 2-3", "4-4 2-0"], trains={"@1": "12-5", "@2": "12-6"}, boneyard="9-8")
    rnd.apply(DRAW)
    rnd.apply(PASS)  # Alice drew 9-8, the boneyard's last tile, and passed
    assert not rnd.is_over and not rnd.boneyard
    assert rnd.apply(PASS).round_over  # Bob passes: every player passed in a row
    assert rnd.result is not None and rnd.result.scores == (2 + 5 + 17, 8 + 2)


def test_round_blocked_lap_is_broken_by_a_play() -> None:
    """Passes count only in a row: a tile played in between starts the count again."""
    rnd = table(
        STD, ["1-1 2-3", "5-4 2-0", "9-9"], trains={"@1": "12-5", "@2": "12-6"}, boneyard=""
    )
    rnd.apply(PASS)  # Alice: 1
    rnd.apply(mv("5-4 @1"))  # Bob uses Alice's marked train
    rnd.apply(PASS)  # Carol: 1
    rnd.apply(PASS)  # Alice: 2
    assert not rnd.is_over  # Bob has not passed since his play
    assert rnd.apply(PASS).round_over  # Bob: 3, a lap, and nobody can play


def test_round_blocked_by_an_open_double_nobody_may_ever_satisfy() -> None:
    """Strict doubles (release off): a double whose number is all on the table still binds, so
    Bob's tile for Alice's marked train does not count: after the lap the round is blocked.
    With the release (001, 002) the same pass lets Bob play there."""
    six_gone = {"@1": "12-7", "@2": ALL_SIXES["@2"], "mexican": "12-6 6-6"}
    hands = ["1-1 2-4", "7-0 2-0"]
    strict = Rules(release_unsatisfiable_doubles=False)
    rnd = table(strict, hands, trains=six_gone, open_doubles=("mexican",), boneyard="")
    assert plays(rnd) == {"pass"}
    rnd.apply(PASS)
    assert not rnd.is_over and plays(rnd) == {"pass"}  # 7-0 fits @1, but 6-6 binds
    assert rnd.apply(PASS).round_over
    released = table(STD, hands, trains=six_gone, open_doubles=("mexican",), boneyard="")
    released.apply(PASS)
    assert not released.is_over and plays(released) == {"7-0 @1"}


def test_scoring_standard_pips_left_in_hand() -> None:
    """001: 5-7 scores 12, 9-9 scores 18; the player who went out scores 0."""
    rnd = table(STD, ["12-3", "7-5 9-9", "0-0"])
    rnd.apply(mv("12-3 @1"))
    assert rnd.result is not None and rnd.result.scores == (0, 30, 0)


def test_scoring_house_fundex_blanks_score_25() -> None:
    """000, 003: each blank half scores 25, so 0-0 is 50 and 0-5 is 30."""
    rules = Rules(scoring=Scoring.FUNDEX_BLANKS)
    rnd = table(rules, ["12-3", "0-0", "5-0 7-5"])
    rnd.apply(mv("12-3 @1"))
    assert rnd.result is not None and rnd.result.scores == (0, 50, 42)


def test_scoring_house_double_blank_scores_50() -> None:
    """A table's house rule (docs/rules.md, "Scoring"): the double blank alone scores 50; a
    blank half of any other tile is 0, as in the standard count."""
    rules = Rules(scoring=Scoring.DOUBLE_BLANK_50)
    rnd = table(rules, ["12-3", "0-0", "5-0 7-5"])
    rnd.apply(mv("12-3 @1"))
    assert rnd.result is not None and rnd.result.scores == (0, 50, 17)
    assert hand_score([t("0-0"), t("6-6")], Scoring.DOUBLE_BLANK_50) == 62
    assert [tile_score(t(x), Scoring.DOUBLE_BLANK_50) for x in ("0-0", "0-1", "9-9")] == [50, 1, 18]
    # The other scorings are what they were.
    assert tile_score(t("0-0"), Scoring.PIPS) == 0
    assert tile_score(t("0-5"), Scoring.FUNDEX_BLANKS) == 30


def test_open_hands_house_every_hand_visible_boneyard_hidden() -> None:
    """001: hands face up; the boneyard stays face down."""
    hidden = table(STD, ["12-3 4-4", "9-1"])
    view = round_view(hidden, 0)
    assert view.visible_hands == ((t("12-3"), t("4-4")), None) and view.hand_counts == (2, 1)
    shown = table(Rules(open_hands=True), ["12-3 4-4", "9-1"])
    assert round_view(shown, 0).visible_hands[1] == (t("9-1"),)
    assert round_view(shown, None).visible_hands[0] == (t("12-3"), t("4-4"))
    assert not hasattr(round_view(shown, 0), "boneyard")


def test_views_never_show_hidden_hands() -> None:
    import random

    m = Match(STD, NAMES[:4])
    m.start_round(m.shuffle(random.Random(2)))
    spectator = view_for(m, None)
    assert spectator.hand is None and all(h is None for h in spectator.visible_hands)
    mine = view_for(m, 2)
    assert mine.hand is not None and [h is not None for h in mine.visible_hands] == [
        False,
        False,
        True,
        False,
    ]
    assert mine.legal == () and view_for(m, 0).legal  # only the player to move sees moves


def test_flavour_mexican_train_play_is_flagged_for_a_woo_woo() -> None:
    """003: a tile on the Mexican Train sets off a "Woo Woo!"; the bot reads this flag."""
    rnd = table(STD, ["9-4 12-3 1-1", "1-0"], trains={"mexican": "12-9"})
    own = rnd.copy().apply(mv("12-3 @1"))
    assert own.move == Play(t("12-3"), 0) and not own.started_mexican
    on_mexican = rnd.apply(mv("9-4 mexican"))
    assert isinstance(on_mexican.move, Play) and on_mexican.move.train == MEXICAN
