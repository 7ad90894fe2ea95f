"""Names cut to fit never make two players of one game look the same."""

from __future__ import annotations

import pytest

from bot.engine import view_for
from renderers import TableOptions, render_table, text_sizes
from renderers import text as rtext
from renderers.names import distinct
from tests.renderers.positions import playout
from tests.renderers.test_golden import COLOURS

GAMES = {
    "shared prefix": ["Hana_The_Great", "Hana_The_Brave", "Hana_The_Bold", "Gus"],
    "shared suffix": ["Alpha_Player_One", "Bravo_Player_One", "Alpha_Player_Two"],
    "32 characters": ["Player_Number_One_Is_The_Best_XX", "Player_Number_One_Is_The_Best_YY"],
    "middle differs": ["SuperLongPrefix_middle_A_suffixxx", "SuperLongPrefix_middle_B_suffixxx"],
    "emoji": ["🚂🚂🚂🚂🚂🚂🚂🚂🚂🚂🚂🚂Ann", "🚂🚂🚂🚂🚂🚂🚂🚂🚂🚂🚂🚂Bea"],
    "cjk": ["中文名字很长很长很长很长很长很长很长很长" + c for c in "甲乙"],
    "same once cleaned": ["Bob", "Bob\u200b", "bob"],
    "wide letters": ["W" * 32, "W" * 31 + "V"],
    "arabic": ["محمد عبد الله الطويل جدا جدا أ", "محمد عبد الله الطويل جدا جدا ب"],
}


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize(("size", "room"), [(22, 130), (24, 200), (20, 90)])
def test_cut_names_stay_distinct_and_fit(game: str, size: int, room: int) -> None:
    names = GAMES[game]
    shown = distinct(names, size, room)
    assert len({s.casefold() for s in shown}) == len(names), shown
    for s in shown:
        assert rtext.width(rtext.visual_order(s), size, "bold") <= room, s


def test_the_telling_part_is_kept() -> None:
    great, brave, bold, gus = distinct(GAMES["shared prefix"], 22, 150)
    assert great.startswith("Ha") and great.endswith("Great") and "…" in great
    assert brave.endswith("Brave") and bold.endswith("Bold") and gus == "Gus"
    xx, yy = distinct(GAMES["32 characters"], 22, 150)
    assert xx.endswith("XX") and yy.endswith("YY")
    # Names that fit are left alone, and a cut that is already distinct stays a plain cut.
    assert distinct(["Ann", "Bea"], 22, 200) == ["Ann", "Bea"]
    assert distinct(["Alpha_Player_One", "Bravo_Player_One"], 22, 110) == [
        rtext.shorten("Alpha_Player_One", 22, 110, "bold"),
        rtext.shorten("Bravo_Player_One", 22, 110, "bold"),
    ]


def test_same_names_get_their_seat() -> None:
    assert distinct(["Bob", "Bob\u200b", "Ann"], 22, 200) == ["Bob @1", "Bob @2", "Ann"]


def test_the_table_never_shows_two_names_alike() -> None:
    """Every name drawn in a lane is unique, with ten players sharing a long prefix."""
    names = [f"Gus_The_Magnificent_{w}" for w in COLOURS]
    view = view_for(playout(10, 1, 20, preset="double-15", names=names), None)
    drawn = {label for _px, label in text_sizes(render_table(view, TableOptions()))}
    lanes = [label for label in drawn if label.startswith("Gus")]
    ends = [next(label for label in lanes if label.endswith(n[-3:])) for n in names]
    assert len(set(ends)) == 10


def test_a_cut_that_another_name_begins_with_is_told_apart() -> None:
    """Cut in rooms of different widths, "…seat 1" and "…seat 10" must not both read as a
    beginning the other name shares ("Player with a long name, se…")."""
    names = [f"Player with a long name, seat {n}" for n in (5, 10, 1)]
    shown = distinct(names, 22, [300, 340, 2_000])
    assert shown[2] == names[2]  # room enough: whole
    assert shown[0].endswith("5") and shown[1].endswith("10"), shown
    for s, room in zip(shown, [300, 340], strict=False):
        assert rtext.width(rtext.visual_order(s), 22, "bold") <= room, s


def test_the_hand_picture_never_shows_two_players_alike() -> None:
    """ "X_The_Magnificent_… is playing" read the same for seats 1 and 10 (issue 47): the
    status line cut the name again after it was told apart. Each seat to play reads its own."""
    from renderers import HandOptions, render_hand

    names = [f"X_The_Magnificent_{i}" for i in range(1, 11)]
    seen = set()
    for moves in range(0, 60):
        m = playout(10, 2, moves, preset="double-15", names=names)
        assert m.round is not None
        if m.round.result is not None:
            break
        current = m.round.current
        drawn = text_sizes(render_hand(view_for(m, (current + 1) % 10), HandOptions()))
        status = [label for _px, label in drawn if label.startswith("X_")]
        assert len(status) == 1, status
        seen.add((current, status[0]))
    assert len({s for _c, s in seen}) == len({c for c, _s in seen}) >= 5, seen


def test_a_turn_dms_names_are_cut_one_way() -> None:
    """Issue 47: a 10-seat turn DM read "Carol…, Dave_The…, Erin_The…": each name cut at a
    word's end, "Carol_The…" one character too long for its 10 (an escaped ``_`` counts
    two). Names cut at a word's end drop the words they all share, so all read alike in
    shape; a word that tells a name apart stays."""
    from bot.drawing.jobs import MARKDOWN, cut_names
    from renderers.names import distinct_chars

    tail = "_The_Magnificent_Train_Rider_"
    first = ("Alice", "Bob", "Carol", "Dave", "Erin", "Fay", "Gus", "Hana", "Ivan", "Judy")
    names = [(n + tail).ljust(32, "x")[:32] for n in first]
    assert cut_names(names) == tuple(f"{n}…" for n in first)
    # Where "_The" fits every name, it stays for every name (4 seats: 18 characters).
    assert cut_names(names[:4]) == tuple(f"{n}_The…" for n in first[:4])
    # Names that share their first word are still told apart by what follows.
    assert cut_names([f"X_The_Magnificent_Train_Rider_{i:02d}" for i in range(10)])[3] == (
        "X_The…03"
    )
    # A word that tells a name apart is not dropped for the others' shape.
    mixed = ["Christopher Robin", "Christopher Columbus", "Bob the Builder of Things", "Al"]
    assert distinct_chars(mixed, 18, MARKDOWN)[2] == "Bob the Builder…"
