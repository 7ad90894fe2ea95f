"""The catch-up digest in words: your train first and each move on it named, long stretches
summarised, a character budget never exceeded and never a sentence cut, English and French.

The digests here are built by hand (the service's own digests of real games are tested in
tests/service/test_digest.py, and through Discord in tests/e2e/test_catchup.py), so each
case says exactly what happened.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from bot.engine import Applied, Tile, parse_move
from bot.service.digest import Digest, OpenDouble, RoundOver, SeenMove, TakenOver
from bot.ui.catchup import catchup_text, turns_of

NAMES = ("Alice", "Bob", "Carol", "Dave")
BOB = 1


def mv(seq: int, seat: int, text: str, *, round_no: int = 0, **applied: Any) -> SeenMove:
    """A move as a digest holds it; ``applied`` sets the engine's record (turn over unless
    told otherwise), ``played_for``/``by_computer`` who made it."""
    played_for = applied.pop("played_for", None)
    by_computer = applied.pop("by_computer", False)
    drawn = applied.pop("drawn", 0)
    move = parse_move(text, players=10)
    record = Applied(seat, move, **({"turn_over": True} | applied))
    return SeenMove(seq, round_no, seat, move, record, drawn, by_computer, played_for)


def digest(**fields: Any) -> Digest:
    """Bob's digest (seat 1) in round 1 of 13 of a four-player game, nothing happened."""
    base = Digest(
        game_id=7,
        names=NAMES,
        seat=BOB,
        since="turn",
        since_round=0,
        round_no=0,
        rounds_total=13,
        moves=(),
        rounds_over=(),
        taken_over=(),
        engine=Tile(12, 12),
        open_doubles=(),
        one_tile=(),
        opened=(),
        closed=(),
        my_end=5,
        my_marked=True,
        my_tiles=9,
        turn=BOB,
        totals=(0, 0, 0, 0),
        match_over=False,
    )
    return dataclasses.replace(base, **fields)


SHORT = (
    mv(10, 2, "7-5 @2"),
    mv(11, 3, "draw", turn_over=False, drawn=1),
    mv(12, 3, "7-7 @2", opened_double=True, turn_over=False),
    mv(13, 3, "7-2 @2"),
    mv(14, 0, "9-3 mexican", started_mexican=True),
)


def test_your_train_comes_first_each_move_named() -> None:
    d = digest(moves=SHORT, opened=(BOB,), one_tile=((2, True),))
    assert [m.seq for m in d.on_my_train] == [10, 12, 13]
    assert catchup_text(d, "en") == "\n".join(
        [
            "**Since your last turn:**",
            "🚂 On your train: Carol 7-5 · Dave 7-7 (double) · Dave 7-2.",
            "☝️ One tile left: Carol (knocked).",
            "🚃 Alice started the Mexican Train (9-3).",
            "🚩 Open now: your train.",
            "↪️ Other moves: Dave: drew.",  # the Mexican Train's start is told once, above
            "🎯 Your train ends at 5 (open) · you hold 9 tiles.",
            "🎲 It is your turn.",
        ]
    )
    assert catchup_text(d, "fr").split("\n")[1] == (
        "🚂 Sur ton train : Carol 7-5 · Dave 7-7 (double) · Dave 7-2."
    )


def test_a_long_stretch_is_summarised_not_listed() -> None:
    moves = []
    for i in range(60):  # Carol and Dave play on the Mexican Train and elsewhere, Dave draws
        seat = 2 + i % 2
        if i % 5 == 0:
            moves.append(mv(100 + i, 3, "draw", drawn=1, turn_over=False))
            moves.append(mv(200 + i, 3, "pass", marker_raised=i == 0))
        elif i % 3 == 0:
            moves.append(mv(100 + i, seat, "3-1 mexican"))
        else:
            moves.append(mv(100 + i, seat, "4-2 @1"))
    d = digest(moves=tuple(moves), my_end=12)
    text = catchup_text(d, "en")
    assert text.split("\n")[1] == (
        "↪️ Other moves: Carol and Dave played 48 tiles (16 on the Mexican Train); "
        "Dave drew 12 times; Dave passed 12 times."
    )
    assert "4-2" not in text  # counted, not listed
    fr = catchup_text(d, "fr")
    assert fr.split("\n")[1] == (
        "↪️ Autres coups : Carol et Dave ont posé 48 dominos (dont 16 sur le Train mexicain) ; "
        "Dave a pioché 12 fois ; Dave a passé 12 fois."
    )


def test_many_tiles_on_your_train_are_named_then_counted_and_the_last_named() -> None:
    on_mine = tuple(mv(50 + i, 2 + i % 2, "5-5 @2" if i == 9 else "6-5 @2") for i in range(10))
    d = digest(moves=on_mine)
    # Room enough (a big table's ten tiles): every one named (issue 47: who played what).
    assert (
        catchup_text(d, "en").split("\n")[1]
        == "🚂 On your train: "
        + " · ".join([*(f"{NAMES[2 + i % 2]} 6-5" for i in range(9)), "Dave 5-5"])
        + "."
    )
    line = catchup_text(d, "en", 200).split("\n")[1]
    assert line == (
        "🚂 On your train: 10 tiles (Carol 5, Dave 5); the last: Dave 6-5 · Carol 6-5 · Dave 5-5."
    )
    # Under pressure, where your train ends goes first (the hand and its picture show it:
    # the moves are the news, issue 47), then only the count stays.
    tight = catchup_text(d, "en", 120)
    assert tight.endswith("the last: Dave 6-5 · Carol 6-5 · Dave 5-5.") and len(tight) <= 120
    assert "🎯" not in tight
    tighter = catchup_text(d, "en", 80)
    assert "🚂 On your train: 10 tiles (Carol 5, Dave 5)." in tighter and len(tighter) <= 80


def _crowded(names: tuple[str, ...]) -> Digest:
    """Everything at once, ten players with long names: 60 moves since, three rounds ended."""
    n = len(names)
    moves = []
    for i in range(60):
        seat = (2 + i) % n
        text = "draw" if i % 7 == 0 else (f"{i % 10}-0 @2" if i % 4 == 0 else "3-3 mexican")
        moves.append(
            mv(
                100 + i,
                seat,
                text,
                round_no=3,
                turn_over=text != "draw",
                opened_double=text.startswith("3-3"),
                drawn=int(text == "draw"),
            )
        )
    moves += [mv(300 + i, BOB, "pass", round_no=3, played_for="timeout") for i in range(4)]
    rounds = tuple(
        RoundOver(r, tuple((r + s) % 9 for s in range(n)), (r + 3) % n, tuple(range(n)))
        for r in range(3)
    )
    return digest(
        names=names,
        since_round=0,
        round_no=3,
        moves=tuple(moves),
        rounds_over=rounds,
        taken_over=(TakenOver(5, "leave"),),
        engine=Tile(9, 9),
        open_doubles=(OpenDouble(2, Tile(3, 3)), OpenDouble(-1, Tile(8, 8))),
        one_tile=tuple((s, s % 2 == 0) for s in range(2, n)),
        opened=tuple(range(2, n)),
        closed=(BOB,),
        totals=tuple(range(n)),
        turn=4,
    )


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_a_budget_is_never_exceeded_and_no_sentence_is_cut(locale: str) -> None:
    long_names = tuple(f"Player_{i}_" + "ü" * (32 - len(f"Player_{i}_")) for i in range(10))
    d = _crowded(long_names)
    full = catchup_text(d, locale, 100_000)
    assert len(full) > 1500  # a lot happened
    sentences = set()
    for budget in (100_000, *range(0, 2600, 23)):
        text = catchup_text(d, locale, budget)
        assert len(text) <= budget, budget
        for line in text.split("\n") if text else ():
            assert line.endswith((".", ":**")), (budget, line)
            sentences.add(line)
        if budget >= 1000:  # the most useful lines survive a DM's budget
            assert "⏰" in text and "⚠️" in text and "🎯" in text, text
    # Every line written is a whole one: long lists are cut to "and N others", never mid-word.
    assert any("4 autres" in s or "4 others" in s for s in sentences), sentences


def test_spectators_read_the_last_moves_and_nobody_is_you() -> None:
    d = digest(seat=None, since="recent", moves=SHORT, my_end=None, my_marked=False, my_tiles=None)
    text = catchup_text(d, "en")
    assert text == "\n".join(
        [
            "**The last 5 moves:**",
            "• Carol: 7-5 on Bob's train.",
            "• Dave: drew, 7-7 on Bob's train (double), 7-2 on Bob's train.",
            "• Alice: 9-3 on the Mexican Train.",
            "🚃 Alice started the Mexican Train (9-3).",
            "⏳ Bob is to play.",
        ]
    )
    assert "d'Alice" in catchup_text(digest(seat=None, moves=(mv(9, 2, "4-1 @1"),)), "fr")


def test_round_ends_scores_and_places() -> None:
    over = RoundOver(0, (0, 12, 30, 12), 0, (0, 12, 30, 12))
    d = digest(
        rounds_over=(over,),
        since_round=0,
        round_no=1,
        totals=over.totals,
        moves=(mv(40, 0, "12-1 @1", round_no=0, round_over=True),),
    )
    text = catchup_text(d, "en")
    assert "🏁 Round 1 is over: Alice went out. You scored 12 points." in text
    assert "🎲 Round 2/13 is being played (engine 12-12)." in text
    assert "📊 Totals: 1. Alice 0 · 2. you 12 · 2. Dave 12 · 4. Carol 30." in text  # ties share
    fr = catchup_text(d, "fr")
    assert "🏁 La manche 1 est finie : Alice a posé son dernier domino. Tu marques 12 points." in fr
    over_mine = RoundOver(4, (5, 0, 9, 9), BOB, (40, 22, 50, 61))
    done = digest(
        rounds_over=(over_mine,),
        round_no=4,
        match_over=True,
        turn=None,
        totals=over_mine.totals,
        rounds_total=5,
    )
    text = catchup_text(done, "en")
    assert "🏁 Round 5 is over: you went out." in text and "🏆 The match is over." in text
    assert "🎯" not in text


def test_after_a_round_end_other_moves_are_of_the_new_round_only() -> None:
    """The first DM of a round said "Other moves: Alice and Carol played 2 tiles", moves of
    the round that ended: its trains are gone, and its end line already says how it ended
    and what the reader scored. Only the new round's moves are told as other moves."""
    over = RoundOver(0, (0, 12, 30, 12), 0, (0, 12, 30, 12))
    d = digest(
        rounds_over=(over,),
        since_round=0,
        round_no=1,
        totals=over.totals,
        moves=(
            mv(40, 2, "7-5 @3", round_no=0),
            mv(41, 0, "12-1 @1", round_no=0, round_over=True),
            mv(50, 3, "12-4 @4", round_no=1),
        ),
    )
    for locale in ("en", "fr"):
        text = catchup_text(d, locale)
        others = next(line for line in text.splitlines() if line.startswith("↪️"))
        assert "Dave" in others and "12-4" in others, others
        assert "Alice" not in others and "Carol" not in others, others
    first = dataclasses.replace(d, moves=d.moves[:2])  # nobody has moved in the new round
    assert "↪️" not in catchup_text(first, "en")


def test_nothing_new_and_turns_played_for_you() -> None:
    assert catchup_text(digest(), "en") == "\n".join(
        [
            "**Since your last turn:**",
            "Nothing has been played since.",
            "🎯 Your train ends at 5 (open) · you hold 9 tiles.",
            "🎲 It is your turn.",
        ]
    )
    assert catchup_text(digest(), "en", header=False).startswith("Nothing has been played")
    mine = (
        mv(5, BOB, "draw", turn_over=False, played_for="timeout", drawn=1),
        mv(6, BOB, "pass", played_for="timeout", marker_raised=True),
        mv(9, BOB, "5-1 @2", played_for="away"),
    )
    d = digest(moves=mine)
    assert len(turns_of(mine)) == 2 and d.on_my_train == ()
    assert catchup_text(d, "en").split("\n")[1] == (
        "⏰ 2 of your turns were played for you (time ran out, or you were away): "
        "drew, passed (train open); 5-1 on your train."
    )


def test_nothing_fits_in_a_tiny_budget() -> None:
    assert catchup_text(digest(), "en", 5) == ""
    assert catchup_text(digest(), "en", 30) == "**Since your last turn:**"


def test_an_unstarted_train_is_told_as_not_started_not_as_ending_on_the_engine() -> None:
    # Bob's turn DMs over a whole match said "Your train ends at 12" while it held no tile:
    # the picture beside them says "not started, needs 12".
    d = digest(my_end=12, my_marked=False, my_started=False)
    assert "🎯 Your train is not started: it needs 12 · you hold 9 tiles." in catchup_text(d, "en")
    assert "🎯 Ton train n'est pas commencé : il faut 12 · tu as 9 dominos." in catchup_text(
        d, "fr"
    )
    marked = catchup_text(dataclasses.replace(d, my_marked=True), "en")
    assert "🎯 Your train (open) is not started: it needs 12" in marked
    assert "ends at" not in marked


def test_a_turn_played_for_you_wears_the_icon_the_channel_gave_it() -> None:
    # The channel's line for a turn with no choice reads "⏩ Bob had no choice: ..."; Bob's DM
    # told the same turn under a clock, as if his time had run out.
    auto = (mv(5, BOB, "5-1 @2", played_for="autoplay"),)
    assert catchup_text(digest(moves=auto), "en").split("\n")[1] == (
        "⏩ Your turn was played for you (you had no choice): 5-1 on your train."
    )
    away = (mv(5, BOB, "5-1 @2", played_for="away"),)
    assert catchup_text(digest(moves=away), "fr").split("\n")[1].startswith("🏖️ Ton tour")
    late = (mv(5, BOB, "5-1 @2", played_for="timeout"),)
    assert catchup_text(digest(moves=late), "en").split("\n")[1].startswith("⏰ Your turn")


def test_a_draw_made_for_you_that_fits_is_one_sentence_naming_the_tile() -> None:
    """Issue 47: "⏩ Your turn was played for you (you had no choice): drew." then "It's your
    turn." — the turn was not played for them (it goes on), and the tile was never named."""
    from bot.engine import DRAW

    drew = Applied(BOB, DRAW, (Tile(7, 5),), must_play_drawn=True, turn_over=False)
    moves = (mv(10, 2, "7-5 mexican"), SeenMove(11, 0, BOB, DRAW, drew, 1, False, "autoplay"))
    d = digest(moves=moves)
    en, fr = catchup_text(d, "en"), catchup_text(d, "fr")
    assert "⏩ I drew for you (you had no choice): 7-5. It fits: play it." in en.splitlines()
    assert "⏩ J'ai pioché pour toi (tu n'avais pas le choix) : 7-5. Il va : pose-le." in fr
    for text in (en, fr):
        assert "played for you" not in text and "joué à ta place" not in text
    # A whole turn played for them before it is still told as played for them.
    pass_for = mv(9, BOB, "pass", played_for="autoplay")
    both = catchup_text(digest(moves=(pass_for, *moves)), "en")
    assert "⏩ Your turn was played for you (you had no choice): passed." in both
    assert "⏩ I drew for you (you had no choice): 7-5. It fits: play it." in both


def test_a_turn_played_for_two_reasons_tells_them_apart() -> None:
    """The play-through's Bob: his order ended on 6-6 and the bot covered it with the only
    tile that could (he had no choice); his DM said "your order played 6-6, 11-6". The
    later stretch of a turn now says why, and a player's own move after a draw the bot made
    for them (the tile fitted: their turn went on) is theirs, with no reason given."""
    order_then_forced = (
        mv(5, BOB, "6-6 @2", played_for="order", opened_double=True, turn_over=False),
        mv(6, BOB, "11-6 @2", played_for="autoplay"),
    )
    en = catchup_text(digest(moves=order_then_forced), "en")
    assert (
        "📋 While you were away your order played 6-6, then (you had no choice) 11-6 on "
        "your train." in en.splitlines()
    ), en
    fr = catchup_text(digest(moves=order_then_forced), "fr")
    assert "📋 Pendant ton absence, ton ordre a joué 6-6, puis (tu n'avais pas le choix) 11-6" in fr
    # An order's double nobody could cover: the draw and pass were the bot's, told so.
    uncovered = (
        mv(5, BOB, "6-6 @2", played_for="order", opened_double=True, turn_over=False),
        mv(6, BOB, "draw", played_for="autoplay", turn_over=False, drawn=1),
        mv(7, BOB, "pass", played_for="autoplay", marker_raised=True),
    )
    assert "your order played 6-6, then (you had no choice) drew, passed (train open)." in (
        catchup_text(digest(moves=uncovered), "en")
    )
    # The others' list: Carol's order, then the cover; Dave drew (no choice), then played on.
    others = (
        mv(10, 2, "7-7 @3", played_for="order", opened_double=True, turn_over=False),
        mv(11, 2, "7-2 @3", played_for="autoplay"),
        mv(12, 3, "draw", played_for="autoplay", turn_over=False, drawn=1),
        mv(13, 3, "9-9 @4", opened_double=True, turn_over=False),
        mv(14, 3, "9-4 @4"),
    )
    text = catchup_text(digest(moves=others), "en")
    assert (
        "Carol (standing order): 7-7 on their own train (double), then (no choice) 7-2 on "
        "their own train" in text
    ), text
    assert "Dave (no choice): drew, then 9-9 on their own train (double), 9-4 on their own" in (
        text
    ), text
    assert "out of time" not in text
