"""The catch-up's news of the match beside the moves at the table, in words: the turns the bot
played for the reader (a timeout, while away, autoplay), their moves the host took back, the
seats a computer took over, and the rounds that ended with the standings after them.

Each is told only when it happened, and :mod:`bot.ui.catchup` (the budget, and the moves'
own words) asks here only then: an ordinary move's turn DM never runs this module, so it
costs a move nothing (docs/turn.md: the modules one move runs). What each returns is a
part's forms, longest first, for :mod:`bot.ui.catchup` to fit in its budget.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Protocol

from bot.engine import Draw
from bot.service.digest import Digest, SeenMove
from bot.ui.facts import undone_words
from bot.ui.limits import shown

#: Turns played for you that are told move by move.
LISTED_FOR_YOU = 3
#: The icon of a turn played for the reader, by why: the one the channel's line gave it.
FOR_YOU_ICONS = {"timeout": "⏰", "away": "🏖️", "autoplay": "⏩", "order": "📋"}


class Words(Protocol):
    """The small words of :mod:`bot.ui.catchup` these sentences are made of, for one digest
    in one language."""

    d: Digest
    locale: str | None

    def tr(self, key: str, **params: object) -> str: ...

    def count(self, key: str, count: int, **params: object) -> str: ...

    def name(self, seat: int, *, robot: bool = False) -> str: ...

    def names(self, items: Sequence[str], shown: int = ...) -> str: ...

    def bit(self, m: SeenMove) -> str: ...

    @property
    def sep(self) -> str: ...


def for_you_forms(w: Words, turns: Sequence[Sequence[SeenMove]]) -> list[str]:
    """The turns played for the reader (at least one), with why: told move by move while
    they are few, else counted. A turn the bot began for them and handed back (it drew, the
    tile fits: their turn goes on) is not "played for them": one sentence names the tile
    drawn and says to play it (:func:`drew_for_you`)."""
    drew = drew_for_you(w, turns[-1])
    if drew:
        before = for_you_forms(w, turns[:-1]) if len(turns) > 1 else []
        return [f"{form}\n{drew}" for form in before] or [drew]
    reasons = {m.played_for for t in turns for m in t}
    if "order" in reasons:  # their own standing order (issue 46): the tiles it played
        mine = [t for t in turns if any(m.played_for == "order" for m in t)]
        tiles: list[str] = []
        for t in mine:
            tiles += [str(m.tile) for m in t if m.played_for == "order" and m.tile is not None]
            if tiles and (rest := [m for m in t if m.played_for != "order"]):
                tiles[-1] = then_line(w, tiles[-1], rest, "catchup.why")
        line = w.tr("orders.while-away", tiles=", ".join(tiles))
        others = [t for t in turns if t not in mine]
        return [f"{line}\n{form}" for form in for_you_forms(w, others)] if others else [line]
    icon = FOR_YOU_ICONS.get(str(next(iter(reasons))), "⏰") if len(reasons) == 1 else "⏰"
    if len(reasons) == 1:
        why = w.tr(f"catchup.why.{reasons.pop()}")
    else:
        why = w.tr("catchup.why.mixed" if "autoplay" in reasons else "catchup.why.both")
    forms = []
    if len(turns) <= LISTED_FOR_YOU:
        what = w.sep.join(", ".join(w.bit(m) for m in t) for t in turns)
        forms.append(w.count("catchup.for-you", len(turns), why=why, what=what, icon=icon))
    forms.append(w.count("catchup.for-you.short", len(turns), why=why, icon=icon))
    # A phone line, at a big table where the others' moves since need the room.
    forms.append(w.count("catchup.for-you.least", len(turns), icon=icon))
    return forms


def then_line(w: Words, before: str, rest: Sequence[SeenMove], why: str) -> str:
    """``before``, then the moves of the same turn played for other reasons, each stretch
    with why (``why``: the ``catchup.why`` or ``catchup.bit`` words for it; none for the
    player's own moves). A standing order that ends on a double leaves its cover to the
    player; when only one tile covers it, the bot plays that for them (they had no choice),
    and that tile is not the order's: "6-6, then (you had no choice) 11-6 on your train",
    not "your order played 6-6, 11-6"."""
    for reason, stretch in itertools.groupby(rest, key=lambda m: m.played_for):
        what = ", ".join(map(w.bit, stretch))
        if reason in FOR_YOU_ICONS:
            said = w.tr(f"{why}.{reason}")
            before = w.tr("catchup.then", before=before, why=said, what=what)
        else:  # their own move (a tile the bot drew for them fitted: the turn went on)
            before = w.tr("catchup.then.own", before=before, what=what)
    return before


def turn_bits(w: Words, turn: Sequence[SeenMove]) -> str:
    """The moves of one of the others' turns whose moves were played for different reasons
    (at least two), the later ones told apart: "Bob (standing order): 6-6 on their own
    train (double), then (no choice) 11-6 on their own train" (see :func:`then_line`)."""
    first = turn[0].played_for
    cut = next(i for i, m in enumerate(turn) if m.played_for != first)
    return then_line(w, ", ".join(map(w.bit, turn[:cut])), turn[cut:], "catchup.bit")


def earlier_line(w: Words, moves: Sequence[SeenMove]) -> str:
    """The others' moves (at least one) before the reader's last turn, which the bot played
    for them: only counted, in one line, and never named. A turn DM names the rotation since
    their last turn (a turn played for them is a turn), the one they play after; the rotations
    before it would crowd it out at a big table (issue 47: 125 DMs of 786 at 10 seats gave
    every move only as counts), and what in them changed the reader's game is told on its own
    (the tiles on their train, the doubles to cover, the trains opened, the Mexican Train, who
    holds one tile) while the picture shows the table. The count says how much went by
    unseen; ``/mt catchup`` and the channel hold every move."""
    turns = [m for m in w.d.played_for_me if m.applied.turn_over or m.applied.round_over]
    key = "compact.earlier.many" if len(turns) > 1 else "compact.earlier.one"
    return w.tr(key, moves=w.count("compact.moves", len(moves)))


def drew_for_you(w: Words, turn: Sequence[SeenMove]) -> str:
    """ "⏩ You had no choice, so I drew for you: 7-5. It fits: play it." when ``turn`` (played
    for the reader) ended on a draw whose tile fits and it is still their turn; else ""."""
    last = turn[-1]
    d = w.d
    if not isinstance(last.move, Draw) or last.applied.turn_over or d.turn != d.seat:
        return ""
    icon = FOR_YOU_ICONS.get(str(last.played_for), "⏰")
    why = w.tr(f"catchup.why.{last.played_for}")
    tiles = " ".join(str(t) for t in last.applied.drawn)
    if not tiles:  # a digest without the tile (it never lacks it for the reader's own seat)
        return w.tr("catchup.drew-for-you.unnamed", icon=icon, why=why)
    return w.tr("catchup.drew-for-you", icon=icon, why=why, tile=tiles)


def undone_line(w: Words) -> str:
    """The reader's own turns taken back by the host (at least one), a line each."""
    seat = w.d.seat if w.d.seat is not None else -1
    lines = [
        w.tr("catchup.undone.by" if by else "catchup.undone", name=by and shown(by),
             moves=undone_words(moves, seat, w.d.names, w.locale, w.d.seat))
        for by, moves in w.d.undone
    ]  # fmt: skip
    return "\n".join(lines)


def taken_line(w: Words, seats: Sequence[int]) -> str:
    """The seats (at least one, not the reader's) a computer took over."""
    names = w.names([w.name(s) for s in dict.fromkeys(seats)])
    return w.tr("catchup.taken-over", list=names)


def points(w: Words, count: int) -> str:
    return w.count("catchup.count.points", count)


def rounds_forms(w: Words) -> list[str]:
    """The rounds that ended (at least one): each round's line (a summary of more than two),
    the match's end or the new deal, and the standings, in full then shorter."""
    d = w.d
    over = d.rounds_over
    lines = [round_line(w, r.round_no, r.went_out, r.scores) for r in over]
    summary = lines
    if len(over) > 2:
        text = w.tr("catchup.rounds", first=over[0].round_no + 1, last=over[-1].round_no + 1)
        if d.seat is not None:
            scored = sum(r.scores[d.seat] for r in over)
            text += " " + w.tr("catchup.rounds.score", points=points(w, scored))
        summary = [text]
    if d.match_over:
        now = [w.tr("catchup.match-over")]
    elif d.new_round:
        now = [
            w.tr(
                "catchup.dealt",
                round=d.round_no + 1,
                rounds=d.rounds_total,
                engine=str(d.engine),
            )
        ]
    else:
        now = []
    full = [*summary, *now, totals(w)]
    short = [*summary, *now, place(w)]
    least = [summary[-1], place(w)]
    return ["\n".join(full), "\n".join(short), "\n".join(least)]


def round_line(w: Words, round_no: int, went_out: int | None, scores: tuple[int, ...]) -> str:
    if went_out is None:
        text = w.tr("catchup.round.blocked", round=round_no + 1)
    elif went_out == w.d.seat:
        text = w.tr("catchup.round.out.you", round=round_no + 1)
    else:
        text = w.tr("catchup.round.out", round=round_no + 1, name=w.name(went_out))
    if w.d.seat is not None and went_out != w.d.seat:
        text += " " + w.tr("catchup.round.score", points=points(w, scores[w.d.seat]))
    return text


def places(totals: Sequence[int]) -> list[tuple[int, int]]:
    """(place, seat) best first; equal totals share a place."""
    order = sorted(range(len(totals)), key=lambda s: (totals[s], s))
    return [(1 + sum(t < totals[s] for t in totals), s) for s in order]


def totals(w: Words) -> str:
    scores = w.d.totals
    items = [f"{place}. {w.name(s)} {scores[s]}" for place, s in places(scores)]
    return w.tr("catchup.totals", list=" · ".join(items))


def place(w: Words) -> str:
    d = w.d
    ranked = places(d.totals)
    low = min(d.totals)
    leaders = w.names([w.name(s) for p, s in ranked if p == 1], 2)
    if d.seat is None:
        return w.tr("catchup.leading", leaders=leaders, low=low)
    mine = next(p for p, s in ranked if s == d.seat)
    return w.tr(
        "catchup.place",
        place=mine,
        players=len(d.totals),
        total=points(w, d.totals[d.seat]),
        leaders=leaders,
        low=low,
    )
