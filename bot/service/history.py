"""A game's story from its event log: the move history, the export file, the replay's frames.

Everything here takes a game's whole log (``GameService.game_record``) and folds it through
the engine the same way a load does (:mod:`bot.service.eventlog` decides which events count),
so the history, the file and the pictures always agree with the game. Nothing here writes.

* :func:`history` — every event worth telling, in order: round headers (with the engine),
  moves in notation by name (computer moves flagged), undone moves flagged, undos, leaves,
  kicks and the end.
* :func:`export` — a finished game as JSON: rules, names and the engine events, exactly what
  :meth:`bot.engine.Match.replay_dicts` loads back. Only once the game is over: the events
  hold every hand and the boneyard order.
* :func:`replay_views` — the spectator's view after each move of a round, for the replay
  animation (what the channel saw, never a hand).
"""

from __future__ import annotations

import dataclasses
import json
from datetime import datetime
from typing import Any

from bot.engine import Draw, Match, SeatView, view_for
from bot.engine.match import RoundStarted
from bot.service import errors
from bot.service.eventlog import ENGINE_KINDS, UNDO_KIND, cancelled_seqs
from bot.service.outcome import GameSummary, read_rules, summarise
from bot.service.replay import decode_event, replay_game
from bot.store import GameRecord, GameStatus

#: The export file's format tag (bump when its shape changes).
EXPORT_FORMAT = "mexican-train-game/1"


@dataclasses.dataclass(frozen=True, slots=True)
class Entry:
    """One line of a game's history."""

    seq: int
    #: ``round`` (a deal), ``move``, ``undo``, ``leave``, ``kick``, ``end``.
    kind: str
    #: The round the entry belongs to (0-based; None before the first deal).
    round_no: int | None
    #: Who: the mover, the player who left or was kicked, the host who undid.
    name: str | None = None
    #: Notation of the move; for a deal the engine tile; for an undo the moves taken back.
    text: str = ""
    by_computer: bool = False
    #: An undo cancelled this move.
    undone: bool = False
    #: For an undo: whose turn was taken back.
    target: str | None = None


def summary_of(record: GameRecord) -> GameSummary:
    return summarise(record.game, record.seats)


def history(record: GameRecord) -> list[Entry]:
    """The game's events as history entries, oldest first."""
    row = record.game
    rules = read_rules(row)
    names = [s.display_name for s in record.seats]
    gone = cancelled_seqs(row.id, record.events)
    entries: list[Entry] = []
    match: Match | None = None
    round_no: int | None = None
    for e in record.events:
        payload: dict[str, Any] = json.loads(e.payload)
        if e.kind in ENGINE_KINDS:
            event = decode_event(e, rules, len(names))
            if isinstance(event, RoundStarted):
                match = match or Match(rules, names, row.engine_version)
                rnd = match.start_round(event.order)
                round_no = rnd.round_no
                entries.append(Entry(e.seq, "round", round_no, text=str(rnd.engine)))
                continue
            undone = e.seq in gone
            if not undone and match is not None:
                match.apply(event.move, event.seat)
            entries.append(
                Entry(
                    e.seq,
                    "move",
                    round_no,
                    name=names[event.seat],
                    text=str(event.move),
                    by_computer=e.actor is None,
                    undone=undone,
                )
            )
        elif e.kind == UNDO_KIND:
            seat = payload.get("player")
            entries.append(
                Entry(
                    e.seq,
                    "undo",
                    round_no,
                    name=_user_name(record, e.actor),
                    text=" ".join(str(m) for m in payload.get("moves", [])),
                    target=names[seat] if isinstance(seat, int) and seat < len(names) else None,
                )
            )
        elif e.kind in ("leave", "kick"):
            seat = payload.get("seat")
            who = names[seat] if isinstance(seat, int) and seat < len(names) else None
            entries.append(Entry(e.seq, e.kind, round_no, name=who))
        elif e.kind == "end":  # (the start needs no line: the first round's header says it)
            entries.append(Entry(e.seq, e.kind, round_no))
    return entries


def _user_name(record: GameRecord, user_id: int | None) -> str | None:
    for s in record.seats:
        if s.user_id is not None and s.user_id == user_id:
            return s.display_name
    return None


def live_match(record: GameRecord) -> Match | None:
    """The game's match as a load replays it (undone moves skipped); None before the deal."""
    return replay_game(record, use_snapshot=False).match


def export(record: GameRecord, *, exported_at: datetime | None = None) -> dict[str, Any]:
    """The game as a file: rules + names + events (``Match.replay_dicts`` loads them back),
    plus what a reader wants alongside (scores, the history in notation)."""
    row = record.game
    if row.status.unfinished:
        raise errors.WrongPhase(
            "only a finished game can be exported: the file shows every hand",
            code="export-unfinished",
        )
    match = live_match(record)
    if match is None:
        raise errors.WrongPhase("the game was never dealt", code="not-started")
    data: dict[str, Any] = {
        "format": EXPORT_FORMAT,
        "game": row.id,
        "status": str(row.status),
        "preset": row.preset,
        "engine_version": match.engine_version,
        "rules": match.rules.to_dict(),
        "names": list(match.names),
        "events": match.event_dicts(),
        "round_scores": [list(r.scores) for r in match.results],
        "totals": list(match.totals),
        "winners": [match.names[s] for s in match.winners()],
        "history": match.history(),
    }
    if exported_at is not None:
        data["exported_at"] = exported_at.isoformat()
    return data


def export_json(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def rounds_played(record: GameRecord) -> int:
    """How many rounds have been dealt."""
    return sum(1 for e in record.events if e.kind == "round")


def replay_views(record: GameRecord, round_no: int | None = None) -> list[SeatView]:
    """The spectator's view at the deal and after every move of one round (default: the
    latest), undone moves skipped. Draws are folded into the move that follows them (a draw
    changes only the boneyard count), so each frame shows something happen on the table."""
    row = record.game
    if row.status is GameStatus.LOBBY:
        raise errors.WrongPhase("the game has not started yet", code="not-started")
    rules = read_rules(row)
    names = [s.display_name for s in record.seats]
    gone = cancelled_seqs(row.id, record.events)
    live = [e for e in record.events if e.kind in ENGINE_KINDS and e.seq not in gone]
    deals = sum(1 for e in live if e.kind == "round")
    if deals == 0:
        raise errors.WrongPhase("the game has not started yet", code="not-started")
    wanted = deals - 1 if round_no is None else round_no
    if not 0 <= wanted < deals:
        raise errors.ServiceError(
            f"there is no round {wanted + 1} yet", code="no-round", round=wanted + 1
        )
    match = Match(rules, names, row.engine_version)
    views: list[SeatView] = []
    for e in live:
        event = decode_event(e, rules, len(names))
        if isinstance(event, RoundStarted):
            if match.round is not None and match.round.round_no == wanted:
                break
            match.start_round(event.order)
            if event.round_no == wanted:
                views.append(view_for(match, None))
            continue
        match.apply(event.move, event.seat)
        in_round = match.round is not None and match.round.round_no == wanted
        if in_round and not isinstance(event.move, Draw):
            views.append(view_for(match, None))
    return views


def is_over(record: GameRecord) -> bool:
    return not record.game.status.unfinished
