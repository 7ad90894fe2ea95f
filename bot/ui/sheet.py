"""The score sheet: every round's points and each player's total, as a table on a phone.

The list of standings says who leads; the sheet says how they got there. It used to be a line
per player of their latest rounds, cut to fit ("↳ rounds 3-13: 44 · 7 · 0"), which left
out the first rounds, so the rounds shown did not add up to the total beside them, and two
players' lines started at different rounds, so nothing lined up. The sheet here is the
scorer's pad turned on its side: a row per round (every round, none cut), a column per
player (best first, as the standings list them), the totals in the last row, in a code block
so the digits line up. A phone shows about :data:`PHONE_WIDTH` characters of a code block's
line; when the players do not fit one table that wide, they are split into several tables
of the same rows, each still lining up, rather than cutting rounds. Each column's total is
the match's total for that player, and ``tests/cogs/test_sheet.py`` checks over random
matches that it is the sum of the numbers above it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from bot.service import Standing
from renderers.names import distinct_chars

#: Characters of a code block's line a phone shows without wrapping (portrait, default font).
PHONE_WIDTH = 34
#: The narrowest a player's column is, so a short name still reads.
MIN_COLUMN = 4
#: The widest a column grows to show more of a name.
MAX_COLUMN = 6
#: The first column's mark for the totals row.
TOTAL = "Σ"


def _plain(name: str) -> str:
    """The characters of ``name`` a monospace font draws one column wide (letters, digits,
    punctuation of the narrow scripts); emoji, wide scripts and marks would break the
    columns, so they are left out of the header."""
    kept = []
    for ch in " ".join(name.split()):
        narrow = unicodedata.east_asian_width(ch) in ("N", "Na", "H") and ord(ch) < 0x2E80
        if narrow and unicodedata.category(ch)[0] in "LNPS" and ch != "`":
            kept.append(ch)
    return "".join(kept).strip()


def headers(names: Sequence[str], seats: Sequence[int], widths: Sequence[int]) -> list[str]:
    """The players' names cut to their column's width, never two alike: the pictures' own
    cut (:func:`renderers.names.distinct_chars`, issue 47), counted in a code block's
    columns. Names that cut alike keep their start and the end that tells them apart
    (``X_Th…1``, ``X_T…10`` for "X_The_Magnificent_1" and "…_10"); names alike once cleaned,
    their seat (``B…@4``); a name with nothing a column can show is its seat (``P3``)."""
    plain = [_plain(n) or f"P{s + 1}" for n, s in zip(names, seats, strict=True)]
    return distinct_chars(plain, widths)


def _columns(standings: Sequence[Standing], rounds: Sequence[Sequence[int]]) -> list[int]:
    """Each player's column width: their widest number, at least :data:`MIN_COLUMN`, more
    (up to :data:`MAX_COLUMN`) when their name is longer."""
    widths = []
    for s in standings:
        seat = s.player.seat
        digits = max([len(str(s.total)), *(len(str(r[seat])) for r in rounds)])
        name = len(_plain(s.player.name))
        widths.append(max(digits, MIN_COLUMN, min(name, MAX_COLUMN)))
    return widths


def sheet_tables(
    standings: Sequence[Standing],
    rounds: Sequence[Sequence[int]],
    *,
    width: int = PHONE_WIDTH,
) -> list[str]:
    """The sheet as one or more tables (each a code block's inside, lines joined by newlines):
    a header of names, a row per round (``rounds``: every round's points, by seat), the totals
    row (each player's match total). Each table holds as many players, in the standings'
    order, as ``width`` allows (at least one). Empty when no round was played."""
    if not rounds or not standings:
        return []
    label = max(len(str(len(rounds))), len(TOTAL))
    widths = _columns(standings, rounds)
    groups: list[list[int]] = [[]]
    used = label
    for i, w in enumerate(widths):
        if groups[-1] and used + 1 + w > width:
            groups.append([])
            used = label
        groups[-1].append(i)
        used += 1 + w
    # Every column's name cut in one go, so no two seats read alike across the tables either.
    every = headers([s.player.name for s in standings], [s.player.seat for s in standings], widths)
    tables = []
    for group in groups:
        players = [standings[i] for i in group]
        cols = [widths[i] for i in group]
        seats = [s.player.seat for s in players]
        names = [every[i] for i in group]
        lines = [" " * label + "".join(" " + n.rjust(w) for n, w in zip(names, cols, strict=True))]
        for number, scores in enumerate(rounds, start=1):
            cells = "".join(" " + str(scores[s]).rjust(w) for s, w in zip(seats, cols, strict=True))
            lines.append(str(number).rjust(label) + cells)
        # The official totals (the match's), which the test holds equal to the column sums.
        totals = [s.total for s in players]
        lines.append(TOTAL.rjust(label) + "".join(
            " " + str(t).rjust(w) for t, w in zip(totals, cols, strict=True)
        ))  # fmt: skip
        tables.append("\n".join(lines))
    return tables


def code_block(table: str) -> str:
    """A table as Discord shows it in fixed-width characters."""
    return f"```\n{table}\n```"
