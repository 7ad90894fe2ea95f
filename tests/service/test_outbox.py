"""The outbox on both stores (issue 37): a move's debt is written with the move and grows
until paid; paying clears it part by part; a debt is leased to one process of a cluster; the
post it owes is rebuilt from the log exactly as the live move said it."""

from __future__ import annotations

import random
from datetime import timedelta
from pathlib import Path

import pytest

from bot.service import FactCode, GameService, GameStatus
from bot.service.outbox import GRACE, looking, owed_outcome
from bot.service.turn import Turns
from bot.store import EventRow, Store
from bot.ui.messages import outcome_lines
from tests.clock import FakeClock
from tests.service.conftest import ALICE, BOB
from tests.service.helpers import new_game, play_turn


# The deal is seeded: with the OS's random deal, about one deal in seven made the second move a
# draw by a player who moves again and is owed no ping, and the test failed "at random" (it was
# blamed on load). Seed 2 is such a deal, seed 0 one where the turn passes on.
@pytest.mark.parametrize(("seed", "moves_again"), [(0, False), (2, True)])
async def test_a_moves_debt_is_written_with_it_and_cleared_part_by_part(
    store: Store, clock: FakeClock, seed: int, moves_again: bool
) -> None:
    svc = GameService(store, rng=random.Random(seed))
    start = await new_game(svc, clock)
    gid = start.game.id
    first = await svc.outbox.owed(gid)
    assert first is not None and first.post_owed and first.from_seq == 1
    assert first.version == start.game.version and first.due_at == clock() + GRACE
    await svc.outbox.delivered(gid, first.version, post=True, ping=True, now=clock())
    assert await svc.outbox.owed(gid) is None

    one = await play_turn(svc, gid, clock)
    two = await play_turn(svc, gid, clock)
    owed = await svc.outbox.owed(gid)
    assert owed is not None and owed.version == two.game.version
    # Not yet posted: the debt grew from the first unposted move, the ping is the newest;
    # a player who moves again (a draw) is already looking and is owed none.
    assert owed.from_seq == one.steps[0].seq
    assert two.next_player is not None
    nxt = two.next_player.user_id
    assert (two.steps[-1].player.user_id == nxt) is moves_again
    assert owed.ping_user == (None if moves_again else nxt)
    # The post it owes tells exactly the moves the live outcomes told.
    rebuilt = owed_outcome(await svc.game_record(gid), owed.from_seq)
    assert [(s.seq, s.move, s.player.seat) for s in rebuilt.steps] == [
        (s.seq, s.move, s.player.seat) for s in (*one.steps, *two.steps)
    ]
    assert rebuilt.next_player == two.next_player
    # An older version's delivery clears nothing of the newer debt; the post alone, the post.
    await svc.outbox.delivered(gid, one.game.version, post=True, ping=True, now=clock())
    assert await svc.outbox.owed(gid) == owed
    await svc.outbox.delivered(gid, two.game.version, post=True, ping=False, now=clock())
    left = await svc.outbox.owed(gid)
    if moves_again:  # nothing but the post was owed: paid, the row is gone
        assert left is None
        return
    assert left is not None and not left.post_owed and left.ping_user == owed.ping_user
    await svc.outbox.delivered(gid, two.game.version, post=False, ping=True, now=clock())
    assert await svc.outbox.owed(gid) is None


async def test_a_debt_is_leased_to_one_process(db_target: str | Path, clock: FakeClock) -> None:
    first, second = await Store.open(db_target), await Store.open(db_target)
    try:
        a, b = GameService(first), GameService(second)
        gid = (await new_game(a, clock, humans=(ALICE, BOB))).game.id
        clock.tick(3600)
        due_a = await a.outbox.due(clock(), 10)
        due_b = await b.outbox.due(clock(), 10)
        assert [d.game_id for d in due_a] == [d.game_id for d in due_b] == [gid]
        lease = timedelta(seconds=60)
        assert await a.outbox.claim(due_a[0], "process-a", clock(), lease)
        assert not await b.outbox.claim(due_b[0], "process-b", clock(), lease)
        assert await b.outbox.due(clock(), 10) == []  # held: not offered to the others
        # A dead process's lease runs out: the debt is taken over.
        clock.tick(61)
        again = await b.outbox.due(clock(), 10)
        assert [d.game_id for d in again] == [gid]
        assert await b.outbox.claim(again[0], "process-b", clock(), lease)
        # A failed send plans the retry and gives the lease back.
        await b.outbox.retry_later(gid, again[0].version, clock() + timedelta(seconds=5))
        assert await a.outbox.due(clock(), 10) == []
        clock.tick(5)
        retried = await a.outbox.due(clock(), 10)
        assert [d.attempts for d in retried] == [1]
    finally:
        await first.close()
        await second.close()


async def test_an_undo_owes_its_post_and_its_ping_with_it(store: Store, clock: FakeClock) -> None:
    """The undo's own transaction writes its debt (a crash right after it loses nothing): the
    post tells the undo (the live post's words, rebuilt from the log) and the moves it took
    back are not told; the player to move again is owed their ping."""
    svc = GameService(store, rng=random.Random(0))
    gid = (await new_game(svc, clock)).game.id
    moved = await play_turn(svc, gid, clock)
    await svc.outbox.delivered(gid, moved.game.version, post=True, ping=True, now=clock())
    assert await svc.outbox.owed(gid) is None
    mover = moved.steps[0].player
    host = ALICE  # Alice hosts: she takes back Bob's turn, or her own
    undone = await svc.undo(gid, host, clock.tick())
    owed = await svc.outbox.owed(gid)
    assert owed is not None and owed.post_owed and owed.version == undone.game.version
    undo_seq = max(e.seq for e in (await svc.game_record(gid)).events)
    assert owed.from_seq == undo_seq
    assert undone.next_player is not None and undone.next_player.user_id == mover.user_id
    # The one who undid their own turn moves again and is looking: no ping; else the mover's.
    assert owed.ping_user == (None if mover.user_id == host else mover.user_id)
    rebuilt = owed_outcome(await svc.game_record(gid), owed.from_seq)
    assert rebuilt.steps == () and rebuilt.next_player == undone.next_player
    [fact] = [f for f in rebuilt.facts if f.code == FactCode.UNDONE]
    assert fact.params["name"] == mover.name and fact.params["moves"] == ", ".join(undone.moves)
    assert fact.params["own"] is (mover.user_id == host) and fact.params["computers"] == 0


async def test_the_last_move_owes_every_human_the_end_until_each_is_told(
    store: Store, clock: FakeClock
) -> None:
    svc = GameService(store, rng=random.Random(3))
    gid = (await new_game(svc, clock, humans=(ALICE, BOB))).game.id
    last = None
    for _ in range(400):
        if (await svc.game(gid)).status is not GameStatus.ACTIVE:
            break
        last = await play_turn(svc, gid, clock)
        owed = await svc.outbox.owed(gid)
        assert owed is not None
        assert owed.end_users == (() if last.match_over is None else (ALICE, BOB))
    assert last is not None and last.match_over is not None
    owed = await svc.outbox.owed(gid)
    # Every human seated, in seat order; never the computer.
    assert owed is not None and owed.end_users == (ALICE, BOB)
    assert owed.ping_user is None  # nobody's turn is next
    # The post and the ping paid: the row stays while someone is still to be told.
    await svc.outbox.delivered(gid, last.game.version, post=True, ping=True, now=clock())
    left = await svc.outbox.owed(gid)
    assert left is not None and left.end_users == (ALICE, BOB) and not left.post_owed
    await svc.outbox.told_end(gid, (BOB,))
    left = await svc.outbox.owed(gid)
    assert left is not None and left.end_users == (ALICE,)
    await svc.outbox.told_end(gid, (BOB,))  # told twice: nothing changes
    assert await svc.outbox.owed(gid) == left
    await svc.outbox.told_end(gid, (ALICE,))
    assert await svc.outbox.owed(gid) is None


async def test_a_post_held_for_the_next_keeps_where_it_starts_until_told(
    store: Store, clock: FakeClock
) -> None:
    # A draw from the DM is told with the move after it (issue 34): its post is no longer
    # owed on its own (nothing is due, the deliverer posts nothing), but where it starts is
    # kept, the next move's debt starts there, and telling that post clears it.
    svc = GameService(store, rng=random.Random(0))
    start = await new_game(svc, clock)
    gid = start.game.id
    await svc.outbox.delivered(gid, start.game.version, post=True, ping=True, now=clock())
    one = await play_turn(svc, gid, clock)
    await svc.outbox.delivered(gid, one.game.version, post=True, ping=True, held=True, now=clock())
    held = await svc.outbox.owed(gid)
    assert held is not None and held.held_from == one.steps[0].seq
    assert not held.post_owed and held.ping_user is None
    clock.tick(3600)
    assert await svc.outbox.due(clock(), 10, all_due=True) == []
    assert await svc.outbox.next_due() is None
    two = await play_turn(svc, gid, clock)
    owed = await svc.outbox.owed(gid)
    assert owed is not None and owed.post_owed and owed.from_seq == one.steps[0].seq
    assert owed.held_from == one.steps[0].seq
    rebuilt = owed_outcome(await svc.game_record(gid), owed.from_seq)
    assert [s.seq for s in rebuilt.steps] == [s.seq for s in (*one.steps, *two.steps)]
    await svc.outbox.delivered(gid, two.game.version, post=True, ping=True, now=clock())
    assert await svc.outbox.owed(gid) is None


async def test_a_turn_played_for_someone_reads_the_same_rebuilt_from_the_log(
    store: Store, clock: FakeClock
) -> None:
    """A post owed for a turn the bot played for a player with no choice (a crash before the
    live post) says what the live post said: one line for that turn, not a line a move."""
    svc = GameService(store, rng=random.Random(0))
    start = await new_game(svc, clock)
    gid = start.game.id
    turns = Turns(svc)
    told = 0
    said: list[str] = []  # every live post's lines since the deal, in order
    first: int | None = None  # the seq of the first move
    for _ in range(200):
        turn = await svc.whose_turn(gid)
        if turn is None or turn.user_id is None:
            break
        out = await turns.play_forced(gid, turn.user_id, clock.tick())
        if out is None:
            out = await play_turn(svc, gid, clock)
            first = first or out.steps[0].seq
            said += outcome_lines(out, None)
            continue
        first = first or out.steps[0].seq - 1  # (its autoplay marker)
        live = outcome_lines(out, None)
        said += live
        assert "had no choice" in live[0], live
        # no line per move (the round's news, under the default ``only`` a lone tile that
        # leaves one tile or goes out, is the table's, not a move's line)
        per_move = tuple(f"{turn.name} {verb}" for verb in ("drew", "passed", "played", "ended"))
        assert not [line for line in live if line.startswith(per_move)], live
        record = await svc.game_record(gid)
        # The commit's events start at the autoplay marker, right before its first move.
        assert outcome_lines(owed_outcome(record, out.steps[0].seq - 1), None) == live
        # A post owed for everything since the deal (the same seat's own turns in it too)
        # says what the live posts said, each turn played for someone in its place.
        since_deal = owed_outcome(record, first)
        assert outcome_lines(since_deal, None) == said
        told += 1
    assert told > 0, "a quick two-player match has forced turns"


def test_who_is_looking_is_the_last_maker_of_a_change_unless_the_scheduler_played_since() -> None:
    """Issue 50: moves made by nobody right after someone's change (a computer's, a turn
    with no choice) are that user's cycle: its ping was theirs with their answer; a timeout
    or an away turn is news to everyone."""

    def ev(seq: int, kind: str, actor: int | None = None) -> EventRow:
        return EventRow(1, seq, kind, "{}", actor, "")

    move = ev(5, "move", ALICE)
    assert looking((ev(4, "move", BOB), move)) == ALICE
    assert looking((move, ev(6, "autoplay"), ev(7, "move"), ev(8, "move"))) == ALICE
    assert looking((move, ev(6, "move"), ev(7, "round"))) == ALICE  # a computer, a deal
    assert looking((move, ev(6, "timeout"), ev(7, "move"))) is None
    assert looking((move, ev(6, "away"), ev(7, "move"))) is None
    assert looking((ev(1, "round"),)) is None
