"""A call's events, applied to the match in memory before anything is written: the moves (a
player's, the computer players' replies, a knock), the next deal, and the facts each one
states for the front ends (``played``, ``round-over``…). The commit context
(:class:`~bot.service.commit.Commit`) is a batch that also knows how to write itself; this
module is the part that never touches the store."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from bot.engine import (
    KNOCK,
    MEXICAN,
    Applied,
    Catch,
    Done,
    Draw,
    Knock,
    Match,
    Move,
    Pass,
    Play,
    train_name,
)
from bot.service.outcome import Fact, FactCode, Player, RoundEnd, Step, players_of
from bot.service.replay import LoadedGame, rounds_json
from bot.store import NewEvent


class Batch:
    """The events of one call: applied to the match in memory, appended in one transaction.

    Only a :class:`~bot.service.commit.Commit` makes one (it writes what the batch holds)."""

    def __init__(self, game: LoadedGame, now: datetime, rng: random.Random) -> None:
        self.game = game
        self.match_or_none = game.match
        self.seats = game.seats
        self.players = players_of(game.seats)
        self.now = now
        self.rng = rng
        #: Whether the match in memory (the cached game's own) was changed: a call that fails
        #: after this leaves the cache ahead of the store, so the cache must forget it.
        self.dirty = False
        self.events: list[NewEvent] = []
        self.steps: list[Step] = []
        self.rounds_ended: list[RoundEnd] = []
        self.rounds_started: list[int] = []
        self.hands: set[int] = set()
        self.facts: list[Fact] = []
        self.turn_changed = False
        #: (seq of a deal event, JSON of the round results before it): see round_snapshots.
        self.snapshots: list[tuple[int, str]] = []

    @property
    def match(self) -> Match:
        assert self.match_or_none is not None
        return self.match_or_none

    @property
    def next_seq(self) -> int:
        return self.game.seq + len(self.events) + 1

    def event(self, kind: str, payload: Mapping[str, Any], actor: int | None) -> None:
        self.events.append(NewEvent(kind, json.dumps(payload, separators=(",", ":")), actor))

    def apply(self, player: Player, move: Move, actor: int | None) -> Applied:
        """Apply ``move`` for ``player`` (IllegalMove leaves everything unchanged)."""
        m = self.match
        assert m.round is not None
        seq = self.next_seq
        round_no = m.round.round_no
        applied = m.apply(move, player.seat)  # raises before it changes anything
        self.dirty = True
        self.event("move", m.events[-1].to_dict(), actor)
        self.steps.append(Step(seq, player, move, applied, round_no))
        self._facts(player, move, applied)
        if isinstance(move, Play | Draw) or (isinstance(move, Catch) and applied.drawn):
            self.hands.add(applied.seat)
        if applied.turn_over:
            self.turn_changed = True
        if applied.round_over:
            result = m.results[-1]
            self.rounds_ended.append(
                RoundEnd(round_no, result.scores, result.went_out, tuple(m.totals))
            )
            out = result.went_out
            name = None if out is None else self.players[out].name
            self.facts.append(
                Fact.of(
                    FactCode.ROUND_OVER,
                    round_no=round_no,
                    went_out=out,
                    name=name,
                    blocked=out is None,
                )
            )
            if not m.is_over:
                self.deal()
        return applied

    def deal(self) -> None:
        m = self.match
        self.snapshots.append((self.next_seq, rounds_json(m)))
        self.dirty = True
        rnd = m.start_round(m.shuffle(self.rng))
        self.event("round", m.events[-1].to_dict(), None)
        self.rounds_started.append(rnd.round_no)
        self.hands.update(range(m.players))
        self.turn_changed = True
        first = self.players[rnd.current]
        self.facts.append(
            Fact.of(
                FactCode.ROUND_STARTED,
                round_no=rnd.round_no,
                engine=str(rnd.engine),
                seat=first.seat,
                name=first.name,
            )
        )

    def knock_for(self, seat: int, actor: int | None) -> None:
        """Knock for ``seat`` if it may knock now (its knock window is open)."""
        rnd = self.match.round
        if rnd is not None and rnd.result is None and KNOCK in rnd.side_moves(seat):
            self.apply(self.players[seat], KNOCK, actor)

    def computer_knocks(self) -> None:
        rnd = self.match.round
        if rnd is None or rnd.knock_window is None:
            return
        if self.players[rnd.knock_window].is_computer:
            self.knock_for(rnd.knock_window, None)

    def _facts(self, p: Player, move: Move, a: Applied) -> None:
        add = self.facts.append
        who: dict[str, Any] = {"seat": p.seat, "name": p.name, "computer": p.is_computer}
        if isinstance(move, Play):
            owner = None if move.train == MEXICAN else move.train
            add(
                Fact.of(
                    FactCode.PLAYED,
                    **who,
                    tile=str(move.tile),
                    train=train_name(move.train),
                    train_owner=owner,
                    train_owner_name=None if owner is None else self.players[owner].name,
                )
            )
            if a.started_mexican:
                add(Fact.of(FactCode.MEXICAN_STARTED, **who))
            if a.satisfied is not None:
                add(Fact.of(FactCode.DOUBLE_SATISFIED, **who, tile=str(a.satisfied)))
            if a.opened_double:
                add(Fact.of(FactCode.DOUBLE_OPENED, **who, tile=str(move.tile)))
            if a.released:
                add(Fact.of(FactCode.DOUBLES_RELEASED, tiles=tuple(str(t) for t in a.released)))
            if a.marker_removed:
                add(Fact.of(FactCode.MARKER_REMOVED, **who))
            if a.last_tile:
                add(Fact.of(FactCode.LAST_TILE, **who))
        elif isinstance(move, Draw):
            add(Fact.of(FactCode.DREW, **who, must_play=a.must_play_drawn))
        elif isinstance(move, Pass):
            add(Fact.of(FactCode.PASSED, **who, marker_raised=a.marker_raised))
        elif isinstance(move, Done):
            add(Fact.of(FactCode.FAST_START_DONE, **who))
        elif isinstance(move, Knock):
            add(Fact.of(FactCode.KNOCKED, **who))
        elif isinstance(move, Catch):
            target = self.players[move.seat]
            add(
                Fact.of(
                    FactCode.CAUGHT,
                    **who,
                    target=target.seat,
                    target_name=target.name,
                    tiles=len(a.drawn),
                )
            )
