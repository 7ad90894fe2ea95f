"""The round-end picture: how the round ended, every player's leftover tiles and points, the
standings after it, and the board as the round left it.

Once a round is over its hands are public (players lay their tiles down to count them), so
this picture shows them all. It is drawn from the spectator's view of the *ended* round, in
which ``visible_hands`` holds every hand; a view of a round still being played is refused, so
no hidden hand can reach it. Like the table it is made for a phone: 800 px wide and every text
18 px or more (9 px once Discord shows it 400 px wide), and its height depends only on the
player count.

Top to bottom: the header (the round and how it ended, or the match's winner); one row per
player, best total first with places shared on ties (a trophy for the match's winners), with
the seat glyph, the name, ``+12 → 30 pts`` and the tiles left in hand standing in a row; then
the board, one compact lane per train (tiles lying, the first ones and the last ones with
``+N`` between), in two columns from six players on. Up to five players a row puts its label
above the tiles, as the table does; from six on the label stands beside them.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.engine import SeatView, Tile, TrainView, standing_places
from bot.i18n import tr
from renderers import names as names_mod
from renderers import paint, text
from renderers.pieces import (
    display_name,
    draw_sentence,
    fit_train,
    oriented,
    plural,
    seat_glyph,
)
from renderers.table import stacked
from renderers.theme import (
    RGB,
    Theme,
    theme,
)

WIDTH = 800
MARGIN = 16
HEADER_H = 112
SECTION_H = 44
GAP = 10
#: Half-side of every tile here: its numerals are 19 px (9.5 px on a phone), the smallest
#: size that still passes the phone test.
S = 30
TILE_GAP = 6
#: A player's row: label row above the tiles (up to five players), or beside them.
LABEL_ROW = 40
ROW_PAD = 10
SIDE_PAD = 6
#: Where a name starts in its row (after the place and the seat glyph), and the room it keeps
#: at least beside the tiles of a side-label row.
NAME_X = 82
NAME_MIN = 200
ROW_GAP = 6
LANE_H = S + 20
LANE_GAP = 6
#: Trains per column of the board: one column up to five players (six trains), then two.
ONE_COLUMN_MAX = 6
CHIP_W = 58


@dataclasses.dataclass(frozen=True, slots=True)
class RoundEndOptions:
    """How to draw the round's end (what to draw comes from the view)."""

    theme: str | Theme = "dark"
    #: Per seat: draw a robot badge by the name (computer players).
    is_computer: Sequence[bool] = ()
    #: The labels' language (``en``, ``fr``, or a Discord locale).
    language: str = "en"
    #: How tiles show their numbers (``pips`` or ``numerals``), as on the table.
    tiles: str = "pips"


def _row_h(players: int) -> int:
    tiles = 2 * S + 2
    if stacked(players):
        return LABEL_ROW + tiles + 2 * ROW_PAD
    return tiles + 2 * SIDE_PAD


def _columns(players: int) -> int:
    return 1 if players + 1 <= ONE_COLUMN_MAX else 2


def _board_h(players: int) -> int:
    rows = math.ceil((players + 1) / _columns(players))
    return SECTION_H + rows * (LANE_H + LANE_GAP) - LANE_GAP


def round_end_size(players: int) -> tuple[int, int]:
    """The picture's size for ``players`` players: it depends on nothing else."""
    rows = players * (_row_h(players) + ROW_GAP) - ROW_GAP
    h = MARGIN + HEADER_H + GAP + SECTION_H + rows + GAP + _board_h(players) + MARGIN
    return WIDTH, h


def places(view: SeatView) -> tuple[int, ...]:
    """Each seat's place after this round: equal totals share one (the winners first)."""
    return standing_places(view.totals, view.winners)


class _Painter:
    def __init__(self, view: SeatView, options: RoundEndOptions) -> None:
        if view.result is None:
            raise ValueError("a round-end picture needs a round that is over")
        self.view = view
        self.result = view.result
        self.opts = options
        self.lang = options.language
        self.th = theme(options.theme)
        self.mode = paint.tile_mode(options.tiles)
        self.stacked = stacked(view.players)
        self.img = Image.new("RGB", round_end_size(view.players), self.th.background)
        self.d = ImageDraw.Draw(self.img)

    def t(self, key: str, **params: object) -> str:
        return tr(key, self.lang, **params)

    def name(self, seat: int) -> str:
        return display_name(self.view, seat, self.lang)

    def names(self, size: int, room: int) -> list[str]:
        """Every seat's name cut to ``room`` px, no two alike (:mod:`renderers.names`)."""
        return names_mod.distinct([self.name(s) for s in range(self.view.players)], size, room)

    def line(self, xy: tuple[int, int], sentence: str, size: int, room: int, colour: RGB,
             weight: text.Weight = "regular", anchor: text.Anchor = "lm") -> int:  # fmt: skip
        """One of our sentences (names in it already shortened), shrunk then cut to fit."""
        return draw_sentence(self.d, xy, sentence, size, room, colour, weight, anchor)

    def glyph(self, ref: int, xy: tuple[int, int], size: int) -> None:
        seat_glyph(self.img, self.th, ref, xy, size)

    # ------------------------------------------------------------ header

    def header(self) -> None:
        v, th = self.view, self.th
        x0, y0, x1 = MARGIN, MARGIN, WIDTH - MARGIN
        paint.rounded(self.img, (x0, y0, x1, y0 + HEADER_H), 14, th.lane)
        room = x1 - x0 - 36
        out = self.result.went_out
        if out is not None:
            who = self.names(22, room // 2)[out]
            how = self.t("pic.re.out", name=who)
        else:
            how = self.t("pic.re.blocked")
        ty = y0 + 36
        if v.match_over:
            paint.icon(self.img, paint.trophy_mask(30), (x0 + 34, ty), th.open_double)
            names = [self.names(30, 260)[s] for s in v.winners]
            key = "pic.match-over.one" if len(names) == 1 else "pic.match-over.shared"
            title = self.t(key, name=names[0] if names else "", names=" & ".join(names))
            self.line((x0 + 58, ty), title, 30, room - 40, th.text, "bold")
            sub = self.t("pic.re.sub-round", round=v.round_no + 1, rounds=v.rounds_total,
                         how=how, engine=v.engine)  # fmt: skip
        else:
            title = self.t("pic.re.title", round=v.round_no + 1, rounds=v.rounds_total)
            self.line((x0 + 18, ty), title, 30, room, th.text, "bold")
            sub = self.t("pic.re.sub", how=how, engine=v.engine)
        colour = th.playable if out is not None else th.open_double
        self.line((x0 + 18, y0 + 80), sub, 22, room, colour, "bold")

    # ------------------------------------------------------------ scores

    def section(self, y: int, title: str, right: str = "") -> None:
        x0, x1 = MARGIN + 8, WIDTH - MARGIN - 8
        cy = y + SECTION_H // 2
        rw = text.width(text.prepare(right), 20) if right else 0
        self.line((x0, cy), title, 24, x1 - x0 - rw - 20, self.th.text, "bold")
        if right:
            self.line((x1, cy), right, 20, 300, self.th.muted, anchor="rm")

    def rows(self, top: int) -> int:
        v = self.view
        ranks = places(v)
        order = sorted(range(v.players), key=lambda s: (ranks[s], s))
        self.section(top, self.t("pic.re.scores"), self.t("pic.re.columns"))
        y = top + SECTION_H
        h = _row_h(v.players)
        # Every name cut in one go, to the room its own row leaves it, so no two players'
        # names are cut alike ("Player with a long name, se…" twice).
        seats = range(v.players)
        shown = names_mod.distinct(
            [self.title(s) for s in seats],
            self.label_size,
            [max(1, self.label_right(s) - self.name_x(s)) for s in seats],
        )
        for seat in order:
            self.row(seat, ranks[seat], shown[seat], (MARGIN, y, WIDTH - MARGIN, y + h))
            y += h + ROW_GAP
        return y - ROW_GAP

    @property
    def label_size(self) -> int:
        return 24 if self.stacked else 22

    def score(self, seat: int) -> str:
        pts = plural("pic.points", self.view.totals[seat], self.lang)
        return self.t("pic.re.points", got=self.result.scores[seat], pts=pts)

    def left_hand(self, seat: int) -> list[Tile]:
        """The tiles ``seat`` was left with, biggest first."""
        return sorted(self.view.visible_hands[seat] or (), key=lambda t: (-t.pips, -t.high))

    def label_right(self, seat: int) -> int:
        """Where ``seat``'s label must stop: before the score (stacked rows) or the tiles."""
        x0, x1 = MARGIN, WIDTH - MARGIN
        if self.stacked:
            return x1 - 16 - text.width(text.prepare(self.score(seat)), 22, "bold") - 16
        room = x1 - 14 - (x0 + NAME_X + NAME_MIN)
        out = self.result.went_out == seat
        return x1 - 14 - self.hand_width(self.left_hand(seat), out, room) - 14

    def is_computer(self, seat: int) -> bool:
        flags = self.opts.is_computer
        return seat < len(flags) and flags[seat]

    def name_x(self, seat: int) -> int:
        """Where ``seat``'s name starts (after the robot badge of a computer player)."""
        return MARGIN + NAME_X + (28 if self.is_computer(seat) else 0)

    def title(self, seat: int) -> str:
        """The name as the row writes it: a computer's robot is drawn, not written."""
        title = self.name(seat)
        if self.is_computer(seat):
            title = title.removeprefix("🤖").strip() or title
        return title

    def row(self, seat: int, place: int, name: str, box: tuple[int, int, int, int]) -> None:
        v, th = self.view, self.th
        x0, y0, x1, y1 = box
        out = self.result.went_out == seat
        won = v.match_over and seat in v.winners
        edge = th.open_double if won else th.playable if out else th.lane_edge
        paint.rounded(self.img, box, 12, th.lane, edge, 3 if won or out else 1)
        score = self.score(seat)
        hand = self.left_hand(seat)
        if self.stacked:
            cy = y0 + ROW_PAD + LABEL_ROW // 2
            text.draw(self.d, (x1 - 16, cy), text.prepare(score), 22, th.text, "bold", "rm")
            self.label(seat, place, won, name, (x0, cy))
            self.hand(hand, out, x0 + 20, y1 - ROW_PAD - S - 1, x1 - 16 - (x0 + 20))
            return
        # Beside the label the tiles stand at the right end, so the name has the room left.
        cy = y0 + SIDE_PAD + 16
        room = x1 - 14 - (x0 + NAME_X + NAME_MIN)
        left = x1 - 14 - self.hand_width(hand, out, room)
        self.label(seat, place, won, name, (x0, cy))
        self.line((x0 + NAME_X, y1 - SIDE_PAD - 16), score, 20, left - 14 - x0 - NAME_X,
                  th.text, "bold")  # fmt: skip
        self.hand(hand, out, left, (y0 + y1) // 2, room)

    def label(self, seat: int, place: int, won: bool, name: str, at: tuple[int, int]) -> None:
        """Place (or a trophy), glyph, computer badge and ``name`` (already cut to fit)."""
        th = self.th
        x, cy = at
        if won:
            paint.icon(self.img, paint.trophy_mask(26), (x + 24, cy), th.open_double)
        else:
            text.draw(self.d, (x + 24, cy), str(place), 22, th.muted, "bold", "mm")
        self.glyph(seat, (x + 60, cy), 26)
        if self.is_computer(seat):
            paint.icon(self.img, paint.robot_mask(22), (self.name_x(seat) - 17, cy - 1), th.muted)
        room = self.label_right(seat) - self.name_x(seat)
        shown = text.fit(name, self.label_size, room, "bold")  # cut already: ordered here
        text.draw(self.d, (self.name_x(seat), cy), shown, self.label_size, th.text, "bold")

    def fit_hand(self, count: int, room: int) -> tuple[int, int]:
        """How many of ``count`` tiles stand in ``room`` px (the rest behind a ``+N`` chip),
        and the width they take."""
        step = S + TILE_GAP
        if count * step - TILE_GAP <= room:
            return count, max(0, count * step - TILE_GAP)
        shown = max(0, (room - CHIP_W) // step)
        return shown, shown * step + CHIP_W

    def hand_width(self, hand: Sequence[Tile], out: bool, room: int) -> int:
        if hand:
            return self.fit_hand(len(hand), room)[1]
        label = text.prepare(self.t("pic.re.went-out") if out else "—")
        return min(room, text.width(label, 20, "bold"))

    def hand(self, hand: Sequence[Tile], out: bool, x: int, cy: int, room: int) -> None:
        """The tiles left in hand standing in a row from ``x``, biggest first, centred on
        ``cy``; what does not fit ``room`` becomes a ``+N`` chip."""
        th = self.th
        if not hand:
            label = self.t("pic.re.went-out") if out else "—"
            self.line((x, cy), label, 20, room, th.playable, "bold")
            return
        shown, _ = self.fit_hand(len(hand), room)
        for tile in hand[:shown]:
            paint.paste_tile(self.img, (x, cy - S - 1), th, S, tile.high, tile.low, True,
                             self.mode)  # fmt: skip
            x += S + TILE_GAP
        if shown < len(hand):
            self.chip(x, cy, len(hand) - shown)

    def chip(self, x: int, cy: int, hidden: int) -> None:
        h = 34
        paint.rounded(self.img, (x, cy - h // 2, x + CHIP_W, cy + h // 2), h // 2, self.th.chip)
        text.draw(self.d, (x + CHIP_W // 2, cy), f"+{hidden}", 22, self.th.text, "bold", "mm")

    # ------------------------------------------------------------ the board

    def board(self, top: int) -> None:
        v = self.view
        self.section(top, self.t("pic.re.board"))
        cols = _columns(v.players)
        col_w = (WIDTH - 2 * MARGIN - (cols - 1) * LANE_GAP) // cols
        rows = math.ceil(len(v.trains) / cols)
        for i, train in enumerate(v.trains):
            col, row = divmod(i, rows)
            x = MARGIN + col * (col_w + LANE_GAP)
            y = top + SECTION_H + row * (LANE_H + LANE_GAP)
            self.lane(train, (x, y, x + col_w, y + LANE_H))

    def lane(self, train: TrainView, box: tuple[int, int, int, int]) -> None:
        v, th = self.view, self.th
        x0, y0, x1, y1 = box
        paint.rounded(self.img, box, 10, th.lane, th.lane_edge, 1)
        cy = (y0 + y1) // 2
        self.glyph(train.owner, (x0 + 24, cy), 26)
        left = x0 + 48
        if not train.tiles:
            self.line((left, cy), self.t("pic.re.no-train"), 20, x1 - left - 10, th.muted)
            return
        pairs = oriented(v.engine, train.tiles)
        widths = [2 * S] * len(pairs)
        head, tail = fit_train(widths, TILE_GAP, x1 - left - 10, CHIP_W)
        hidden = len(pairs) - head - tail
        shown = list(range(head)) + list(range(len(pairs) - tail, len(pairs)))
        x = left
        for k, idx in enumerate(shown):
            if hidden and k == head:
                self.chip(x, cy, hidden)
                x += CHIP_W + TILE_GAP
            a, b = pairs[idx]
            paint.paste_tile(self.img, (x, cy - S // 2 - 1), th, S, a, b, False, self.mode)
            x += 2 * S + TILE_GAP

    def paint(self) -> Image.Image:
        self.header()
        bottom = self.rows(MARGIN + HEADER_H + GAP)
        self.board(bottom + GAP)
        return self.img


def render_round_end(view: SeatView, options: RoundEndOptions | None = None) -> Image.Image:
    """The end of the round in ``view`` (the spectator's view of an ended round: its
    ``visible_hands`` hold every leftover hand) as an RGB image 800 px wide, carrying
    ``info["theme"]`` and ``info["text_px"]`` like the table. Raises ValueError for a round
    that is not over."""
    opts = options or RoundEndOptions()
    with text.recording() as drawn:
        img = _Painter(view, opts).paint()
    img.info["theme"] = theme(opts.theme)
    img.info["text_px"] = tuple(drawn)
    return img
