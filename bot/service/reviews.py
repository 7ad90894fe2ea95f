"""A finished match's review for one of its players (issue 49: ``/mt review``, the button on
the end-of-match DM): where another move was clearly better, and how lucky the deals were.

The review itself is the engine's (:mod:`bot.engine.ai.review`: paired playouts over worlds
dealt from what that player could see at each decision). It costs seconds of CPU, so it is
computed where the caller says (``compute``: the bot's review worker, at a low priority and
within a CPU budget per match; the tests' inline) and **kept** (:mod:`bot.store.reviews`): a
seat's review is computed once, whoever asks again and however often (two asks at once wait
for the one computation).

Only the player of a seat reads its review (``user_id`` is the asker: their own seat, played
to the end by them, never a computer's), and only once the match is finished.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import Awaitable, Callable
from datetime import datetime

from bot.engine import Rules, SeatView, parse_move
from bot.engine.ai.review import Finding, ReviewJob, ReviewSettings, SeatReview, view_before
from bot.engine.moves import Move
from bot.service import errors
from bot.service.eventlog import ENGINE_KINDS, cancelled_seqs
from bot.service.outcome import read_rules
from bot.service.replay import decode_event
from bot.store import GameRecord, GameStatus, Store
from bot.store import reviews as rows

#: Computes a review (the bot's: in its review worker; tests: inline).
Compute = Callable[[ReviewJob], Awaitable[SeatReview]]


@dataclasses.dataclass(frozen=True, slots=True)
class MatchReview:
    game_id: int
    seat: int
    names: tuple[str, ...]
    review: SeatReview
    #: The reader's own view just before the costliest finding (its picture), if any.
    worst: SeatView | None
    #: Worlds each decision was examined in (the words say how the interval was made).
    worlds: int


class Reviews:
    """Reviews read from the store, else computed once and kept."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._locks: dict[tuple[int, int], asyncio.Lock] = {}

    async def review(
        self,
        game_id: int,
        user_id: int,
        now: datetime,
        *,
        compute: Compute,
        settings: ReviewSettings,
    ) -> MatchReview:
        """``user_id``'s review of finished game ``game_id`` (see the module's docstring)."""
        record = await self.store.load(game_id)
        if record is None:
            raise errors.GameNotFound(f"there is no game #{game_id}", game_id=game_id)
        if record.game.status is not GameStatus.FINISHED:
            raise errors.ServiceError(
                f"game #{game_id} is not finished: its review comes at its end",
                code="review-unfinished",
                game=game_id,
            )
        seat = next(
            (s.seat for s in record.seats if s.user_id == user_id and s.computer is None), None
        )
        if seat is None:
            raise errors.ServiceError(
                f"you did not play game #{game_id} to its end: there is no review of yours",
                code="review-not-yours",
                game=game_id,
            )
        job = job_of(record, seat, settings)
        key = (game_id, seat)
        lock = self._locks.setdefault(key, asyncio.Lock())
        async with lock:
            row = await rows.get(self.store, game_id, seat)
            if row is not None:
                review, worlds = decode(row.body, job.rules, len(job.names)), _worlds(row.settings)
            else:
                review, worlds = await compute(job), settings.worlds
                await rows.put(
                    self.store,
                    rows.ReviewRow(game_id, seat, _settings_json(settings), encode(review), now),
                )
        self._locks.pop(key, None)
        worst = None
        if review.findings:
            costliest = max(review.findings, key=lambda f: f.gain)
            worst = await asyncio.to_thread(
                view_before,
                job.rules,
                job.names,
                job.events,
                costliest.at,
                seat,
                job.engine_version,
            )
        return MatchReview(game_id, seat, job.names, review, worst, worlds)


def job_of(record: GameRecord, seat: int, settings: ReviewSettings) -> ReviewJob:
    """The review's inputs from a game's stored log (undone moves left out)."""
    row = record.game
    rules = read_rules(row)
    names = tuple(s.display_name for s in record.seats)
    gone = cancelled_seqs(row.id, record.events)
    events = tuple(
        decode_event(e, rules, len(names))
        for e in record.events
        if e.kind in ENGINE_KINDS and e.seq not in gone
    )
    return ReviewJob(rules, names, events, seat, row.engine_version, settings, seed=row.id)


def encode(review: SeatReview) -> str:
    return json.dumps(
        {
            "seat": review.seat,
            "findings": [
                [f.round_no, f.turn, f.at, str(f.played), str(f.better), f.gain, f.low, f.high]
                for f in review.findings
            ],
            "luck": list(review.luck),
            "decisions": review.decisions,
            "examined": review.examined,
        }
    )


def decode(body: str, rules: Rules, players: int) -> SeatReview:
    data = json.loads(body)

    def move(text: str) -> Move:
        return parse_move(text, players=players, max_pip=rules.max_pip)

    findings = tuple(
        Finding(int(r), int(t), int(at), move(p), move(b), float(g), float(lo), float(hi))
        for r, t, at, p, b, g, lo, hi in data["findings"]
    )
    return SeatReview(
        int(data["seat"]),
        findings,
        tuple(float(x) for x in data["luck"]),
        int(data["decisions"]),
        int(data["examined"]),
    )


def _settings_json(settings: ReviewSettings) -> str:
    return json.dumps(dataclasses.asdict(settings), sort_keys=True)


def _worlds(settings: str) -> int:
    return int(json.loads(settings).get("worlds", 0))
