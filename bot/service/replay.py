"""Loading a game: its stored events folded through the engine.

The event log is the truth: :func:`replay_game` rebuilds a :class:`LoadedGame` from a
:class:`~bot.store.GameRecord` (from the latest round snapshot when it agrees with the log,
else from every event), and anything unreadable is :class:`~bot.service.errors.GameCorrupt`
for that game only. Shared by the commit path (a game not in the cache), the history, undo
and statistics, so it is public here rather than private to one of them. A cached game's
move replays nothing: the values read off its rows (the summary, the players, the
standings) are :mod:`bot.service.outcome`'s, beside the values themselves.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Iterator

from bot.engine import Match, Rules
from bot.engine.match import Event, RoundStarted, event_from_dict
from bot.engine.position import FORMAT as POSITION_FORMAT
from bot.engine.position import from_position, to_position
from bot.service import errors
from bot.service.eventlog import live_engine_rows
from bot.service.outcome import Standing, players_of, read_rules, standings_from
from bot.store import EventRow, GameRecord, GameRow, GameStatus, SeatRow

log = logging.getLogger(__name__)


@dataclasses.dataclass(slots=True)
class LoadedGame:
    """A cached game: its row and seats as committed, and the replayed match (None in lobby)."""

    row: GameRow
    seats: tuple[SeatRow, ...]
    rules: Rules
    match: Match | None
    seq: int
    #: Set when the game was loaded from a tail of its log (``Store.load(rounds=1)``): the
    #: seq of the deal the match's ``events`` start at; the rounds before it are known from
    #: the round snapshot only. :meth:`~bot.service.commit.Ledger.complete` reads them back
    #: for what needs every event (the history, round reports, a finished match's stats).
    events_from: int | None = None


class TailUnusable(Exception):
    """A tail of the log cannot be replayed on its own (no usable snapshot for its first
    deal): read the whole log instead."""


def replay_game(record: GameRecord, *, use_snapshot: bool = True) -> LoadedGame:
    """Rebuild a game from its stored events; anything unreadable is :class:`GameCorrupt`.

    With a round snapshot, the rounds before the current one are taken from it and only the
    current round is replayed; if the snapshot is missing, unreadable or disagrees with the
    log, every event is replayed. A tail of the log (:attr:`GameRecord.is_tail`) can only be
    replayed from its snapshot: otherwise :class:`TailUnusable` (read the whole log).
    """
    row = record.game
    rules = read_rules(row)
    events = record.events
    first_seq = events[0].seq if events and record.is_tail else 1
    if events and events[-1].seq != first_seq + len(events) - 1:
        gap = next(i for i, e in enumerate(events, start=first_seq) if e.seq != i)
        raise errors.GameCorrupt(row.id, "events are missing from the log", gap)
    engine_rows = live_engine_rows(row.id, events)  # an undo cancels moves without deleting
    match: Match | None = None
    if engine_rows:
        names = [s.display_name for s in record.seats]
        decoded: list[Event] = []
        try:
            for e in engine_rows:
                decoded.append(decode_event(e, rules, len(names)))
        except Exception as exc:  # any unreadable event must fail this game only
            raise errors.GameCorrupt(row.id, str(exc), e.seq) from None
        if use_snapshot and record.snapshot is not None:
            match = _from_snapshot(record, rules, names, engine_rows, decoded)
        if match is None and record.is_tail:
            raise TailUnusable(row.id)
        if match is None:
            at: list[int | None] = [None]

            def tracked() -> Iterator[Event]:
                for e, event in zip(engine_rows, decoded, strict=True):
                    at[0] = e.seq
                    yield event

            try:
                match = Match.replay(rules, names, tracked(), row.engine_version)
            except Exception as exc:  # any event that does not apply fails this game only
                raise errors.GameCorrupt(
                    row.id, f"{exc} (engine version {row.engine_version})", at[0]
                ) from None
    elif row.status is GameStatus.ACTIVE or row.status is GameStatus.FINISHED:
        raise errors.GameCorrupt(row.id, f"a game marked {row.status} has no deal")
    if match is not None and match.round is None:
        raise errors.GameCorrupt(row.id, "the game has moves but no deal")
    return LoadedGame(
        row,
        record.seats,
        rules,
        match,
        events[-1].seq if events else 0,
        first_seq if record.is_tail else None,
    )


def earlier_events(g: LoadedGame, record: GameRecord) -> list[Event]:
    """The engine events of ``record`` (the whole log) before ``g``'s tail starts: what a
    game loaded from a tail lacks (an undo never reaches back past a deal, so they are final)."""
    assert g.events_from is not None
    rows = live_engine_rows(g.row.id, [e for e in record.events if e.seq < g.events_from])
    try:
        return [decode_event(e, g.rules, len(g.seats)) for e in rows]
    except Exception as exc:  # as for any load: this game only
        raise errors.GameCorrupt(g.row.id, str(exc)) from None


def rounds_json(m: Match) -> str:
    """The results of the rounds played so far, as a position writes them."""
    return json.dumps(to_position(m)["rounds"], separators=(",", ":"))


def _from_snapshot(
    record: GameRecord,
    rules: Rules,
    names: list[str],
    rows: list[EventRow],
    decoded: list[Event],
) -> Match | None:
    """The match rebuilt from its latest round snapshot, or None to replay everything."""
    assert record.snapshot is not None
    seq, rounds_json = record.snapshot
    start = next((i for i, e in enumerate(rows) if e.seq == seq), None)
    try:
        first = decoded[start] if start is not None else None
        if not isinstance(first, RoundStarted):
            raise ValueError(f"event {seq} is not a deal")
        rounds = json.loads(rounds_json)
        # from_position does not check these, so a damaged snapshot is caught here.
        for r in rounds:
            scores, out = r["scores"], r["went_out"]
            if len(scores) != len(names) or not all(type(x) is int for x in scores):
                raise ValueError(f"round scores {scores!r} do not fit {len(names)} players")
            if out is not None and (type(out) is not int or not 0 <= out < len(names)):
                raise ValueError(f"no seat {out!r} to go out")
        if len(rounds) != first.round_no:
            raise ValueError(f"{len(rounds)} rounds before round {first.round_no + 1}")
        match = from_position(
            {
                "format": POSITION_FORMAT,
                "engine_version": record.game.engine_version,
                "rules": rules.to_dict(),
                "names": names,
                "rounds": rounds,
                "current_round": None,
            }
        )
        match.events.extend(decoded[:start])
        for event in decoded[start:]:
            if isinstance(event, RoundStarted):
                if event.round_no != match.rounds_played:
                    raise ValueError(f"round {event.round_no + 1} out of order")
                match.start_round(event.order)
            else:
                match.apply(event.move, event.seat)
    except Exception as exc:
        # A snapshot is only a shortcut: the full replay decides (and names a bad event).
        log.warning("game %s: round snapshot %s not used (%s)", record.game.id, seq, exc)
        return None
    return match


#: Decoded move events by (max_pip, players, payload). The same few thousand move strings recur
#: in every game, and decoding them is a third of a cold load; the events are immutable values,
#: so sharing them between games is safe. Bounded by clearing, not by LRU: cheap and enough.
_MOVE_EVENTS: dict[tuple[int, int, str], Event] = {}
_MOVE_EVENTS_MAX = 50_000


def decode_event(row: EventRow, rules: Rules, players: int) -> Event:
    """One stored engine event, through the engine's own decoder (memoised for moves)."""
    if row.kind != "move":
        return event_from_dict(json.loads(row.payload), rules, players)
    key = (rules.max_pip, players, row.payload)
    event = _MOVE_EVENTS.get(key)
    if event is None:
        event = event_from_dict(json.loads(row.payload), rules, players)
        if len(_MOVE_EVENTS) >= _MOVE_EVENTS_MAX:
            _MOVE_EVENTS.clear()
        _MOVE_EVENTS[key] = event
    return event


def standings_so_far(g: LoadedGame) -> tuple[Standing, ...]:
    """Standings of a match that stops early: totals so far, lower is better; nobody won."""
    m = g.match
    if m is None:
        return ()
    return standings_from(players_of(g.seats), m.totals, [r.went_out for r in m.results])
