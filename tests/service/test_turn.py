"""The turn use case (bot/service/turn.py): a move and what the rules force after it, then the
turns nobody present decides — computers', and turns that leave a human no choice, played for
them as ``/mt me autoplay:`` says — up to the next present human's decision.

Whole matches are played through it by humans picking a legal move, and the facts are counted
off the event log and the views: who was left to decide, what was played for whom."""

from __future__ import annotations

import dataclasses
import json

import pytest

from bot.engine import DRAW, KNOCK, PASS, Draw, Pass, Play
from bot.service import FactCode, GameService, Outcome, errors
from bot.service.schedule import ScheduleService
from bot.service.turn import Turns, no_choice
from tests.clock import FakeClock
from tests.service.conftest import ALICE, BOB
from tests.service.helpers import new_game, pick


@dataclasses.dataclass
class Played:
    """What a match played through the use case showed."""

    #: Turns a human was handed where the only legal move was a draw or a pass.
    forced_left_to_humans: int = 0
    #: Every outcome, in commit order.
    outs: list[Outcome] = dataclasses.field(default_factory=list)
    #: Digests read at a human's turn right after a turn was played for them.
    told_for_you: list[str | None] = dataclasses.field(default_factory=list)


async def play_match(
    svc: GameService, turns: Turns, gid: int, clock: FakeClock, limit: int = 400
) -> Played:
    """Humans pick a legal move (tiles first) until the match ends or ``limit`` moves."""
    seen = Played()
    outs = [out async for out in turns.until_human(gid, [], clock.tick())]
    seen.outs += outs
    owed: set[int] = set()  # users a turn was played for since their last decision
    for _ in range(limit):
        whose = await svc.whose_turn(gid)
        if whose is None or whose.user_id is None:
            break
        uid = whose.user_id
        view = await svc.seat_view(gid, uid)
        if tuple(view.legal) in ((DRAW,), (PASS,)):
            seen.forced_left_to_humans += 1
        if uid in owed:
            digest = await svc.digest(gid, uid)
            seen.told_for_you += [m.played_for for m in digest.played_for_me]
            owed.discard(uid)
        turn = await turns.take(gid, uid, pick(view.legal), clock.tick())
        seen.outs += turn.outs
        async for out in turns.until_human(gid, turn.outs, clock.tick()):
            seen.outs.append(out)
            for fact in out.facts:
                if fact.code == FactCode.TURN_PLAYED_FOR and fact.params["reason"] == "autoplay":
                    user = fact.params["user_id"]
                    assert isinstance(user, int)
                    owed.add(user)
    return seen


def autoplay_moves(record_events: list[tuple[str, str, int | None]]) -> list[list[str]]:
    """The moves of each autoplayed turn, read off the log (kind, payload, actor): the moves
    by nobody of the marker's seat right after it."""
    turns: list[list[str]] = []
    seat: int | None = None
    for kind, payload, actor in record_events:
        data = json.loads(payload) if payload else {}
        if kind == "autoplay":
            turns.append([])
            seat = data["seat"]
        elif kind == "move" and actor is None and data.get("seat") == seat:
            turns[-1].append(str(data["move"]))
        else:
            seat = None
    return turns


async def events(svc: GameService, gid: int) -> list[tuple[str, str, int | None]]:
    record = await svc.game_record(gid)
    return [(e.kind, e.payload, e.actor) for e in record.events]


async def test_forced_turns_play_themselves(service: GameService, clock: FakeClock) -> None:
    """With ``forced``, no human is ever handed a turn whose only move is a
    draw or a pass: each was played at once, one commit, after an ``autoplay`` marker, with
    moves made by nobody, told in the channel as a played-for fact, and said in the player's
    next digest as played for them because they had no choice."""
    for uid in (ALICE, BOB):
        await service.update_user_settings(uid, clock.tick(), autoplay="forced")
    assert (await service.user_settings(ALICE)).autoplay_mode == "forced"
    turns = Turns(service, ScheduleService(service))
    gid = (await new_game(service, clock, computers=1, preset="quick")).game_id
    seen = await play_match(service, turns, gid, clock)
    assert seen.forced_left_to_humans == 0
    played = autoplay_moves(await events(service, gid))
    assert played, "a whole match has forced turns (seeded deal)"
    for moves in played:
        assert moves and set(moves) <= {"draw", "pass", "done"}
    assert seen.told_for_you and set(seen.told_for_you) == {"autoplay"}
    facts = [f for o in seen.outs for f in o.facts if f.code == FactCode.TURN_PLAYED_FOR]
    assert len(facts) == len(played)


async def test_off_leaves_every_turn_to_the_player(service: GameService, clock: FakeClock) -> None:
    """``off``: the same kind of match hands the humans their forced turns, and nothing is
    played for them."""
    for uid in (ALICE, BOB):
        await service.update_user_settings(uid, clock.tick(), autoplay="off")
    turns = Turns(service, ScheduleService(service))
    gid = (await new_game(service, clock, computers=1, preset="quick")).game_id
    seen = await play_match(service, turns, gid, clock)
    assert seen.forced_left_to_humans > 0
    assert autoplay_moves(await events(service, gid)) == []


async def test_only_move_is_the_default_and_also_plays_a_lone_tile(
    service: GameService, clock: FakeClock
) -> None:
    """``only``, the default for a player who never chose (issue 46): turns whose one legal
    move is a tile are played too; a drawn tile that fits one place is played in the same
    turn. A player who chose keeps their choice; nothing is stored for one who did not."""
    assert (await service.user_settings(ALICE)).autoplay is None
    assert (await service.user_settings(ALICE)).autoplay_mode == "only"
    await service.update_user_settings(BOB, clock.tick(), language="fr")  # another setting
    assert (await service.user_settings(BOB)).autoplay is None  # still the default, not kept
    turns = Turns(service, ScheduleService(service))
    gid = (await new_game(service, clock, computers=1, preset="quick")).game_id
    await play_match(service, turns, gid, clock)
    played = autoplay_moves(await events(service, gid))
    assert any(m != "draw" and m != "pass" and m != "done" for t in played for m in t)


async def test_a_choice_that_matters_is_never_played(
    service: GameService, clock: FakeClock
) -> None:
    """:func:`no_choice` on real views: several legal moves, an open knock or catch, a play
    that leaves one tile under the knock rule, or ``off`` — the player decides."""
    gid = (await new_game(service, clock, preset="quick")).game_id
    whose = await service.whose_turn(gid)
    assert whose is not None and whose.user_id is not None
    view = await service.seat_view(gid, whose.user_id)
    assert len(view.legal) > 1
    assert no_choice(view, "only") is None
    forced = dataclasses.replace(view, legal=(DRAW,), side_moves=())
    assert no_choice(forced, "forced") == DRAW
    assert no_choice(forced, "off") is None
    assert no_choice(dataclasses.replace(forced, side_moves=(KNOCK,)), "only") is None
    tile = next(m for m in view.legal if isinstance(m, Play))
    lone = dataclasses.replace(view, legal=(tile,), side_moves=())
    assert no_choice(lone, "forced") is None
    assert no_choice(lone, "only") == tile
    assert view.hand is not None
    last_two = dataclasses.replace(
        lone, hand=view.hand[:2], rules=dataclasses.replace(view.rules, knock=True)
    )
    assert no_choice(last_two, "only") is None


async def test_a_draw_that_fits_nowhere_is_passed_in_the_same_turn(
    service: GameService, clock: FakeClock
) -> None:
    """``take``: a draw comes back with what it drew (private to the drawer); one that fits
    nowhere comes with the forced pass, its own commit; the bad setting is refused."""
    for uid in (ALICE, BOB):
        await service.update_user_settings(uid, clock.tick(), autoplay="off")
    turns = Turns(service)
    gid = (await new_game(service, clock, preset="quick")).game_id
    draws = passes = 0
    for _ in range(400):
        whose = await service.whose_turn(gid)
        if whose is None or whose.user_id is None:
            break
        view = await service.seat_view(gid, whose.user_id)
        turn = await turns.take(gid, whose.user_id, pick(view.legal), clock.tick())
        if turn.drawn is None:
            assert len(turn.outs) == 1
            continue
        draws += 1
        assert isinstance(turn.outs[0].steps[0].move, Draw)
        if turn.drawn.passed:
            passes += 1
            assert len(turn.outs) == 2 and isinstance(turn.outs[1].steps[0].move, Pass)
            assert not turn.drawn.fits
        elif turn.drawn.must_play:
            assert turn.drawn.fits
    assert draws > passes > 0
    with pytest.raises(errors.BadSetting):
        await service.update_user_settings(ALICE, clock.tick(), autoplay="always")
    assert (await service.user_settings(ALICE)).autoplay == "off"


async def test_an_autoplayed_turn_does_not_block_the_hosts_undo(
    service: GameService, clock: FakeClock
) -> None:
    """The host's undo takes back the last human decision with the turns played for nobody
    after it, the autoplayed ones included (their marker goes with them)."""
    turns = Turns(service, ScheduleService(service))
    gid = (await new_game(service, clock, computers=1, preset="quick")).game_id
    for _ in range(400):
        whose = await service.whose_turn(gid)
        assert whose is not None and whose.user_id is not None
        view = await service.seat_view(gid, whose.user_id)
        turn = await turns.take(gid, whose.user_id, pick(view.legal), clock.tick())
        after = [out async for out in turns.until_human(gid, turn.outs, clock.tick())]
        if any(f.code == FactCode.TURN_PLAYED_FOR for o in after for f in o.facts):
            break
    else:
        pytest.fail("no forced turn came")
    undone = await service.undo(gid, ALICE, clock.tick())
    assert undone.player.user_id == whose.user_id
    assert undone.computer_moves == sum(len(o.steps) for o in after)
    back = await service.whose_turn(gid)
    assert back is not None and back.user_id == whose.user_id


async def test_play_out_hands_the_announcer_the_whole_turn(
    service: GameService, clock: FakeClock
) -> None:
    """One call after a move (issue 33): the computer's reply played, then the table as it
    stands, the ping of the human now to move and what their DM will say — the same values
    the separate reads give, so the announcer needs no other call."""
    for uid in (ALICE, BOB):
        await service.update_user_settings(uid, clock.tick(), autoplay="off")
    turns = Turns(service, ScheduleService(service))
    gid = (await new_game(service, clock, computers=1, preset="quick")).game_id
    await turns.play_out(gid, [], None, clock.tick())  # a computer dealt first moves
    whose = await service.whose_turn(gid)
    assert whose is not None and whose.user_id is not None
    mover = whose.user_id
    turn = await turns.take(
        gid, mover, pick((await service.seat_view(gid, mover)).legal), clock.tick()
    )
    played = await turns.play_out(gid, turn.outs, mover, clock.tick())
    assert played.outs[: len(turn.outs)] == turn.outs
    nxt = played.last.next_player
    assert nxt is not None and played.ping is not None and played.ping.user_id == nxt.user_id
    assert played.table == await service.table_view(gid)
    assert played.news is not None
    if played.ping.here:  # a double: the mover plays on, and gets their hand with the answer
        assert played.news.view == await service.seat_view(gid, mover)
        assert played.news.digest is None
    else:
        assert nxt.user_id is not None and played.ping.dm  # DMs on by default
        assert played.news.view == await service.seat_view(gid, nxt.user_id)
        assert played.news.digest == await service.digest(gid, nxt.user_id)
        assert played.news.standings == await service.standings(gid)


async def test_told_without_a_ping_reads_only_the_table(
    service: GameService, clock: FakeClock
) -> None:
    turns = Turns(service, ScheduleService(service))
    out = await new_game(service, clock, preset="quick")
    told = await turns.told([out], None, clock.tick(), ping=False)
    assert told.ping is None and told.news is None
    assert told.table == await service.table_view(out.game_id)


async def test_a_look_reads_the_seat_only_for_a_game_of_the_clicks_server(
    service: GameService, clock: FakeClock
) -> None:
    """A click's one read: the game and the clicker's seat; a click naming another server's
    game (forged: the place check refuses it) loads no game for a seat."""
    out = await new_game(service, clock, preset="quick")
    gid, guild = out.game_id, out.game.guild_id
    look = await service.look(gid, ALICE, guild_id=guild)
    assert look.seat_view() == await service.seat_view(gid, ALICE)
    service.clear_cache()
    loads = sum(service.ledger.loads.values())
    elsewhere = await service.look(gid, ALICE, guild_id=guild + 1)
    assert elsewhere.view is None and elsewhere.game == look.game
    assert sum(service.ledger.loads.values()) == loads
    stranger = await service.look(gid, 999, guild_id=guild)
    with pytest.raises(errors.NotInGame):
        stranger.seat_view()


async def test_a_turn_played_for_the_mover_after_a_crash_pings_them(
    service: GameService, clock: FakeClock
) -> None:
    """The outbox's delivery after a crash names the mover who moves again (a double) as the
    actor, but they saw only their own move's ✅. When the restarted bot then plays their
    turn for them (nothing fits the double: a forced draw and pass) and the others' after it,
    the turn that comes back to them is news: pinged, not ``here`` (``scripts/kill_outbox.py
    --at-end 2``, seed 1, lost exactly this ping). With the actor looking (the live path,
    whose interaction carries it) the same turn is theirs without a ping."""
    turns = Turns(service, ScheduleService(service))
    seen = {True: 0, False: 0}
    for _ in range(20):  # matches; the quick deal gets a stuck double every few
        gid = (await new_game(service, clock)).game_id
        for _ in range(400):
            whose = await service.whose_turn(gid)
            if whose is None or whose.user_id is None:
                break
            mover = whose.user_id
            view = await service.seat_view(gid, mover)
            turn = await turns.take(gid, mover, pick(view.legal), clock.tick())
            nxt = turn.outs[-1].next_player
            stuck = nxt is not None and nxt.user_id == mover
            if stuck and no_choice(await service.seat_view(gid, mover), "forced") is not None:
                looking = seen[True] <= seen[False]
                played = await turns.play_out(gid, turn.outs, mover, clock.tick(), looking=looking)
                assert len(played.outs) > len(turn.outs)  # the turn played for them
                back = played.last.next_player
                if back is not None and back.user_id == mover:
                    assert played.ping is not None and played.ping.user_id == mover
                    assert played.ping.here is looking
                    assert played.ping.dm is not looking  # DMs on by default
                    seen[looking] += 1
            else:
                await turns.play_out(gid, turn.outs, mover, clock.tick())
        if min(seen.values()) > 0:
            break
    assert min(seen.values()) > 0, seen


async def test_the_turns_result_holds_the_rounds_it_ended_and_the_matchs_end(
    service: GameService, clock: FakeClock
) -> None:
    """Issue 51: a round's post and the match's end ask the service nothing beside the turn's
    result. ``told`` holds the report of each round the outcomes ended (the same as asked
    apart), and once the match is over its final report and each human's ping of its end,
    by the ping rule (every human who played it, as their settings say)."""
    turns = Turns(service, ScheduleService(service))
    gid = (await new_game(service, clock)).game.id  # "quick": one round, then the match ends
    outs: list[Outcome] = []
    for _ in range(2000):
        turn = await service.whose_turn(gid)
        assert turn is not None and turn.user_id is not None
        view = await service.seat_view(gid, turn.user_id)
        outs.append(await service.move(gid, turn.user_id, pick(view.legal), clock.tick()))
        if outs[-1].match_over is not None:
            break
    before = await turns.told(outs[:-1], None, clock())
    assert before.rounds == () and before.final is None and before.end == ()
    played = await turns.told(outs, None, clock(), ping=False)
    assert played.ping is None  # the match is over: nobody's turn
    ended = [e.round_no for o in outs for e in o.rounds_ended]
    assert ended and [r.round_no for r in played.rounds] == ended
    assert played.rounds[-1] == await service.round_report(gid, ended[-1])
    assert played.final == await service.round_report(gid) and played.final.match_over
    assert sorted(p.user_id for p in played.end) == sorted((ALICE, BOB))
    assert all(p.dm or p.mention for p in played.end)
