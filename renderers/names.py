"""Players' names cut to fit, and never cut into two names that look the same.

A name too long for its place loses its end ("Hana_The_Gre…"). When that would make two
players of one game read alike ("Hana_The…" and "Hana_The…" for "Hana_The_Great" and
"Hana_The_Brave"), each keeps its start and the part that tells it from the other, joined by
an ellipsis ("Hana_Th…Great" / "Hana_Th…Brave"); when the telling part sits in the middle of a
long name it is shown as a window ("Ha…Great…"). Names that are the same once cleaned (two
"Bob"s, or "Bob" and "Bob" with a zero-width space) get their seat tag ("Bob @2"). Widths are
measured with the real glyphs, like :func:`renderers.text.shorten`; the results are in
logical order, ready to embed in a sentence or to draw through :func:`renderers.text.fit`.

The same cut serves text too (issue 47): :func:`distinct_chars` counts characters instead of
px (a turn DM's names, the score sheet's column headers in a code block), with the same
rules, so a name reads the same way, and never as another seat's, wherever it is shown.
"""

from __future__ import annotations

import dataclasses
import functools
import unicodedata
from collections.abc import Sequence

from renderers import text

ELLIPSIS = text.ELLIPSIS


@dataclasses.dataclass(frozen=True, slots=True)
class Measure:
    """How a name's room is counted: the px of its real glyphs at ``size`` in ``weight`` (a
    picture), or, with ``size`` 0, its characters (a text): one each, two for a wide one
    (CJK, emoji: two columns of a code block) and for one in ``doubled`` (a character a
    message escapes, ``_`` written ``\\_``)."""

    size: int = 0
    weight: text.Weight = "bold"
    doubled: str = ""

    def width(self, candidate: str) -> int:
        if self.size:
            return text.width(text.visual_order(candidate), self.size, self.weight)
        return sum(
            1 + (ch in self.doubled) + (unicodedata.east_asian_width(ch) in "WF")
            for ch in candidate
        )

    def clean(self, name: str) -> str:
        return text.shape_arabic(text.clean(name)) if self.size else text.clean(name)

    def shorten(self, name: str, room: int) -> str:
        """``name`` cleaned and cut with an ellipsis to ``room``."""
        if self.size:
            return text.shorten(name, self.size, room, self.weight)
        logical = self.clean(name)
        if self.width(logical) <= room:
            return logical
        head = _longest_head(logical, len(logical), "", room, self)
        # In a text's few characters a whole word reads better than a cut one ("Bob…", not
        # "Bob_T…"), when it keeps at least half the room.
        word = head
        while word > 0 and logical[word].isalnum() and logical[word - 1].isalnum():
            word -= 1
        if word > 0 and self.width(logical[:word]) * 2 >= room:
            head = word
        return logical[:head].rstrip(" _-.") + ELLIPSIS if head else ELLIPSIS[: max(0, room)]


def _fits(candidate: str, room: int, m: Measure) -> bool:
    return m.width(candidate) <= room


def _cut_start(name: str, i: int) -> int:
    """``i`` moved left off a combining mark, so a cut never strands an accent."""
    while 0 < i < len(name) and unicodedata.combining(name[i]):
        i -= 1
    return i


def _longest_head(name: str, limit: int, tail: str, room: int, m: Measure) -> int:
    """The most leading characters (at most ``limit``) that fit before ``…`` + ``tail``."""
    lo, hi = 0, limit
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if _fits(name[:mid].rstrip() + ELLIPSIS + tail, room, m):
            lo = mid
        else:
            hi = mid - 1
    return lo


def _telling(name: str, others: Sequence[str]) -> tuple[int, int]:
    """Where ``name`` stops agreeing with the others: the longest prefix and the longest
    suffix it shares with any of them."""
    prefix = suffix = 0
    for other in others:
        p = 0
        a, b = [c.casefold() for c in name], [c.casefold() for c in other]
        while p < min(len(a), len(b)) and a[p] == b[p]:
            p += 1
        s = 0
        while s < min(len(a), len(b)) - p and a[-1 - s] == b[-1 - s]:
            s += 1
        prefix, suffix = max(prefix, p), max(suffix, s)
    return prefix, suffix


def _told_apart(name: str, others: Sequence[str], room: int, m: Measure) -> str | None:
    """``name`` cut so that its telling part shows, or None when no such cut fits."""
    prefix, suffix = _telling(name, others)
    start = _cut_start(name, min(prefix, len(name) - 1))
    # From the start of the word the difference is in ("…Brave", not "…rave") when that fits.
    word = start
    while word > 1 and name[word - 1].isalnum():
        word -= 1
    if word < start and _fits(name[:1] + ELLIPSIS + name[word:], room, m):
        start = word
    # The telling part and everything after it, after a head as long as will fit.
    tail = name[start:]
    if _fits(name[:1] + ELLIPSIS + tail, room, m):
        head = _longest_head(name, start, tail, room, m)
        return name[:head].rstrip() + ELLIPSIS + tail
    # Too long: a window from the telling part, between two ellipses, after a short head.
    end_of_difference = max(start + 1, len(name) - suffix)
    for head in (min(3, start), min(1, start), 0):
        lo, hi = start + 1, len(name)
        best = None
        while lo <= hi:
            mid = (lo + hi) // 2
            candidate = name[:head] + ELLIPSIS + name[start:mid] + ELLIPSIS
            if _fits(candidate, room, m):
                best, lo = candidate, mid + 1
            else:
                hi = mid - 1
        if best is not None and len(best) - len(name[:head]) - 2 >= min(
            end_of_difference - start, 1
        ):
            return best
    return None


def distinct(
    names: Sequence[str],
    size: int,
    rooms: int | Sequence[int],
    weight: text.Weight = "bold",
) -> list[str]:
    """``names`` (one per seat) cleaned and cut to ``rooms`` px at ``size`` px, no two alike
    (cached: a game's names and rooms are the same picture after picture)."""
    widths = (rooms,) * len(names) if isinstance(rooms, int) else tuple(rooms)
    return list(_distinct(tuple(names), widths, Measure(size, weight)))


def distinct_chars(
    names: Sequence[str], rooms: int | Sequence[int], doubled: str = ""
) -> list[str]:
    """``names`` (one per seat) cleaned and cut to ``rooms`` characters (see
    :class:`Measure`: a wide character and one in ``doubled`` count two), no two alike, by
    the same rules as :func:`distinct`: a text's names (a DM, a code block's headers)."""
    widths = (rooms,) * len(names) if isinstance(rooms, int) else tuple(rooms)
    return list(_distinct(tuple(names), widths, Measure(0, "regular", doubled)))


@functools.lru_cache(maxsize=1024)
def _distinct(names: tuple[str, ...], widths: tuple[int, ...], m: Measure) -> tuple[str, ...]:
    """``names`` (one per seat) cleaned and cut to ``widths`` (one per name), no two alike.

    A name that fits is shown whole; cut names keep what tells them from the others (see
    the module's docstring); names equal once cleaned, or that still cannot be told apart in
    the room, end in their seat tag ``@N``.
    """
    clean = [m.clean(n) for n in names]
    shown = [m.shorten(n, w) for n, w in zip(names, widths, strict=True)]
    if not m.size:
        shown = _same_words(clean, shown)
    for _ in range(2):  # a second pass settles names a first fix made collide with a third
        alike = {i: _alike(i, shown, clean) for i in range(len(shown))}
        if not any(alike.values()):
            return tuple(shown)
        for i, group in alike.items():
            if group:
                others = [clean[j] for j in group]
                told = None
                if clean[i].casefold() not in {o.casefold() for o in others}:
                    told = _told_apart(clean[i], others, widths[i], m)
                shown[i] = told if told is not None else _tagged(clean[i], i, widths[i], m)
    # Anything still alike is told apart by its seat.
    seen: dict[str, int] = {}
    for i, s in enumerate(shown):
        if s.casefold() in seen:
            shown[i] = _tagged(clean[i], i, widths[i], m)
            j = seen[s.casefold()]
            shown[j] = _tagged(clean[j], j, widths[j], m)
        seen[shown[i].casefold()] = i
    return tuple(shown)


def _tokens(name: str) -> list[str]:
    """The words of ``name`` (runs of letters and digits), folded for comparing."""
    out: list[str] = []
    word = ""
    for ch in name + " ":
        if ch.isalnum():
            word += ch.casefold()
        elif word:
            out.append(word)
            word = ""
    return out


def _word_end(name: str, k: int, words: int) -> bool:
    """Whether ``name[:k]`` ends right after its ``words``-th word."""
    return len(_tokens(name[:k])) == words and not name[k : k + 1].isalnum()


def _same_words(clean: Sequence[str], shown: list[str]) -> list[str]:
    """A text's names cut at a word's end drop the words they share with all the others so
    cut, down to as many words as the fewest of them keeps: one message reads "Carol…" beside
    "Dave…", not beside "Dave_The…" (issue 47: the whole-word cut kept "_The" where it fit,
    "Carol_The…" being one character too long, and the names read as cut two ways; "The"
    told no one apart). A word that tells a name apart is kept ("Bob the Builder…" beside
    "Christopher…"); the names told apart afterwards keep what tells them."""
    ends: dict[int, int] = {}
    for i, (c, s) in enumerate(zip(clean, shown, strict=True)):
        head = s.removesuffix(ELLIPSIS)
        if (s != c and s.endswith(ELLIPSIS) and head and c.startswith(head)
                and head[-1].isalnum() and not c[len(head) : len(head) + 1].isalnum()):  # fmt: skip
            ends[i] = len(_tokens(head))
    fewest = min(ends.values(), default=0)
    out = list(shown)
    for i, words in ends.items():
        mine = _tokens(clean[i])[fewest:words]
        if (
            fewest < 1
            or words <= fewest
            or any(_tokens(clean[j])[fewest:words] != mine for j in ends if j != i)
        ):
            continue
        end = next(k for k in range(1, len(clean[i]) + 1) if _word_end(clean[i], k, fewest))
        out[i] = clean[i][:end] + ELLIPSIS
    return out


def _alike(i: int, shown: Sequence[str], clean: Sequence[str]) -> list[int]:
    """The other seats ``shown[i]`` could be read as: the same text, or, for a name cut at
    its end, a name that starts with what is left ("Player with a long name, se…" could be
    seat 5 or seat 10, however the other name was cut in a room of its own)."""
    mine = shown[i].casefold()
    cut_at_end = shown[i] != clean[i] and mine.count(ELLIPSIS) == 1 and mine.endswith(ELLIPSIS)
    stem = mine.removesuffix(ELLIPSIS) if cut_at_end else None
    return [
        j
        for j in range(len(shown))
        if j != i
        and (
            shown[j].casefold() == mine
            or (stem is not None and clean[j].casefold().startswith(stem))
        )
    ]


def _tagged(name: str, seat: int, room: int, m: Measure) -> str:
    """``name`` cut to leave room for its seat tag: ``Bob @2``, ``Hana_Th… @2``."""
    tag = f" @{seat + 1}"
    if _fits(name + tag, room, m):
        return name + tag
    head = _longest_head(name, len(name), tag, room, m)
    if head == 0 and not m.size:  # a narrow column ("B…@2"): the name's start before the seat
        tag = tag.strip()
        head = _longest_head(name, len(name), tag, room, m)
        return name[:head].rstrip() + ELLIPSIS + tag if head else tag
    return name[:head].rstrip() + ELLIPSIS + tag
