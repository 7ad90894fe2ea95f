"""The one ping rule (issue 51): the commit's debt (``outbox.owe``), the turn's ping
(``Turns.ping``) and the match's end (``bot.ui.matchend``) ask the same function, so for the
same game, turn and actor they ping the same people. Each caller is run as it runs in the bot
(the debt's write and the settings' read faked at their edges), over every status, every seat
to move and every actor, and their answers compared."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime
from typing import Any, ClassVar

import pytest

from bot.engine import Rules
from bot.service import outbox
from bot.service.outcome import (
    GameOptions,
    GameSummary,
    MatchEnd,
    Outcome,
    Player,
    Standing,
    players_of,
)
from bot.service.timing import TurnPing
from bot.service.turn import Turns
from bot.store import GameStatus, SeatRow
from bot.ui.matchend import who_hears_the_end

NOW = datetime(2026, 1, 1, tzinfo=UTC)
ANN, BOB, CAT = 11, 22, 33
#: Two humans and a computer; a user who left the game (owed, no longer seated).
SEATS = (
    SeatRow(1, 0, ANN, "Ann", None, NOW),
    SeatRow(1, 1, None, "Hal", "easy", NOW),
    SeatRow(1, 2, BOB, "Bob", None, NOW),
)
GONE = CAT


class Debt:
    """``OutboxTx`` as ``owe`` writes through it: what was owed is kept."""

    written: ClassVar[list[tuple[int | None, tuple[int, ...]]]] = []

    def __init__(self, _tx: object) -> None:
        pass

    async def owe(self, *args: Any) -> None:
        _game, _seq, _version, ping, _due, end = args
        Debt.written.append((ping, end))


class Settings:
    """The game service and the schedule as ``Turns.ping`` reads them."""

    async def user_settings(self, user_id: int) -> object:
        return object()

    async def turn_ping(self, user_id: int, now: datetime) -> TurnPing:
        return TurnPing(user_id, dm=True, mention=False, quiet_until=None)


def game(status: GameStatus, players: tuple[Player, ...], turn: Player | None) -> GameSummary:
    return GameSummary(
        id=1, guild_id=2, channel_id=3, host_id=ANN, status=status, preset="quick",
        rules=Rules(), players=players, turn=turn, round_no=0, options=GameOptions(),
        version=5, created_at=NOW, updated_at=NOW, turn_since=NOW, deadline_at=None,
    )  # fmt: skip


CASES = list(itertools.product(list(GameStatus), [None, 0, 1, 2], [None, ANN, BOB, CAT]))


@pytest.mark.parametrize(("status", "turn_seat", "actor"), CASES)
async def test_the_debt_the_turns_ping_and_the_match_end_ping_the_same_people(
    monkeypatch: pytest.MonkeyPatch, status: GameStatus, turn_seat: int | None, actor: int | None
) -> None:
    monkeypatch.setattr(outbox, "OutboxTx", Debt)
    Debt.written = []
    await outbox.owe(object(), 1, 1, 5, status, turn_seat, SEATS, actor, NOW)  # type: ignore[arg-type]
    [(owed_ping, owed_end)] = Debt.written

    players = players_of(SEATS)
    to_move = players[turn_seat] if turn_seat is not None else None
    summary = game(status, players, to_move)
    turns = Turns(Settings(), Settings())  # type: ignore[arg-type]
    ping = await turns.ping(Outcome(summary, next_player=to_move), actor, NOW)

    standings = tuple(Standing(p, 10 * p.seat, p.seat + 1, 0, p.seat == 0) for p in players)
    end = MatchEnd(standings, (players[0],))
    told, crossed_off = who_hears_the_end(summary, end, (ANN, BOB, GONE))

    # The turn: the debt owes exactly the ping Turns sends, and the actor is never pinged.
    pinged_now = None if ping is None or ping.here else ping.user_id
    assert owed_ping == pinged_now
    assert (ping is not None and ping.here) == (
        owed_ping is None and to_move is not None and not to_move.is_computer
        and to_move.user_id == actor and status is GameStatus.ACTIVE
    )  # fmt: skip
    if status is not GameStatus.ACTIVE or to_move is None or to_move.is_computer:
        assert ping is None and owed_ping is None
    # The end: the debt owes the end to those the match's end tells (a computer never).
    assert {s.player.user_id for s in told} == set(owed_end) - {GONE}
    if status is GameStatus.FINISHED:
        assert set(owed_end) == {ANN, BOB} and crossed_off == (GONE,)
    else:
        assert owed_end == () and told == ()
