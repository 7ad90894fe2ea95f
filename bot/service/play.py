"""Moves: play, draw, pass, done, knock, catch, and the computer players' turns.

Computer players: by default every move plays the computer seats' turns that follow, until a
human is to play or the match ends, each as its own event. To pace them (post one move every
few seconds), pass ``computer_moves=0`` and then call :meth:`Plays.advance_computers` with
``max_moves=1`` until ``Outcome.computer_pending`` is False. Under the knock rule computer
players always knock in time; a human knocks with :meth:`Plays.knock`, or at once with the
move that leaves them one tile (``knock=True``), since a computer next in line acts immediately.
"""

from __future__ import annotations

from datetime import datetime

from bot.engine import (
    DONE,
    DRAW,
    KNOCK,
    PASS,
    Catch,
    IllegalMove,
    Move,
    MoveError,
    Play,
    parse_move,
)
from bot.service import errors
from bot.service.commit import Batch, Ledger, need_active, seated, utc
from bot.service.outcome import Outcome
from bot.store import GameStatus


class Plays:
    """A seated player's moves, and the computer players' answers."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    async def move(
        self,
        game_id: int,
        user_id: int,
        move: str | Move,
        now: datetime,
        *,
        expected_version: int | None = None,
        knock: bool = False,
        computer_moves: int | None = None,
    ) -> Outcome:
        """Make any move, given in notation (``12-5 mexican``, ``5-7 @2``, ``7-7 own``, ``draw``,
        ``pass``, ``done``, ``knock``, ``catch @3``) or as an engine :data:`Move`.

        ``expected_version``: the ``GameSummary.version`` the player's buttons were drawn
        from; if the game has changed since, :class:`TableChanged` and nothing happens.
        ``knock``: announce the last tile with this move, if it leaves the mover one tile.
        ``computer_moves``: how many computer moves to play after it (None: all of them).
        """
        return await self._move(
            game_id, user_id, move, now, expected_version, knock, computer_moves, None
        )

    async def play(
        self,
        game_id: int,
        user_id: int,
        move: str | Play,
        now: datetime,
        *,
        expected_version: int | None = None,
        knock: bool = False,
        computer_moves: int | None = None,
    ) -> Outcome:
        """Play a tile: ``12-5 mexican``, ``5-7 @2``, ``7-7 own`` (see :meth:`move`)."""
        return await self._move(
            game_id, user_id, move, now, expected_version, knock, computer_moves, Play
        )

    async def draw(
        self,
        game_id: int,
        user_id: int,
        now: datetime,
        *,
        expected_version: int | None = None,
        computer_moves: int | None = None,
    ) -> Outcome:
        """Draw a tile from the boneyard (only when no tile can be played)."""
        return await self._move(
            game_id, user_id, DRAW, now, expected_version, False, computer_moves, None
        )

    async def pass_turn(
        self,
        game_id: int,
        user_id: int,
        now: datetime,
        *,
        expected_version: int | None = None,
        computer_moves: int | None = None,
    ) -> Outcome:
        """Pass (after drawing, or with an empty boneyard): your marker goes up."""
        return await self._move(
            game_id, user_id, PASS, now, expected_version, False, computer_moves, None
        )

    async def done(
        self,
        game_id: int,
        user_id: int,
        now: datetime,
        *,
        expected_version: int | None = None,
        knock: bool = False,
        computer_moves: int | None = None,
    ) -> Outcome:
        """End a fast start (fast-start house rule) before running out of tiles to play."""
        return await self._move(
            game_id, user_id, DONE, now, expected_version, knock, computer_moves, None
        )

    async def knock(self, game_id: int, user_id: int, now: datetime) -> Outcome:
        """Announce your last tile (knock house rule), before the next player acts.

        Knock and catch do not change whose turn it is, so they play no computer moves: a
        computer left waiting by paced play stays waiting for :meth:`advance_computers`."""
        return await self._move(game_id, user_id, KNOCK, now, None, False, 0, None)

    async def catch(self, game_id: int, user_id: int, target_seat: int, now: datetime) -> Outcome:
        """Catch a player (0-based seat) who is down to one tile and did not knock in time:
        they draw the penalty tiles."""
        return await self._move(game_id, user_id, Catch(target_seat), now, None, False, 0, None)

    async def _move(
        self,
        game_id: int,
        user_id: int,
        move: str | Move,
        now: datetime,
        expected_version: int | None,
        knock: bool,
        computer_moves: int | None,
        only: type[Play] | None,
    ) -> Outcome:
        now = utc(now)
        async with self.ledger.locked(game_id):
            g = await self.ledger.get(game_id)
            if expected_version is not None and expected_version != g.row.version:
                raise errors.TableChanged()
            if g.row.status is not GameStatus.ACTIVE or g.match is None:
                need_active(g)
            me = seated(g, user_id)
            match = g.match
            assert match is not None
            if isinstance(move, str):
                try:
                    move = parse_move(
                        move, seat=me.seat, players=match.players, max_pip=g.rules.max_pip
                    )
                except MoveError as exc:
                    raise errors.BadMove(str(exc)) from None
            if only is not None and not isinstance(move, only):
                raise errors.BadMove(f"{move} is not a tile to play: write e.g. 12-5 mexican")
            batch = Batch(self.ledger, g, match, g.seats, now)
            try:
                batch.apply(me, move, user_id)
            except IllegalMove as exc:
                # The engine changed nothing: the cached game is still good.
                raise errors.MoveRefused(str(exc), code=exc.code) from None
            try:
                if knock:
                    batch.knock_for(me.seat, user_id)
                pending = self.ledger.after_move(batch, computer_moves)
            except BaseException:
                self.ledger.forget(game_id)
                raise
            return await self.ledger.commit_play(g, batch, pending)

    async def advance_computers(
        self, game_id: int, now: datetime, *, max_moves: int | None = 1
    ) -> Outcome:
        """Play up to ``max_moves`` computer moves (None: until a human is to play)."""
        now = utc(now)
        async with self.ledger.locked(game_id):
            g = await self.ledger.get(game_id)
            if g.row.status is not GameStatus.ACTIVE or g.match is None:
                return Outcome(self.ledger.summary(g))
            batch = Batch(self.ledger, g, g.match, g.seats, now)
            try:
                pending = self.ledger.after_move(batch, max_moves)
            except BaseException:
                self.ledger.forget(game_id)
                raise
            if not batch.events:
                return Outcome(self.ledger.summary(g), next_player=self.ledger.next_player(g))
            return await self.ledger.commit_play(g, batch, pending)
