"""A player's own hand: their tiles standing up, the playable ones first and labelled.

This picture answers "what can I do?" at a glance: tiles that can be played now come first,
grouped by the train they fit (your own, then the Mexican Train, then marked trains), each
labelled with the exact words to type (``12-5`` and ``→ mexican``). An optional train plan
(the suggested longest run for your own train) is numbered in order. The rest follow, biggest
first, since those are the points you are holding. The size is bounded: past a few rows the
least useful tiles fold into a "+N more" chip.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.engine import DONE, DRAW, MEXICAN, PASS, Play, SeatView, Tile, train_name
from bot.i18n import tr
from renderers import paint, text
from renderers.table import display_name
from renderers.theme import RGB, Theme, mix, seat_colour, seat_shape, theme

WIDTH = 1200
MARGIN = 20
S = 44  # half-side of a standing tile
CELL_W = 124
MAX_ROWS = 5  # tile rows across all sections


@dataclasses.dataclass(frozen=True, slots=True)
class HandOptions:
    theme: str | Theme = "dark"
    #: Tiles of a suggested train plan for your own train, in playing order.
    plan: Sequence[Tile] = ()
    #: The labels' language (``en``, ``fr``, or a Discord locale).
    language: str = "en"


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


def sections(view: SeatView, plan: Sequence[Tile] = ()) -> list[tuple[str, list[_Cell]]]:
    """The hand's tiles in display order: (section id, cells) per non-empty section."""
    if view.hand is None or view.seat is None:
        raise ValueError("a spectator has no hand to draw: pass the player's own view")
    seat = view.seat
    targets: dict[Tile, list[int]] = {}
    for move in view.legal:
        if isinstance(move, Play):
            targets.setdefault(move.tile, []).append(move.train)
    plan_no = {t: i + 1 for i, t in enumerate(dict.fromkeys(plan)) if t in view.hand}
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
        return _Cell(t, tuple(f"→ {train_name(r)}" for r in refs), plan_no.get(t))

    out = [
        (PLAYABLE, [cell(t) for t in playable]),
        (PLAN, [cell(t) for t in planned]),
        (OTHER if playable or planned else YOURS, [cell(t) for t in rest]),
    ]
    return [(title, cells) for title, cells in out if cells]


def _cell_h(cells: Sequence[_Cell]) -> int:
    lines = max((min(2, len(c.targets)) for c in cells), default=0)
    return 2 * S + 12 + 26 + lines * 22 + 10


def _layout(view: SeatView, plan: Sequence[Tile]) -> list[tuple[str, list[_Cell], int, int, int]]:
    """Sections with their rows and cell height, trimmed to MAX_ROWS rows in total."""
    per_row = (WIDTH - 2 * MARGIN - 24) // CELL_W
    rows_left = MAX_ROWS
    out = []
    for title, cells in sections(view, plan):
        if rows_left <= 0:
            break
        total = len(cells)
        rows = -(-len(cells) // per_row)
        if rows > rows_left:
            keep = rows_left * per_row - 1
            hidden = len(cells) - keep
            cells = [*cells[:keep], _Cell(Tile(0, 0), (f"+{hidden}",), -1)]
            rows = rows_left
        rows_left -= rows
        out.append((title, cells, total, rows, _cell_h(cells)))
    return out


HEADER_H = 96


def hand_size(view: SeatView, plan: Sequence[Tile] = ()) -> tuple[int, int]:
    h = MARGIN + HEADER_H
    for _title, _cells, _total, rows, cell_h in _layout(view, plan):
        h += 16 + 36 + rows * cell_h
    return WIDTH, h + MARGIN


def _hint(view: SeatView, lang: str = "en") -> tuple[str, str]:
    """(status, hint) lines for the header."""
    if view.result is not None:
        return tr("pic.hand.round-over", lang), tr("pic.hand.scores-there", lang)
    if view.current is None:
        return "", ""
    if not view.my_turn:
        who = text.shorten(display_name(view, view.current, lang), 22, 300, "bold")
        return tr("pic.hand.is-playing", lang, name=who), tr("pic.hand.biggest", lang)
    status = tr("pic.hand.your-turn", lang)
    opened = view.open_doubles
    plays = [m for m in view.legal if isinstance(m, Play)]
    if plays:
        hint = tr("pic.hand.type", lang, example=str(plays[0]))
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
    """The viewer's hand (``view`` must be a seat's own view, not a spectator's)."""
    opts = options or HandOptions()
    lang = opts.language
    th = theme(opts.theme)
    layout = _layout(view, opts.plan)
    w, h = hand_size(view, opts.plan)
    img = Image.new("RGB", (w, h), th.background)
    d = ImageDraw.Draw(img)
    assert view.seat is not None and view.hand is not None
    seat = view.seat

    # Header.
    paint.rounded(img, (MARGIN, MARGIN, w - MARGIN, MARGIN + HEADER_H), 14, th.lane)
    paint.glyph(img, seat_shape(seat), (MARGIN + 30, MARGIN + 32), 30, seat_colour(seat),
                th.glyph_edge)  # fmt: skip
    n = len(view.hand)
    title = tr("pic.hand.title.one" if n == 1 else "pic.hand.title.many", lang, n=n, seat=seat + 1)
    status, hint = _hint(view, lang)
    status = text.fit(status, 22, 420, "bold", ltr=True)
    sw = text.width(status, 22, "bold") + 32 if status else 0
    shown = text.fit(title, 26, w - 2 * MARGIN - 120 - sw, "bold", ltr=True)
    text.draw(d, (MARGIN + 56, MARGIN + 32), shown, 26, th.text, "bold")
    text.draw(
        d,
        (MARGIN + 20, MARGIN + 72),
        text.fit(hint, 19, w - 2 * MARGIN - 40, ltr=True),
        19,
        th.muted,
    )
    if status:
        accent: RGB = th.playable if view.my_turn else th.chip
        ink = (255, 255, 255) if view.my_turn else th.text
        x1 = w - MARGIN - 16
        paint.rounded(img, (x1 - sw, MARGIN + 16, x1, MARGIN + 50), 17, accent)
        text.draw(d, (x1 - sw // 2, MARGIN + 33), status, 22, ink, "bold", "mm")

    y = MARGIN + HEADER_H
    for section, cells, total, rows, cell_h in layout:
        y += 16
        colour = th.playable if section == PLAYABLE and view.my_turn else th.text
        if section == PLAN:
            colour = th.plan
        title = tr(f"pic.hand.{section}", lang)
        text.draw(d, (MARGIN + 8, y + 16), f"{title} ({total})",
                  21, colour, "bold")  # fmt: skip
        y += 36
        per_row = (w - 2 * MARGIN - 24) // CELL_W
        for k, c in enumerate(cells):
            row, col = divmod(k, per_row)
            x = MARGIN + 12 + col * CELL_W
            cy = y + row * cell_h
            _cell(img, d, th, c, x, cy, cell_h, playable=bool(c.targets) and c.plan_no != -1)
        y += rows * cell_h
    return img


def _cell(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    th: Theme,
    c: _Cell,
    x: int,
    y: int,
    cell_h: int,
    playable: bool,
) -> None:
    cx = x + CELL_W // 2
    if c.plan_no == -1:  # the "+N more" chip
        paint.rounded(img, (cx - 40, y + S - 20, cx + 40, y + S + 20), 20, th.chip)
        text.draw(d, (cx, y + S), c.targets[0], 20, th.text, "bold", "mm")
        return
    box = (x + 4, y, x + CELL_W - 4, y + cell_h - 8)
    if playable:
        paint.rounded(img, box, 12, mix(th.background, th.playable, 0.18), th.playable, 2)
    elif c.plan_no is not None:
        paint.rounded(img, box, 12, mix(th.background, th.plan, 0.14), th.plan, 2)
    tx = cx - S // 2
    paint.paste_tile(img, (tx, y + 8), th, S, c.tile.high, c.tile.low, True)
    if c.plan_no is not None:
        paint.badge(img, (x + CELL_W - 20, y + 16), str(c.plan_no), th.plan, 16)
    ty = y + 8 + 2 * S + 18
    text.draw(d, (cx, ty), str(c.tile), 21, th.text, "bold", "mm")
    for i, line in enumerate(c.targets[:2]):
        more = len(c.targets) > 2 and i == 1
        label = f"{line} +{len(c.targets) - 1}" if more else line
        label = text.fit(label, 18, CELL_W - 10, "bold")
        text.draw(d, (cx, ty + 24 + i * 22), label, 18, th.playable, "bold", "mm")
