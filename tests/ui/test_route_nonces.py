"""The nonces that make the outbox's retries safe (issue 37): Discord checks a nonce per author
within a few minutes, and the bot is the author of every DM and post, so a nonce must name
everything that tells two messages apart, in at most 25 characters."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import cast

from bot.engine import DRAW, PASS, Move, SeatView
from bot.engine.state import LogEntry
from bot.service import GameSummary
from bot.service.turn import TurnNews
from bot.ui.matchend import end_mentions_nonce, end_nonce
from bot.ui.route import dm_nonce

BIG = 2**63 - 1  # the largest Discord id


def test_an_end_dm_nonce_names_the_game_and_the_player_within_25_characters() -> None:
    nonces = {end_nonce(g, u) for g in (1, 2, 10**9) for u in (11, 22, BIG)}
    assert len(nonces) == 9  # one per game and player
    assert all(len(n) <= 25 for n in nonces)
    assert end_nonce(7, 22) == end_nonce(7, 22)  # a retry sends the same one


def test_a_later_mention_of_another_player_is_a_post_of_its_own() -> None:
    # Bob is mentioned at once; Alice, whose DMs kept failing, minutes later: Discord must not
    # answer her post with his.
    first, later = end_mentions_nonce(5, (22,)), end_mentions_nonce(5, (11,))
    assert first != later and len(first) <= 25 and len(later) <= 25
    assert end_mentions_nonce(5, (22, 11)) == end_mentions_nonce(5, (11, 22))
    assert end_mentions_nonce(5, (BIG, 11, 22)) != end_nonce(5, BIG)


def test_a_turn_dm_nonce_names_the_turn_not_the_version() -> None:
    """Issue 50: the same turn keeps its nonce while the version moves (a draw played for the
    player, someone leaving); the next turn, a tile the player played in it (a double: what
    the bot plays for them after it is news), another player or an undo's turn get another."""
    since = datetime(2026, 1, 1, tzinfo=UTC)

    def nonce(log: list[tuple[int, object]], *, user: int = 22, at: datetime = since) -> str:
        game = SimpleNamespace(id=7, round_no=0, turn_since=at)
        entries = tuple(LogEntry(seat, cast(Move, move)) for seat, move in log)
        view = cast(SeatView, SimpleNamespace(seat=1, log=entries))
        return dm_nonce(cast(GameSummary, game), user, TurnNews(view))

    turn: list[tuple[int, object]] = [(0, "12-1"), (1, DRAW), (1, PASS), (0, "1-5")]
    first = nonce(turn)  # seat 1's turn begins after 1-5
    assert len(first) <= 25
    assert nonce([*turn, (1, DRAW)]) == first  # a draw played for them: the same turn
    assert nonce([*turn, (1, "5-5"), (1, DRAW)]) != first  # after their own double
    assert nonce([*turn, (1, DRAW), (1, PASS), (0, "5-5")]) != first  # their next turn
    assert nonce(turn, user=BIG) != first
    assert nonce(turn, at=since + timedelta(seconds=1)) != first  # an undo: begun anew
