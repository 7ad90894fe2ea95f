"""The table picture: the engine as a hub, one lane per train, and a header that says whose turn.

The picture is read on a phone between other messages, so it is laid out like a timetable, not
like a real table: the round's engine stands at the left as the hub, rails fan out to one lane
per train (seat order, the Mexican Train last), and each lane reads left to right from the
engine outwards. A lane names its owner with a colour *and* a shape, shows the first tiles and
the last several with a "+N" between when the train is too long, and ends in the pip the next
tile must match. The size depends only on the player count, never on how long trains grow.

Only public fields of the view are read (never ``hand`` or ``visible_hands``), so a spectator
view draws the channel's picture and nothing hidden can leak into it.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.engine import MEXICAN, Catch, Draw, Knock, Pass, Play, SeatView, Tile, TrainView
from bot.i18n import tr
from renderers import paint, text
from renderers.theme import (
    MEXICAN_COLOUR,
    RGB,
    Theme,
    mix,
    readable_on,
    seat_colour,
    seat_shape,
    theme,
)

WIDTH = 1400
MARGIN = 20
HEADER_H = 100
LANE_GAP = 8
LABEL_W = 290
STATUS_W = 142
#: Total height the lanes may take; the tile size shrinks with the player count to fit it.
LANES_BUDGET = 900
MIN_S, MAX_S = 26, 44


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


def display_name(view: SeatView, seat: int, language: str = "en") -> str:
    """The seat's name, or "Player N" when nothing visible is left of it."""
    name = view.names[seat]
    return name if text.clean(name) else tr("pic.player", language, n=seat + 1)


def train_title(view: SeatView, ref: int, language: str = "en") -> str:
    return tr("pic.mexican", language) if ref == MEXICAN else display_name(view, ref, language)


def oriented(engine: Tile, tiles: Sequence[Tile]) -> list[tuple[int, int]]:
    """(inner, outer) pips of each tile, walking out from the engine."""
    out = []
    end = engine.high
    for t in tiles:
        other = t.other(end)
        out.append((end, other))
        end = other
    return out


def tile_size(players: int) -> int:
    lanes = players + 1
    s = (LANES_BUDGET // lanes - LANE_GAP - 16) // 2
    return max(MIN_S, min(MAX_S, s))


def _lane_h(s: int) -> int:
    return 2 * s + 16


def _standings_h(view: SeatView) -> int:
    if not view.match_over:
        return 0
    return 64 + math.ceil(view.players / 5) * 40


def table_size(view: SeatView) -> tuple[int, int]:
    s = tile_size(view.players)
    lanes = view.players + 1
    h = MARGIN + HEADER_H + 14 + lanes * (_lane_h(s) + LANE_GAP) - LANE_GAP + MARGIN
    return WIDTH, h + _standings_h(view)


def fit_train(widths: Sequence[int], gap: int, avail: int, chip: int) -> tuple[int, int]:
    """How many tiles to show from the start and from the end (the rest become "+N")."""
    n = len(widths)
    if sum(widths) + gap * max(0, n - 1) <= avail:
        return n, 0
    best = (1, 0)
    for head in (2, 1):
        budget = avail - sum(widths[:head]) - gap * head - chip - gap
        tail = 0
        used = 0
        while tail < n - head - 1:
            w = widths[n - 1 - tail] + (gap if tail else 0)
            if used + w > budget:
                break
            used += w
            tail += 1
        best = (head, tail)
        if tail >= 4:
            break
    return best


def _move_sentence(view: SeatView, lang: str = "en") -> str:
    entry = view.last_move
    if entry is None:
        return ""
    who = text.shorten(display_name(view, entry.seat, lang), 18, 240)
    move = entry.move
    if isinstance(move, Play):
        if move.train == MEXICAN:
            where = tr("pic.where.mexican", lang)
        elif move.train == entry.seat:
            where = tr("pic.where.own", lang)
        else:
            owner = text.shorten(display_name(view, move.train, lang), 18, 200)
            where = tr("pic.train-of", lang, name=owner)
        return tr("pic.last.play", lang, name=who, tile=move.tile, where=where)
    if isinstance(move, Draw):
        return tr("pic.last.draw", lang, name=who)
    if isinstance(move, Pass):
        return tr("pic.last.pass", lang, name=who)
    if isinstance(move, Knock):
        return tr("pic.last.knock", lang, name=who)
    if isinstance(move, Catch):
        caught = text.shorten(display_name(view, move.seat, lang), 18, 200)
        return tr("pic.last.catch", lang, name=who, caught=caught)
    return tr("pic.last.done", lang, name=who)


def _size_to_fit(label: str, size: int, room: int, weight: text.Weight = "regular") -> int:
    """The largest font size up to ``size`` at which ``label`` fits ``room`` (a longer
    translation shrinks rather than run into its neighbour)."""
    while size > 12 and text.width(label, size, weight) > room:
        size -= 1
    return size


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
        self.s = tile_size(view.players)
        w, h = table_size(view)
        self.img = Image.new("RGB", (w, h), self.th.background)
        self.d = ImageDraw.Draw(self.img)
        self.lane_x = MARGIN + round(self.s * 1.45) + 56
        self.lanes_y = MARGIN + HEADER_H + 14

    # ------------------------------------------------------------ helpers

    def colour(self, ref: int) -> RGB:
        return MEXICAN_COLOUR if ref == MEXICAN else seat_colour(ref)

    def seat_glyph(self, ref: int, xy: tuple[int, int], size: int) -> None:
        edge = self.th.glyph_edge
        if ref == MEXICAN:
            # The Mexican Train's black engine sits on a light disc so it shows on dark lanes.
            disc = size + 4
            self.img.paste(
                (236, 236, 236), (xy[0] - disc // 2, xy[1] - disc // 2),
                paint.rounded_mask(disc, disc, disc // 2),
            )  # fmt: skip
            paint.icon(self.img, paint.shape_mask("loco", size - 4), xy, MEXICAN_COLOUR)
            return
        paint.glyph(self.img, seat_shape(ref), xy, size, seat_colour(ref), edge)

    def t(self, key: str, **params: object) -> str:
        """A label in the picture's language."""
        return tr(key, self.lang, **params)

    def name(self, seat: int) -> str:
        return display_name(self.view, seat, self.lang)

    def is_computer(self, seat: int) -> bool:
        flags = self.opts.is_computer
        return seat < len(flags) and bool(flags[seat])

    # ------------------------------------------------------------ header

    def header(self) -> None:
        v, th, d = self.view, self.th, self.d
        x, y = MARGIN, MARGIN
        paint.rounded(self.img, (x, y, WIDTH - MARGIN, y + HEADER_H), 14, th.lane)
        # Round and engine.
        title = self.t("pic.round", round=v.round_no + 1, rounds=v.rounds_total)
        text.draw(d, (x + 20, y + 30), title, 30, th.text, "bold")
        sub = self.t("pic.engine-line", engine=v.engine, max=v.rules.max_pip)
        text.draw(d, (x + 20, y + 70), sub, _size_to_fit(sub, 19, 266), th.muted)
        # Boneyard, on the right.
        bx = WIDTH - MARGIN - 26
        count = str(v.boneyard_count)
        cw = text.width(count, 30, "bold")
        text.draw(d, (bx, y + 32), count, 30, th.text, "bold", "rm")
        text.draw(d, (bx, y + 70), self.t("pic.boneyard"), 19, th.muted, anchor="rm")
        back = paint.tile_back(th, 22)
        self.img.paste(back, (bx - cw - 34, y + 32 - 22), back)
        # Turn, last move, open doubles, in the middle.
        mx = x + 300
        mw = WIDTH - MARGIN - 220 - mx
        line1_y = y + 28
        if v.match_over:
            self.match_over_line(mx, line1_y, mw)
        elif v.result is not None:
            if v.result.went_out is not None:
                who = text.shorten(self.name(v.result.went_out), 26, mw - 260, "bold")
                msg = self.t("pic.round-over.out", name=who)
            else:
                msg = self.t("pic.round-over.blocked")
            text.draw(
                d, (mx, line1_y), text.fit(msg, 26, mw, "bold", ltr=True), 26, th.text, "bold"
            )
        elif v.current is not None:
            self.seat_glyph(v.current, (mx + 14, line1_y), 28)
            who = text.shorten(self.name(v.current), 26, mw - 200, "bold")
            you = v.seat is not None and v.seat == v.current
            msg = self.t("pic.to-play.you" if you else "pic.to-play", name=who)
            msg = text.fit(msg, 26, mw - 40, "bold", ltr=True)
            text.draw(d, (mx + 38, line1_y), msg, 26, th.text, "bold")
        lines: list[tuple[str, RGB]] = []
        if self.opts.show_last_move and v.last_move is not None:
            lines.append((_move_sentence(v, self.lang), th.muted))
        opened = v.open_doubles
        if opened and v.result is None:
            first = opened[0]
            if first.owner == MEXICAN:
                owner = self.t("pic.owner.mexican")
            else:
                owner = self.t("pic.train-of", name=text.shorten(self.name(first.owner), 19, 220))
            dbl = first.tiles[-1] if first.tiles else v.engine
            more = self.t("pic.open-double.more", n=len(opened) - 1) if len(opened) > 1 else ""
            line = self.t("pic.open-double", tile=dbl, owner=owner, more=more)
            lines.insert(0, (line, th.open_double))
        for i, (line, colour) in enumerate(lines[:2]):
            text.draw(d, (mx, y + 62 + i * 24), text.fit(line, 19, mw, ltr=True), 19, colour)

    def match_over_line(self, x: int, y: int, w: int) -> None:
        v, th = self.view, self.th
        paint.icon(self.img, paint.trophy_mask(30), (x + 15, y), th.open_double)
        names = [text.shorten(self.name(s), 26, 260, "bold") for s in v.winners]
        if len(names) == 1:
            msg = self.t("pic.match-over.one", name=names[0])
        else:
            msg = self.t("pic.match-over.shared", names=" & ".join(names))
        text.draw(
            self.d, (x + 40, y), text.fit(msg, 26, w - 40, "bold", ltr=True), 26, th.text, "bold"
        )

    # ------------------------------------------------------------ hub and lanes

    def lane_box(self, i: int) -> tuple[int, int, int, int]:
        h = _lane_h(self.s)
        y0 = self.lanes_y + i * (h + LANE_GAP)
        return (self.lane_x, y0, WIDTH - MARGIN, y0 + h)

    def hub(self) -> None:
        v, th, s = self.view, self.th, self.s
        n = len(v.trains)
        first, last = self.lane_box(0), self.lane_box(n - 1)
        cy = (first[1] + last[3]) // 2
        big = round(s * 1.45)
        hx = MARGIN + 8
        # Rails: anti-aliased lines from the hub to every lane.
        x0 = hx + big // 2
        top, bottom = first[1], last[3]
        ys = tuple((b[1] + b[3]) // 2 - top for b in map(self.lane_box, range(n)))
        mask = _rails(self.lane_x - x0, bottom - top, cy - top, ys)
        self.img.paste(th.rail, (x0, top), mask)
        # The engine: a big double standing at the hub.
        sprite = paint.tile_sprite(th, big, v.engine.high, v.engine.low, True)
        self.img.paste(sprite, (hx, cy - big), sprite)
        label = self.t("pic.engine")
        size = _size_to_fit(label, 18, 2 * (hx + big // 2) - 4, "bold")
        text.draw(self.d, (hx + big // 2, cy + big + 22), label, size, th.muted, "bold", "mm")

    def lane(self, i: int, train: TrainView) -> None:
        v, th, img = self.view, self.th, self.img
        box = self.lane_box(i)
        x0, y0, x1, y1 = box
        cy = (y0 + y1) // 2
        ref = train.owner
        current = v.current is not None and ref == v.current and v.result is None
        if current:
            accent = seat_colour(ref)
            paint.rounded(img, box, 14, mix(th.lane, accent, 0.12), accent, 3)
            # A pointer in the rails' gap: "this one".
            pts = [(x0 - 16, cy - 11), (x0 - 3, cy), (x0 - 16, cy + 11)]
            self.d.polygon(pts, fill=accent)
        else:
            paint.rounded(img, box, 14, th.lane, th.lane_edge, 1)
        self.label(ref, train, (x0, y0, x0 + LABEL_W, y1), current)
        # Status column: marker and open-double pills.
        self.status(train, (x1 - STATUS_W, y0, x1, y1))
        # Lanes without pills lend their status column to the tiles.
        busy = train.marked or train.open_double is not None
        self.tiles(i, train, (x0 + LABEL_W, y0, x1 - (STATUS_W + 8 if busy else 16), y1))

    def label(self, ref: int, train: TrainView, box: Box, current: bool) -> None:
        v, th, d = self.view, self.th, self.d
        x0, y0, x1, y1 = box
        cy = (y0 + y1) // 2
        self.seat_glyph(ref, (x0 + 30, cy), 32)
        nx = x0 + 56
        room = x1 - nx - 12
        small = self.s < 34
        name_size = 20 if small else 22
        line1, line2 = cy - (11 if small else 13), cy + (13 if small else 15)
        title = train_title(v, ref, self.lang)
        if ref != MEXICAN and self.is_computer(ref):
            paint.icon(self.img, paint.robot_mask(20), (nx + 10, line1 - 1), th.muted)
            nx += 26
            room -= 26
            # The badge says it already; don't repeat a robot emoji the caller put in the name.
            title = title.removeprefix("🤖").strip() or title
        name = text.fit(title, name_size, room, "bold")
        text.draw(d, (nx, line1), name, name_size, th.text, "bold")
        nx = x0 + 56
        if ref == MEXICAN:
            text.draw(d, (nx, line2), self.t("pic.open-to-all"), 18, th.muted)
            return
        stats, colour = self.stats(ref)
        text.draw(d, (nx, line2), text.fit(stats, 18, x1 - nx - 12, ltr=True), 18, colour)

    def stats(self, seat: int) -> tuple[str, RGB]:
        v, th = self.view, self.th
        tag = f"@{seat + 1}"
        total = v.totals[seat]
        if v.match_over:
            rank = 1 + sum(1 for t in v.totals if t < v.totals[seat])
            return self.t("pic.stats.rank", tag=tag, rank=_ordinal(rank, self.lang), total=total), (
                th.muted
            )
        if v.result is not None:
            got = v.result.scores[seat]
            if v.result.went_out == seat:
                return self.t("pic.stats.out", tag=tag, total=total), th.playable
            return self.t("pic.stats.round", tag=tag, got=got, total=total), th.muted
        n = v.hand_counts[seat]
        tiles = self.t("pic.tiles.one") if n == 1 else self.t("pic.tiles.many", n=n)
        colour = th.danger if n == 1 else th.muted
        return self.t("pic.stats.play", tag=tag, tiles=tiles, total=total), colour

    def status(self, train: TrainView, box: Box) -> None:
        th, img = self.th, self.img
        x0, y0, x1, y1 = box
        cy = (y0 + y1) // 2
        pills: list[str] = []
        if train.open_double is not None:
            pills.append("double")
        if train.marked:
            pills.append("marker")
        ph = 30
        total = len(pills) * ph + (len(pills) - 1) * 6
        py = cy - total // 2
        for kind in pills:
            pb = (x0, py, x1 - 12, py + ph)
            if kind == "marker":
                colour = self.colour(train.owner)
                ink = readable_on(colour)
                paint.rounded(img, pb, ph // 2, colour)
                paint.icon(img, paint.shape_mask("loco", 30), (x0 + 21, py + ph // 2 - 1), ink)
                label = self.t("pic.marker")
                size = _size_to_fit(label, 18, pb[2] - x0 - 48, "bold")
                text.draw(self.d, (x0 + 40, py + ph // 2), label, size, ink, "bold")
            else:
                assert train.open_double is not None
                paint.rounded(img, pb, ph // 2, th.open_double)
                label = self.t("pic.double-nth", nth=_ordinal(train.open_double + 1, self.lang))
                room = pb[2] - pb[0] - 16
                size = 18 if text.width(label, 18, "bold") <= room else 16
                mid = ((pb[0] + pb[2]) // 2, py + ph // 2)
                text.draw(self.d, mid, label, size, (24, 24, 24), "bold", "mm")
            py += ph + 6

    def tiles(self, i: int, train: TrainView, box: Box) -> None:
        v, th, s, img = self.view, self.th, self.s, self.img
        x0, y0, x1, y1 = box
        cy = (y0 + y1) // 2
        gap = 3
        pairs = oriented(v.engine, train.tiles)
        widths = [s if a == b else 2 * s for a, b in pairs]
        slot = s
        chip_w = 74
        avail = x1 - x0 - 4 - slot - 10
        head, tail = fit_train(widths, gap, avail, chip_w)
        n = len(pairs)
        hidden = n - head - tail
        shown = list(range(head)) + list(range(n - tail, n))
        last_play = self.last_play_index(train)
        x = x0 + 4
        for k, idx in enumerate(shown):
            if hidden and k == head:
                self.elision(x, cy, chip_w, hidden)
                x += chip_w + gap
            a, b = pairs[idx]
            double = a == b
            w, h = (s, 2 * s) if double else (2 * s, s)
            ty = cy - h // 2
            open_here = double and idx == n - 1 and train.open_double is not None
            if open_here:
                paint.rounded(img, (x - 4, ty - 4, x + w + 4, ty + h + 6), 8, th.open_double)
            if idx == last_play:
                paint.rounded(img, (x - 4, ty - 4, x + w + 4, ty + h + 6), 8, None, th.last_move, 3)
            paint.paste_tile(img, (x, ty), th, s, a, b, double)
            if open_here:
                assert train.open_double is not None
                paint.badge(img, (x + w, ty + 2), str(train.open_double + 1), th.open_double, 17)
            x += w + gap
        # The end the next tile must match.
        x += 6
        sy = cy - slot // 2
        open_end = train.open_double is not None
        edge = th.open_double if open_end else th.rail
        ink = th.open_double if open_end else th.muted
        paint.rounded(img, (x, sy, x + slot, sy + slot), 7, None, edge, 2)
        label = str(train.end)
        text.draw(self.d, (x + slot // 2, cy), label, 20 if s >= 34 else 18, ink, "bold", "mm")

    def elision(self, x: int, cy: int, w: int, hidden: int) -> None:
        th = self.th
        h = 34
        paint.rounded(self.img, (x, cy - h // 2, x + w, cy + h // 2), h // 2, th.chip)
        label = f"+{hidden}"
        size = 20 if text.width(label, 20, "bold") <= w - 12 else 17
        text.draw(self.d, (x + w // 2, cy), label, size, th.text, "bold", "mm")

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
        top = self.lane_box(len(v.trains) - 1)[3] + 14
        box = (MARGIN, top, WIDTH - MARGIN, top + _standings_h(v) - 14)
        paint.rounded(self.img, box, 14, th.lane)
        text.draw(d, (MARGIN + 20, top + 26), self.t("pic.final"), 22, th.text, "bold")
        order = sorted(range(v.players), key=lambda s: (s not in v.winners, v.totals[s], s))
        col_w = (WIDTH - 2 * MARGIN - 40) // 5
        for k, seat in enumerate(order):
            row, col = divmod(k, 5)
            x = MARGIN + 20 + col * col_w
            y = top + 64 + row * 40
            rank = 1 + sum(1 for t in v.totals if t < v.totals[seat])
            if seat in v.winners:
                paint.icon(self.img, paint.trophy_mask(24), (x + 12, y), th.open_double)
            else:
                text.draw(d, (x + 12, y), str(rank), 20, th.muted, "bold", "mm")
            self.seat_glyph(seat, (x + 42, y), 24)
            pts = f"{v.totals[seat]}"
            pw = text.width(pts, 20, "bold")
            name = text.fit(self.name(seat), 20, col_w - 70 - pw - 24, "bold")
            text.draw(d, (x + 60, y), name, 20, th.text, "bold")
            text.draw(d, (x + col_w - 24, y), pts, 20, th.text, "bold", "rm")

    def paint(self) -> Image.Image:
        self.header()
        self.hub()
        for i, train in enumerate(self.view.trains):
            self.lane(i, train)
        if self.view.match_over:
            self.standings()
        return self.img


Box = tuple[int, int, int, int]


@functools.lru_cache(maxsize=64)
def _rails(w: int, h: int, hub_y: int, lane_ys: tuple[int, ...]) -> Image.Image:
    """The rails' mask: from the hub, across, then fanning out to each lane's middle."""
    ss = paint.SS
    mask = Image.new("L", (w * ss, h * ss), 0)
    md = ImageDraw.Draw(mask)
    knee = w * 0.45 * ss
    md.line([(0, hub_y * ss), (knee, hub_y * ss)], fill=255, width=3 * ss)
    for ly in lane_ys:
        md.line([(knee, hub_y * ss), (w * ss, ly * ss)], fill=255, width=3 * ss)
    return mask.resize((w, h), Image.Resampling.LANCZOS)


def render_table(view: SeatView, options: TableOptions | None = None) -> Image.Image:
    """The table as everyone sees it: an RGB image ``WIDTH`` wide, its height set by the
    player count alone (see :func:`table_size`)."""
    return _Painter(view, options or TableOptions()).paint()
