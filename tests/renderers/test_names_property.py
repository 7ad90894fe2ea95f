"""No two seats ever read the same, wherever a name is cut (issue 47, item 4): one function,
:mod:`renderers.names`, cuts the names of the pictures (px of the real glyphs), of a turn DM
and of the score sheet's headers (characters), and over many name sets — random text of any
script, families sharing a long first part ("X_The_Magnificent_1" … "_10"), names equal once
cleaned — every cut is unique among its game's seats and fits its room."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.drawing.jobs import MARKDOWN, cut_names, dm_name_room
from bot.ui.sheet import headers
from renderers import text as rtext
from renderers.names import Measure, distinct, distinct_chars

ANY = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=32
).filter(lambda n: rtext.clean(n) != "")
WORDY = st.text(alphabet="abcXYZ_-. 0123456789éß", min_size=1, max_size=32).filter(str.strip)


@st.composite
def families(draw: st.DrawFn) -> list[str]:
    """Names that share a long first part and differ only at their end (or nowhere)."""
    stem = draw(st.sampled_from(["X_The_Magnificent_", "Bartholomew Fitzgerald-Ngozi ", "P"]))
    ends = draw(st.lists(st.sampled_from(["", "1", "2", "10", "A", "a", "Jr", "_"]), min_size=2,
                         max_size=10))  # fmt: skip
    return [(stem + e)[:32] for e in ends]


NAME_SETS = st.one_of(
    st.lists(ANY, min_size=2, max_size=10),
    st.lists(WORDY, min_size=2, max_size=10),
    families(),
)


def _unique(shown: list[str]) -> bool:
    return len({s.casefold() for s in shown}) == len(shown)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(names=NAME_SETS, room=st.integers(4, 24))
def test_cut_in_characters_never_alike_and_fits(names: list[str], room: int) -> None:
    shown = distinct_chars(names, room, MARKDOWN)
    assert _unique(shown), (names, shown)
    m = Measure(0, "regular", MARKDOWN)
    assert all(m.width(s) <= room for s in shown), (names, shown)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(names=NAME_SETS, room=st.integers(90, 320))
def test_cut_in_pixels_never_alike_and_fits(names: list[str], room: int) -> None:
    shown = distinct(names, 22, room)
    assert _unique(shown), (names, shown)
    assert all(rtext.width(rtext.visual_order(s), 22, "bold") <= room for s in shown), shown


@settings(max_examples=200, deadline=None)
@given(names=NAME_SETS)
def test_a_turn_dm_and_the_sheet_never_show_two_seats_alike(names: list[str]) -> None:
    dm = cut_names(names)
    assert _unique(list(dm)) and all(
        Measure(0, "regular", MARKDOWN).width(n) <= dm_name_room(len(names)) for n in dm
    )
    sheet = headers(names, range(len(names)), [4 + i % 3 for i in range(len(names))])
    assert _unique(sheet), (names, sheet)
    assert all(len(h) <= 4 + i % 3 for i, h in enumerate(sheet)), sheet


def test_ten_names_sharing_their_first_words() -> None:
    names = [f"X_The_Magnificent_{i}" for i in range(1, 11)]
    for shown in (
        distinct(names, 22, 130),
        distinct_chars(names, 6),
        list(cut_names(names)),
        headers(names, range(10), [6] * 10),
    ):
        assert _unique(shown), shown
        assert [s[-2:] for s in shown[-2:]] == ["…9", "10"], shown
