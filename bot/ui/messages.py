"""The words of the bot's messages: outcome lines, the lobby's seats, hands, score tables,
whose turn it is. A game's rules in words are :mod:`bot.ui.houserules`', beside the options.

Pure functions from the service's values (``Outcome``, ``GameSummary``, ``SeatView``) to
strings, in the reader's language through :func:`bot.i18n.tr`; no Discord objects (only
discord.py's markdown escaping, a string function), so they are unit-tested directly. A
move's sentence (:func:`describe_move`) is written from the engine's ``Applied`` record alone
(plus seat names), so the same words serve human and computer moves, live posts and the
catch-up; the pictures are :mod:`bot.ui.pictures`, the facts' own sentences (a turn played
for someone, an undo, a seat changing hands) :mod:`bot.ui.facts`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from bot.engine import (
    MEXICAN,
    Applied,
    Catch,
    Done,
    Draw,
    Knock,
    Move,
    Pass,
    Play,
    SeatView,
    Tile,
    TrainView,
)
from bot.i18n import tr, tr_count
from bot.service import (
    FactCode,
    GameScheduleRow,
    GameStatus,
    GameSummary,
    Outcome,
    Player,
    RoundEnd,
    Standing,
    Step,
)
from bot.service.turn import Drawn
from bot.ui.facts import (
    FACT_LINES,
    SAID,
    fact_line,
    played_for_line,
    played_for_steps,
    round_start_line,
)
from bot.ui.limits import in_code, shown

#: Discord's embed description limit is 4096 characters; stay under it with room to spare.
MAX_DESCRIPTION = 3800


def timestamp(when: datetime) -> str:
    """A Discord timestamp: each reader sees it in their own time zone, relative ("in 3 h")
    and as a date and time."""
    unix = int(when.timestamp())
    return f"<t:{unix}:R> (<t:{unix}:f>)"


def train_label(view_names: Sequence[str], train: int, me: int | None, locale: str | None) -> str:
    if train == MEXICAN:
        return tr("train.mexican", locale)
    if train == me:
        return tr("train.own", locale, ref=f"@{train + 1}")
    return tr("train.other", locale, name=view_names[train], ref=f"@{train + 1}")


def train_in_sentence(
    view_names: Sequence[str], train: int, me: int | None, locale: str | None
) -> str:
    """A train as a sentence names it: "the Mexican Train" (a label says "Mexican Train")."""
    if train == MEXICAN:
        return tr("catchup.train.mexican", locale)
    return train_label(view_names, train, me, locale)


def own_step_lines(
    names: Sequence[str], step: Step, locale: str | None, *, again: bool = False
) -> list[str]:
    """The actor's own move told to them, in the second person ("You played 12-8 on your
    own train"); after a double that leaves them to move (``again``), what to play next.
    Other moves (a knock, a catch) fall back to the channel's words."""
    move, applied = step.move, step.applied
    tile = str(move.tile) if isinstance(move, Play) else ""
    if isinstance(move, Play):
        if move.train == MEXICAN:
            key = "you.start.mexican" if applied.started_mexican else "you.play.mexican"
            text = tr(key, locale, tile=tile)
        elif move.train == step.player.seat:
            text = tr("you.play.own", locale, tile=tile)
        else:
            text = tr("you.play.other", locale, tile=tile, owner=names[move.train])
        if applied.satisfied is not None:
            text += " (" + tr("move.satisfied", locale, double=str(applied.satisfied)) + ")"
        if applied.opened_double and again:
            text += ". " + tr("you.double", locale, pips=move.tile.high)
        return [text]
    if isinstance(move, Draw):
        return [tr("you.draw", locale)]
    if isinstance(move, Pass):
        return [tr("you.pass" if applied.marker_raised else "you.pass.marked", locale)]
    return step_lines(names, step, locale)


def train_ref(train: int) -> str:
    return "mexican" if train == MEXICAN else f"@{train + 1}"


def move_text(move: Move, locale: str | None) -> str:
    """A move in notation with the reader's words (``12-5 mexicain``, ``piocher``): the French
    slash commands and the terminal game take these words, so that is what to tell a French
    player (the event log and history keep the canonical ``str(move)``)."""
    if isinstance(move, Play):
        train = (
            f"@{move.train + 1}" if move.train != MEXICAN else tr("notation.word.mexican", locale)
        )
        return f"{move.tile} {train}"
    if isinstance(move, Catch):
        return f"{tr('notation.word.catch', locale)} @{move.seat + 1}"
    return tr(f"notation.word.{move}", locale)


def plays_by_tile(view: SeatView) -> dict[Tile, list[int]]:
    """The viewer's legal plays grouped by tile, in the order their hand is shown (highest
    tile first): the engine lists legal moves in its own order, which read as shuffled
    beside the sorted hand line above them ("12-8 12-6 12-11 12-4")."""
    out: dict[Tile, list[int]] = {}
    for move in view.legal:
        if isinstance(move, Play):
            out.setdefault(move.tile, []).append(move.train)
    return dict(sorted(out.items(), reverse=True))


def drawn_note(drawn: Drawn, names: Sequence[str], seat: int, locale: str | None) -> str:
    """What a player's draw brought, for them alone: where the tile fits (they must play it
    now), or that it fit nowhere and their turn was passed; the terminal game says it too."""
    tile = str(drawn.tile)
    if drawn.passed:
        return tr("draw.passed", locale, tile=tile)
    if drawn.must_play:
        where = ", ".join(train_in_sentence(names, t, seat, locale) for t in drawn.fits)
        return tr("draw.fits", locale, tile=tile, where=where or "?")
    return tr("draw.drew", locale, tile=tile)


def _eligible(view: SeatView, train: TrainView) -> bool:
    return train.is_mexican or train.owner == view.seat or train.marked


def fits(view: SeatView, tile: Tile) -> list[int]:
    """Trains a tile would fit on, ignoring turn order (a hint between turns)."""
    return [t.owner for t in view.trains if _eligible(view, t) and tile.has(t.end)]


# ---------------------------------------------------------------------- outcome -> lines


def play_extras(applied: Applied, locale: str | None = None) -> str:
    """What a tile play did besides landing, in brackets after its sentence (a double
    satisfied, one opened, a train's marker taken off); empty when nothing."""
    extras = []
    if applied.satisfied is not None:
        extras.append(tr("move.satisfied", locale, double=str(applied.satisfied)))
    if applied.opened_double:
        extras.append(tr("move.double", locale))
    if applied.marker_removed:
        extras.append(tr("move.marker_off", locale))
    return " (" + ", ".join(extras) + ")" if extras else ""


def describe_move(
    names: Sequence[str], actor: int, move: Move, applied: Applied, locale: str | None = None
) -> str:
    """One sentence for one move, e.g. "Alice played 12-5 on the Mexican Train"."""
    name = names[actor]
    if isinstance(move, Play):
        tile = str(move.tile)
        if move.train == MEXICAN:
            key = "move.start.mexican" if applied.started_mexican else "move.play.mexican"
            text = tr(key, locale, name=name, tile=tile)
        elif move.train == actor:
            text = tr("move.play.own", locale, name=name, tile=tile)
        else:
            text = tr("move.play.other", locale, name=name, tile=tile, owner=names[move.train])
        text += play_extras(applied, locale)
        if applied.released:
            doubles = ", ".join(map(str, applied.released))
            text += ". " + tr("move.released", locale, doubles=doubles)
        return text
    if isinstance(move, Draw):
        key = "move.draw.fits" if applied.must_play_drawn else "move.draw"
        return tr(key, locale, name=name)
    if isinstance(move, Pass):
        key = "move.pass" if applied.marker_raised else "move.pass.marked"
        return tr(key, locale, name=name)
    if isinstance(move, Done):
        return tr("move.done", locale, name=name)
    if isinstance(move, Knock):
        return tr("move.knock", locale, name=name)
    if isinstance(move, Catch):
        return tr(
            "move.catch", locale, catcher=name, name=names[move.seat], count=len(applied.drawn)
        )
    raise TypeError(f"not a move: {move!r}")


def round_end_line(
    names: Sequence[str], went_out: int | None, round_no: int, locale: str | None
) -> str:
    """A round's end: who went out, or that the round was blocked."""
    if went_out is None:
        return tr("round.blocked", locale, round=round_no + 1)
    return tr("round.out", locale, name=names[went_out], round=round_no + 1)


def step_lines(names: Sequence[str], step: Step, locale: str | None) -> list[str]:
    """A step's sentence, a computer player's marked beside its name ("Bob (computer) played
    7-7 …"): at the end it doubled the play's own brackets ("… (a double: …) (computer)")."""
    if step.by_computer:
        names = list(names)
        names[step.player.seat] = f"{names[step.player.seat]} {tr('move.computer', locale)}"
    text = describe_move(names, step.player.seat, step.move, step.applied, locale)
    lines = [text]
    if step.applied.last_tile:
        lines.append(tr("move.last_tile", locale, name=names[step.applied.seat]))
    return lines


def outcome_lines(outcome: Outcome, locale: str | None) -> list[str]:
    """What happened, one line per move, round ends and starts in their place."""
    return [line for lines, _ in outcome_parts(outcome, locale) for line in lines]


def outcome_parts(outcome: Outcome, locale: str | None) -> list[tuple[list[str], RoundEnd | None]]:
    """:func:`outcome_lines` cut after each round's end: every part but the last ends with a
    round's end line and carries that round's :class:`RoundEnd` (the channel gives it a post
    of its own, with the scores); the last part (``None``) is what follows, up to now."""
    names = [shown(p.name) for p in outcome.game.players]
    started = set(outcome.rounds_started)
    ended = {r.round_no: r for r in outcome.rounds_ended}
    parts: list[tuple[list[str], RoundEnd | None]] = []
    lines: list[str] = []
    folded: set[int] = set()  # the steps a played-for line tells: no lines of their own
    told_at: dict[int, list[str]] = {}  # and that line, told where its turn's first move was
    for fact in outcome.facts:
        if fact.code is FactCode.TURN_PLAYED_FOR:
            told, steps = played_for_told(outcome, dict(fact.params), names, locale)
            if steps:
                told_at[steps[0].seq] = told
                folded.update(s.seq for s in steps)
            else:
                lines.extend(told)
        elif fact.code in FACT_LINES:
            lines.append(FACT_LINES[fact.code](dict(fact.params), locale))
    for fact in outcome.facts:
        if fact.code in SAID:
            lines.append(fact_line(fact.code, dict(fact.params), locale))
    for r in sorted(started):
        if r - 1 not in ended:  # a deal not caused by a round ending here: the game's start
            lines.append(round_start_line(outcome, r, locale))
    for step in outcome.steps:
        if step.seq in told_at:
            lines.extend(told_at[step.seq])
        elif step.seq not in folded:
            lines.extend(step_lines(names, step, locale))
        if step.applied.round_over and step.round_no in ended:
            end = ended[step.round_no]
            lines.append(round_end_line(names, end.went_out, end.round_no, locale))
            parts.append((lines, end))
            lines = []
            if step.round_no + 1 in started:
                lines.append(round_start_line(outcome, step.round_no + 1, locale))
    parts.append((lines, None))
    return parts


def _placed(names: Sequence[str], step: Step, locale: str | None) -> str:
    """A tile played for someone and where it went: "3-4 on Bob's train (marker off)"."""
    move, applied = step.move, step.applied
    assert isinstance(move, Play)
    if move.train == MEXICAN:
        train = tr("catchup.train.mexican", locale)
    elif move.train == step.player.seat:
        train = tr("catchup.train.own", locale)
    else:
        train = tr("catchup.train.of", locale, name=names[move.train])
    return tr("catchup.bit.play", locale, tile=str(move.tile), train=train) + play_extras(
        applied, locale
    )


def played_for_told(
    outcome: Outcome, params: dict[str, object], names: Sequence[str], locale: str | None
) -> tuple[list[str], list[Step]]:
    """A turn played for someone (no choice, time out, away) told in one line, and the moves
    that line tells (the channel leaves out their own lines): a draw and a pass read
    "…drew and passed for them; their train is open", a play says where the tile went.
    What the line cannot hold stays a line of its own: a double no longer to satisfy, the
    last tile in hand."""
    steps = played_for_steps(outcome, params)
    return played_for_lines(steps, params, names, locale), steps


def played_for_lines(
    steps: Sequence[Step], params: dict[str, object], names: Sequence[str], locale: str | None
) -> list[str]:
    """:func:`played_for_told`'s lines for the turn's ``steps``."""
    plays = [s for s in steps if isinstance(s.move, Play)]
    if plays:
        params = params | {"tiles": tuple(_placed(names, s, locale) for s in plays)}
    line = played_for_line(params, locale)
    if any(isinstance(s.move, Pass) and s.applied.marker_raised for s in steps):
        line = tr("played-for.open", locale, line=line.removesuffix("."))
    lines = [line]
    for s in plays:
        if s.applied.released:
            doubles = ", ".join(map(str, s.applied.released))
            lines.append(tr("move.released", locale, doubles=doubles))
        if s.applied.last_tile:
            lines.append(tr("move.last_tile", locale, name=names[s.applied.seat]))
    return lines


def count_text(key: str, count: int, locale: str | None) -> str:
    """A sentence with a count, in its one/many form (``key.one`` / ``key.many``)."""
    return tr_count(key, count, locale)


def clip(lines: Iterable[str], limit: int = MAX_DESCRIPTION) -> str:
    """Join lines, keeping the newest ones when there are too many for one embed."""
    kept: list[str] = []
    size = 0
    for line in reversed(list(lines)):
        size += len(line) + 1
        if size > limit:
            kept.append("…")
            break
        kept.append(line)
    return "\n".join(reversed(kept))


# ---------------------------------------------------------------------- scores


def scores_table(
    players: Sequence[Player],
    round_scores: Sequence[Sequence[int]],
    totals: Sequence[int],
    locale: str | None = None,
) -> str:
    """A monospace table: a row per player, a column per round, then the total."""
    names = [in_code(p.name) for p in players]  # a code block: only a backtick could end it
    width = max([len(n) for n in names] + [6])
    head = "".join(
        f"{tr('scores.round-col', locale, n=i + 1):>5}" for i in range(len(round_scores))
    )
    out = [f"{'':<{width}}{head}{tr('scores.total', locale):>7}"]
    for p, name in zip(players, names, strict=True):
        cells = "".join(f"{r[p.seat]:>5}" for r in round_scores)
        out.append(f"{name[:width]:<{width}}{cells}{totals[p.seat]:>7}")
    return "```\n" + "\n".join(out) + "\n```"


def standings_text(
    standings: Sequence[Standing], locale: str | None, *, rounds: int | None = None
) -> str:
    """The final standings, a line a player: "1. 🏆 Alice — 12 pts (2 rounds won)"; a
    match of one round (``rounds``) says nothing of rounds won."""
    key = "standings.line.one-round" if rounds == 1 else "standings.line"
    lines = []
    for s in standings:
        medal = "🏆 " if s.won else ""
        lines.append(
            tr(
                key,
                locale,
                place=s.place,
                name=f"{medal}{shown(s.player.name)}",
                total=tr_count("re.pts", s.total, locale),
                won=tr_count("count.rounds-won", s.rounds_won, locale),
            )
        )
    return "\n".join(lines)


# ---------------------------------------------------------------------- the lobby's seats


def seats_text(summary: GameSummary, locale: str | None) -> str:
    lines = []
    for p in summary.players:
        if p.computer is not None:
            level = tr(f"level.word.{p.computer.value}", locale)
            who = tr("seat.computer", locale, name=shown(p.name), level=level)
        else:
            who = f"<@{p.user_id}>"
            if p.user_id == summary.host_id:
                who += " " + tr("seat.host", locale)
        lines.append(f"{p.seat + 1}. {who}")
    return "\n".join(lines) or "—"


# ---------------------------------------------------------------------- hands


def hand_text(view: SeatView, summary: GameSummary, locale: str | None) -> str:
    """The viewer's tiles in notation and where each can go (legal now, or a hint)."""
    hand = sorted(view.hand or (), reverse=True)
    names = [shown(n) for n in view.names]
    lines = [
        tr(
            "hand.title",
            locale,
            game=summary.id,
            round=view.round_no + 1,
            rounds=view.rounds_total,
            count=len(hand),
        ),
        " ".join(f"`{t}`" for t in hand) or "—",
    ]
    if view.my_turn:
        playable = plays_by_tile(view)
        if playable:
            lines.append(tr("hand.playable", locale))
            for tile, trains in playable.items():
                where = ", ".join(train_label(names, t, view.seat, locale) for t in trains)
                lines.append(f"• `{tile}` → {where}")
        else:
            lines.append(
                tr(
                    "hand.no-play",
                    locale,
                    move=" / ".join(move_text(m, locale) for m in view.legal),
                )
            )
    elif summary.options.hints and view.current is not None:
        hinted = [(t, fits(view, t)) for t in hand]
        hinted = [(t, trains) for t, trains in hinted if trains]
        key = "hand.waiting" if hinted else "hand.waiting-none"
        lines.append(tr(key, locale, name=names[view.current]))
        for tile, trains in hinted[:12]:
            where = ", ".join(train_label(names, t, view.seat, locale) for t in trains)
            lines.append(f"• `{tile}` → {where}")
    return "\n".join(lines)


# ---------------------------------------------------------------------- the table


def turn_line(game: GameSummary, nxt: Player | None, locale: str | None) -> str:
    """Whose turn it is (a mention for a person) and, with a deadline, by when."""
    if nxt is None or game.status is not GameStatus.ACTIVE:
        return ""
    who = f"<@{nxt.user_id}>" if nxt.user_id is not None else f"**{shown(nxt.name)}**"
    text = tr("turn.next", locale, mention=who)
    if game.deadline_at is not None and not nxt.is_computer:
        text += " " + tr("turn.deadline", locale, when=timestamp(game.deadline_at))
    return text


def open_hands_text(view: SeatView, locale: str | None) -> str:
    """Under the open-hands house rule, every hand in notation (what anyone may see then);
    otherwise nothing: hands are private."""
    if not view.rules.open_hands:
        return ""
    lines = [tr("table.open-hands", locale)]
    for seat, hand in enumerate(view.visible_hands):
        if hand is not None:
            tiles = " ".join(f"`{t}`" for t in sorted(hand, reverse=True)) or "—"
            lines.append(f"**{shown(view.names[seat])}**: {tiles}")
    return "\n".join(lines)


def policy_text(row: GameScheduleRow | None, policy: str, locale: str | None) -> str:
    """What happens when a player's time runs out, in words (``row``: the game's own count)."""
    count = row.replace_after if row is not None else 3
    return tr(f"schedule.policy.{policy}", locale, count=count)
