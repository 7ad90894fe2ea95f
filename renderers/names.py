"""Players' names cut to fit, and never cut into two names that look the same.

A name too long for its place loses its end ("Hana_The_Gre…"). When that would make two
players of one game read alike ("Hana_The…" and "Hana_The…" for "Hana_The_Great" and
"Hana_The_Brave"), each keeps its start and the part that tells it from the other, joined by
an ellipsis ("Hana_Th…Great" / "Hana_Th…Brave"); when the telling part sits in the middle of a
long name it is shown as a window ("Ha…Great…"). Names that are the same once cleaned (two
"Bob"s, or "Bob" and "Bob" with a zero-width space) get their seat tag ("Bob @2"). Widths are
measured with the real glyphs, like :func:`renderers.text.shorten`; the results are in
logical order, ready to embed in a sentence or to draw through :func:`renderers.text.fit`.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Sequence

from renderers import text

ELLIPSIS = text.ELLIPSIS


def _fits(candidate: str, size: int, room: int, weight: text.Weight) -> bool:
    return text.width(text.visual_order(candidate), size, weight) <= room


def _cut_start(name: str, i: int) -> int:
    """``i`` moved left off a combining mark, so a cut never strands an accent."""
    while 0 < i < len(name) and unicodedata.combining(name[i]):
        i -= 1
    return i


def _longest_head(name: str, limit: int, tail: str, size: int, room: int,
                  weight: text.Weight) -> int:  # fmt: skip
    """The most leading characters (at most ``limit``) that fit before ``…`` + ``tail``."""
    lo, hi = 0, limit
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if _fits(name[:mid].rstrip() + ELLIPSIS + tail, size, room, weight):
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


def _told_apart(name: str, others: Sequence[str], size: int, room: int,
                weight: text.Weight) -> str | None:  # fmt: skip
    """``name`` cut so that its telling part shows, or None when no such cut fits."""
    prefix, suffix = _telling(name, others)
    start = _cut_start(name, min(prefix, len(name) - 1))
    # From the start of the word the difference is in ("…Brave", not "…rave") when that fits.
    word = start
    while word > 1 and name[word - 1].isalnum():
        word -= 1
    if word < start and _fits(name[:1] + ELLIPSIS + name[word:], size, room, weight):
        start = word
    # The telling part and everything after it, after a head as long as will fit.
    tail = name[start:]
    if _fits(name[:1] + ELLIPSIS + tail, size, room, weight):
        head = _longest_head(name, start, tail, size, room, weight)
        return name[:head].rstrip() + ELLIPSIS + tail
    # Too long: a window from the telling part, between two ellipses, after a short head.
    end_of_difference = max(start + 1, len(name) - suffix)
    for head in (min(3, start), min(1, start), 0):
        lo, hi = start + 1, len(name)
        best = None
        while lo <= hi:
            mid = (lo + hi) // 2
            candidate = name[:head] + ELLIPSIS + name[start:mid] + ELLIPSIS
            if _fits(candidate, size, room, weight):
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
    return list(_distinct(tuple(names), size, widths, weight))


@functools.lru_cache(maxsize=1024)
def _distinct(
    names: tuple[str, ...], size: int, widths: tuple[int, ...], weight: text.Weight
) -> tuple[str, ...]:
    """``names`` (one per seat) cleaned and cut to ``rooms`` px at ``size`` px, no two alike.

    ``rooms`` is one width for all or one per name. A name that fits is shown whole; cut names
    keep what tells them from the others (see the module's docstring); names equal once
    cleaned, or that still cannot be told apart in the room, end in their seat tag ``@N``.
    """
    clean = [text.shape_arabic(text.clean(n)) for n in names]
    shown = [text.shorten(n, size, w, weight) for n, w in zip(names, widths, strict=True)]
    for _ in range(2):  # a second pass settles names a first fix made collide with a third
        alike = {i: _alike(i, shown, clean) for i in range(len(shown))}
        if not any(alike.values()):
            return tuple(shown)
        for i, group in alike.items():
            if group:
                others = [clean[j] for j in group]
                told = None
                if clean[i].casefold() not in {o.casefold() for o in others}:
                    told = _told_apart(clean[i], others, size, widths[i], weight)
                shown[i] = told if told is not None else _tagged(clean[i], i, size, widths[i],
                                                                 weight)  # fmt: skip
    # Anything still alike is told apart by its seat.
    seen: dict[str, int] = {}
    for i, s in enumerate(shown):
        if s.casefold() in seen:
            shown[i] = _tagged(clean[i], i, size, widths[i], weight)
            j = seen[s.casefold()]
            shown[j] = _tagged(clean[j], j, size, widths[j], weight)
        seen[shown[i].casefold()] = i
    return tuple(shown)


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


def _tagged(name: str, seat: int, size: int, room: int, weight: text.Weight) -> str:
    """``name`` cut to leave room for its seat tag: ``Bob @2``, ``Hana_Th… @2``."""
    tag = f" @{seat + 1}"
    if _fits(name + tag, size, room, weight):
        return name + tag
    head = _longest_head(name, len(name), tag, size, room, weight)
    return name[:head].rstrip() + ELLIPSIS + tag
