"""A player's own hand: their tiles standing up, the playable ones first and labelled.

This picture answers "what can I do?" at a glance on a phone (800 px wide, every label 18 px or
more: 9 px once scaled to 400 px). Tiles that can be played now come first, grouped by the
train they fit (your own, then the Mexican Train, then marked trains), each labelled with the
train it goes on (``→ @1``, or ``→ Mexican Train`` in the words the texts use, in the reader's
language). An optional train plan (the suggested longest run for your own train) of two
steps or more marks its tiles ``#1``, ``#2``… in playing order, and a line under the header
says so. The rest follow, biggest first, since those are the points you are holding. The size
is bounded: past a few rows the least useful tiles fold into a "+N" chip.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.engine import DONE, DRAW, MEXICAN, PASS, Play, SeatView, Tile
from bot.i18n import tr
from renderers import paint, text
from renderers.pieces import plural, short_names, train_word
from renderers.theme import RGB, Theme, mix, readable_on, seat_colour, seat_shape, theme

WIDTH = 800
MARGIN = 16
S = 46  # half-side of a standing tile
CELL_W = 152
MAX_ROWS = 5  # tile rows across all sections


@dataclasses.dataclass(frozen=True, slots=True)
class HandOptions:
    theme: str | Theme = "dark"
    #: Tiles of a suggested train plan for your own train, in playing order.
    plan: Sequence[Tile] = ()
    #: The labels' language (``en``, ``fr``, or a Discord locale).
    language: str = "en"
    #: How tiles show their numbers: ``pips`` (pips with a numeral, the default) or
    #: ``numerals`` (big black numerals only, the high-contrast choice).
    tiles: str = "pips"
    #: The moves are one tap away in a list under the picture (a turn DM): the hint says to
    #: pick there, not to type a tile and its train.
    pick: bool = False


@dataclasses.dataclass(frozen=True, slots=True)
class _Cell:
    tile: Tile
    targets: tuple[str, ...] = ()
    plan_no: int | None = None


def _target_rank(seat: int, train: int) -> int:
    if train == seat:
        return 0
    if train == MEXICAN:
        return 1
    return 2 + train


#: Section ids, in display order (their titles are ``pic.hand.<id>`` labels).
PLAYABLE, PLAN, OTHER, YOURS = "playable", "plan", "other", "yours"


def marked_plan(view: SeatView, plan: Sequence[Tile]) -> tuple[Tile, ...]:
    """The plan's tiles the picture marks ``#1``, ``#2``… (the ones in the hand, in playing
    order): none once the round is over, when a plan for it means nothing, and none for a
    plan of one step: "#1" and its legend would only repeat "→ @N" under the tile."""
    if view.result is not None or view.hand is None:
        return ()
    held = set(view.hand)
    marked = tuple(t for t in dict.fromkeys(plan) if t in held)
    return marked if len(marked) > 1 else ()


def sections(
    view: SeatView, plan: Sequence[Tile] = (), language: str = "en"
) -> list[tuple[str, list[_Cell]]]:
    """The hand's tiles in display order: (section id, cells) per non-empty section."""
    if view.hand is None or view.seat is None:
        raise ValueError("a spectator has no hand to draw: pass the player's own view")
    seat = view.seat
    targets: dict[Tile, list[int]] = {}
    for move in view.legal:
        if isinstance(move, Play):
            targets.setdefault(move.tile, []).append(move.train)
    plan_no = {t: i + 1 for i, t in enumerate(marked_plan(view, plan))}
    hand = list(dict.fromkeys(view.hand))

    def by_pips(t: Tile) -> tuple[int, int, int]:
        return (-t.pips, -t.high, -t.low)

    playable = sorted(
        (t for t in hand if t in targets),
        key=lambda t: (min(_target_rank(seat, r) for r in targets[t]), *by_pips(t)),
    )
    planned = sorted(
        (t for t in hand if t in plan_no and t not in targets), key=plan_no.__getitem__
    )
    rest = sorted((t for t in hand if t not in targets and t not in plan_no), key=by_pips)

    def cell(t: Tile) -> _Cell:
        refs = sorted(targets.get(t, ()), key=lambda r: _target_rank(seat, r))
        return _Cell(t, tuple(f"→ {_train_name(r, language)}" for r in refs), plan_no.get(t))

    out = [
        (PLAYABLE, [cell(t) for t in playable]),
        (PLAN, [cell(t) for t in planned]),
        (OTHER if playable or planned else YOURS, [cell(t) for t in rest]),
    ]
    return [(title, cells) for title, cells in out if cells]


def _train_name(ref: int, language: str) -> str:
    """A train under a playable tile: ``@N``, or the Mexican Train by the name every text
    gives it ("Mexican Train", "Train mexicain"); the header's hint shows what to type."""
    return tr("train.mexican", language) if ref == MEXICAN else f"@{ref + 1}"


LABEL_W = CELL_W - 12
#: A label shrinks from 22 px down to the picture's floor of 18 px (9 px on a phone) before
#: it is cut.
LABEL_PX = range(22, 17, -1)


def _label_line(label: str, more: str = "") -> tuple[str, int]:
    """One label line, prepared for drawing, at the largest size that fits; at 18 px the
    train's name is cut and the count of the trains not shown (``more``, "+1") kept."""
    whole = text.prepare(f"{label} {more}" if more else label)
    for px in LABEL_PX:
        if text.width(whole, px, "bold") <= LABEL_W:
            return whole, px
    px = LABEL_PX[-1]
    if not more:
        return text.fit(label, px, LABEL_W, "bold"), px
    cut = text.fit(label, px, LABEL_W - text.width(f" {more}", px, "bold"), "bold")
    return f"{cut} {more}", px


def _label_lines(targets: Sequence[str]) -> list[tuple[str, int]]:
    """The lines under a playable tile: a line per train, the second one counting the trains
    not shown ("→ @3 +2"). A lone train too wide for one line ("→ Mexican Train") breaks between its
    words onto the second line rather than lose its end."""

    def fits(label: str) -> bool:
        return text.width(text.prepare(label), LABEL_PX[-1], "bold") <= LABEL_W

    if len(targets) == 1 and not fits(targets[0]):
        words = targets[0].split(" ")
        for k in range(len(words) - 1, 1, -1):  # never "→" alone on a line
            if fits(head := " ".join(words[:k])):
                return [_label_line(head), _label_line(" ".join(words[k:]))]
    more = f"+{len(targets) - 2}" if len(targets) > 2 else ""
    return [_label_line(t, more if i == 1 else "") for i, t in enumerate(targets[:2])]


def _cell_h(cells: Sequence[_Cell]) -> int:
    # A "+N" chip's one short line is a label line like any other.
    lines = max((len(_label_lines(c.targets)) for c in cells), default=0)
    return 2 * S + 12 + 32 + lines * 28 + 12


#: A cell with nothing under its tile but its notation (the other tiles, a hand while
#: waiting): narrower, so seven stand in a row where five did (issue 47: the same tiles in
#: fewer rows, a shorter picture on a phone). Wide enough for "12-12" and a "+N" chip.
NARROW_W = 108


def cell_w(section: str) -> int:
    """A section's cell width: room for the trains under a playable tile, for the badge
    beside a planned one; else narrow."""
    return CELL_W if section in (PLAYABLE, PLAN) else NARROW_W


def per_row(section: str) -> int:
    return (WIDTH - 2 * MARGIN - 8) // cell_w(section)


def _layout(
    view: SeatView, plan: Sequence[Tile], language: str = "en"
) -> list[tuple[str, list[_Cell], int, int, int]]:
    """Sections with their rows and cell height, trimmed to MAX_ROWS rows in total."""
    rows_left = MAX_ROWS
    out = []
    for title, cells in sections(view, plan, language):
        if rows_left <= 0:
            break
        total = len(cells)
        across = per_row(title)
        rows = -(-len(cells) // across)
        if rows > rows_left:
            keep = rows_left * across - 1
            hidden = len(cells) - keep
            cells = [*cells[:keep], _Cell(Tile(0, 0), (f"+{hidden}",), -1)]
            rows = rows_left
        rows_left -= rows
        out.append((title, cells, total, rows, _cell_h(cells)))
    return out


@dataclasses.dataclass(frozen=True, slots=True)
class Drawn:
    """One section as the picture draws it: its id (``playable``, ``plan``, ``other``,
    ``yours``), the tiles shown in their order, and how many fold into a "+N" chip."""

    section: str
    tiles: tuple[Tile, ...]
    folded: int


def drawn_sections(view: SeatView, plan: Sequence[Tile] = (), language: str = "en") -> list[Drawn]:
    """What :func:`render_hand` shows of each section, for the picture's description (which
    must say what the picture shows, no more and no less)."""
    out = []
    for section, cells, _total, _rows, _h in _layout(view, plan, language):
        folded = sum(int(c.targets[0][1:]) for c in cells if c.plan_no == -1)
        out.append(Drawn(section, tuple(c.tile for c in cells if c.plan_no != -1), folded))
    return out


HEADER_H = 112
#: The status line's type size and room in px ("Bob is playing", "Your turn").
STATUS = (24, 300)
LEGEND_H = 36


def _has_plan_badges(layout: Sequence[tuple[str, list[_Cell], int, int, int]]) -> bool:
    """Whether any ``#N`` badge is drawn (a planned tile shown, not folded into "+N"), so the
    legend that explains them appears only beside them."""
    return any(c.plan_no not in (None, -1) for _t, cells, _n, _r, _h in layout for c in cells)


def _size_of(layout: Sequence[tuple[str, list[_Cell], int, int, int]]) -> tuple[int, int]:
    h = MARGIN + HEADER_H + (LEGEND_H if _has_plan_badges(layout) else 0)
    for _title, _cells, _total, rows, cell_h in layout:
        h += 14 + 40 + rows * cell_h
    return WIDTH, h + MARGIN


def _hint(view: SeatView, lang: str = "en", pick: bool = False) -> tuple[str, str]:
    """(status, hint) lines for the header; ``pick``: the moves are in a list beside it."""
    if view.result is not None:
        return tr("pic.hand.round-over", lang), tr("pic.hand.scores-there", lang)
    if view.current is None:
        return "", ""
    if not view.my_turn:
        # The name is cut to the room the sentence leaves it, at the status's own size, so the
        # status is never cut again after the names were told apart ("X_The_Magnificent_…").
        rest = text.width(text.prepare(tr("pic.hand.is-playing", lang, name="")), STATUS[0], "bold")
        who = short_names(view, STATUS[0], STATUS[1] - rest, lang)[view.current]
        return tr("pic.hand.is-playing", lang, name=who), tr("pic.hand.biggest", lang)
    status = tr("pic.hand.your-turn", lang)
    opened = view.open_doubles
    plays = [m for m in view.legal if isinstance(m, Play)]
    if plays:
        example = f"{plays[0].tile} {train_word(plays[0].train, lang)}"
        hint = tr("pic.hand.pick" if pick else "pic.hand.type", lang, example=example)
        if opened:
            tile = opened[0].tiles[-1] if opened[0].tiles else ""
            hint = tr("pic.hand.cover", lang, tile=tile) + hint
        if DONE in view.legal:
            hint += tr("pic.hand.or-done", lang)
    elif DRAW in view.legal:
        hint = tr("pic.hand.draw", lang)
    elif PASS in view.legal:
        hint = tr("pic.hand.pass", lang)
    else:
        hint = ""
    return status, hint


def render_hand(view: SeatView, options: HandOptions | None = None) -> Image.Image:
    """The viewer's hand (``view`` must be a seat's own view, not a spectator's): an RGB image
    800 px wide carrying ``info["theme"]`` and ``info["text_px"]`` like the table's."""
    opts = options or HandOptions()
    with text.recording() as drawn:
        img = _paint(view, opts)
    img.info["theme"] = theme(opts.theme)
    img.info["text_px"] = tuple(drawn)
    img.info["text_ink"] = tuple(drawn.inks)
    return img


def _paint(view: SeatView, opts: HandOptions) -> Image.Image:
    lang = opts.language
    th = theme(opts.theme)
    mode = paint.tile_mode(opts.tiles)
    layout = _layout(view, opts.plan, lang)  # its geometry is the same in every language
    w, h = _size_of(layout)
    img = Image.new("RGB", (w, h), th.background)
    d = ImageDraw.Draw(img)
    assert view.seat is not None and view.hand is not None
    seat = view.seat

    # Header: who you are and how many tiles, your turn or not, and what to do.
    x0, y0, x1 = MARGIN, MARGIN, w - MARGIN
    paint.rounded(img, (x0, y0, x1, y0 + HEADER_H), 14, th.lane)
    paint.glyph(img, seat_shape(seat), (x0 + 32, y0 + 34), 30, seat_colour(seat), th.glyph_edge)
    n = len(view.hand)
    title = plural("pic.hand.title", n, lang, seat=seat + 1)
    status, hint = _hint(view, lang, opts.pick)
    status = text.fit(status, *STATUS, "bold", ltr=True)
    sw = text.width(status, 24, "bold") + 36 if status else 0
    # Beside the "X is playing" chip the title would lose its end (the train's number), so it
    # shrinks first, down to 22 px (11 px on a phone), and is cut only below that.
    room = x1 - x0 - 84 - sw
    title_size = 28
    while title_size > 22 and text.width(text.prepare(title), title_size, "bold") > room:
        title_size -= 1
    shown = text.fit(title, title_size, room, "bold", ltr=True)
    text.draw(d, (x0 + 56, y0 + 34), shown, title_size, th.text, "bold")
    hint_size = 22
    while hint_size > 18 and text.width(text.prepare(hint), hint_size) > x1 - x0 - 36:
        hint_size -= 1
    text.draw(d, (x0 + 18, y0 + 82), text.fit(hint, hint_size, x1 - x0 - 36, ltr=True),
              hint_size, th.muted)  # fmt: skip
    if status:
        accent: RGB = th.playable if view.my_turn else th.chip
        ink = readable_on(th.playable) if view.my_turn else th.text
        right = x1 - 14
        paint.rounded(img, (right - sw, y0 + 14, right, y0 + 54), 20, accent)
        text.draw(d, (right - sw // 2, y0 + 34), status, 24, ink, "bold", "mm")

    y = y0 + HEADER_H
    if _has_plan_badges(layout):
        legend = tr("pic.hand.plan-legend", lang)
        text.draw(d, (x0 + 8, y + 24), text.fit(legend, 20, x1 - x0 - 16, "bold", ltr=True), 20,
                  th.plan, "bold")  # fmt: skip
        y += LEGEND_H
    for section, cells, total, rows, cell_h in layout:
        y += 14
        colour = th.playable if section == PLAYABLE and view.my_turn else th.text
        if section == PLAN:
            colour = th.plan
        title = tr(f"pic.hand.{section}", lang)
        text.draw(d, (x0 + 8, y + 20), f"{title} ({total})", 24, colour, "bold")
        y += 40
        w = cell_w(section)
        for k, c in enumerate(cells):
            row, col = divmod(k, per_row(section))
            x = x0 + 4 + col * w
            cy = y + row * cell_h
            playable = bool(c.targets) and c.plan_no != -1
            _cell(img, d, th, c, (x, cy, cell_h, w), playable, mode)
        y += rows * cell_h
    return img


def _cell(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    th: Theme,
    c: _Cell,
    where: tuple[int, int, int, int],
    playable: bool,
    mode: paint.TileMode,
) -> None:
    x, y, cell_h, w = where
    cx = x + w // 2
    if c.plan_no == -1:  # the "+N" chip
        paint.rounded(img, (cx - 44, y + S - 22, cx + 44, y + S + 22), 22, th.chip)
        text.draw(d, (cx, y + S), c.targets[0], 24, th.text, "bold", "mm")
        return
    box = (x + 4, y, x + w - 4, y + cell_h - 10)
    if playable:
        paint.rounded(img, box, 12, mix(th.background, th.playable, 0.18), th.playable, 2)
    elif c.plan_no is not None:
        paint.rounded(img, box, 12, mix(th.background, th.plan, 0.14), th.plan, 2)
    # A planned tile stands a little left of centre so its badge fits beside it, inside the
    # cell and off the numerals, even as "#10".
    tx = cx - S // 2 - (6 if c.plan_no is not None else 0)
    paint.paste_tile(img, (tx, y + 10), th, S, c.tile.high, c.tile.low, True, mode)
    if c.plan_no is not None:
        # Its place in the train plan (the legend under the header says so).
        label = f"#{c.plan_no}"
        size = 20 if len(label) <= 2 else 18
        bw = text.width(label, size, "bold") + (16 if len(label) <= 2 else 8)
        bx = tx + S + 3
        paint.rounded(img, (bx, y + 12, bx + bw, y + 42), 15, th.plan)
        text.draw(d, (bx + bw // 2, y + 27), label, size, readable_on(th.plan), "bold", "mm")
    ty = y + 10 + 2 * S + 22
    text.draw(d, (cx, ty), str(c.tile), 24, th.text, "bold", "mm")
    for i, (label, px) in enumerate(_label_lines(c.targets)):
        # In the text colour: green on the green-tinted cell would fall under 4.5:1.
        text.draw(d, (cx, ty + 30 + i * 28), label, px, th.text, "bold", "mm")
