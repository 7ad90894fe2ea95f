"""Moves — play, draw, pass, done, knock, catch: one use case, :meth:`Plays.move` — and the
computer players' turns.

Computer players: by default every move plays the computer seats' turns that follow, until a
human is to play or the match ends, each as its own event. To pace them (post one move every
few seconds), pass ``computer_moves=0`` and then call :meth:`Plays.advance_computers` with
``max_moves=1`` until ``Outcome.computer_pending`` is False. Under the knock rule computer
players always knock in time; a human knocks with ``move(KNOCK)``, or at once with the
move that leaves them one tile (``knock=True``), since a computer next in line acts immediately.
A player's whole turn up to the next present human is :mod:`bot.service.turn`.
"""

from __future__ import annotations

from datetime import datetime
from typing import NoReturn

from bot.engine import Catch, IllegalMove, Knock, Match, Move, MoveError, check_fits
from bot.engine.legality import check_turn
from bot.service import errors
from bot.service.commit import Ledger, Place
from bot.service.guards import need_active, seated, utc
from bot.service.outcome import Outcome, Player
from bot.service.replay import LoadedGame
from bot.store import GameStatus


def turn_refusal(exc: IllegalMove, match: Match) -> errors.MoveRefused:
    """The engine's refusal as the service's; "it's Carol's turn" names the player, so the
    answer says it in the reader's words."""
    seat = match.current_seat
    if exc.code == "not-your-turn" and seat is not None:
        return errors.MoveRefused(str(exc), code=exc.code, name=match.names[seat])
    # The engine's facts go with it, so another language says as much (bot/ui/refusals.py).
    return errors.MoveRefused(str(exc), code=exc.code, **exc.params)


def who_may_act(match: Match, seat: int) -> None:
    """Refuse ``seat`` a turn move when it is not theirs (the engine's rule, asked before the
    move is read: a stale list or a value that is not a move is told whose turn it is)."""
    if match.round is not None:
        try:
            check_turn(match.round, seat)
        except IllegalMove as exc:
            raise turn_refusal(exc, match) from None


def mover(g: LoadedGame, user_id: int, expected_version: int | None) -> Player:
    """The player a turn move is from, checked in the order a player is told: a list or
    button the table has outrun says whose turn it is now, then that the table changed; a
    game not in play, a user not seated (:func:`~bot.service.guards.seated`)."""
    stale = expected_version is not None and expected_version != g.row.version
    if stale and g.row.status is GameStatus.ACTIVE and g.match is not None:
        who_may_act(g.match, seated(g, user_id).seat)
    if stale:
        raise errors.TableChanged()
    if g.row.status is not GameStatus.ACTIVE or g.match is None:
        need_active(g)
    return seated(g, user_id)


def unreadable(match: Match, me: Player, exc: MoveError) -> errors.ServiceError:
    """The refusal of a move that could not be read, or names what the table lacks: who may
    act is said before what was sent (a forged pick's value)."""
    who_may_act(match, me.seat)
    return errors.BadMove(str(exc))


class Plays:
    """A seated player's moves, and the computer players' answers."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    async def move(
        self,
        game_id: int,
        user_id: int,
        move: Move,
        now: datetime,
        *,
        expected_version: int | None = None,
        knock: bool = False,
        computer_moves: int | None = None,
        made_in: Place | None = None,
        seen_version: int | None = None,
    ) -> Outcome:
        """Make any move — the one use case for all of them — given as an engine :data:`Move`
        (``Play(tile, train)``, ``DRAW``, ``PASS``, ``DONE``, ``KNOCK``, ``Catch(seat)``);
        notation is read by the front end, which knows how it was typed (python-chess keeps
        ``push(move)`` apart from ``push_san(text)``). A knock (announce your last tile, knock
        house rule) and a catch (a player down to one tile who did not knock in time draws the
        penalty) play no computer moves: they do not change whose turn it is.

        ``expected_version``: the ``GameSummary.version`` the player's buttons were drawn
        from; if the game has changed since, :class:`TableChanged` and nothing happens.
        ``knock``: announce the last tile with this move, if it leaves the mover one tile.
        ``computer_moves``: how many computer moves to play after it (None: all of them).
        ``made_in``: the server and channel a move picked from a list was sent from (a client
        can send any game id): the game must be played there, checked on the row the ledger
        reads anyway for its cache check (:meth:`~bot.service.commit.Ledger.get`), before
        anything is replayed.
        ``seen_version``: the version the front end's look-up has just read with the game's
        row: the cached game at that version is used without reading the version again
        (:meth:`~bot.service.commit.Ledger.get`; one read fewer before the mover's answer).
        """
        now = utc(now)
        async with self.ledger.commit(game_id, now, made_in=made_in, version=seen_version) as c:
            g = c.game
            me = mover(g, user_id, expected_version)
            match = c.match
            try:
                check_fits(move, players=match.players, max_pip=g.rules.max_pip)
            except MoveError as exc:
                raise unreadable(match, me, exc) from None
            if isinstance(move, Knock | Catch):
                # They do not change whose turn it is: a computer left waiting by paced play
                # stays waiting for advance_computers.
                computer_moves = 0
            try:
                c.apply(me, move, user_id)
            except IllegalMove as exc:
                # The engine changed nothing: the cached game is still good.
                raise turn_refusal(exc, match) from None
            if knock:
                c.knock_for(me.seat, user_id)
            return await c.write(await c.after_move(computer_moves))

    async def refuse_unread(
        self,
        game_id: int,
        user_id: int,
        exc: MoveError,
        *,
        expected_version: int | None = None,
        made_in: Place | None = None,
    ) -> NoReturn:
        """Refuse a move the front end could not read (``exc``: why; a forged pick's value)
        exactly as :meth:`move` refuses one, in the same one read and the same order: where
        it was sent from, the table it was listed from, whose turn it is, then what was
        sent. Changes nothing."""
        async with self.ledger.game(game_id, made_in=made_in) as g:
            me = mover(g, user_id, expected_version)
            assert g.match is not None
            raise unreadable(g.match, me, exc)

    async def advance_computers(
        self, game_id: int, now: datetime, *, max_moves: int | None = 1
    ) -> Outcome:
        """Play up to ``max_moves`` computer moves (None: until a human is to play)."""
        now = utc(now)
        async with self.ledger.commit(game_id, now) as c:
            g = c.game
            if g.row.status is not GameStatus.ACTIVE or g.match is None:
                return Outcome(self.ledger.summary(g))
            pending = await c.after_move(max_moves)
            if not c.events:
                return Outcome(self.ledger.summary(g), next_player=self.ledger.next_player(g))
            return await c.write(pending)
