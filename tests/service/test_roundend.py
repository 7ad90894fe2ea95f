"""A round as it ended, rebuilt from the event log; the channel's last finished match; places
shared on ties (issue 29)."""

from __future__ import annotations

import random

import pytest

from bot.engine import PRESETS, Match, SeatView, standing_places, view_for
from bot.engine.simulate import random_move
from bot.service import GameService, Player, errors
from bot.service.outcome import standings_from
from bot.service.roundend import round_report
from bot.store import GameStatus, Store
from tests.clock import FakeClock
from tests.service.conftest import ALICE, BOB, CHANNEL, GUILD
from tests.service.helpers import new_game, play_turn


def test_standing_places_share_ties_and_follow_the_winners() -> None:
    assert standing_places([12, 12, 20]) == (1, 1, 3)
    assert standing_places([20, 5, 5, 5]) == (4, 1, 1, 1)
    assert standing_places([12, 12, 20], winners=[1]) == (2, 1, 3)
    assert standing_places([7, 7], winners=[0, 1]) == (1, 1)
    players = tuple(Player(s, n, None, None) for s, n in enumerate(["Alice", "Bob", "Carol"]))
    standings = standings_from(players, [12, 12, 20], [0, None, 1])
    assert [(s.place, s.player.name, s.total, s.rounds_won) for s in standings] == [
        (1, "Alice", 12, 1),
        (1, "Bob", 12, 1),
        (3, "Carol", 20, 0),
    ]


def test_every_round_of_a_long_match_is_rebuilt_exactly_as_it_ended() -> None:
    """10 players, 19 rounds: each round's report is the table as it stood the moment that
    round ended (trains, every hand, totals then, not later), though later rounds were
    played after it."""
    names = [f"{'Player':<29}{i:>3}" for i in range(10)]
    rng = random.Random(5)
    m = Match(PRESETS["double-18"], names)
    at_end: list[SeatView] = []
    while m.needs_deal:
        m.start_round(m.shuffle(rng))
        rnd = m.round
        assert rnd is not None
        while rnd.result is None:
            m.apply(random_move(rnd, rng))
        at_end.append(view_for(m, None))
    players = tuple(Player(s, n, None, None) for s, n in enumerate(names))
    assert len(at_end) == 19
    for r, seen in enumerate(at_end):
        report = round_report(1, m, players, r)
        assert report.board == seen
        assert all(hand is not None for hand in report.board.visible_hands)
        assert report.totals == tuple(
            sum(x.scores[s] for x in m.results[: r + 1]) for s in range(10)
        )
        assert report.match_over is (r == 18)
        assert [s.place for s in report.standings] == sorted(
            standing_places(report.totals, report.board.winners)
        )
    assert [p.seat for p in round_report(1, m, players, 18).winners] == m.winners()


async def _to_round_two(service: GameService, clock: FakeClock) -> int:
    out = await new_game(service, clock, house_rules={"rounds": 2}, preset="double-9")
    gid = out.game.id
    for _ in range(2000):
        out = await play_turn(service, gid, clock)
        if out.rounds_ended:
            return gid
    raise AssertionError("round 1 never ended")


async def test_the_service_reports_a_round_after_the_next_was_dealt(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    gid = await _to_round_two(service, clock)
    with pytest.raises(errors.WrongPhase) as refused:
        await service.round_report(gid, 1)  # being played: its hands are private
    assert refused.value.code == "round-not-over"
    report = await service.round_report(gid)
    assert report.round_no == 0 and not report.match_over
    assert report.scores == (await service.round_scores(gid))[0]
    left = [sorted(h or ()) for h in report.board.visible_hands]
    assert all(
        (sum(t.pips for t in hand) == pts) for hand, pts in zip(left, report.scores, strict=True)
    )
    assert report.board.result is not None and report.board.current is None
    # A restart (nothing cached) rebuilds the same round from the log.
    again = await GameService(store).round_report(gid, 0)
    assert again == report


async def test_no_report_before_a_round_is_over(service: GameService, clock: FakeClock) -> None:
    gid = (await new_game(service, clock)).game.id
    with pytest.raises(errors.WrongPhase) as refused:
        await service.round_report(gid)
    assert refused.value.code == "no-round-over"


async def _finish(service: GameService, clock: FakeClock, channel: int = CHANNEL) -> int:
    gid = (await new_game(service, clock, channel=channel)).game.id  # "quick": one round
    for _ in range(2000):
        out = await play_turn(service, gid, clock)
        if out.match_over is not None:
            return gid
    raise AssertionError("the match never ended")


async def test_the_channels_last_finished_match_until_a_new_lobby_opens(
    service: GameService, clock: FakeClock
) -> None:
    assert await service.finished_in_channel(GUILD, CHANNEL) is None
    gid = await _finish(service, clock)
    done = await service.finished_in_channel(GUILD, CHANNEL)
    assert done is not None and done.id == gid and done.status is GameStatus.FINISHED
    assert (await service.round_report(gid)).match_over
    assert await service.finished_in_channel(GUILD, CHANNEL + 1) is None
    assert await service.finished_in_channel(GUILD + 1, CHANNEL) is None
    # A new lobby here takes its place, and a cancelled one does too.
    lobby = (await new_game(service, clock, start=False)).game
    assert await service.finished_in_channel(GUILD, CHANNEL) is None
    await service.end(lobby.id, ALICE, clock.tick())
    assert await service.finished_in_channel(GUILD, CHANNEL) is None


async def test_a_match_ended_early_is_not_a_finished_match(
    service: GameService, clock: FakeClock
) -> None:
    gid = (await new_game(service, clock, humans=(ALICE, BOB))).game.id
    await service.end(gid, ALICE, clock.tick())
    assert (await service.game(gid)).status is GameStatus.ABANDONED
    assert await service.finished_in_channel(GUILD, CHANNEL) is None
