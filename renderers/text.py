"""Text from the shipped fonts only: any Discord name drawn the same on every machine.

Player names can hold anything Discord allows: emoji, CJK, Arabic and Hebrew, zero-width
joiners, stacks of combining marks. Pillow's layout engine depends on the machine (Raqm and
FriBiDi may or may not be installed), so we always use its BASIC engine and do the little
script work a name needs ourselves: drop invisible format characters, give Arabic letters
their joined presentation forms, put right-to-left runs in visual order, and pick for each
character the first shipped font whose character map has it (read once from the font file,
since Pillow does not expose coverage). A character no font has is drawn as the first font's
box. Cutting to a width is measured, never counted in characters.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import io
import math
import struct
import unicodedata
from collections.abc import Iterator
from importlib import resources
from typing import Literal

from PIL import Image, ImageDraw, ImageFont

Weight = Literal["regular", "bold"]

#: Fallback chains, first match wins. Bold falls back to the regular fallbacks.
_CHAINS: dict[str, tuple[str, ...]] = {
    "regular": ("DejaVuSans.ttf", "DroidSansFallback.ttf", "Symbola-emoji.ttf"),
    "bold": ("DejaVuSans-Bold.ttf", "DroidSansFallback.ttf", "Symbola-emoji.ttf"),
}
ELLIPSIS = "…"


@functools.cache
def _font_bytes(name: str) -> bytes:
    return resources.files("renderers").joinpath("fonts", name).read_bytes()


@functools.cache
def _coverage(name: str) -> frozenset[int]:
    """The code points a font maps, from its cmap table (formats 4 and 12)."""
    data = _font_bytes(name)
    num_tables = struct.unpack_from(">H", data, 4)[0]
    cmap = 0
    for i in range(num_tables):
        tag, _check, offset, _length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        if tag == b"cmap":
            cmap = offset
    if not cmap:
        return frozenset()
    found: set[int] = set()
    count = struct.unpack_from(">H", data, cmap + 2)[0]
    for i in range(count):
        platform, _encoding, sub = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
        if platform not in (0, 3):
            continue
        base = cmap + sub
        fmt = struct.unpack_from(">H", data, base)[0]
        if fmt == 4:
            segs = struct.unpack_from(">H", data, base + 6)[0] // 2
            ends = struct.unpack_from(f">{segs}H", data, base + 14)
            starts = struct.unpack_from(f">{segs}H", data, base + 16 + 2 * segs)
            for lo, hi in zip(starts, ends, strict=True):
                if lo != 0xFFFF:
                    found.update(range(lo, hi + 1))
        elif fmt == 12:
            groups = struct.unpack_from(">I", data, base + 12)[0]
            for g in range(groups):
                lo, hi, _gid = struct.unpack_from(">III", data, base + 16 + 12 * g)
                found.update(range(lo, hi + 1))
    return frozenset(found)


@functools.lru_cache(maxsize=256)
def font(name: str, size: int) -> ImageFont.FreeTypeFont:
    """A shipped font at ``size`` px, laid out by the machine-independent BASIC engine."""
    return ImageFont.truetype(
        io.BytesIO(_font_bytes(name)),
        size,
        layout_engine=ImageFont.Layout.BASIC,
    )


def main_font(size: int, weight: Weight = "regular") -> ImageFont.FreeTypeFont:
    return font(_CHAINS[weight][0], size)


@functools.lru_cache(maxsize=4096)
def _font_for(ch: str, weight: Weight) -> str:
    cp = ord(ch)
    chain = _CHAINS[weight]
    for name in chain:
        if cp in _coverage(name):
            return name
    return chain[0]


# ---------------------------------------------------------------- cleaning and scripts


def _invisible(ch: str) -> bool:
    cp = ord(ch)
    cat = unicodedata.category(ch)
    return (
        cat in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")
        or 0xFE00 <= cp <= 0xFE0F  # variation selectors
        or 0xE0100 <= cp <= 0xE01EF
        or 0x1F3FB <= cp <= 0x1F3FF  # skin tones: shown as swatches by a monochrome font
    )


@functools.lru_cache(maxsize=4096)
def clean(text: str, max_marks: int = 2) -> str:
    """Drop invisible characters, fold whitespace, and cap stacked combining marks."""
    out: list[str] = []
    marks = 0
    for ch in unicodedata.normalize("NFC", text):
        if ch.isspace():
            if out and out[-1] != " ":
                out.append(" ")
            marks = 0
            continue
        if _invisible(ch):
            continue
        if unicodedata.combining(ch) or unicodedata.category(ch) == "Mn":
            marks += 1
            if marks > max_marks or not out:
                continue
        else:
            marks = 0
        out.append(ch)
    return "".join(out).strip()


@functools.lru_cache(maxsize=512)
def _arabic_forms(ch: str) -> tuple[str, str, str, str] | None:
    """(isolated, final, initial, medial) presentation forms; '' where a form does not exist."""
    try:
        name = unicodedata.name(ch)
    except ValueError:
        return None
    if not name.startswith("ARABIC LETTER"):
        return None
    forms = []
    for suffix in ("ISOLATED", "FINAL", "INITIAL", "MEDIAL"):
        try:
            forms.append(unicodedata.lookup(f"{name} {suffix} FORM"))
        except KeyError:
            forms.append("")
    if not forms[0] and not forms[1]:
        return None
    return (forms[0], forms[1], forms[2], forms[3])


_LAM_ALEF = {
    "\u0622": ("\ufef5", "\ufef6"),
    "\u0623": ("\ufef7", "\ufef8"),
    "\u0625": ("\ufef9", "\ufefa"),
    "\u0627": ("\ufefb", "\ufefc"),
}


def shape_arabic(text: str) -> str:
    """Contextual forms for Arabic letters (joins to the left only for dual-joining letters)."""
    if not any("\u0600" <= c <= "\u06ff" for c in text):
        return text
    letters = list(text)
    out: list[str] = []
    i = 0

    def joining(j: int, step: int) -> int:
        """Index of the nearest non-mark neighbour in direction ``step`` or -1."""
        j += step
        while 0 <= j < len(letters) and unicodedata.category(letters[j]) == "Mn":
            j += step
        return j if 0 <= j < len(letters) else -1

    def dual(c: str) -> bool:
        f = _arabic_forms(c)
        return f is not None and bool(f[2])

    while i < len(letters):
        ch = letters[i]
        forms = _arabic_forms(ch)
        if forms is None:
            out.append(ch)
            i += 1
            continue
        p = joining(i, -1)
        n = joining(i, 1)
        joins_prev = p >= 0 and dual(letters[p])
        # Lam followed by alef becomes one ligature.
        if ch == "\u0644" and n >= 0 and letters[n] in _LAM_ALEF and n == i + 1:
            iso, fin = _LAM_ALEF[letters[n]]
            out.append(fin if joins_prev else iso)
            i += 2
            continue
        joins_next = bool(forms[2]) and n >= 0 and _arabic_forms(letters[n]) is not None
        iso, fin, ini, med = forms
        if joins_prev and joins_next and med:
            out.append(med)
        elif joins_prev and fin:
            out.append(fin)
        elif joins_next and ini:
            out.append(ini)
        else:
            out.append(iso or ch)
        i += 1
    return "".join(out)


_MIRROR = str.maketrans("()[]{}<>«»", ")(][}{><»«")


def _strong(ch: str) -> int:
    """+1 left-to-right, -1 right-to-left, 0 neutral (numbers count as neutral-LTR)."""
    kind = unicodedata.bidirectional(ch)
    if kind in ("R", "AL"):
        return -1
    if kind == "L":
        return 1
    return 0


def visual_order(text: str, ltr: bool = False) -> str:
    """A simplified bidi pass: enough for a one-line name, not the whole UAX #9.

    The paragraph direction follows the first strong character, unless ``ltr`` forces it (an
    English sentence that starts with a Hebrew name still reads left to right).
    """
    dirs = [_strong(c) for c in text]
    if -1 not in dirs:
        return text
    base = 1 if ltr else next((d for d in dirs if d), 1)
    # Resolve neutrals: between two strong characters of one direction take it, else base.
    resolved = dirs[:]
    for i, d in enumerate(dirs):
        if d:
            continue
        before = next((dirs[j] for j in range(i - 1, -1, -1) if dirs[j]), base)
        after = next((dirs[j] for j in range(i + 1, len(dirs)) if dirs[j]), base)
        resolved[i] = before if before == after else base
    # Brackets pair up (N0, simplified): a pair around right-to-left text is right-to-left.
    stack: list[int] = []
    for i, c in enumerate(text):
        if c in "([{":
            stack.append(i)
        elif c in ")]}" and stack:
            j = stack.pop()
            inside = dirs[j + 1 : i]
            if -1 in inside and 1 not in inside:
                resolved[j] = resolved[i] = -1
    # Embedding levels (UAX #9, W/I rules in brief): right-to-left is odd, and digits inside
    # right-to-left text are one level up so they still read left to right.
    levels: list[int] = []
    for c, d in zip(text, resolved, strict=True):
        number = unicodedata.bidirectional(c) in ("EN", "AN")
        if d == -1:
            levels.append(2 if number else 1)
        else:
            levels.append(2 if base == -1 else 0)
    chars = [c.translate(_MIRROR) if lv % 2 else c for c, lv in zip(text, levels, strict=True)]
    # L2: from the highest level down to 1, reverse every run at that level or higher.
    for level in range(max(levels), 0, -1):
        i = 0
        while i < len(chars):
            if levels[i] >= level:
                j = i
                while j < len(chars) and levels[j] >= level:
                    j += 1
                chars[i:j] = chars[i:j][::-1]
                levels[i:j] = levels[i:j][::-1]
                i = j
            else:
                i += 1
    return "".join(chars)


# ---------------------------------------------------------------- measuring and drawing


def _runs(text: str, weight: Weight) -> list[tuple[str, str]]:
    runs: list[tuple[str, str]] = []
    for ch in text:
        name = _font_for(ch, weight)
        if runs and runs[-1][0] == name:
            runs[-1] = (name, runs[-1][1] + ch)
        else:
            runs.append((name, ch))
    return runs


@functools.lru_cache(maxsize=8192)
def width(text: str, size: int, weight: Weight = "regular") -> int:
    """Advance width of already-prepared (visual) text in px (cached: a table measures the
    same labels and names on every move)."""
    return round(sum(font(name, size).getlength(part) for name, part in _runs(text, weight)))


def prepare(text: str) -> str:
    """Clean + shape + visual order: what :func:`draw` expects."""
    return visual_order(shape_arabic(clean(text)))


def fit(text: str, size: int, max_width: int, weight: Weight = "regular", ltr: bool = False) -> str:
    """``text`` (raw) prepared for drawing and cut with an ellipsis to ``max_width`` px.

    ``ltr`` marks a sentence of ours (which may embed names) rather than a bare name.
    """
    return visual_order(shorten(text, size, max_width, weight), ltr)


def shorten(text: str, size: int, max_width: int, weight: Weight = "regular") -> str:
    """``text`` cleaned and cut with an ellipsis, still in logical order (to embed in a
    sentence that is then prepared as a whole)."""
    logical = shape_arabic(clean(text))
    if width(visual_order(logical), size, weight) <= max_width:
        return logical
    # Binary search on the logical prefix, measuring the real glyphs.
    lo, hi = 0, len(logical)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if width(visual_order(logical[:mid].rstrip()) + ELLIPSIS, size, weight) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    cut = logical[:lo].rstrip()
    if not cut:
        return ELLIPSIS if width(ELLIPSIS, size, weight) <= max_width else ""
    return cut + ELLIPSIS


Anchor = Literal["ls", "ms", "rs", "lm", "mm", "rm"]

RGB = tuple[int, int, int]


Box4 = tuple[int, int, int, int]


class Drawn(list[tuple[int, str]]):
    """What a render drew: (font px, text) pairs, and in :attr:`inks` each text's ink and
    where it went (label, ink, ground or box), so a test can measure every text's contrast."""

    def __init__(self) -> None:
        super().__init__()
        self.inks: list[tuple[str, RGB, RGB | Box4]] = []


#: What a render drew so far. A context variable, so renders in parallel threads or tasks
#: each keep their own record.
_DRAWN: contextvars.ContextVar[Drawn | None] = contextvars.ContextVar("drawn_text", default=None)


@contextlib.contextmanager
def recording() -> Iterator[Drawn]:
    """Collect the (font px, text) of everything drawn inside the block, and its ink on its
    ground.

    The renderers attach the result to the image (``image.info["text_px"]`` and
    ``image.info["text_ink"]``) so a test can check every piece of text is readable once the
    picture is scaled to a phone's width, and has enough contrast on what it is drawn on.
    """
    drawn = Drawn()
    token = _DRAWN.set(drawn)
    try:
        yield drawn
    finally:
        _DRAWN.reset(token)


def text_sizes(image: Image.Image) -> tuple[tuple[int, str], ...]:
    """The (font px, text) pairs a renderer drew on ``image`` (empty if it reported none)."""
    drawn = image.info.get("text_px", ())
    return tuple((int(px), str(label)) for px, label in drawn)


def text_inks(image: Image.Image) -> tuple[tuple[str, RGB, RGB], ...]:
    """The (text, ink, ground) of everything a renderer wrote on ``image``.

    A text drawn with :func:`draw` records its box; its ground is read here, off the finished
    picture, as the most common colour in that box other than the ink (text covers well under
    half of its box), so a render pays nothing for it. Numerals baked into tile sprites
    record their ground (the tile face) directly."""
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    out: list[tuple[str, RGB, RGB]] = []
    for label, ink, where in image.info.get("text_ink", ()):
        if len(where) == 3:
            out.append((label, ink, where))
            continue
        x0, y0, x1, y1 = where
        box = (max(0, x0), max(0, y0), min(rgb.width, x1), min(rgb.height, y1))
        if box[2] <= box[0] or box[3] <= box[1]:
            continue
        colours = rgb.crop(box).getcolors(1 << 16) or []
        grounds = sorted((c for c in colours if c[1] != tuple(ink)), reverse=True)
        if grounds:
            ground = grounds[0][1]
            assert isinstance(ground, tuple)
            out.append((label, ink, (ground[0], ground[1], ground[2])))
    return tuple(out)


def note(size: int, label: str, ink: RGB | None = None, ground: RGB | Box4 | None = None) -> None:
    """Record text drawn outside :func:`draw` (a numeral baked into a cached tile sprite),
    with its ink and its ground (a colour, or the box it was drawn in) when known."""
    drawn = _DRAWN.get()
    if drawn is not None and label:
        drawn.append((size, label))
        if ink is not None and ground is not None:
            drawn.inks.append((label, ink, ground))


def draw(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: tuple[int, ...] | str,
    weight: Weight = "regular",
    anchor: Anchor = "lm",
) -> int:
    """Draw prepared text; ``anchor`` is l/m/r horizontally and s (baseline) or m (middle).

    Runs in different fonts share one baseline; "m" centres on the main font's cap height so
    mixed-script names sit on one line. Returns the drawn width.
    """
    x, y = xy
    total = width(text, size, weight)
    if anchor[0] == "m":
        x -= total / 2
    elif anchor[0] == "r":
        x -= total
    if anchor[1] == "m":
        # Baseline for a visually centred line of the main font.
        asc, desc = main_font(size, weight).getmetrics()
        y += (asc - desc) / 2 - size * 0.12
    if isinstance(fill, tuple):
        ink = (fill[0], fill[1], fill[2])
        box = (math.floor(x), math.floor(y - size * 0.75), math.ceil(x + total), math.ceil(y))
        note(size, text, ink, box)
    else:
        note(size, text)
    for name, part in _runs(text, weight):
        f = font(name, size)
        # The same labels land at the same sub-pixel offsets on every picture (tile numbers,
        # "→ mexican", counts): rasterising them once and stamping the coverage with the ink
        # is what ``ImageDraw.text`` does, without asking FreeType again.
        fx, fy = math.modf(x)[0], math.modf(y)[0]
        mask, (left, top) = _glyph_run(name, size, part, round(fx, 3), round(fy, 3))
        if mask is not None:
            d.bitmap((int(x) + left, int(y) + top), mask, fill=fill)
        x += f.getlength(part)
    return total


@functools.lru_cache(maxsize=4096)
def _glyph_run(
    name: str, size: int, part: str, fx: float, fy: float
) -> tuple[Image.Image | None, tuple[int, int]]:
    """``part`` in font ``name`` at ``size`` drawn white on black at sub-pixel offset
    (``fx``, ``fy``) from its baseline origin, as an "L" coverage mask and the mask's offset
    from the origin's whole pixel (None for text that draws nothing, e.g. a space)."""
    f = font(name, size)
    left, top, right, bottom = f.getbbox(part, anchor="ls")
    x0, y0 = math.floor(left) - 1, math.floor(top) - 1
    w, h = math.ceil(right) + 2 - x0, math.ceil(bottom) + 2 - y0
    if right <= left or bottom <= top:
        return None, (0, 0)
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).text((fx - x0, fy - y0), part, font=f, fill=255, anchor="ls")
    return mask, (x0, y0)
