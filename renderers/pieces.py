"""The pieces every picture of the game draws alike: a train's mark, the seats' names told
apart, a train's word, a count's plural, the last move's sentence, a sentence fitted to its
room, tiles walked out from the engine and a long train cut to its two ends.

The table (:mod:`renderers.table`) drew them first; the round's end, the hand, the chart and
the alt text draw or say them the same way, so they live here, apart from the table's own
layout and painting. A piece reads only public fields of the view, like the table.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.engine import MEXICAN, Catch, Draw, Knock, Pass, Play, SeatView, Tile
from bot.i18n import tr, tr_count
from renderers import names as names_mod
from renderers import paint, text
from renderers.theme import MEXICAN_COLOUR, MEXICAN_DISC, RGB, Theme, seat_colour, seat_shape

#: Smallest font on the canvas: 9 px once Discord scales the picture to 400 px on a phone.
MIN_FONT = 18


def seat_glyph(img: Image.Image, th: Theme, ref: int, xy: tuple[int, int], size: int) -> None:
    """A train's mark: its seat's shape in its seat's colour, or the Mexican Train's black
    engine on a light disc, so it shows on dark lanes."""
    if ref == MEXICAN:
        disc = size + 4
        img.paste(
            MEXICAN_DISC, (xy[0] - disc // 2, xy[1] - disc // 2),
            paint.rounded_mask(disc, disc, disc // 2),
        )  # fmt: skip
        paint.icon(img, paint.shape_mask("loco", size - 4), xy, MEXICAN_COLOUR)
        return
    paint.glyph(img, seat_shape(ref), xy, size, seat_colour(ref), th.glyph_edge)


def display_name(view: SeatView, seat: int, language: str = "en") -> str:
    """The seat's name, or "Player N" when nothing visible is left of it."""
    name = view.names[seat]
    return name if text.clean(name) else tr("pic.player", language, n=seat + 1)


def train_word(ref: int, language: str = "en") -> str:
    """What a player types for a train: ``@N``, or the Mexican Train's word in their language."""
    return tr("pic.mexican-word", language) if ref == MEXICAN else f"@{ref + 1}"


def plural(key: str, n: int, language: str = "en", **params: object) -> str:
    """``key.one`` or ``key.many`` with ``{n}``: :func:`bot.i18n.tr_count`, the one plural
    rule (French counts 0 as singular)."""
    return tr_count(key, n, language, n=n, **params)


def oriented(engine: Tile, tiles: Sequence[Tile]) -> list[tuple[int, int]]:
    """(inner, outer) pips of each tile, walking out from the engine."""
    out = []
    end = engine.high
    for t in tiles:
        other = t.other(end)
        out.append((end, other))
        end = other
    return out


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
        if tail >= 3:
            break
    return best


def short_names(
    view: SeatView, size: int, rooms: int | Sequence[int], language: str = "en",
    weight: text.Weight = "bold",
) -> list[str]:  # fmt: skip
    """Every seat's name cut to ``rooms`` px at ``size`` px, no two alike (see
    :mod:`renderers.names`): one call per place a name is drawn, so the whole game's names are
    told apart in that place."""
    names = [display_name(view, seat, language) for seat in range(view.players)]
    return names_mod.distinct(names, size, rooms, weight)


def move_sentence(view: SeatView, lang: str = "en", names: Sequence[str] | None = None) -> str:
    """The header's last-move line ("Last: Bob played 3-9 on the Mexican Train"), with the
    names cut to fit the picture, or ``names`` as given (the alt text's whole names)."""
    entry = view.last_move
    if entry is None:
        return ""
    short = list(names) if names is not None else short_names(view, 20, 220, lang, "regular")
    who = short[entry.seat]
    move = entry.move
    if isinstance(move, Play):
        if move.train == MEXICAN:
            where = tr("pic.where.mexican", lang)
        elif move.train == entry.seat:
            where = tr("pic.where.own", lang)
        else:
            owner = short[move.train]
            where = tr("pic.train-of", lang, name=owner)
        return tr("pic.last.play", lang, name=who, tile=move.tile, where=where)
    if isinstance(move, Draw):
        return tr("pic.last.draw", lang, name=who)
    if isinstance(move, Pass):
        return tr("pic.last.pass", lang, name=who)
    if isinstance(move, Knock):
        return tr("pic.last.knock", lang, name=who)
    if isinstance(move, Catch):
        caught = short[move.seat]
        return tr("pic.last.catch", lang, name=who, caught=caught)
    return tr("pic.last.done", lang, name=who)


def size_to_fit(label: str, size: int, room: int, weight: text.Weight = "regular") -> int:
    """The largest font size up to ``size`` (and not under :data:`MIN_FONT`) at which
    ``label`` fits ``room``: a longer translation shrinks a little, then is cut."""
    while size > MIN_FONT and text.width(label, size, weight) > room:
        size -= 1
    return size


def draw_sentence(d: ImageDraw.ImageDraw, xy: tuple[int, int], sentence: str, size: int,
                  room: int, colour: RGB, weight: text.Weight = "regular",
                  anchor: text.Anchor = "lm") -> int:  # fmt: skip
    """One of our sentences (names inside it already shortened) fitted to ``room``: shrunk
    a little (:func:`size_to_fit`), then cut. Returns the drawn width."""
    size = size_to_fit(text.prepare(sentence), size, room, weight)
    shown = text.fit(sentence, size, room, weight, ltr=True)
    return text.draw(d, xy, shown, size, colour, weight, anchor)
