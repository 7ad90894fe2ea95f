"""What every use case checks before it changes a game: the phase it is in (``need_lobby``,
``need_active``, ``need_unfinished``, ``dealt``), who is asking (``need_host``, ``seated``)
and the values a caller names (``seat_row``, ``utc``). Each refuses with the service's own
error, so a use case reads as its guards, then its change."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.engine import Match
from bot.service import errors
from bot.service.outcome import Player, players_of
from bot.service.replay import LoadedGame
from bot.store import GameStatus, SeatRow


def utc(now: datetime) -> datetime:
    """``now`` in UTC; a naive datetime is refused (the service never guesses a zone)."""
    if now.tzinfo is None:
        raise ValueError("now must be a timezone-aware datetime")
    return now.astimezone(UTC)


def need_lobby(g: LoadedGame) -> None:
    if g.row.status is GameStatus.ABANDONED and g.match is None:
        # Cancelled before it started (a Join that lost a race with Cancel ends here).
        raise errors.WrongPhase("the lobby was cancelled", code="lobby-cancelled")
    if g.row.status is not GameStatus.LOBBY:
        raise errors.WrongPhase(
            "the game has already started"
            if g.row.status is GameStatus.ACTIVE
            else "the game is over",
            code="not-lobby",
        )


def need_active(g: LoadedGame) -> None:
    status = g.row.status
    if status is GameStatus.LOBBY:
        raise errors.WrongPhase("the game has not started yet", code="not-started")
    if status is not GameStatus.ACTIVE or g.match is None:
        raise errors.WrongPhase("the game is over", code="game-over")


def need_unfinished(g: LoadedGame) -> None:
    if not g.row.status.unfinished:
        raise errors.WrongPhase("the game is over", code="game-over")


def need_host(g: LoadedGame, user_id: int, is_manager: bool, action: str) -> None:
    if user_id != g.row.host_id and not is_manager:
        raise errors.NotHost(action)


def seated(g: LoadedGame, user_id: int, *, any_seat: bool = False) -> Player:
    """The human seat of ``user_id`` (``any_seat``: also one a computer took over). A seat a
    computer took over is refused as :class:`~bot.service.errors.SeatGiven`: its hand is not
    its former player's to see (kick and leave keep the user id on the seat, for the record)."""
    for s in g.seats:
        if s.user_id == user_id:
            if s.computer is None or any_seat:
                return players_of(g.seats)[s.seat]
            raise errors.SeatGiven()
    raise errors.NotInGame()


def seat_row(g: LoadedGame, seat: int) -> SeatRow:
    if not 0 <= seat < len(g.seats):
        raise errors.NoSuchSeat(f"there is no seat {seat + 1}", seat=seat)
    return g.seats[seat]


def dealt(g: LoadedGame) -> Match:
    if g.match is None or g.match.round is None:
        raise errors.WrongPhase("the game has not started yet", code="not-started")
    return g.match
