"""A player's turn, up to the next present human: the one use case every front end calls.

A move is rarely one commit. A draw that fits nowhere leaves passing as the only move, and the
rules leave no choice, so the pass is made at once; then the computer players answer, each
move its own commit (so a paced front end can tell them one by one); then the turns of away
players (``/mt away``) are played for them as the scheduler's ``away`` row would. Only then
is a present human to decide something, and only then is anyone pinged.

The cogs (a typed or clicked move), the scheduler's announcement (a timeout, an away turn)
and the terminal game (:mod:`bot.tryit`) all go through :class:`Turns`, so the dispatch and
the computer loop are written once. It returns facts — the outcomes, what a draw brought, who
is to be told and how — never sentences: the Discord layer and the terminal put them into
words.
"""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Sequence
from datetime import datetime

from bot.engine import KNOCK, PASS, Move, Play, Tile
from bot.service.games import GameService
from bot.service.outcome import Outcome
from bot.service.schedule import ScheduleService
from bot.service.timing import TurnPing
from bot.store import GameStatus

#: A bound on the commits one call plays, never reached: a round always ends, and away turns
#: stop at the second round end.
MAX_COMMITS = 10_000


@dataclasses.dataclass(frozen=True, slots=True)
class Drawn:
    """What a player's draw brought them (private to them): the tile, whether the rules make
    them play it now and the trains it fits, and whether it fit nowhere so their turn was
    passed for them."""

    tile: Tile
    must_play: bool
    fits: tuple[int, ...]
    passed: bool


@dataclasses.dataclass(frozen=True, slots=True)
class Turn:
    """One player's own move as committed: its outcome, then the forced pass if a draw fit
    nowhere (its own commit, as if they had passed)."""

    outs: tuple[Outcome, ...]
    drawn: Drawn | None = None

    @property
    def last(self) -> Outcome:
        return self.outs[-1]


class Turns:
    """The turn use case over the game service and, where there is one, the scheduler's (the
    terminal game has no away players and no pings)."""

    def __init__(self, games: GameService, schedule: ScheduleService | None = None) -> None:
        self.games = games
        self.schedule = schedule

    async def take(
        self,
        game_id: int,
        user_id: int,
        move: str | Move,
        now: datetime,
        *,
        expected_version: int | None = None,
        knock: bool = False,
    ) -> Turn:
        """Make ``user_id``'s move (notation or an engine move; ``knock``: announce the last
        tile with it), and the pass the rules force after a draw that fits nowhere. Computer
        players are left to :meth:`until_human`, so the mover hears of their own move first.
        A refusal raises and changes nothing."""
        svc = self.games
        if move in ("knock", KNOCK):
            # A knock does not end the turn and may come after the table moved on: no version.
            return Turn((await svc.move(game_id, user_id, KNOCK, now, computer_moves=0),))
        out = await svc.move(
            game_id,
            user_id,
            move,
            now,
            expected_version=expected_version,
            knock=knock,
            computer_moves=0,
        )
        applied = out.steps[0].applied if out.steps else None
        if applied is None or not applied.drawn:
            return Turn((out,))
        tile = applied.drawn[-1]
        view = await svc.seat_view(game_id, user_id)
        fits = tuple(m.train for m in view.legal if isinstance(m, Play) and m.tile == tile)
        if applied.must_play_drawn or not (view.my_turn and tuple(view.legal) == (PASS,)):
            return Turn((out,), Drawn(tile, applied.must_play_drawn, fits, passed=False))
        passed = await svc.move(game_id, user_id, PASS, now, computer_moves=0)
        return Turn((out, passed), Drawn(tile, False, (), passed=True))

    async def until_human(
        self, game_id: int, outs: Sequence[Outcome], now: datetime
    ) -> AsyncIterator[Outcome]:
        """The turns nobody present will take, after ``outs``, each yielded as it commits:
        computer players' moves one at a time, and the turns of away players played for them
        exactly as the scheduler's ``away`` row would (same event, same fact; the turn's row
        goes with it), in turn order, until a present human is to move or the match ends.

        Away turns stop at the second round end in one call: a game whose humans are all away
        advances a round or so per announcement (the next away turn is left to the
        scheduler), never a whole match under one lock. With a present human, their turn
        always comes before a second round end."""
        last = outs[-1] if outs else None
        ended = sum(len(o.rounds_ended) for o in outs)
        for _ in range(MAX_COMMITS):
            if last is None or last.computer_pending:
                out = await self.games.advance_computers(game_id, now, max_moves=1)
                if out.steps:
                    last = out
                    ended += len(out.rounds_ended)
                    yield out
                    if out.computer_pending:
                        continue
            nxt = last.next_player if last is not None else None
            if (
                self.schedule is None
                or last is None
                or nxt is None
                or nxt.is_computer
                or nxt.user_id is None
                or last.game.status is not GameStatus.ACTIVE
                or ended > 1
            ):
                return
            played = await self.schedule.play_away_turn(game_id, nxt.user_id, now)
            if played is None:
                return  # a present human's turn: theirs to take
            last = played.outcome
            ended += len(last.rounds_ended)
            yield last

    async def ping(self, last: Outcome, actor_id: int | None, now: datetime) -> TurnPing | None:
        """How the human now to move hears of it — the one place that decides it. Nobody for
        a computer or a game not being played; the actor who moves again is already looking
        (``here``: their hand comes with their answer); anyone else as their settings and
        quiet hours say (:func:`~bot.service.timing.turn_ping`)."""
        game, nxt = last.game, last.next_player
        if game.status is not GameStatus.ACTIVE or nxt is None or nxt.user_id is None:
            return None
        if nxt.user_id == actor_id:
            return TurnPing(nxt.user_id, dm=False, mention=False, quiet_until=None, here=True)
        if self.schedule is None:
            return None
        return await self.schedule.turn_ping(nxt.user_id, now)
