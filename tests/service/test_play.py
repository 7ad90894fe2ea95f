"""Playing through the service: moves, refusals, computers, knocking, restarts, queries."""

from __future__ import annotations

import random
import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest

from bot.engine import DONE, DRAW, KNOCK, PASS, Catch, Match, MoveError, Play, Tile, parse_move
from bot.engine.ai import Level
from bot.engine.position import to_position
from bot.service import Fact, FactCode, GameOptions, GameService, Outcome, RoundEnd, errors
from bot.service.replay import replay_game
from bot.store import GameStatus, Store
from tests.clock import FakeClock
from tests.errorlog import ErrorLog
from tests.service.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD
from tests.service.helpers import new_game, pick, play_turn, raw_sql


async def _events(store: Store, gid: int) -> int:
    return await store.last_seq(gid)


async def test_a_move_is_appended_and_reported(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    gid = (await new_game(service, clock)).game.id
    assert await _events(store, gid) == 2  # start, deal
    view = await service.seat_view(gid, ALICE)
    assert view.my_turn and view.hand is not None
    move = pick(view.legal)
    assert isinstance(move, Play)
    out = await service.move(gid, ALICE, move, clock.tick())
    [step] = out.steps
    assert (step.seq, step.move, step.player.user_id, step.by_computer) == (3, move, ALICE, False)
    assert step.applied.seat == 0 and step.applied.turn_over
    assert out.next_player is not None and out.next_player.user_id == BOB
    assert [p.user_id for p in out.hands_changed] == [ALICE]
    assert out.facts[0].code == FactCode.PLAYED and out.facts[0].params["tile"] == str(move.tile)
    assert out.game.turn == out.next_player and not out.computer_pending
    assert await _events(store, gid) == 3
    assert (await service.history(gid))[-1] == f"Alice: {move}"


async def test_refusals_change_nothing(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    gid = (await new_game(service, clock)).game.id
    version = (await service.game(gid)).version
    view = await service.seat_view(gid, ALICE)
    assert view.hand is not None
    own_end = view.trains[0].end
    misfit = next(t for t in view.hand if not t.has(own_end))

    async def refused(kind: type[errors.ServiceError], code: str, coro: object) -> str:
        with pytest.raises(kind) as exc:
            await coro  # type: ignore[misc]
        assert exc.value.code == code, exc.value
        assert (await service.game(gid)).version == version
        assert await _events(store, gid) == 2
        return str(exc.value)

    msg = await refused(
        errors.MoveRefused, "not-your-turn", service.move(gid, BOB, DRAW, clock.tick())
    )
    assert msg == "it's Alice's turn"
    msg = await refused(
        errors.NotInGame, "not-in-game", service.move(gid, CAROL, DRAW, clock.tick())
    )
    assert msg == "you are not in this game"
    msg = await refused(
        errors.MoveRefused, "no-fit", service.move(gid, ALICE, Play(misfit, 0), clock.tick())
    )
    assert msg == f"{misfit} can't start Alice's train: it must match the engine, {own_end}"
    bobs = next(t for t in Match(view.rules, ["x", "y"]).rules.tiles() if t not in view.hand)
    msg = await refused(
        errors.MoveRefused, "not-in-hand", service.move(gid, ALICE, Play(bobs, 0), clock.tick())
    )
    assert msg == f"you do not hold {bobs}"
    # Text the front end could not read (a forged pick's value) is refused in the move's
    # order: whose turn it is first, then what was sent.
    for text in ("hello", "12-5"):
        with pytest.raises(MoveError) as unread:
            parse_move(text)
        msg = await refused(
            errors.MoveRefused, "not-your-turn", service.refuse_unread(gid, BOB, unread.value)
        )
        assert msg == "it's Alice's turn"
        msg = await refused(
            errors.BadMove, "bad-move", service.refuse_unread(gid, ALICE, unread.value)
        )
        assert msg == str(unread.value)
    # A move that names what the table lacks is refused in the notation's own words.
    msg = await refused(
        errors.BadMove, "bad-move", service.move(gid, ALICE, Play(Tile(7, 5), 8), clock.tick())
    )
    assert msg == "there is no train @9: seats are numbered 1 to 2"
    msg = await refused(
        errors.BadMove, "bad-move", service.move(gid, ALICE, Play(Tile(13, 2), 0), clock.tick())
    )
    assert msg == "13-2 is not in a double-12 set"
    if any(isinstance(m, Play) for m in view.legal):
        await refused(errors.MoveRefused, "must-play", service.move(gid, ALICE, DRAW, clock.tick()))
        await refused(errors.MoveRefused, "must-play", service.move(gid, ALICE, PASS, clock.tick()))
    await refused(
        errors.MoveRefused, "not-fast-start", service.move(gid, ALICE, DONE, clock.tick())
    )
    await refused(
        errors.MoveRefused, "no-knock-rule", service.move(gid, ALICE, KNOCK, clock.tick())
    )
    await refused(
        errors.MoveRefused, "no-knock-rule", service.move(gid, ALICE, Catch(1), clock.tick())
    )
    with pytest.raises(errors.GameNotFound):
        await service.move(gid + 1, ALICE, DRAW, clock.tick())


async def test_draw_then_pass_raises_the_marker(service: GameService, clock: FakeClock) -> None:
    gid = (await new_game(service, clock)).game.id
    for _ in range(300):
        turn = await service.whose_turn(gid)
        assert turn is not None and turn.user_id is not None
        view = await service.seat_view(gid, turn.user_id)
        if view.legal == (DRAW,):
            break
        await service.move(gid, turn.user_id, pick(view.legal), clock.tick())
    else:
        pytest.fail("nobody ever had to draw")
    out = await service.move(gid, turn.user_id, DRAW, clock.tick())
    [step] = out.steps
    assert len(step.applied.drawn) == 1 and out.hands_changed == (turn,)
    assert out.facts[0].code == FactCode.DREW
    view = await service.seat_view(gid, turn.user_id)
    assert step.applied.drawn[0] in (view.hand or ())
    if step.applied.must_play_drawn:
        assert out.next_player == turn and view.legal and isinstance(view.legal[0], Play)
    else:
        assert view.legal == (PASS,)
        out = await service.move(gid, turn.user_id, PASS, clock.tick())
        assert out.facts[0].code == FactCode.PASSED and out.next_player != turn
        assert out.steps[0].applied.marker_raised == (not view.trains[turn.seat].marked)


async def test_computers_answer_at_once_each_move_its_own_event(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    gid = (await new_game(service, clock, humans=(ALICE,), computers=2)).game.id
    for _ in range(5):
        seq = await _events(store, gid)
        out = await play_turn(service, gid, clock)
        assert [s.seq for s in out.steps] == list(range(seq + 1, seq + 1 + len(out.steps)))
        assert await _events(store, gid) == seq + len(out.steps)
        if out.game.status is not GameStatus.ACTIVE:
            break
        assert out.steps[0].player.user_id == ALICE
        assert {s.player.seat for s in out.steps[1:]} <= {1, 2}
        assert all(s.by_computer for s in out.steps[1:]) and len(out.steps) >= 3
        assert out.next_player is not None and out.next_player.user_id == ALICE
        assert out.hands_changed in ((), (out.steps[0].player,))  # computers get no DMs


async def test_computers_can_be_paced(service: GameService, clock: FakeClock) -> None:
    gid = (await new_game(service, clock, humans=(ALICE,), computers=2)).game.id
    view = await service.seat_view(gid, ALICE)
    out = await service.move(gid, ALICE, pick(view.legal), clock.tick(), computer_moves=0)
    assert len(out.steps) == 1 and out.computer_pending
    assert out.next_player is not None and out.next_player.is_computer
    assert await service.computer_turns() == [gid]
    with pytest.raises(errors.MoveRefused, match="turn"):
        await service.move(gid, ALICE, DRAW, clock.tick())
    seen = 0
    while out.computer_pending:
        out = await service.advance_computers(gid, clock.tick(), max_moves=1)
        assert len(out.steps) == 1 and out.steps[0].by_computer
        seen += 1
    assert seen >= 2 and out.next_player is not None and out.next_player.user_id == ALICE
    assert await service.computer_turns() == []
    idle = await service.advance_computers(gid, clock.tick())
    assert idle.steps == () and idle.game.version == out.game.version


async def test_computer_moves_are_reproducible(tmp_path: Path, clock: FakeClock) -> None:
    histories = []
    for run in range(2):
        async with await Store.open(tmp_path / f"run{run}.sqlite3") as store:
            svc = GameService(store, rng=random.Random(5))
            gid = (await new_game(svc, clock, humans=(ALICE,), computers=2)).game.id
            for _ in range(6):
                await play_turn(svc, gid, clock)
            histories.append(await svc.history(gid))
    assert histories[0] == histories[1]


async def test_a_whole_game_to_the_end(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    gid = (
        await new_game(service, clock, computers=1, preset="standard", house_rules={"rounds": 2})
    ).game.id
    ended: list[RoundEnd] = []
    started: list[int] = []
    final: Outcome | None = None
    for _ in range(2000):
        out = await play_turn(service, gid, clock)
        ended += out.rounds_ended
        started += out.rounds_started
        if out.rounds_ended and out.game.status is GameStatus.ACTIVE:
            assert {p.user_id for p in out.hands_changed} == {ALICE, BOB}  # the new deal
            assert out.facts[-1].code == FactCode.ROUND_STARTED or out.next_player is not None
        if out.game.status is not GameStatus.ACTIVE:
            final = out
            break
    assert final is not None and final.game.status is GameStatus.FINISHED
    assert [r.round_no for r in ended] == [0, 1] and started == [1]
    assert final.match_over is not None and final.next_player is None
    standings = await service.standings(gid)
    assert final.match_over.standings == standings
    assert [s.total for s in standings] == sorted(s.total for s in standings)
    assert final.match_over.winners == tuple(s.player for s in standings if s.won)
    assert standings[0].place == 1 and standings[0].won
    assert ended[-1].totals == tuple(
        sum(r.scores[s] for r in ended) for s in range(len(ended[0].scores))
    )
    assert final.facts[-1].code == FactCode.MATCH_OVER
    assert await service.round_scores(gid) == tuple(r.scores for r in ended)
    results = await store.results_for_user(ALICE)
    assert [g for g, _ in results] == [gid]
    assert await service.games_for_user(ALICE) == []
    assert await service.game_in_channel(CHANNEL) is None
    with pytest.raises(errors.WrongPhase, match="over"):
        await service.move(gid, ALICE, DRAW, clock.tick())
    view = await service.table_view(gid)
    assert view.match_over and view.result is not None


async def _to_last_tile(svc: GameService, gid: int, clock: FakeClock, knock: bool) -> int:
    """Play until a human ends a turn holding one tile; returns that seat."""
    for _ in range(1000):
        turn = await svc.whose_turn(gid)
        assert turn is not None and turn.user_id is not None
        view = await svc.seat_view(gid, turn.user_id)
        out = await svc.move(gid, turn.user_id, pick(view.legal), clock.tick(), knock=knock)
        if any(f.code == FactCode.LAST_TILE for f in out.facts) and out.game.status == "active":
            return out.steps[0].player.seat
    raise AssertionError("nobody got down to one tile")


KNOCKING = {"knock": True, "hand_size": 4}


async def test_knock_in_time(service: GameService, clock: FakeClock) -> None:
    gid = (await new_game(service, clock, house_rules=KNOCKING)).game.id
    seat = await _to_last_tile(service, gid, clock, knock=False)
    user = (ALICE, BOB)[seat]
    other = (ALICE, BOB)[1 - seat]
    view = await service.seat_view(gid, user)
    assert "knock" in [str(m) for m in view.side_moves]
    with pytest.raises(errors.MoveRefused) as exc:
        await service.move(gid, other, Catch(seat), clock.tick())
    assert exc.value.code == "catch-early"
    out = await service.move(gid, user, KNOCK, clock.tick())
    assert out.facts[0].code == FactCode.KNOCKED and out.steps[0].player.seat == seat
    await play_turn(service, gid, clock)  # the next player acts
    with pytest.raises(errors.MoveRefused) as exc:
        await service.move(gid, other, Catch(seat), clock.tick())
    assert exc.value.code == "catch-miss"


async def test_catch_a_missed_knock(service: GameService, clock: FakeClock) -> None:
    gid = (await new_game(service, clock, house_rules=KNOCKING)).game.id
    seat = await _to_last_tile(service, gid, clock, knock=False)
    user, other = (ALICE, BOB)[seat], (ALICE, BOB)[1 - seat]
    await play_turn(service, gid, clock)  # the next player acts: too late to knock
    with pytest.raises(errors.MoveRefused, match="too late"):
        await service.move(gid, user, KNOCK, clock.tick())
    out = await service.move(gid, other, Catch(seat), clock.tick())
    [step] = out.steps
    assert step.player.user_id == other and step.applied.seat == seat
    assert len(step.applied.drawn) == 2 and [p.user_id for p in out.hands_changed] == [user]
    assert out.facts[0].code == FactCode.CAUGHT and out.facts[0].params["tiles"] == 2
    assert len((await service.seat_view(gid, user)).hand or ()) == 3


async def test_knock_with_the_move(service: GameService, clock: FakeClock) -> None:
    gid = (await new_game(service, clock, house_rules=KNOCKING)).game.id
    await _to_last_tile(service, gid, clock, knock=True)
    view = await service.table_view(gid)
    assert view.catchable == () and view.knocked != ()


async def test_computers_knock_in_time(service: GameService, clock: FakeClock) -> None:
    gid = (
        await new_game(
            service,
            clock,
            humans=(ALICE,),
            computers=2,
            preset="standard",
            house_rules={**KNOCKING, "rounds": 4},
        )
    ).game.id
    facts: list[Fact] = []
    for _ in range(500):
        out = await play_turn(service, gid, clock)
        facts += out.facts
        if out.game.status is not GameStatus.ACTIVE:
            break
        view = await service.table_view(gid)
        assert not set(view.catchable) & {1, 2}
    last = [
        f.params["seat"] for f in facts if f.code == FactCode.LAST_TILE and f.params["computer"]
    ]
    knocked = [
        f.params["seat"] for f in facts if f.code == FactCode.KNOCKED and f.params["computer"]
    ]
    # Every knock window a computer had, it used (it was never catchable, above), including
    # after drawing back above one tile and playing down to one again.
    assert knocked and len(knocked) == len(last) and set(knocked) == set(last)


async def test_fast_start_done(tmp_path: Path, clock: FakeClock) -> None:
    async with await Store.open(tmp_path / "fast.sqlite3") as store:
        for seed in range(60):
            svc = GameService(store, rng=random.Random(seed))
            out = await new_game(
                svc, clock, preset="fundex", house_rules={"rounds": 1}, channel=CHANNEL + seed
            )
            gid = out.game.id
            view = await svc.seat_view(gid, ALICE)
            assert view.fast_start
            out = await svc.move(gid, ALICE, pick(view.legal), clock.tick())
            view = await svc.seat_view(gid, ALICE)
            if DONE in view.legal:
                out = await svc.move(gid, ALICE, DONE, clock.tick())
                assert out.facts[0].code == FactCode.FAST_START_DONE
                assert out.next_player is not None and out.next_player.user_id == BOB
                return
        pytest.fail("no deal let Alice stop a fast start early")


async def test_kick_hands_the_seat_to_a_computer(service: GameService, clock: FakeClock) -> None:
    gid = (await new_game(service, clock, humans=(ALICE, BOB, CAROL))).game.id
    await play_turn(service, gid, clock)  # Alice played: Bob's turn
    with pytest.raises(errors.NotHost):
        await service.kick(gid, CAROL, BOB, clock.tick())
    out = await service.kick(gid, ALICE, BOB, clock.tick())
    assert [f.code for f in out.facts[:2]] == ["kicked", "computer-took-over"]
    assert out.game.players[1].is_computer and out.game.players[1].name == "Bob"
    assert out.steps and all(s.player.seat == 1 for s in out.steps)
    assert out.next_player is not None and out.next_player.user_id == CAROL
    with pytest.raises(errors.NotInGame):
        await service.move(gid, BOB, DRAW, clock.tick())
    assert await service.games_for_user(BOB) == []
    assert "Bob:" in " ".join(await service.history(gid))


async def test_leaving_during_play(service: GameService, clock: FakeClock) -> None:
    gid = (await new_game(service, clock, humans=(ALICE, BOB, CAROL))).game.id
    out = await service.leave(gid, ALICE, clock.tick())  # host, and to play
    assert out.game.host_id == BOB and out.game.players[0].is_computer
    assert out.steps[0].player.seat == 0 and out.steps[0].by_computer
    await service.leave(gid, CAROL, clock.tick())
    out = await service.leave(gid, BOB, clock.tick())
    assert out.game.status is GameStatus.ABANDONED
    assert [f.code for f in out.facts][-1] == "game-abandoned"


async def test_stale_buttons_are_refused(service: GameService, clock: FakeClock) -> None:
    out = await new_game(service, clock)
    gid, version = out.game.id, out.game.version
    view = await service.seat_view(gid, ALICE)
    out = await service.move(gid, ALICE, pick(view.legal), clock.tick(), expected_version=version)
    with pytest.raises(errors.TableChanged, match="the table changed, try again"):
        await service.move(gid, BOB, DRAW, clock.tick(), expected_version=version)
    assert out.game.version == version + 1


async def test_restart_mid_round_gives_the_identical_game(
    db_target: str | Path, clock: FakeClock
) -> None:
    async with await Store.open(db_target) as store:
        svc = GameService(store, rng=random.Random(2))
        gid = (await new_game(svc, clock, computers=1, preset="standard")).game.id
        for _ in range(15):
            await play_turn(svc, gid, clock)
        cached = svc.cached(gid)
        assert cached is not None
        before = to_position(cached)
        history = await svc.history(gid)
        turn = await svc.whose_turn(gid)
    async with await Store.open(db_target) as store:
        svc = GameService(store, rng=random.Random(2))
        assert svc.cached(gid) is None
        assert await svc.whose_turn(gid) == turn
        again = svc.cached(gid)
        assert again is not None
        assert to_position(again) == before and await svc.history(gid) == history
        await play_turn(svc, gid, clock)  # and play goes on


async def test_cache_equals_replay_across_rounds(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    gid = (
        await new_game(service, clock, computers=2, preset="fundex", house_rules={"rounds": 3})
    ).game.id
    for _ in range(400):
        out = await play_turn(service, gid, clock)
        if len(out.rounds_ended) and out.game.status is GameStatus.ACTIVE:
            break
    for _ in range(10):
        await play_turn(service, gid, clock)
    cached = service.cached(gid)
    assert cached is not None
    fresh = GameService(store)
    await fresh.whose_turn(gid)
    replayed = fresh.cached(gid)
    assert replayed is not None and replayed is not cached
    assert to_position(replayed) == to_position(cached)
    # A miss reads the current round's events only (the rounds before from the snapshot) …
    tail = replayed.event_dicts()
    assert tail[0]["kind"] == "round" and tail[0]["round"] == replayed.rounds_played
    assert tail == cached.event_dicts()[-len(tail) :] and len(tail) < len(cached.events)
    # … and reads the rest back for what needs every event (the history here).
    assert await fresh.history(gid) == cached.history()
    assert replayed.event_dicts() == cached.event_dicts()
    # The load above started from a round snapshot; a replay of every event agrees.
    record = await store.load(gid)
    assert record is not None and record.snapshot is not None and record.snapshot[0] > 2
    full = replay_game(record, use_snapshot=False).match
    assert full is not None and to_position(full) == to_position(cached)
    assert full.event_dicts() == cached.event_dicts() and full.history() == cached.history()
    await service.verify_game(gid)


@pytest.mark.parametrize(
    "rounds", ["not json", "[]", '[{"scores": [1], "went_out": 0}]', '{"a": 1}']
)
async def test_a_bad_round_snapshot_falls_back_to_a_full_replay(
    service: GameService, store: Store, clock: FakeClock, rounds: str
) -> None:
    gid = (
        await new_game(service, clock, computers=1, preset="standard", house_rules={"rounds": 3})
    ).game.id
    while not (await play_turn(service, gid, clock)).rounds_ended:
        pass
    await play_turn(service, gid, clock)
    before = service.cached(gid)
    assert before is not None
    record = await store.load(gid)
    assert record is not None and record.snapshot is not None
    await raw_sql(
        store, "UPDATE round_snapshots SET rounds = ? WHERE seq = ?", (rounds, record.snapshot[0])
    )
    fresh = GameService(store)
    await fresh.whose_turn(gid)
    again = fresh.cached(gid)
    assert again is not None and to_position(again) == to_position(before)


async def test_verify_catches_a_snapshot_that_lies(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    gid = (
        await new_game(service, clock, computers=1, preset="standard", house_rules={"rounds": 3})
    ).game.id
    while not (await play_turn(service, gid, clock)).rounds_ended:
        pass
    await service.verify_game(gid)
    await raw_sql(
        store,
        'UPDATE round_snapshots SET rounds = \'[{"scores":[0,0,0],"went_out":0}]\' WHERE seq > 2',
    )
    with pytest.raises(errors.GameCorrupt, match="disagrees"):
        await service.verify_game(gid)


async def test_the_cache_is_bounded(service: GameService, clock: FakeClock) -> None:
    ids = [(await new_game(service, clock, channel=CHANNEL + i)).game.id for i in range(12)]
    for gid in ids:
        await service.whose_turn(gid)
    assert sum(service.cached(g) is not None for g in ids) == 8  # the fixture's cache_size


async def test_queries(service: GameService, clock: FakeClock) -> None:
    a = (await new_game(service, clock)).game.id
    b = (await new_game(service, clock, humans=(BOB, ALICE), channel=CHANNEL + 1)).game.id
    c = (
        await new_game(service, clock, humans=(CAROL, ALICE), channel=CHANNEL + 2, start=False)
    ).game.id
    await play_turn(service, a, clock)  # now Bob's turn in a
    mine = await service.games_for_user(ALICE)
    assert [g.id for g in mine] == [a, c, b]  # most recently active first
    turns = {g.id: (g.turn.name if g.turn else None) for g in mine}
    assert turns == {a: "Bob", b: "Bob", c: None}
    assert [g.id for g in await service.games_for_user(BOB)] == [a, b]
    assert (await service.game_in_channel(CHANNEL + 1)) == await service.game(b)
    spectator = await service.table_view(a)
    assert spectator.hand is None and spectator.legal == ()
    assert spectator.visible_hands == (None, None)
    with pytest.raises(errors.WrongPhase):
        await service.table_view(c)
    with pytest.raises(errors.NotInGame):
        await service.seat_view(a, CAROL)
    assert await service.history(c) == [] and await service.standings(c) == ()
    [first, second] = await service.standings(a)
    assert first.total == second.total == 0


async def test_turn_deadlines(service: GameService, clock: FakeClock) -> None:
    out = await service.create_lobby(
        guild_id=GUILD,
        channel_id=CHANNEL,
        user_id=ALICE,
        display_name="Alice",
        now=clock.tick(),
        preset_name="quick",
        options=GameOptions(turn_deadline=timedelta(hours=1)),
    )
    gid = out.game.id
    await service.join(gid, BOB, "Bob", clock.tick())
    out = await service.start(gid, ALICE, clock.tick())
    assert out.game.deadline_at == clock.now + timedelta(hours=1)
    assert out.game.turn_since == clock.now
    assert await service.due_deadlines(clock.now + timedelta(minutes=59)) == []
    [due] = await service.due_deadlines(clock.now + timedelta(hours=2))
    assert due.id == gid and due.turn is not None and due.turn.user_id == ALICE
    out = await play_turn(service, gid, clock)
    assert out.game.deadline_at == clock.now + timedelta(hours=1)
    with pytest.raises(errors.BadSetting):
        await service.create_lobby(
            guild_id=GUILD,
            channel_id=CHANNEL + 1,
            user_id=ALICE,
            display_name="Alice",
            now=clock.tick(),
            options=GameOptions(turn_deadline=timedelta(seconds=5)),
        )


async def test_messages_are_remembered(service: GameService, clock: FakeClock) -> None:
    gid = (await new_game(service, clock)).game.id
    await service.record_message(gid, "table", CHANNEL, 5551, clock.tick())
    await service.record_message(gid, "table", CHANNEL, 5552, clock.tick())
    await service.record_message(gid, "lobby", CHANNEL, 5550, clock.tick())
    msgs = await service.messages(gid)
    assert (msgs["table"].message_id, msgs["lobby"].message_id) == (5552, 5550)


@pytest.mark.expect_errors(
    logger="bot.service.computers", match=r"computer player failed at seat 1"
)
async def test_a_computer_that_misbehaves_never_stalls_a_game(
    service: GameService,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
    error_log: ErrorLog,
) -> None:
    import bot.service.computers as computers

    def broken(view: object, level: Level, seed: int) -> Tile:
        raise RuntimeError("bug in the computer player")

    monkeypatch.setattr(computers, "choose_move", broken)
    gid = (await new_game(service, clock, humans=(ALICE,), computers=1)).game.id
    out = await play_turn(service, gid, clock)
    assert len(out.steps) >= 2 and out.steps[1].by_computer
    # One failure is one ERROR, with its traceback and the move played instead.
    (failed,) = error_log.records
    assert failed.exc_info is not None and "playing" in failed.getMessage()


async def test_naive_time_is_refused(service: GameService, clock: FakeClock) -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        await service.join(1, BOB, "Bob", clock.now.replace(tzinfo=None))


def test_the_events_table_rejects_edits_outside_the_store(db_path: Path) -> None:
    # Sanity for the corruption tests: the triggers exist on a fresh file.
    import asyncio

    async def make() -> None:
        async with await Store.open(db_path):
            pass

    asyncio.run(make())
    conn = sqlite3.connect(db_path)
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='trigger'")}
    conn.close()
    assert {"events_append_only_update", "events_append_only_delete"} <= names


async def test_paced_computers_wait_while_a_human_knocks(
    service: GameService, clock: FakeClock
) -> None:
    gid = (
        await new_game(service, clock, humans=(ALICE,), computers=2, house_rules=KNOCKING)
    ).game.id
    for _ in range(300):
        view = await service.seat_view(gid, ALICE)
        out = await service.move(gid, ALICE, pick(view.legal), clock.tick(), computer_moves=0)
        if out.game.status is not GameStatus.ACTIVE:
            break
        if any(f.code == FactCode.LAST_TILE for f in out.facts) and out.computer_pending:
            knocked = await service.move(gid, ALICE, KNOCK, clock.tick())
            assert [s.move for s in knocked.steps] == [KNOCK] and knocked.computer_pending
            rest = await service.advance_computers(gid, clock.tick(), max_moves=None)
            assert rest.steps and not rest.computer_pending
            return
        await service.advance_computers(gid, clock.tick(), max_moves=None)
    pytest.fail("Alice never got down to one tile with a computer next")


async def test_a_player_chooses_the_tile_mode_of_their_pictures(
    service: GameService, clock: FakeClock
) -> None:
    from bot.service.settings import TILE_MODES
    from renderers import TILE_MODES as DRAWN

    assert set(TILE_MODES) == set(DRAWN)  # the service's names are the renderers' modes
    assert (await service.user_settings(ALICE)).tiles == "pips"
    mine = await service.update_user_settings(ALICE, clock.tick(), tiles="numerals")
    assert mine.tiles == "numerals" and (await service.user_settings(ALICE)).tiles == "numerals"
    with pytest.raises(errors.BadSetting) as refused:
        await service.update_user_settings(ALICE, clock.tick(), tiles="braille", hand_dms=False)
    assert refused.value.code == "bad-tiles"
    after = await service.user_settings(ALICE)
    assert after.tiles == "numerals" and after.hand_dms  # the refusal changed nothing
