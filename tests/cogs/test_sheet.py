"""The score sheet adds up (issue 34, item 5): over random whole matches, every preset, every
language, every player, the rounds shown in the sheet sum to the total under them, and that
total is the one the standings list beside it — in the round-end post after every round and
in ``/mt scores``; every round is there, and every line fits a phone."""

from __future__ import annotations

import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import PRESETS, Match
from bot.engine.rules import RulesError
from bot.engine.simulate import random_move
from bot.i18n import LANGUAGES
from bot.service import Player
from bot.service.roundend import round_report
from bot.ui.roundend import round_end_embed, scores_text
from bot.ui.sheet import PHONE_WIDTH, TOTAL, headers

NAME = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=32
).filter(str.strip)


def _played(preset: str, names: list[str], seed: int) -> Match:
    rng = random.Random(seed)
    m = Match(PRESETS[preset], names)
    while m.needs_deal:
        m.start_round(m.shuffle(rng))
        rnd = m.round
        assert rnd is not None
        while rnd.result is None:
            m.apply(random_move(rnd, rng))
    return m


def _tables(text: str) -> list[list[str]]:
    """The code blocks of a message or an embed's fields, as lists of lines."""
    return [block.strip("\n").splitlines() for block in re.findall(r"```\n(.*?)```", text, re.S)]


def _check(text: str, heads_text: str, rounds: int, players: int) -> None:
    """Every table lines up, fits a phone and adds up; together they hold every player once,
    every round, and the totals the standings say."""
    totals_said = [int(t) for t in re.findall(r"^\d+\. .*? — (\d+) pts?", heads_text, re.M)]
    assert len(totals_said) == players
    sums: list[int] = []
    for lines in _tables(text):
        assert all(len(line) <= PHONE_WIDTH for line in lines)
        assert len({len(line) for line in lines}) == 1  # every line as wide: the columns line up
        body = lines[1:]
        assert [line.split()[0] for line in body] == [*map(str, range(1, rounds + 1)), TOTAL]
        cells = [[int(c) for c in line.split()[1:]] for line in body]
        for col in range(len(cells[0])):
            column = [row[col] for row in cells]
            assert sum(column[:-1]) == column[-1]
        sums += cells[-1]
    assert sums == totals_said


def _seats(preset: str) -> int:
    """The most players the preset deals for (up to 8, to keep the test quick)."""
    best = 2
    for n in range(3, 9):
        try:
            PRESETS[preset].hand_size_for(n)
        except RulesError:
            break
        best = n
    return best


@settings(max_examples=30, deadline=None)
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    data=st.data(),
    seed=st.integers(0, 10**6),
    language=st.sampled_from(LANGUAGES),
)
def test_the_sheet_adds_up_for_every_player_in_random_matches(
    preset: str, data: st.DataObject, seed: int, language: str
) -> None:
    names = data.draw(st.lists(NAME, min_size=2, max_size=_seats(preset)))
    m = _played(preset, names, seed)
    players = tuple(Player(s, n, 100 + s, None) for s, n in enumerate(names))
    for r in range(m.rounds_played):
        report = round_report(1, m, players, r)
        embed = round_end_embed(1, report, language)
        fields = "\n".join(f.value for f in embed.fields)
        heads = "\n".join(f.value for f in embed.fields if not f.value.startswith("```"))
        if r == 0:
            assert not _tables(fields)  # one round: "this round" says it all
            continue
        _check(fields, heads, r + 1, len(names))
        answer = scores_text(1, report, language)
        if _tables(answer):  # the answer carries the sheet when it fits whole
            _check(answer, answer, r + 1, len(names))
    final = scores_text(1, round_report(1, m, players, m.rounds_played - 1), language)
    if m.rounds_played > 1 and len(names) <= 6:
        assert _tables(final), "a usual match's /mt scores shows its sheet"


def test_names_in_the_sheet_are_cut_never_alike() -> None:
    names = ["Hana_The_Great", "Hana_The_Brave", "😀😀", "Bob", "bob"]
    shown = headers(names, range(5), [4] * 5)
    # Alike once cut: the part that tells them apart, as the pictures cut them ("H…G…" /
    # "H…B…" for Great and Brave), else the seat.
    assert shown == ["H…G…", "H…B…", "P3", "B…@4", "b…@5"]
    long = [f"Bartholomew Fitzgerald-Ngozi {i:03d}" for i in range(10)]
    assert headers(long, range(10), [6] * 10) == [f"Bart…{i}" for i in range(10)]
    # A whole first word rather than a cut one (issue 47: "Bob_Th Hana_T" at 8 seats).
    eight = ["Bob_The_Great", "Hana_The_Brave", "Dave_The_Bold", "Fay_The_Fair"]
    assert headers(eight, range(4), [6] * 4) == ["Bob…", "Hana…", "Dave…", "Fay…"]
    assert len({s.casefold() for s in shown}) == len(shown)
