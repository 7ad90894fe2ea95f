"""A digest's moves in words: a name, a list of names, a train, one move ("5-3 on the
Mexican Train"), one turn ("Carol: drew, passed (train open)"), a stretch in counts ("Bob
and Carol played 14 tiles").

These are the catch-up's small words, the same in every part of its text; the parts, their
shorter forms and the ladder that meets a character budget are :mod:`bot.ui.catchup`'s.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import MEXICAN, Catch, Done, Draw, Knock, Pass, Play
from bot.i18n import tr, tr_count
from bot.service.digest import Digest, SeenMove
from bot.ui.limits import shown

#: Names written out before "and N others".
NAMES_SHOWN = 3
#: First letters a French "de" elides before ("d'Alice").
VOWELS = frozenset("aeiouyàâäéèêëîïôöùûüœæ")


def turns_of(moves: Sequence[SeenMove]) -> list[list[SeenMove]]:
    """Moves grouped into turns: one seat's moves in a row up to the one that ended its turn
    (a draw and the pass after it are one turn); a knock or a catch stands alone."""
    turns: list[list[SeenMove]] = []
    for m in moves:
        last = turns[-1][-1] if turns else None
        if (
            last is not None
            and last.seat == m.seat
            and last.round_no == m.round_no
            and not (last.applied.turn_over or last.applied.round_over)
            and not isinstance(last.move, Knock | Catch)
            and not isinstance(m.move, Knock | Catch)
        ):
            turns[-1].append(m)
        else:
            turns.append([m])
    return turns


class MoveWords:
    """How one digest's moves are said, in one language (``d``: the digest)."""

    def __init__(self, digest: Digest, locale: str | None) -> None:
        self.d = digest
        self.locale = locale

    def tr(self, key: str, **params: object) -> str:
        return tr(key, self.locale, **params)

    def count(self, key: str, count: int, **params: object) -> str:
        return tr_count(key, count, self.locale, **params)

    def name(self, seat: int, *, robot: bool = False) -> str:
        if seat == self.d.seat:
            return self.tr("catchup.you")
        name = shown(self.d.names[seat])
        return f"{name} 🤖" if robot else name

    def names(self, items: Sequence[str], shown: int = NAMES_SHOWN) -> str:
        """ "A", "A and B", "A, B and C", "A, B, C and 4 others"."""
        if len(items) <= 1:
            return "".join(items)
        if len(items) > shown + 1:
            return self.tr(
                "catchup.names.more", list=", ".join(items[:shown]), count=len(items) - shown
            )
        return self.tr("catchup.names.two", a=", ".join(items[:-1]), b=items[-1])

    def train(self, ref: int, mover: int | None = None) -> str:
        if ref == MEXICAN:
            return self.tr("catchup.train.mexican")
        if ref == self.d.seat:
            return self.tr("catchup.train.yours")
        if ref == mover:
            return self.tr("catchup.train.own")
        name = self.d.names[ref]
        # French elides before a vowel: "le train d'Alice" (English reads the same either way).
        key = "catchup.train.of-vowel" if name[:1].lower() in VOWELS else "catchup.train.of"
        return self.tr(key, name=shown(name))

    def bit(self, m: SeenMove) -> str:
        """One move, short: "5-3 on the Mexican Train", "drew", "passed (train open)"."""
        move = m.move
        if isinstance(move, Play):
            text = self.tr(
                "catchup.bit.play", tile=str(move.tile), train=self.train(move.train, m.seat)
            )
            if m.applied.opened_double:
                text += " " + self.tr("catchup.bit.double")
            return text
        if isinstance(move, Draw):
            return self.tr("catchup.bit.draw")
        if isinstance(move, Pass):
            return self.tr(
                "catchup.bit.pass-open" if m.applied.marker_raised else "catchup.bit.pass"
            )
        if isinstance(move, Done):
            return self.tr("catchup.bit.done")
        if isinstance(move, Knock):
            return self.tr("catchup.bit.knock")
        if isinstance(move, Catch):
            return self.tr("catchup.bit.catch", name=self.name(move.seat), count=m.drawn)
        return str(move)

    def turn(self, turn: Sequence[SeenMove]) -> str:
        """One turn: "Carol: drew, passed (train open)"."""
        first = turn[0]
        bits = ", ".join(self.bit(m) for m in turn)
        who = self.name(first.seat, robot=first.by_computer)
        if first.played_for is not None:
            why = self.tr(f"catchup.bit.{first.played_for}")
            return self.tr("catchup.turn.for", name=who, why=why, bits=bits)
        return self.tr("catchup.turn", name=who, bits=bits)

    @property
    def sep(self) -> str:
        """Between the items of a list of clauses ("; ", and " ; " in French)."""
        return self.tr("catchup.sep")

    def tiles(self, count: int) -> str:
        return self.count("catchup.count.tiles", count)

    def points(self, count: int) -> str:
        return self.count("catchup.count.points", count)

    def tally(self, moves: Sequence[SeenMove]) -> list[str]:
        """A stretch in counts: "Bob and Carol played 14 tiles (3 on the Mexican Train)",
        "Dave drew 4 times", "Carol passed twice"."""
        plays = [m for m in moves if isinstance(m.move, Play)]
        draws = [m for m in moves if isinstance(m.move, Draw)]
        passes = [m for m in moves if isinstance(m.move, Pass)]
        out = []
        if plays:
            who = self.movers(plays)
            text = self.count(
                "catchup.sum.played", len(who), names=self.names(who), tiles=self.tiles(len(plays))
            )
            mexican = sum(1 for m in plays if m.train == MEXICAN)
            if mexican and mexican < len(plays):
                text += " " + self.tr("catchup.sum.mexican", count=mexican)
            elif mexican:
                text += " " + self.tr("catchup.sum.all-mexican")
            out.append(text)
        for kind, group in (("drew", draws), ("passed", passes)):
            if group:
                who = self.movers(group)
                times = self.count("catchup.count.times", len(group))
                out.append(
                    self.count(f"catchup.sum.{kind}", len(who), names=self.names(who), times=times)
                )
        return out

    def movers(self, moves: Sequence[SeenMove]) -> list[str]:
        """The names of who made ``moves``, most moves first."""
        counts: dict[int, int] = {}
        for m in moves:
            counts[m.seat] = counts.get(m.seat, 0) + 1
        order = sorted(counts, key=lambda s: (-counts[s], s))
        return [self.name(s) for s in order]
