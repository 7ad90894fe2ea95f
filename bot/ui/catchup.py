"""The catch-up digest in words: what happened since your last turn, in a character budget.

:func:`catchup_text` turns a :class:`~bot.service.digest.Digest` into a few short lines in
the reader's language: the tiles laid on their own train first, each named (who played
what), then the turns played for them, the round ends and scores, the doubles to cover, the
players down to one tile, the Mexican Train started, the trains opened or closed, the other
moves, and where their own train ends. The text goes where space is counted (a DM beside
other lines, an embed), so it takes a ``budget`` in characters and never exceeds it: the
other moves since the reader's last turn (a turn played for them counts: at most a rotation)
are first told in the fewest words that still name every move ("Bob 5-7 own · Carol drew ·
Dan 9-9 9-4 Mex": a big table's turns, issue 47), those before it only counted; only when
nothing else can give are they summarised ("Bob and Carol played 14 tiles; Dave drew 4
times"), and then the least useful lines go, always whole: a sentence is never cut.

Every part has a few forms, longest first; a ladder (:mod:`bot.ui.catchuporder`) says which
gives up a form next. The news beside the moves (turns played for you, moves taken back,
seats taken over, the rounds ended) is :mod:`bot.ui.catchupmatch`'s, asked only if any.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from bot.engine import MEXICAN, Catch, Done, Draw, Knock, Pass, Play
from bot.i18n import tr, tr_count
from bot.service.digest import Digest, SeenMove, mixed_reasons
from bot.ui import catchupmatch as news
from bot.ui.catchuporder import SEATED_DROP, SEATED_LADDER, SPECTATOR_DROP, SPECTATOR_LADDER
from bot.ui.facts import VOWELS
from bot.ui.limits import shown

#: What a caller that does not say gets: room for the digest beside a few other lines.
DEFAULT_BUDGET = 1000
#: Of a long run on your train, how many of the last tiles are still named.
LAST_NAMED = 3
#: Names written out before "and N others".
NAMES_SHOWN = 3
#: The compact form's own words for these moves (shorter in French: "pioche", not "a pioché").
_COMPACT: dict[type, str] = {Draw: "draw", Done: "done", Knock: "knock"}


@dataclasses.dataclass(slots=True)
class _Part:
    """One part of the text: its forms, longest first (``level`` picks one; past the end,
    the part is left out)."""

    key: str
    forms: list[str]
    level: int = 0

    @property
    def text(self) -> str:
        return self.forms[self.level] if self.level < len(self.forms) else ""


def catchup_text(
    digest: Digest,
    locale: str | None,
    budget: int = DEFAULT_BUDGET,
    *,
    header: bool = True,
    whose_turn: bool = True,
) -> str:
    """The digest in at most ``budget`` characters, in whole lines (empty if not even its
    first line fits). ``header`` starts it with "Since your last turn:" (or what the digest
    covers); ``whose_turn`` ends it with whose turn it is. Leave either out where the message
    says so already (a turn notification names the player to move)."""
    w = _Words(digest, locale, whose_turn=whose_turn)
    ladder: Sequence[str]
    drop: Sequence[str]
    if digest.spectator:
        parts = w.spectator_parts(header)
        ladder, drop = SPECTATOR_LADDER, SPECTATOR_DROP
    else:
        parts = w.seated_parts(header)
        ladder, drop = SEATED_LADDER, SEATED_DROP
    return fit(parts, budget, ladder, drop)


def fit(parts: list[_Part], budget: int, ladder: Sequence[str], drop: Sequence[str]) -> str:
    """Join the parts' chosen forms, shortening along ``ladder`` (a ``-key`` there leaves
    that part out) and then leaving parts out in ``drop`` order until the text is at most
    ``budget`` characters."""
    live = [p for p in parts if p.forms]
    by_key = {p.key: p for p in live}

    def text() -> str:
        return "\n".join(t for t in (p.text for p in live) if t)

    for key in ladder:
        if len(text()) <= budget:
            return text()
        part = by_key.get(key.removeprefix("-"))
        if part is not None and key.startswith("-"):
            part.level = len(part.forms)
        elif part is not None and part.level < len(part.forms) - 1:
            part.level += 1
    for key in drop:
        if len(text()) <= budget:
            return text()
        part = by_key.get(key)
        if part is not None:
            part.level = len(part.forms)
    return text() if len(text()) <= budget else ""


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


class _Words:
    """The sentences of one digest, in one language."""

    def __init__(self, digest: Digest, locale: str | None, *, whose_turn: bool = True) -> None:
        self.d = digest
        self.locale = locale
        self.whose_turn = whose_turn

    def tr(self, key: str, **params: object) -> str:
        return tr(key, self.locale, **params)

    def count(self, key: str, count: int, **params: object) -> str:
        return tr_count(key, count, self.locale, **params)

    # ------------------------------------------------------------------ small words

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
        bits = news.turn_bits(self, turn) if mixed_reasons(turn) else ", ".join(map(self.bit, turn))
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

    # ------------------------------------------------------------------ every move, compact

    def short_train(self, ref: int, mover: int) -> str:
        """A train in a word: "own" (the mover's), "yours", "Mex", "on Gus"."""
        if ref in (MEXICAN, self.d.seat, mover):
            key = {MEXICAN: "mexican", self.d.seat: "yours"}.get(ref, "own")
            return self.tr(f"compact.{key}")
        return self.tr("compact.on", name=self.name(ref))

    def compact_turn(self, turn: Sequence[SeenMove]) -> str:
        """ "Bob 5-7 own", "Dan (away) 9-9, drew, 9-4 Mex, knocked": a turn's plays all on one
        train (a double and its cover, a fast start) name it once, after the last of them;
        else tiles laid in a row on one train share its word."""
        first, bits, run = turn[0], list[str](), list[str]()
        trains = {m.move.train for m in turn if isinstance(m.move, Play)}
        last = max((i for i, m in enumerate(turn) if isinstance(m.move, Play)), default=-1)
        for i, m in enumerate(turn):
            if not isinstance(m.move, Play):
                word = _COMPACT.get(type(m.move))
                bits.append(self.tr(f"compact.{word}") if word else self.bit(m))
                continue
            run.append(str(m.move.tile))
            after = turn[i + 1].move if i + 1 < len(turn) else None
            if isinstance(after, Play) and after.train == m.move.train:
                continue  # the run goes on
            one_train = len(trains) == 1 and i < last  # its word comes after the last tile
            word = "" if one_train else " " + self.short_train(m.move.train, m.seat)
            bits.append(" ".join(run) + word)
            run = []
        who = self.name(first.seat, robot=first.by_computer)
        if first.played_for is not None:
            who += f" ({self.tr(f'catchup.bit.{first.played_for}')})"
        return f"{who} {', '.join(bits)}"

    def compact(self, turns: Sequence[Sequence[SeenMove]]) -> str:
        """Every turn, each move named, on one line: "Bob 5-7 own · Carol drew, passed" (a
        knock or a catch joins the turn of the same player just before it)."""
        merged: list[list[SeenMove]] = []
        for t in turns:
            if merged and merged[-1][-1].seat == t[0].seat and t[0].played_for is None:
                merged[-1] += t
            else:
                merged.append(list(t))
        return self.tr("compact.others", list=" · ".join(self.compact_turn(t) for t in merged))

    # ------------------------------------------------------------------ the parts

    def header(self, on: bool) -> _Part:
        if not on:
            return _Part("header", [])
        if self.d.since == "recent" and self.d.moves:
            text = self.count("catchup.head.recent", len(self.d.moves))
        elif self.d.since == "recent":  # nothing played yet: the deal is all there is
            text = self.tr("catchup.head.start")
        else:
            text = self.tr(f"catchup.head.{self.d.since}")
        return _Part("header", [text])

    def undone(self) -> _Part:
        """Their own turn taken back by the host: said first, it changes what they hold."""
        return _Part("undone", [news.undone_line(self)] if self.d.undone else [])

    def nothing(self) -> _Part:
        d = self.d
        if d.moves or d.rounds_over or d.taken_over:
            return _Part("nothing", [])
        key = "catchup.nothing-yet" if d.since == "start" or d.spectator else "catchup.nothing"
        return _Part("nothing", [self.tr(key)])

    def mine(self) -> _Part:
        on = self.d.on_my_train
        if not on:
            return _Part("mine", [])

        def item(m: SeenMove) -> str:
            tile = str(m.tile)
            if m.applied.opened_double:
                tile += " " + self.tr("catchup.bit.double")
            return self.tr(
                "catchup.mine.item", name=self.name(m.seat, robot=m.by_computer), tile=tile
            )

        # Every tile named first, however many (a big table's); counted only if that is long.
        forms = [self.tr("catchup.mine", list=" · ".join(item(m) for m in on))]
        counts: dict[int, int] = {}
        for m in on:
            counts[m.seat] = counts.get(m.seat, 0) + 1
        order = sorted(counts, key=lambda s: (-counts[s], s))
        who = ", ".join(f"{self.name(s)} {counts[s]}" for s in order[:NAMES_SHOWN])
        if len(order) > NAMES_SHOWN:
            who = self.tr("catchup.names.more", list=who, count=len(order) - NAMES_SHOWN)
        tiles = self.tiles(len(on))
        if len(on) > LAST_NAMED:
            last = " · ".join(item(m) for m in on[-LAST_NAMED:])
            forms.append(self.tr("catchup.mine.sum", tiles=tiles, who=who, list=last))
        forms.append(self.tr("catchup.mine.short", tiles=tiles, who=who))
        return _Part("mine", _unique(forms))

    def for_you(self) -> _Part:
        moves = self.d.played_for_me
        return _Part("for_you", news.for_you_forms(self, turns_of(moves)) if moves else [])

    def earlier(self) -> _Part:
        moves = self.d.earlier
        return _Part("earlier", [news.earlier_line(self, moves)] if moves else [])

    def doubles(self) -> _Part:
        doubles = self.d.open_doubles
        if not doubles:
            return _Part("doubles", [])
        items = [
            self.tr("catchup.bit.play", tile=str(o.tile), train=self.train(o.train))
            for o in doubles
        ]
        forms = [self.count("catchup.doubles", len(items), list=" → ".join(items))]
        if len(items) > 1:
            forms.append(self.tr("catchup.doubles.short", count=len(items), first=items[0]))
        return _Part("doubles", forms)

    def one_tile(self) -> _Part:
        held = self.d.one_tile
        if not held:
            return _Part("one_tile", [])
        knocked = self.tr("catchup.knocked")
        items = [self.name(s) + (f" {knocked}" if k else "") for s, k in held]
        return _Part(
            "one_tile",
            [
                self.tr("catchup.one-tile", list=self.names(items, 5)),
                self.count("catchup.one-tile.short", len(items)),
            ],
        )

    def markers(self) -> _Part:
        d = self.d
        lines = []
        if d.opened:
            lines.append(
                self.tr("catchup.opened", list=self.names([self.train(s) for s in d.opened], 4))
            )
        if d.closed:
            lines.append(
                self.tr("catchup.closed", list=self.names([self.train(s) for s in d.closed], 4))
            )
        return _Part("markers", [" ".join(lines)] if lines else [])

    def mexican(self) -> _Part:
        m = self.d.mexican_started
        if m is None:
            return _Part("mexican", [])
        if m.seat == self.d.seat:
            return _Part("mexican", [self.tr("catchup.mexican.you", tile=str(m.tile))])
        return _Part(
            "mexican", [self.tr("catchup.mexican", name=self.name(m.seat), tile=str(m.tile))]
        )

    def taken(self) -> _Part:
        seats = [t.seat for t in self.d.taken_over if t.seat != self.d.seat]
        return _Part("taken", [news.taken_line(self, seats)] if seats else [])

    def rounds(self) -> _Part:
        if not self.d.rounds_over:
            return _Part("rounds", [])
        return _Part("rounds", _unique(news.rounds_forms(self)))

    def elsewhere(self) -> _Part:
        moves = self.d.elsewhere
        if not moves:
            return _Part("elsewhere", [])
        turns = turns_of(moves)
        # A sentence a turn; every move still named, in fewer words (the ladder's first step,
        # however many turns: issue 47); counted; only how many.
        forms = [self.tr("catchup.others", list=self.sep.join(self.turn(t) for t in turns))]
        forms.append(self.compact(turns))
        tally = self.tally(moves)
        if tally:
            forms.append(self.tr("catchup.others", list=self.sep.join(tally)))
        forms.append(
            self.count("catchup.sum.short", len(moves), names=self.names(self.movers(moves)))
        )
        return _Part("elsewhere", _unique(forms))

    def moves(self) -> _Part:
        """A spectator's last moves: listed turn by turn, else counted."""
        moves = self.d.moves
        if not moves:
            return _Part("moves", [])
        forms = ["\n".join(f"• {self.turn(t)}." for t in turns_of(moves))]
        tally = self.tally(moves)
        if tally:
            forms.append(self.tr("catchup.moves", list=self.sep.join(tally)))
        return _Part("moves", _unique(forms))

    def status(self) -> _Part:
        d = self.d
        lines = []
        if d.seat is not None and d.turn is not None and d.my_end is not None:
            is_open = self.tr("catchup.status.open") if d.my_marked else ""
            key = "catchup.status" if d.my_started else "catchup.status.unstarted"
            lines.append(
                self.tr(key, end=d.my_end, open=is_open, tiles=self.tiles(d.my_tiles or 0))
            )
        if d.turn is not None and self.whose_turn:
            if d.turn == d.seat:
                lines.append(self.tr("catchup.status.your-turn"))
            else:
                lines.append(self.tr("catchup.status.turn", name=self.name(d.turn)))
        if not lines:
            return _Part("status", [])
        forms = ["\n".join(lines), lines[0]]
        if d.seat is not None and d.my_started and d.my_end is not None and d.turn is not None:
            is_open = self.tr("catchup.status.open") if d.my_marked else ""
            forms.append(self.tr("catchup.status.short", end=d.my_end, open=is_open,
                                 tiles=self.tiles(d.my_tiles or 0)))  # fmt: skip
        return _Part("status", _unique(forms))

    def seated_parts(self, header: bool) -> list[_Part]:
        return [
            self.header(header),
            self.undone(),
            self.nothing(),
            self.mine(),
            self.earlier(),
            self.for_you(),
            self.rounds(),
            self.doubles(),
            self.one_tile(),
            self.mexican(),
            self.markers(),
            self.taken(),
            self.elsewhere(),
            self.status(),
        ]

    def spectator_parts(self, header: bool) -> list[_Part]:
        return [
            self.header(header),
            self.nothing(),
            self.moves(),
            self.rounds(),
            self.doubles(),
            self.one_tile(),
            self.mexican(),
            self.markers(),
            self.taken(),
            self.status(),
        ]


def _unique(forms: list[str]) -> list[str]:
    """The forms without repeats (a short stretch's summary can equal its listing)."""
    return list(dict.fromkeys(f for f in forms if f))
