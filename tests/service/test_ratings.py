"""Ratings (issue 48): folded in the transaction that ends a rated match, the same numbers
again from the event log (``rebuild``, an upgrade from before ratings), the stated rules."""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.service import GameService
from bot.service import ratings as fold_
from bot.service.ratings import ANCHORS, Entrant, RatedMatch, entrants_of, fold
from bot.store import GameStatus, Store
from bot.store import ratings as rows_sql
from bot.store.rows import SeatRow
from tests.clock import FakeClock
from tests.service.conftest import ALICE, BOB, CAROL, GUILD
from tests.service.helpers import new_game, play_turn


async def _finish(svc: GameService, gid: int, clock: FakeClock) -> None:
    for _ in range(3000):
        if (await svc.game(gid)).status is not GameStatus.ACTIVE:
            return
        await play_turn(svc, gid, clock)
    raise AssertionError("the match did not end")


async def _state(store: Store) -> tuple[object, ...]:
    changes = await store.fetch_all("SELECT * FROM rating_changes ORDER BY game_id, seat")
    ratings = await rows_sql.all_ratings(store)
    return tuple(tuple(r) for r in changes), tuple(ratings)


async def test_a_rated_match_end_rates_its_players_and_rebuild_gives_the_same(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    gid = (await new_game(service, clock, humans=(ALICE, BOB, CAROL), computers=1)).game.id
    await _finish(service, gid, clock)
    changes = await service.rating_changes(gid)
    assert [c.seat for c in changes] == [0, 1, 2, 3]
    humans = {c.user_id: c for c in changes if c.user_id is not None}
    assert set(humans) == {ALICE, BOB, CAROL}
    computer = next(c for c in changes if c.user_id is None)
    assert computer.computer == "easy" and computer.before == computer.after  # an anchor
    rows = await rows_sql.game_changes(store, gid)
    anchor = next(r for r in rows if r.user_id is None)
    assert (anchor.mu_after, anchor.sigma_after) == ANCHORS["easy"]
    # The winner gains, the last human loses ground relative to the winner.
    best = min(rows, key=lambda r: r.rank)
    if best.user_id is not None:
        assert best.mu_after > best.mu_before
    alice = await service.player_rating(GUILD, ALICE)
    assert alice is not None and alice.games == 1 and alice.provisional
    assert alice.rating == humans[ALICE].after and alice.course == (alice.rating,)

    gid2 = (await new_game(service, clock, humans=(BOB, ALICE))).game.id
    await _finish(service, gid2, clock)
    alice = await service.player_rating(GUILD, ALICE)
    assert alice is not None and alice.games == 2 and len(alice.course) == 2
    before = await _state(store)
    assert await service.rebuild_ratings(only_missing=False) == 1
    assert await _state(store) == before  # the log gives the same numbers
    assert await service.rebuild_ratings() == 0  # nothing unseen
    board = await service.rating_board(GUILD)
    assert {p.user_id for p in board} == {ALICE, BOB, CAROL}
    assert [p.rating for p in board] == sorted((p.rating for p in board), reverse=True)


async def test_a_match_ended_by_its_host_is_not_rated(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    gid = (await new_game(service, clock, humans=(ALICE, BOB))).game.id
    await play_turn(service, gid, clock)
    await service.end(gid, ALICE, clock.tick())
    assert await service.rating_changes(gid) == []
    assert await service.player_rating(GUILD, ALICE) is None
    assert await service.rebuild_ratings(only_missing=False) == 0


async def test_a_player_who_left_is_rated_last_and_their_computer_not_at_all(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    gid = (await new_game(service, clock, humans=(ALICE, BOB, CAROL))).game.id
    await play_turn(service, gid, clock)
    await service.leave(gid, CAROL, clock.tick())
    await _finish(service, gid, clock)
    rows = {r.user_id: r for r in await rows_sql.game_changes(store, gid)}
    assert set(rows) == {ALICE, BOB, CAROL}  # the computer in Carol's seat is not rated
    assert rows[CAROL].computer is None
    assert rows[CAROL].rank > max(rows[ALICE].rank, rows[BOB].rank)
    assert rows[CAROL].mu_after < rows[CAROL].mu_before
    before = await _state(store)
    await service.rebuild_ratings(only_missing=False)
    assert await _state(store) == before


def _seat(seat: int, user: int | None, computer: str | None) -> SeatRow:
    return SeatRow(1, seat, user, f"P{seat}", computer, datetime(2026, 1, 1, tzinfo=UTC))


def test_the_rules_of_who_is_rated() -> None:
    # Ties share a rank; a leaver is last; computers are anchors; no human, no rating.
    seats = [_seat(0, ALICE, None), _seat(1, BOB, None), _seat(2, None, "hard"),
             _seat(3, CAROL, "normal")]  # fmt: skip
    got = entrants_of(seats, {0: 1, 1: 1, 2: 2, 3: 3})
    assert got == (Entrant(0, ALICE, None, 1), Entrant(1, BOB, None, 1),
                   Entrant(2, None, "hard", 2), Entrant(3, CAROL, None, 3))  # fmt: skip
    assert entrants_of([_seat(0, None, "easy"), _seat(1, None, "hard")], {0: 1, 1: 2}) == ()
    assert entrants_of([_seat(0, ALICE, None)], {0: 1}) == ()


def test_the_fold_is_deterministic_and_orders_by_finish() -> None:
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    matches = [
        RatedMatch(i, GUILD, t0 + timedelta(hours=i),
                   (Entrant(0, ALICE, None, 1 + i % 2), Entrant(1, BOB, None, 2 - i % 2),
                    Entrant(2, None, "normal", 2)))
        for i in range(1, 9)
    ]  # fmt: skip
    a = fold(matches)
    b = fold(list(reversed(matches)))
    assert a == b
    changes, ratings = a
    assert all(c.mu_after == ANCHORS["normal"][0] for c in changes if c.user_id is None)
    assert {r.user_id: r.games for r in ratings} == {ALICE: 8, BOB: 8}
    # Each change starts where the player's previous one ended.
    last: dict[int, float] = {}
    for c in changes:
        if c.user_id is not None:
            assert c.mu_before == last.get(c.user_id, fold_.START_MU)
            last[c.user_id] = c.mu_after


async def test_an_upgrade_from_before_ratings_computes_them(
    db_path: Path, clock: FakeClock
) -> None:
    store = await Store.open(db_path, synchronous="NORMAL")
    svc = GameService(store, cache_size=8)
    for humans in ((ALICE, BOB, CAROL), (CAROL, ALICE)):
        gid = (await new_game(svc, clock, humans=humans, computers=1)).game.id
        await _finish(svc, gid, clock)
    incremental = await _state(store)
    assert incremental[1]
    await store.close()
    # The file as today's release (schema 14) left it: finished matches, no ratings (nor
    # seasons, reviews, orders: migrations 16-18).
    conn = sqlite3.connect(db_path)
    conn.executescript(
        "DROP TABLE league_players; DROP TABLE league_tables; DROP TABLE league_moves; "
        "DROP TABLE league_divisions; DROP TABLE game_rated; DROP TABLE seasons; "
        "DROP TABLE rating_changes; DROP TABLE ratings; DROP TABLE rating_games; "
        "DROP TABLE match_reviews; DROP TABLE orders; "  # and migrations 17-18's reviews, orders
        # … and migration 20's daily digest (19, autoplay's default, runs again as it is).
        "DROP INDEX user_schedule_by_digest; ALTER TABLE user_schedule DROP COLUMN digest_hour; "
        "ALTER TABLE user_schedule DROP COLUMN digest_due_at; "
        "PRAGMA user_version = 14;"
    )
    conn.close()
    store = await Store.open(db_path, synchronous="NORMAL")
    try:
        svc = GameService(store, cache_size=8)
        assert await rows_sql.all_ratings(store) == []
        assert await svc.rebuild_ratings() == 1  # what the bot's start-up runs
        assert await _state(store) == incremental
        assert await svc.rebuild_ratings() == 0
    finally:
        await store.close()


async def test_the_rebuild_command_gives_the_same_numbers(db_path: Path, clock: FakeClock) -> None:
    store = await Store.open(db_path, synchronous="NORMAL")
    svc = GameService(store, cache_size=8)
    gid = (await new_game(svc, clock, humans=(ALICE, BOB), computers=1)).game.id
    await _finish(svc, gid, clock)
    before = await _state(store)
    await store.close()
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "rebuild", "--database", str(db_path),
        cwd=Path(__file__).resolve().parents[2], stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, _ = await proc.communicate()
    assert proc.returncode == 0
    assert out.decode().strip() == (
        "rebuilt: statistics of 1 finished game(s), ratings of 1 server(s)"
    )
    store = await Store.open(db_path, synchronous="NORMAL")
    try:
        assert await _state(store) == before and before[1]
    finally:
        await store.close()


async def test_the_rating_is_written_with_the_end_or_not_at_all(
    service: GameService, store: Store, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fold is in the transaction of the match's last move: when that transaction fails
    after the rating was written (here: what the move owes the players), neither the end nor
    the rating is kept; the move made again ends the match and rates it once."""
    from bot.service import commit

    real = commit.outbox.owe

    async def failing(tx: object, game_id: int, seq: int, version: int, status: GameStatus,
                      *rest: object) -> None:  # fmt: skip
        if status is GameStatus.FINISHED:
            raise RuntimeError("the process dies here")
        await real(tx, game_id, seq, version, status, *rest)  # type: ignore[arg-type]

    gid = (await new_game(service, clock, humans=(ALICE, BOB))).game.id
    monkeypatch.setattr(commit.outbox, "owe", failing)
    for _ in range(3000):
        try:
            await play_turn(service, gid, clock)
        except RuntimeError:
            break
    else:
        raise AssertionError("the match did not end")
    assert (await service.game(gid)).status is GameStatus.ACTIVE
    assert await rows_sql.game_changes(store, gid) == []
    assert await rows_sql.all_ratings(store) == []
    monkeypatch.setattr(commit.outbox, "owe", real)
    await _finish(service, gid, clock)
    assert len(await rows_sql.game_changes(store, gid)) == 2
    assert {r.user_id: r.games for r in await rows_sql.all_ratings(store)} == {ALICE: 1, BOB: 1}
