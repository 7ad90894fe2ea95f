"""The catch-up's use case: a :class:`~bot.service.digest.Digest` read off a game's log.

:func:`digest_of` folds a game's event log (:mod:`bot.service.eventlog` decides which events
count, so an undo's cancelled moves never show) into a digest (:mod:`bot.service.digest`:
what it holds), which :mod:`bot.ui.catchup` puts into words.

"Since your last turn" means since the end of the last turn the player took themselves (a
move whose actor is their user id and which ended their turn); turns played for them while
they were away or out of time come after that point, so the digest tells them. A turn they
began and the bot played on (no choice left, or time ran out after a draw) counts from their
own last move in it: what came before, they read when that turn began. Before their
first turn it is everything since the deal of the first round. A reader without a seat (a
spectator, or a player whose seat a computer took over) gets the last few moves instead.
Hidden information never enters a digest: drawn tiles are only counted, and a hand appears
only as the reader's own tile count.

Only the rounds the digest needs are replayed (from the round of the reader's last move):
the scores of the rounds before come from the round snapshot, and without a usable one the
whole match is replayed.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence

from bot.engine import Applied, Catch, Draw, Knock, Round, Rules
from bot.engine.match import RoundStarted
from bot.service import errors
from bot.service.digest import RECENT, Digest, OpenDouble, RoundOver, SeenMove, TakenOver
from bot.service.eventlog import (
    AUTOPLAY_KIND,
    ENGINE_KINDS,
    ORDER_KIND,
    UNDO_KIND,
    cancelled_seqs,
)
from bot.service.outcome import Player, players_of, read_rules
from bot.service.replay import decode_event
from bot.store import EventRow, GameRecord

#: Events that hand a human's seat to a computer player for good.
TAKEOVER_KINDS = frozenset({"leave", "kick", "replace"})
#: Events after which the bot plays a human's turn for them (``payload.seat``): the
#: scheduler's, a turn with no choice (``autoplay``, :mod:`bot.service.turn`), and a standing
#: order's turn (``order``, :mod:`bot.service.orders`: the player's own queued tiles).
PLAYED_FOR_KINDS = frozenset({"timeout", "away", AUTOPLAY_KIND, ORDER_KIND})


@dataclasses.dataclass(slots=True)
class _Fold:
    """The moves of the rounds replayed, and where the reader's last turn ended in them."""

    moves: list[SeenMove]
    mine: list[bool]
    #: Markers (per seat) after each move.
    marks: list[tuple[bool, ...]]
    rounds_over: list[tuple[int, RoundOver]]
    taken_over: list[tuple[int, TakenOver]]
    rnd: Round
    #: The round the fold started with.
    first_round: int
    totals: list[int]
    #: Index into ``moves`` just after the reader's last turn, or after their own last move
    #: in a turn the bot finished for them (None: no turn of theirs).
    cut: int | None


def digest_of(record: GameRecord, user_id: int | None, *, recent: int = RECENT) -> Digest:
    """The digest of ``record`` for ``user_id`` (None, or a user without a seat: a spectator's
    last ``recent`` moves). Raises ``WrongPhase`` before the first deal, and ``GameCorrupt``
    for a log that does not replay (as loading the game would). ``record`` holds the whole
    log; for a tail, see :func:`digest_from_tail`."""
    digest = digest_from_tail(record, user_id, recent=recent)
    if digest is None:  # only a tail can fall short
        raise errors.GameCorrupt(record.game.id, "the digest needs the whole log")
    return digest


def digest_from_tail(
    record: GameRecord, user_id: int | None, *, recent: int = RECENT
) -> Digest | None:
    """The digest from a record that may hold only the log's last rounds
    (``Store.load(rounds=...)``), or None when the moment it starts from lies before them:
    the caller reads further back. A player's last turn is nearly always in the current
    round or the one before, so the usual digest costs what a round costs, however long
    the match (the rounds before come from the round snapshot)."""
    if recent < 1:
        raise ValueError("a spectator's digest goes back at least one move")
    try:
        return _digest_of(record, user_id, recent)
    except errors.ServiceError:
        raise
    except Exception as exc:  # an event that does not read or apply fails this game only
        raise errors.GameCorrupt(record.game.id, str(exc)) from None


def _digest_of(record: GameRecord, user_id: int | None, recent: int) -> Digest | None:
    row = record.game
    rules = read_rules(row)
    players = players_of(record.seats)
    names = tuple(p.name for p in players)
    reader = next((p for p in players if user_id is not None and p.user_id == user_id), None)
    # An undo never reaches back past a deal, so a tail starting at a deal holds every
    # undo that cancels anything in it.
    gone = cancelled_seqs(row.id, record.events)
    rows = [e for e in record.events if e.seq not in gone]
    tail = record.is_tail
    deals = [i for i, e in enumerate(rows) if e.kind == "round"]
    if not deals:
        if tail:
            return None
        raise errors.WrongPhase("the game has not started yet", code="not-started")
    moves_at = [i for i, e in enumerate(rows) if e.kind == "move"]
    if reader is not None:
        own = [i for i in moves_at if rows[i].actor == user_id]
        anchor = own[-1] if own else None
    else:
        anchor = moves_at[-recent] if len(moves_at) >= recent else None
    if anchor is None and tail:
        return None  # the reader's last move (or the spectator's window) starts earlier
    start = 0 if anchor is None else sum(1 for d in deals if d < anchor) - 1
    # The round the fold starts in, counted from the first deal of the match.
    round_at = _round_of(rows[deals[start]], rules, len(names))
    earlier = _earlier_scores(record, round_at, len(names))
    if earlier is None:
        if tail:
            return None
        start, round_at, earlier = 0, 0, []
    fold = _fold(rows, deals[start], rules, names, row.engine_version, earlier, user_id, reader)
    if reader is not None and fold.cut is None and round_at > 0:
        # The reader's last move (a draw, a knock) ended no turn of theirs in that round:
        # look further back, from the first deal read (the match's, for the whole log). Once
        # the turn's end is found, what the digest says depends only on the moves after it,
        # so where the fold started makes no difference.
        if start > 0:
            first_round = _round_of(rows[deals[0]], rules, len(names))
            earlier = _earlier_scores(record, first_round, len(names))
            assert earlier is not None  # round 1's ([]), or a round before one read above
            fold = _fold(rows, deals[0], rules, names, row.engine_version, earlier, user_id, reader)
        if fold.cut is None and tail:
            return None
    if reader is not None:
        since = "turn" if fold.cut is not None else "start"
        cut = fold.cut or 0
    else:
        since = "recent"
        cut = max(0, len(fold.moves) - recent)
    digest = _digest(row.id, names, rules, reader.seat if reader else None, since, cut, fold)
    if reader is None:
        return digest
    return dataclasses.replace(digest, undone=_undone(rows, anchor, reader, players))


def _undone(
    rows: Sequence[EventRow], anchor: int | None, reader: Player, players: Sequence[Player]
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Undos of the reader's turns by someone else, after the reader's last live move (so
    told once: their next move moves the anchor past it)."""
    out = []
    for e in rows[(anchor or 0) :]:
        if e.kind != UNDO_KIND:
            continue
        data = json.loads(e.payload)
        if int(data.get("player", -1)) != reader.seat or data.get("by") == reader.user_id:
            continue
        by = next((p.name for p in players if p.user_id == data.get("by")), "")
        out.append((by, tuple(str(m) for m in data.get("moves", ()))))
    return tuple(out)


def _round_of(deal: EventRow, rules: Rules, players: int) -> int:
    event = decode_event(deal, rules, players)
    assert isinstance(event, RoundStarted)
    return event.round_no


def _earlier_scores(record: GameRecord, start: int, players: int) -> list[tuple[int, ...]] | None:
    """Each round's scores before round ``start``, from the round snapshot (None: unusable)."""
    if start == 0:
        return []
    if record.snapshot is None:
        return None
    try:
        rounds = json.loads(record.snapshot[1])
        scores = [tuple(int(x) for x in r["scores"]) for r in rounds[:start]]
    except (ValueError, TypeError, KeyError):
        return None
    if len(scores) != start or any(len(s) != players for s in scores):
        return None
    return scores


def _fold(
    rows: Sequence[EventRow],
    first: int,
    rules: Rules,
    names: tuple[str, ...],
    engine_version: int,
    earlier: list[tuple[int, ...]],
    user_id: int | None,
    reader: Player | None,
) -> _Fold:
    """Replay ``rows`` from index ``first`` (a deal), noting each move as the table saw it."""
    totals = [sum(s[i] for s in earlier) for i in range(len(names))]
    moves: list[SeenMove] = []
    mine: list[bool] = []
    marks: list[tuple[bool, ...]] = []
    rounds_over: list[tuple[int, RoundOver]] = []
    taken_over: list[tuple[int, TakenOver]] = []
    pending: dict[int, str] = {}
    done_for: set[int] = set()
    rnd: Round | None = None
    cut: int | None = None
    #: Just after the reader's own move in a turn of theirs not yet over (None: none).
    begun: int | None = None
    my_seat = None if reader is None else reader.seat
    first_round = -1
    for e in rows[first:]:
        if e.kind in ENGINE_KINDS:
            event = decode_event(e, rules, len(names))
            if isinstance(event, RoundStarted):
                rnd = Round.deal(rules, names, event.round_no, event.order, engine_version)
                if first_round < 0:
                    first_round = rnd.round_no
                pending.clear()
                done_for.clear()
                begun = None
                continue
            assert rnd is not None
            applied = rnd.apply(event.move, event.seat)
            seat = event.seat
            # A turn played for a human runs from its timeout/away event to the end of the
            # turn, and takes in the knock the bot makes for them right after it.
            for other in [s for s in done_for if s != seat]:
                pending.pop(other, None)
                done_for.discard(other)
            played_for = pending.get(seat) if e.actor is None else None
            if e.actor is not None:
                pending.pop(seat, None)
            elif played_for is not None and (applied.turn_over or applied.round_over):
                done_for.add(seat)
            drawn = len(applied.drawn)
            moves.append(
                SeenMove(
                    seq=e.seq,
                    round_no=rnd.round_no,
                    seat=seat,
                    move=event.move,
                    applied=Applied(applied.seat, applied.move, (), *applied[3:]),
                    drawn=drawn if isinstance(event.move, Draw | Catch) else 0,
                    by_computer=e.actor is None and played_for is None,
                    played_for=played_for,
                )
            )
            by_reader = user_id is not None and e.actor == user_id
            mine.append(by_reader)
            marks.append(tuple(t.marked for t in rnd.trains[: len(names)]))
            ended = applied.turn_over or applied.round_over
            if by_reader and seat == my_seat and ended:
                cut, begun = len(moves), None
            elif by_reader and seat == my_seat and not isinstance(event.move, Knock | Catch):
                begun = len(moves)  # a draw, a double: their turn goes on
            elif seat == my_seat and begun is not None and e.actor is None:
                # The bot played on in a turn the reader began (no choice left, time ran
                # out), to its end or to a decision it hands back: they read everything up to
                # their own move, so the digest starts there and tells what was played for
                # them, not the moves before it again.
                cut, begun = begun, None
            if applied.round_over and rnd.result is not None:
                for i, pts in enumerate(rnd.result.scores):
                    totals[i] += pts
                over = RoundOver(
                    rnd.round_no, rnd.result.scores, rnd.result.went_out, tuple(totals)
                )
                rounds_over.append((len(moves), over))
        elif e.kind in PLAYED_FOR_KINDS or e.kind in TAKEOVER_KINDS:
            seat_no = _payload_seat(e)
            if seat_no is None or not 0 <= seat_no < len(names):
                continue
            if e.kind in PLAYED_FOR_KINDS:
                pending[seat_no] = e.kind
                done_for.discard(seat_no)
            else:
                taken_over.append((len(moves), TakenOver(seat_no, e.kind)))
    assert rnd is not None
    return _Fold(moves, mine, marks, rounds_over, taken_over, rnd, first_round, totals, cut)


def _payload_seat(e: EventRow) -> int | None:
    try:
        seat = json.loads(e.payload).get("seat")
    except (ValueError, AttributeError):
        return None
    return seat if isinstance(seat, int) else None


def _digest(
    game_id: int,
    names: tuple[str, ...],
    rules: Rules,
    seat: int | None,
    since: str,
    cut: int,
    fold: _Fold,
) -> Digest:
    rnd = fold.rnd
    n = len(names)
    since_round = fold.moves[cut - 1].round_no if cut > 0 else fold.first_round
    now_marks = tuple(t.marked for t in rnd.trains[:n])
    if cut > 0 and fold.moves[cut - 1].round_no == rnd.round_no:
        before = fold.marks[cut - 1]
    else:
        before = (False,) * n  # a new round: every train starts closed
    opened = tuple(s for s in range(n) if now_marks[s] and not before[s])
    closed = tuple(s for s in range(n) if before[s] and not now_marks[s])
    playing = rnd.result is None
    moves = tuple(
        m for m, by_reader in zip(fold.moves[cut:], fold.mine[cut:], strict=True) if not by_reader
    )
    return Digest(
        game_id=game_id,
        names=names,
        seat=seat,
        since=since,
        since_round=since_round,
        round_no=rnd.round_no,
        rounds_total=rules.rounds_total,
        moves=moves,
        # A round the reader ended themselves (going out) is told too: its scores are news.
        rounds_over=tuple(r for at, r in fold.rounds_over if at >= cut),
        taken_over=tuple(t for at, t in fold.taken_over if at >= cut),
        engine=rnd.engine,
        open_doubles=tuple(OpenDouble(t, rnd.trains[t].tiles[-1]) for t in rnd.open_doubles)
        if playing
        else (),
        one_tile=tuple(
            (s, rnd.knocked[s])
            for s in range(n)
            if s != seat and playing and len(rnd.hands[s]) == 1
        ),
        opened=opened,
        closed=closed,
        my_end=None if seat is None else rnd.trains[seat].end,
        my_marked=seat is not None and rnd.trains[seat].marked,
        my_started=seat is None or rnd.trains[seat].started,
        my_tiles=None if seat is None else len(rnd.hands[seat]),
        turn=rnd.current_seat,
        totals=tuple(fold.totals),
        match_over=not playing and rnd.round_no + 1 >= rules.rounds_total,
    )


__all__ = ["PLAYED_FOR_KINDS", "TAKEOVER_KINDS", "digest_from_tail", "digest_of"]
