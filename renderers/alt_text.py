"""Every picture the bot sends, said in words: the attachment's description (alt text).

A screen reader says nothing about a picture without one, and the table is the game. These
are pure functions of what the renderers draw from — the engine's view and the picture's own
options (:class:`~renderers.TableOptions`' robot badges and language, the hand's plan), the
chart's games — in the reader's language: whose turn, each train's open end and marker, the
open doubles in the order they must be covered, the tiles left, the last move; for a hand its
tiles and which are playable where. Discord takes at most 1,024 characters: a long table
first shortens names, then drops the last move, and only then is cut.

They live beside the renderers, not in the Discord layer, so that a render worker describes
the picture it has just drawn from the same inputs (``bot.drawing.jobs``) and the bot's own
process never runs them for a move; ``bot.ui.pictures.picture_file`` makes the attachment.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.engine import DRAW, MEXICAN, PASS, Play, SeatView, Tile
from bot.i18n import language_of, tr, tr_count
from renderers import text as rtext
from renderers.chart import ChartGame
from renderers.hand import OTHER, PLAN, PLAYABLE, YOURS, HandOptions, drawn_sections, marked_plan
from renderers.pieces import move_sentence
from renderers.table import TableOptions

__all__ = ["LIMIT", "clip", "describe_chart", "describe_hand", "describe_replay", "describe_table"]

#: Discord's limit on an attachment's description (``bot.ui.limits.ATTACHMENT_DESCRIPTION``).
LIMIT = 1024


#: White space folded by :func:`clip`: every kind but U+202F (French typography's).
_SPACES = re.compile(r"[^\S\u202f]+")


def clip(description: str, limit: int = LIMIT) -> str:
    """``description`` cut to ``limit`` characters, with an ellipsis when cut; its runs of
    white space made one space, all but the narrow no-break space French sets before ";"."""
    description = _SPACES.sub(" ", description).strip()
    return description if len(description) <= limit else description[: limit - 1] + "…"


# ---------------------------------------------------------------------- names and trains


def _name(view: SeatView, seat: int, lang: str, limit: int = 32) -> str:
    name = rtext.clean(view.names[seat]) or tr("pic.player", lang, n=seat + 1)
    return name if len(name) <= limit else name[: limit - 1] + "…"


def _train(ref: int, lang: str) -> str:
    """A train as a sentence names it: ``@3`` or the Mexican Train."""
    return tr("alt.where.mexican", lang) if ref == MEXICAN else f"@{ref + 1}"


def _robots(is_computer: Sequence[bool], count: int) -> tuple[bool, ...]:
    """The robot badges per seat, every seat the view has (none given: no robots)."""
    flags = list(is_computer[:count])
    return (*flags, *[False] * (count - len(flags)))


def _rank(view: SeatView, seat: int) -> int:
    return 1 + sum(1 for t in view.totals if t < view.totals[seat])


# ---------------------------------------------------------------------- the table


def _turn(view: SeatView, lang: str, limit: int) -> str:
    if view.match_over:
        names = " & ".join(_name(view, s, lang, limit) for s in view.winners)
        return tr("alt.table.won", lang, names=names)
    if view.result is not None:
        out = view.result.went_out
        if out is None:
            return tr("alt.table.blocked", lang)
        return tr("alt.table.out", lang, name=_name(view, out, lang, limit))
    if view.current is None:
        return ""
    key = "alt.table.turn-you" if view.seat == view.current else "alt.table.turn"
    return tr(key, lang, name=_name(view, view.current, lang, limit), seat=view.current + 1)


def _train_line(view: SeatView, i: int, robots: Sequence[bool], lang: str, limit: int) -> str:
    train = view.trains[i]
    ref = train.owner
    if ref == MEXICAN:
        who = tr("alt.train.mexican", lang)
    else:
        key = "alt.train.computer" if robots[ref] else "alt.train.seat"
        who = tr(key, lang, name=_name(view, ref, lang, limit), seat=ref + 1)
    key = "alt.train.end" if train.tiles else "alt.train.empty"
    notes = [tr(key, lang, end=train.end)]
    if train.open_double is not None and view.result is None and train.tiles:
        notes.append(tr("alt.train.open-double", lang, tile=train.tiles[-1]))
    if ref != MEXICAN:
        if view.match_over:
            rank = _rank(view, ref)
            notes.append(tr("alt.train.rank", lang, rank=rank, total=view.totals[ref]))
        elif view.result is not None:
            total = view.totals[ref]
            if view.result.went_out == ref:
                notes.append(tr("alt.train.went-out", lang, total=total))
            else:
                got = view.result.scores[ref]
                notes.append(tr("alt.train.round", lang, got=got, total=total))
        else:
            notes.append(tr_count("alt.hand-count", view.hand_counts[ref], lang))
        if train.marked:
            notes.append(tr("alt.train.marker", lang))
    return tr("alt.train.line", lang, who=who, notes=", ".join(notes))


def _doubles(view: SeatView, lang: str) -> str:
    opened = view.open_doubles
    if not opened or view.result is not None:
        return ""
    items = [
        tr("alt.double", lang, tile=o.tiles[-1] if o.tiles else view.engine,
           train=_train(o.owner, lang))
        for o in opened
    ]  # fmt: skip
    return tr("alt.doubles", lang, list=tr("alt.then", lang).join(items))


def _standings(view: SeatView, lang: str, limit: int) -> str:
    if not view.match_over:
        return ""
    order = sorted(range(view.players), key=lambda s: (s not in view.winners, view.totals[s], s))
    items = [
        tr("alt.standing", lang, rank=_rank(view, s), name=_name(view, s, lang, limit),
           total=view.totals[s])
        for s in order
    ]  # fmt: skip
    return tr("alt.standings", lang, list=tr("alt.list-sep", lang).join(items))


def describe_table(view: SeatView, options: TableOptions | None = None) -> str:
    """The table picture in words (at most :data:`LIMIT` characters), from the view and the
    options it is drawn with (robot badges, language): round and engine, whose turn (or how
    the round or match ended), the boneyard, each train's open end, the tiles its owner holds
    and its marker, the open doubles in the order they must be covered, the last move, and at
    the match's end the standings."""
    options = options or TableOptions()
    lang = language_of(options.language)
    robots = _robots(options.is_computer, view.players)
    last = ""
    if view.last_move is not None and view.result is None:
        names = [_name(view, s, lang) for s in range(view.players)]
        last = move_sentence(view, lang, names) + "."
        last += " " + tr("alt.last-ring", lang) if isinstance(view.last_move.move, Play) else ""
    text = ""
    # Whole names first; shorter names, then no last move, when that is too long.
    for limit, with_last in ((32, True), (14, True), (14, False), (8, False)):
        parts = [
            tr("alt.table.head", lang, round=view.round_no + 1, rounds=view.rounds_total,
               engine=view.engine),
            _turn(view, lang, limit),
            tr_count("alt.boneyard", view.boneyard_count, lang) if view.result is None else "",
            tr("alt.trains", lang),
            *(_train_line(view, i, robots, lang, limit) for i in range(len(view.trains))),
            _doubles(view, lang),
            last if with_last else "",
            _standings(view, lang, limit),
        ]  # fmt: skip
        text = " ".join(p for p in parts if p)
        if len(text) <= LIMIT:
            return text
    return clip(text)


# ---------------------------------------------------------------------- a hand


def describe_hand(view: SeatView, options: HandOptions | None = None) -> str:
    """A hand picture in words, from the seat's own view and the options it is drawn with
    (its train plan, its language): how many tiles and which train is yours, whose turn, what
    to cover first, which tiles fit where (in the picture's order: your train, the Mexican
    Train, then the others), the train plan, and the other tiles — each list exactly the
    tiles the picture shows (its sections, and its "+N" chips), so a planned tile is never
    also one of the "other tiles"."""
    if view.hand is None or view.seat is None:
        raise ValueError("a spectator has no hand to describe: pass the player's own view")
    options = options or HandOptions()
    lang = language_of(options.language)
    seat = view.seat
    parts = [tr_count("alt.hand.head", len(view.hand), lang, seat=seat + 1)]
    if view.result is not None:
        parts.append(tr("alt.hand.round-over", lang))
    elif view.my_turn:
        parts.append(tr("alt.hand.your-turn", lang))
        if view.open_doubles:
            first = view.open_doubles[0]
            parts.append(tr("alt.hand.cover", lang, tile=first.tiles[-1] if first.tiles else ""))
    elif view.current is not None:
        parts.append(tr("alt.hand.waiting", lang, name=_name(view, view.current, lang)))
    fits: dict[Tile, list[int]] = {}
    for move in view.legal:
        if isinstance(move, Play):
            fits.setdefault(move.tile, []).append(move.train)

    def rank(ref: int) -> int:
        return 0 if ref == seat else 1 if ref == MEXICAN else 2 + ref

    def where(ref: int) -> str:
        return tr("alt.where.own", lang) + f" (@{seat + 1})" if ref == seat else _train(ref, lang)

    def listed(items: Sequence[object], folded: int, sep: str = ", ") -> str:
        shown = sep.join(map(str, items))
        return tr("alt.hand.more", lang, list=shown, count=folded) if folded else shown

    # The picture's own sections, tiles and "+N" chips: the words say what it shows.
    # The plan it marks: none once the round is over, none of one step.
    plan = marked_plan(view, options.plan)
    drawn = {d.section: d for d in drawn_sections(view, plan, lang)}
    playable = drawn.get(PLAYABLE)
    if playable:
        items = [
            tr("alt.hand.fits", lang, tile=t,
               trains=tr("alt.hand.or", lang).join(where(r) for r in sorted(fits[t], key=rank)))
            for t in playable.tiles
        ]  # fmt: skip
        parts.append(
            tr(
                "alt.hand.playable",
                lang,
                list=listed(items, playable.folded, tr("alt.list-sep", lang)),
            )
        )
    elif view.my_turn and view.result is None:
        if DRAW in view.legal:
            parts.append(tr("alt.hand.draw", lang))
        elif PASS in view.legal:
            parts.append(tr("alt.hand.pass", lang))
        else:
            parts.append(tr("alt.hand.none-playable", lang))
    # The #1, #2... badges: the planned tiles the picture shows, in playing order, and the
    # plan's own section's "+N".
    shown = {t for d in drawn.values() for t in d.tiles}
    badges = [t for t in dict.fromkeys(plan) if t in shown]
    if badges:
        more = drawn[PLAN].folded if PLAN in drawn else 0
        parts.append(tr("alt.hand.plan", lang, list=listed(badges, more)))
    rest = drawn.get(OTHER) or drawn.get(YOURS)
    if rest:
        key = "alt.hand.other" if rest.section == OTHER else "alt.hand.tiles"
        parts.append(tr(key, lang, list=listed(rest.tiles, rest.folded)))
    return clip(" ".join(parts))


# ---------------------------------------------------------------------- replay and chart


def describe_replay(
    views: Sequence[SeatView],
    game_id: int,
    frames: int,
    options: TableOptions | None = None,
) -> str:
    """The replay GIF in words: which round, how many pictures, and the last one (described
    with the replay's table options: robot badges, language)."""
    options = options or TableOptions()
    lang = language_of(options.language)
    last = views[-1]
    head = tr("alt.replay", lang, game=game_id, round=last.round_no + 1,
              rounds=last.rounds_total, frames=frames)  # fmt: skip
    return clip(f"{head} {describe_table(last, options)}")


def describe_chart(name: str, games: Sequence[ChartGame], locale: str | None = None) -> str:
    """The statistics chart in words: each game's average score per round, oldest first,
    which were won, and the overall average."""
    lang = language_of(locale)
    who = rtext.clean(name) or "?"
    if not games:
        return tr("alt.chart.empty", lang, name=who)
    items = [
        tr("alt.chart.won" if g.won else "alt.chart.game", lang, game=g.game_id,
           avg=f"{g.average:.1f}")
        for g in games
    ]  # fmt: skip
    rounds = sum(len(g.round_scores) for g in games)
    mean = sum(sum(g.round_scores) for g in games) / max(1, rounds)
    return clip(
        tr(
            "alt.chart",
            lang,
            name=who,
            list=tr("alt.list-sep", lang).join(items),
            mean=f"{mean:.1f}",
        )
    )
