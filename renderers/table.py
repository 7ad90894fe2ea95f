"""The table picture, made for a phone first: whose turn, then one lane per train.

On a phone Discord shows a picture about 400 px wide, so the canvas is 800 px wide (two
canvas pixels per phone pixel, sharp on a phone's dense screen) and every piece of text is
drawn at 18 px or more: 9 px or more on the phone (``tests/renderers/test_phone.py`` checks
every label the renderer reports). The header says whose turn it is, the round and engine, the
open doubles in the order they must be covered, and the last move; below it one lane per train
(seat order, the Mexican Train last). Up to five players a lane puts its label on a row of its
own above the tiles; from six players on the label stands beside the tiles, so the canvas stays
portrait or near-square for 2 to 10 players. A lane shows its first tiles and its last several
with a "+N" between when the train is too long, and ends in the number the next tile must
match. Tiles carry numerals (over the pips by default, alone in the ``numerals`` mode). The
size depends only on the player count, never on how long trains grow.

Only public fields of the view are read (never ``hand`` or ``visible_hands``), so a spectator
view draws the channel's picture and nothing hidden can leak into it.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.engine import MEXICAN, Play, SeatView, TrainView
from bot.i18n import tr
from renderers import names as names_mod
from renderers import paint, text
from renderers.pieces import (
    display_name,
    draw_sentence,
    fit_train,
    move_sentence,
    oriented,
    plural,
    seat_glyph,
    short_names,
    size_to_fit,
    train_word,
)
from renderers.theme import (
    MEXICAN_COLOUR,
    RGB,
    Theme,
    readable_on,
    seat_colour,
    theme,
)

WIDTH = 800
MARGIN = 16
LANE_GAP = 6
#: Players up to this count get a label row above each lane's tiles; more get a side label.
STACKED_MAX = 5
LABEL_ROW = 38
SIDE_LABEL_W = 252
#: Height the lanes may take in total; the tile size shrinks with the player count to fit.
LANES_BUDGET = 900
MIN_S = 30
MAX_S = {True: 46, False: 40}  # by stacked

Box = tuple[int, int, int, int]


@dataclasses.dataclass(frozen=True, slots=True)
class TableOptions:
    """How to draw the table (everything about *what* to draw comes from the view)."""

    theme: str | Theme = "dark"
    #: Per seat: draw a robot badge by the name (computer players).
    is_computer: Sequence[bool] = ()
    #: Highlight the last move played (outline on its tile and a line in the header).
    show_last_move: bool = True
    #: The labels' language (``en``, ``fr``, or a Discord locale such as ``fr`` / ``en-US``).
    language: str = "en"
    #: How tiles show their numbers: ``pips`` (pips with a numeral, the default) or
    #: ``numerals`` (big black numerals only, the high-contrast choice).
    tiles: str = "pips"
    #: Every lane and the header keep the room of the tallest they may need (a replay's
    #: frames, which must not jump as doubles come); else each only the room it needs.
    steady: bool = False


def stacked(players: int) -> bool:
    return players <= STACKED_MAX


def tile_size(players: int) -> int:
    lanes = players + 1
    extra = LABEL_ROW if stacked(players) else 0
    s = (LANES_BUDGET // lanes - LANE_GAP - extra - 16) // 2
    return max(MIN_S, min(MAX_S[stacked(players)], s))


#: A lane's room for a side label's two lines (the name, the counts under it).
SIDE_LABEL_H = 66


def lane_heights(view: SeatView, options: TableOptions | None = None) -> list[int]:
    """Each lane's height: a train holding a double (which may stand across the lane) gets
    two tile heights; any other, one tile height and the last move's ring around it (issue
    47: the room a standing double needs was kept empty in every lane, up to a third of the
    picture). Never taller than before, so never more than the player count allows."""
    s, label = tile_size(view.players), LABEL_ROW if stacked(view.players) else 0
    steady = options is not None and options.steady
    heights = []
    for train in view.trains:
        tall = steady or any(t.is_double for t in train.tiles)
        body = 2 * s if tall else s + 18
        h = label + body + 16
        heights.append(h if label else max(h, SIDE_LABEL_H))
    return heights


def header_h(view: SeatView, options: TableOptions | None = None) -> int:
    """The header's height: its two rows, and a line each for the open doubles to cover and
    the last move when there are (an empty line's room was kept in every picture)."""
    show_last = options is None or options.show_last_move
    lines = (bool(view.open_doubles) and view.result is None) + (
        show_last and view.last_move is not None
    )
    return 100 + 34 * (2 if options is not None and options.steady else lines)


def _standings_h(view: SeatView) -> int:
    if not view.match_over:
        return 0
    return 62 + math.ceil(view.players / 2) * 34 + 8


def table_size(view: SeatView, options: TableOptions | None = None) -> tuple[int, int]:
    lanes = lane_heights(view, options)
    h = MARGIN + header_h(view, options) + 10 + sum(lanes) + LANE_GAP * (len(lanes) - 1) + MARGIN
    return WIDTH, h + (_standings_h(view) + 10 if view.match_over else 0)


def _ordinal(n: int, lang: str = "en") -> str:
    if n in (1, 2, 3):
        return tr(f"pic.ordinal.{n}", lang)
    return tr("pic.ordinal.n", lang, n=n)


class _Painter:
    def __init__(self, view: SeatView, options: TableOptions) -> None:
        self.view = view
        self.opts = options
        self.lang = options.language
        self.th = theme(options.theme)
        self.mode = paint.tile_mode(options.tiles)
        self.s = tile_size(view.players)
        self.stacked = stacked(view.players)
        w, h = table_size(view, options)
        self.img = Image.new("RGB", (w, h), self.th.background)
        self.d = ImageDraw.Draw(self.img)
        self.header_h = header_h(view, options)
        self.lanes_y = MARGIN + self.header_h + 10
        self.lane_hs = lane_heights(view, options)

    # ------------------------------------------------------------ helpers

    def colour(self, ref: int) -> RGB:
        return MEXICAN_COLOUR if ref == MEXICAN else seat_colour(ref)

    def seat_glyph(self, ref: int, xy: tuple[int, int], size: int) -> None:
        seat_glyph(self.img, self.th, ref, xy, size)

    def t(self, key: str, **params: object) -> str:
        """A label in the picture's language."""
        return tr(key, self.lang, **params)

    def is_computer(self, seat: int) -> bool:
        flags = self.opts.is_computer
        return seat < len(flags) and bool(flags[seat])

    def line(self, xy: tuple[int, int], sentence: str, size: int, room: int, colour: RGB,
             weight: text.Weight = "regular") -> None:  # fmt: skip
        """One of our sentences (names inside it already shortened), fitted to ``room``."""
        draw_sentence(self.d, xy, sentence, size, room, colour, weight)

    # ------------------------------------------------------------ header

    def header(self) -> None:
        v, th, d = self.view, self.th, self.d
        x0, y0, x1 = MARGIN, MARGIN, WIDTH - MARGIN
        paint.rounded(self.img, (x0, y0, x1, y0 + self.header_h), 14, th.lane)
        # Boneyard, top right: a face-down tile and the count.
        count = str(v.boneyard_count)
        cw = text.width(count, 32, "bold")
        text.draw(d, (x1 - 18, y0 + 34), count, 32, th.text, "bold", "rm")
        back = paint.tile_back(th, 15)
        self.img.paste(back, (x1 - 18 - cw - 24, y0 + 34 - 15), back)
        bone = self.t("pic.boneyard")
        text.draw(d, (x1 - 18, y0 + 72), bone, 20, th.muted, anchor="rm")
        right = max(cw + 48, text.width(bone, 20)) + 30
        # Row 1: whose turn (or how the round / match ended).
        room = x1 - x0 - 20 - right
        ty = y0 + 34
        if v.match_over:
            paint.icon(self.img, paint.trophy_mask(30), (x0 + 34, ty), th.open_double)
            short = short_names(v, 30, 260, self.lang)
            names = [short[s] for s in v.winners]
            key = "pic.match-over.one" if len(names) == 1 else "pic.match-over.shared"
            msg = self.t(key, name=names[0], names=" & ".join(names))
            self.line((x0 + 58, ty), msg, 30, room - 40, th.text, "bold")
        elif v.result is not None:
            if v.result.went_out is not None:
                who = short_names(v, 30, room - 250, self.lang)[v.result.went_out]
                msg = self.t("pic.round-over.out", name=who)
            else:
                msg = self.t("pic.round-over.blocked")
            self.line((x0 + 18, ty), msg, 30, room, th.text, "bold")
        elif v.current is not None:
            self.seat_glyph(v.current, (x0 + 34, ty), 30)
            who = short_names(v, 30, room - 200, self.lang)[v.current]
            you = v.seat is not None and v.seat == v.current
            msg = self.t("pic.to-play.you" if you else "pic.to-play", name=who)
            self.line((x0 + 58, ty), msg, 30, room - 40, th.text, "bold")
        # Row 2: the round and its engine.
        sub = self.t("pic.round-engine", round=v.round_no + 1, rounds=v.rounds_total,
                     engine=v.engine, max=v.rules.max_pip)  # fmt: skip
        self.line((x0 + 18, y0 + 72), sub, 22, room, th.muted)
        # Rows 3-4: the open doubles in the order they must be covered, then the last move.
        lines: list[tuple[str, RGB]] = []
        opened = v.open_doubles
        if opened and v.result is None:
            items = [
                f"{o.tiles[-1] if o.tiles else v.engine} {train_word(o.owner, self.lang)}"
                for o in opened
            ]
            lines.append((self.t("pic.open-doubles", list=" → ".join(items)), th.open_double))
        if self.opts.show_last_move and v.last_move is not None:
            lines.append((move_sentence(v, self.lang), th.muted))
        for i, (sentence, colour) in enumerate(lines[:2]):
            weight: text.Weight = "bold" if colour == th.open_double else "regular"
            self.line((x0 + 18, y0 + 110 + i * 34), sentence, 22, x1 - x0 - 36, colour, weight)

    # ------------------------------------------------------------ lanes

    def lane_box(self, i: int) -> Box:
        y0 = self.lanes_y + sum(self.lane_hs[:i]) + i * LANE_GAP
        return (MARGIN, y0, WIDTH - MARGIN, y0 + self.lane_hs[i])

    def lane(self, i: int, train: TrainView) -> None:
        """One train's lane: its label, its tiles, and the end the next tile must match."""
        v, th, img = self.view, self.th, self.img
        box = self.lane_box(i)
        x0, y0, x1, y1 = box
        ref = train.owner
        current = v.current is not None and ref == v.current and v.result is None
        if current:
            accent = seat_colour(ref)
            paint.rounded(img, box, 12, th.lane, accent, 4)
            paint.rounded(img, (x0, y0, x0 + 10, y1), 5, accent)
        else:
            paint.rounded(img, box, 12, th.lane, th.lane_edge, 1)
        shown = tr("pic.mexican", self.lang) if ref == MEXICAN else self.names[ref]
        self.label(i, ref, shown)
        if self.stacked:
            self.tiles(train, (x0 + 14, y0 + LABEL_ROW, x1 - 12, y1))
        else:
            self.tiles(train, (x0 + SIDE_LABEL_W + 6, y0, x1 - 10, y1))

    def label_box(self, i: int) -> Box:
        x0, y0, x1, y1 = self.lane_box(i)
        if self.stacked:
            return (x0 + 14, y0 + 4, x1 - 12, y0 + LABEL_ROW + 4)
        return (x0 + 14, y0, x0 + SIDE_LABEL_W, y1)

    def stats_line(self, ref: int, box: Box) -> tuple[str, int, RGB]:
        """The counts under (or beside) a name, in the largest size from 22 px down that fits
        (cut only below 18 px)."""
        stats, colour = self.stats(ref)
        x0, _y0, x1, _y1 = box
        room = 300 if self.stacked else x1 - x0 - 8
        size = size_to_fit(text.prepare(stats), 22, room)
        return text.fit(stats, size, room, ltr=True), size, colour

    def name_room(self, i: int, ref: int, stats: tuple[str, int, RGB] | None = None) -> int:
        """The width a lane's name may take: what the glyph, the robot badge and (on a label
        row) the counts leave; ``stats``: the lane's :meth:`stats_line`, when already made."""
        x0, _y0, x1, _y1 = box = self.label_box(i)
        room = x1 - x0 - 36
        if ref != MEXICAN and self.is_computer(ref):
            room -= 28
        if self.stacked:
            line, size, _colour = stats or self.stats_line(ref, box)
            room -= text.width(line, size) + 14
        return room

    def lane_names(self) -> list[str]:
        """Each seat's name as its lane shows it: cut to its own room, no two alike."""
        rooms = [0] * self.view.players
        for i, train in enumerate(self.view.trains):
            if train.owner != MEXICAN:
                rooms[train.owner] = self.name_room(i, train.owner)
        names = [display_name(self.view, s, self.lang) for s in range(self.view.players)]
        if self.opts.is_computer:
            # The badge says it already; don't repeat a robot emoji the caller put in the name.
            names = [n.removeprefix("🤖").strip() or n if self.is_computer(s) else n
                     for s, n in enumerate(names)]  # fmt: skip
        return names_mod.distinct(names, 24 if self.stacked else 22, rooms)

    def label(self, i: int, ref: int, shown: str) -> None:
        """Glyph, name and computer badge; the counts beside (label row) or below."""
        th, d = self.th, self.d
        box = self.label_box(i)
        x0, y0, x1, y1 = box
        wide = self.stacked
        cy = (y0 + y1) // 2
        name_y = cy if wide else cy - 14
        self.seat_glyph(ref, (x0 + 14, name_y), 26)
        nx = x0 + 36
        made = self.stats_line(ref, box)
        stats, stats_size, colour = made
        if wide:
            text.draw(d, (x1, name_y), stats, stats_size, colour, anchor="rm")
        if ref != MEXICAN and self.is_computer(ref):
            paint.icon(self.img, paint.robot_mask(22), (nx + 11, name_y - 1), th.muted)
            nx += 28
        size = 24 if wide else 22
        name = text.fit(shown, size, self.name_room(i, ref, made), "bold")
        text.draw(d, (nx, name_y), name, size, th.text, "bold")
        if not wide:
            text.draw(d, (x0 + 4, cy + 16), stats, stats_size, colour)

    def marker_width(self) -> int:
        return 44 + text.width(self.t("pic.marker"), 20, "bold") + 12

    def marker(self, ref: int, x: int, cy: int) -> None:
        """The train's marker (the train is open to everyone), where a player puts it: at the
        train's end. A locomotive pill in the owner's colour with the word, ringed so it shows
        on either theme's lane."""
        colour = self.colour(ref)
        ink = readable_on(colour)
        label = self.t("pic.marker")
        w, h = self.marker_width(), 32
        box = (x, cy - h // 2, x + w, cy + h // 2)
        paint.rounded(self.img, box, h // 2, self.th.glyph_edge)
        paint.rounded(self.img, (x + 2, cy - h // 2 + 2, x + w - 2, cy + h // 2 - 2),
                      h // 2 - 2, colour)  # fmt: skip
        paint.icon(self.img, paint.shape_mask("loco", 26), (x + 22, cy - 1), ink)
        text.draw(self.d, (x + 40, cy), label, 20, ink, "bold")

    def stats(self, seat: int) -> tuple[str, RGB]:
        v, th = self.view, self.th
        if seat == MEXICAN:
            return self.t("pic.open-to-all"), th.muted
        tag = f"@{seat + 1}"
        total = v.totals[seat]
        pts = plural("pic.points", total, self.lang)
        if v.match_over:
            rank = 1 + sum(1 for t in v.totals if t < v.totals[seat])
            return self.t("pic.stats.rank", tag=tag, rank=_ordinal(rank, self.lang), pts=pts), (
                th.muted
            )
        if v.result is not None:
            got = v.result.scores[seat]
            if v.result.went_out == seat:
                return self.t("pic.stats.out", tag=tag, pts=pts), th.playable
            return self.t("pic.stats.round", tag=tag, got=got, pts=pts), th.muted
        n = v.hand_counts[seat]
        tiles = self.t("pic.tiles.last") if n == 1 else plural("pic.tiles", n, self.lang)
        colour = th.danger if n == 1 else th.muted
        return self.t("pic.stats.play", tag=tag, tiles=tiles, pts=pts), colour

    def tiles(self, train: TrainView, box: Box) -> None:
        v, th, s, img = self.view, self.th, self.s, self.img
        x0, y0, x1, y1 = box
        cy = (y0 + y1) // 2
        gap = 8  # 4 px on a phone: tiles in a row must not read as one strip of numbers
        pairs = oriented(v.engine, train.tiles)
        widths = [s if a == b else 2 * s for a, b in pairs]
        slot = s + 4
        chip_w = 60
        marker_w = self.marker_width() + 10 if train.marked else 0
        badge_w = 26 if train.open_double is not None and v.result is None else 0
        avail = x1 - x0 - slot - 10 - marker_w - badge_w
        head, tail = fit_train(widths, gap, avail, chip_w)
        n = len(pairs)
        hidden = n - head - tail
        shown = list(range(head)) + list(range(n - tail, n))
        last_play = self.last_play_index(train)
        x = x0
        for k, idx in enumerate(shown):
            if hidden and k == head:
                self.elision(x, cy, chip_w, hidden)
                x += chip_w + gap
            a, b = pairs[idx]
            double = a == b
            w, h = (s, 2 * s) if double else (2 * s, s)
            ty = cy - h // 2
            # After the round an open double blocks nothing: no frame, no cover order.
            open_here = (
                double and idx == n - 1 and train.open_double is not None and v.result is None
            )
            if open_here:
                paint.rounded(img, (x - 4, ty - 4, x + w + 4, ty + h + 6), 8, th.open_double)
            if idx == last_play:
                # The theme's text colour, which no seat colour comes near; outside an open
                # double's amber frame when the last tile is one.
                paint.rounded(img, (x - 8, ty - 8, x + w + 8, ty + h + 10), 11, None,
                              th.last_move, 3)  # fmt: skip
            paint.paste_tile(img, (x, ty), th, s, a, b, double, self.mode)
            if open_here:
                assert train.open_double is not None
                # The order it must be covered in, just beside the double's top (clear of
                # its numerals), in a gap widened for it.
                paint.badge(img, (x + w + 16, ty + 12), str(train.open_double + 1),
                            th.open_double, 20)  # fmt: skip
                x += 26
            x += w + gap
        # The end the next tile must match.
        x += 8 if shown else 0
        sy = cy - slot // 2
        open_end = train.open_double is not None and v.result is None
        edge = th.open_double if open_end else th.rail
        ink = th.open_double if open_end else th.text
        paint.rounded(img, (x, sy, x + slot, sy + slot), 8, None, edge, 3)
        label = str(train.end)
        size = min(paint.numeral_px(s, train.end, "numerals"), 28)
        text.draw(self.d, (x + slot // 2, cy), label, size, ink, "bold", "mm")
        if train.marked:
            self.marker(train.owner, x + slot + 10, cy)

    def elision(self, x: int, cy: int, w: int, hidden: int) -> None:
        h = 34
        paint.rounded(self.img, (x, cy - h // 2, x + w, cy + h // 2), h // 2, self.th.chip)
        label = f"+{hidden}"
        text.draw(self.d, (x + w // 2, cy), label, 22, self.th.text, "bold", "mm")

    def last_play_index(self, train: TrainView) -> int | None:
        entry = self.view.last_move
        if not self.opts.show_last_move or entry is None or not isinstance(entry.move, Play):
            return None
        ref = entry.move.train
        if train is not self.view.trains[ref] or not train.tiles:
            return None
        return len(train.tiles) - 1 if train.tiles[-1] == entry.move.tile else None

    # ------------------------------------------------------------ match end

    def standings(self) -> None:
        v, th, d = self.view, self.th, self.d
        top = self.lane_box(len(v.trains) - 1)[3] + 10
        box = (MARGIN, top, WIDTH - MARGIN, top + _standings_h(v))
        paint.rounded(self.img, box, 14, th.lane)
        text.draw(d, (MARGIN + 18, top + 30), self.t("pic.final"), 26, th.text, "bold")
        order = sorted(range(v.players), key=lambda s: (s not in v.winners, v.totals[s], s))
        col_w = (WIDTH - 2 * MARGIN - 24) // 2
        widths = {s: text.width(plural("pic.points", v.totals[s], self.lang), 22, "bold")
                  for s in order}  # fmt: skip
        rooms = [col_w - 80 - widths[s] - 12 for s in range(v.players)]
        names = names_mod.distinct(
            [display_name(v, s, self.lang) for s in range(v.players)], 22, rooms
        )
        for k, seat in enumerate(order):
            # Read across, like a list: 1 2 / 3 4 / 5.
            row, col = divmod(k, 2)
            x = MARGIN + 12 + col * col_w
            y = top + 78 + row * 34
            rank = 1 + sum(1 for t in v.totals if t < v.totals[seat])
            if seat in v.winners:
                paint.icon(self.img, paint.trophy_mask(26), (x + 16, y), th.open_double)
            else:
                text.draw(d, (x + 16, y), str(rank), 22, th.muted, "bold", "mm")
            self.seat_glyph(seat, (x + 48, y), 24)
            pts = plural("pic.points", v.totals[seat], self.lang)
            name = text.fit(names[seat], 22, rooms[seat], "bold")
            text.draw(d, (x + 66, y), name, 22, th.text, "bold")
            text.draw(d, (x + col_w - 16, y), pts, 22, th.text, "bold", "rm")

    def paint(self) -> Image.Image:
        self.names = self.lane_names()
        self.header()
        for i, train in enumerate(self.view.trains):
            self.lane(i, train)
        if self.view.match_over:
            self.standings()
        return self.img


def render_table(view: SeatView, options: TableOptions | None = None) -> Image.Image:
    """The table as everyone sees it: an RGB image ``WIDTH`` (800) px wide, its height set by
    the player count, at most (see :func:`table_size`: a lane without a double is shorter).

    ``image.info["theme"]`` names its theme (``to_png`` maps it onto that theme's palette) and
    ``image.info["text_px"]`` lists the (font px, text) of everything written on it.
    """
    opts = options or TableOptions()
    with text.recording() as drawn:
        img = _Painter(view, opts).paint()
    img.info["theme"] = theme(opts.theme)
    img.info["text_px"] = tuple(drawn)
    img.info["text_ink"] = tuple(drawn.inks)
    return img
