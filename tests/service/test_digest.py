"""The catch-up digest over real games on an SQLite file: what changed since a player's last
turn, read off the event log (undone moves left out), and a spectator's last moves.

The first round of most games here is dealt from fixed hands (:class:`FixedDeal`), so the
moves are written in notation and the digest is checked exactly.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest

from bot.engine import DRAW, Tile, double_set, parse_move
from bot.service import GameService, errors
from bot.service.catchup import digest_of
from bot.service.schedule import ScheduleService
from bot.store import Store
from bot.ui.catchup import catchup_text
from tests.clock import FakeClock
from tests.service.conftest import ALICE, BOB, CAROL, DAVE
from tests.service.helpers import new_game, pick, play_turn

STRANGER = 99


class FixedDeal(random.Random):
    """Deals one round (``rigged``, 0-based; the others are shuffled from the seed) from fixed
    tiles: each seat's ``hands`` entry first, then tiles without the engine's pip (and, for the
    seats in ``no_fives``, without a 5) up to the hand size; the boneyard's first draw is
    ``first_draw``, and every other tile with the engine's pip lies at its bottom."""

    def __init__(
        self,
        hands: Sequence[str],
        *,
        hand_size: int,
        first_draw: str,
        no_fives: Sequence[int] = (),
        rigged: int = 0,
        engine_pip: int = 12,
        seed: int = 7,
    ) -> None:
        super().__init__(seed)
        self.named = [[Tile.parse(t) for t in h.split()] for h in hands]
        self.hand_size = hand_size
        self.first_draw = Tile.parse(first_draw)
        self.no_fives = set(no_fives)
        self.rigged = rigged
        self.pip = engine_pip
        self.deals = 0

    def shuffle(self, x: list[Tile]) -> None:  # type: ignore[override]
        self.deals += 1
        if self.deals - 1 != self.rigged:
            super().shuffle(x)
            return
        named = {t for h in self.named for t in h} | {self.first_draw}
        pool = [t for t in sorted(x) if t not in named and not t.has(self.pip)]
        order: list[Tile] = []
        for seat, hand in enumerate(self.named):
            fill = [t for t in pool if seat not in self.no_fives or not t.has(5)]
            fill = fill[: self.hand_size - len(hand)]
            pool = [t for t in pool if t not in fill]
            order += hand + fill
        order.append(self.first_draw)
        order += pool + [t for t in sorted(x) if t.has(self.pip) and t not in order]
        assert sorted(order) == sorted(x)
        x[:] = order


#: Alice opens her train; Bob holds no 12 and passes; Carol opens hers; Dave can play on
#: Bob's open train. Bob's only 5 is 5-9, so on his train ending in 5 it is his one play.
HANDS = ("12-1 1-4 12-0", "5-9", "12-3 12-2 12-4", "12-5 12-6 12-7")


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(db_path, synchronous="NORMAL")
    try:
        yield s
    finally:
        await s.close()


def fixed_service(store: Store) -> GameService:
    deal = FixedDeal(HANDS, hand_size=15, first_draw="0-1", no_fives=(1,))
    return GameService(store, cache_size=8, rng=deal)


async def four(svc: GameService, clock: FakeClock) -> int:
    out = await new_game(svc, clock, humans=(ALICE, BOB, CAROL, DAVE), preset="standard")
    return out.game.id


async def moves(svc: GameService, gid: int, clock: FakeClock, *played: tuple[int, str]) -> None:
    for user, move in played:  # notation, read here as a front end reads it
        await svc.move(gid, user, parse_move(move), clock.tick())


OPENING = (
    (ALICE, "12-1 @1"),
    (BOB, "draw"),
    (BOB, "pass"),
    (CAROL, "12-3 @3"),
    (DAVE, "12-5 @2"),
    (ALICE, "4-1 @1"),
)


async def test_a_move_on_your_train_is_named(store: Store, clock: FakeClock) -> None:
    svc = fixed_service(store)
    gid = await four(svc, clock)
    await moves(svc, gid, clock, *OPENING)

    bob = await svc.digest(gid, BOB)
    assert (bob.since, bob.seat, bob.since_round, bob.round_no) == ("turn", 1, 0, 0)
    assert [str(m.move) for m in bob.moves] == ["12-3 @3", "12-5 @2", "4-1 @1"]
    [mine] = bob.on_my_train
    assert (bob.names[mine.seat], str(mine.tile)) == ("Dave", "12-5")
    # His marker went up at his own pass (before the digest) and is still up: not news.
    assert (bob.opened, bob.closed, bob.my_marked) == ((), (), True)
    assert (bob.my_end, bob.my_tiles, bob.turn) == (5, 16, 1)
    assert bob.open_doubles == () and bob.one_tile == () and bob.rounds_over == ()
    text = catchup_text(bob, "en")
    assert text.startswith("**Since your last turn:**\n🚂 On your train: Dave 12-5.\n"), text
    assert "Carol: 12-3 on their own train" in text and "Alice: 4-1 on their own train" in text
    assert "🎯 Your train ends at 5 (open) · you hold 16 tiles." in text
    assert "🎲 It is your turn." in text
    assert "🚂 Sur ton train : Dave 12-5." in catchup_text(bob, "fr")

    # Alice has just played: nothing since. Carol saw Dave's move on Bob's train, and Alice's.
    alice = await svc.digest(gid, ALICE)
    assert alice.moves == () and "Nothing has been played since." in catchup_text(alice, "en")
    carol = await svc.digest(gid, CAROL)
    assert [str(m.move) for m in carol.moves] == ["12-5 @2", "4-1 @1"]
    assert carol.on_my_train == () and "12-5 on Bob's train" in catchup_text(carol, "en")
    # Dave's own move is not told back to him.
    dave = await svc.digest(gid, DAVE)
    assert [str(m.move) for m in dave.moves] == ["4-1 @1"]


async def test_a_spectator_gets_the_last_moves(store: Store, clock: FakeClock) -> None:
    svc = fixed_service(store)
    gid = await four(svc, clock)
    await moves(svc, gid, clock, *OPENING)
    seen = await svc.digest(gid, STRANGER)
    assert (seen.since, seen.seat, seen.my_tiles) == ("recent", None, None)
    assert [str(m.move) for m in seen.moves] == [m for _, m in OPENING]
    assert seen.opened == (1,)  # Bob's train, opened within the moves shown
    assert (await svc.digest(gid, STRANGER, recent=2)).moves == seen.moves[-2:]
    text = catchup_text(seen, "en")
    assert text.startswith("**The last 6 moves:**\n• Alice: 12-1 on their own train.\n")
    assert "• Bob: drew, passed (train open)." in text and "⏳ Bob is to play." in text
    assert "you" not in text.replace("your", "")  # nobody is "you" to a spectator


async def test_undone_moves_do_not_count(store: Store, clock: FakeClock) -> None:
    svc = fixed_service(store)
    gid = await four(svc, clock)
    await moves(svc, gid, clock, *OPENING[:5])  # … Dave plays 12-5 on Bob's train
    await svc.undo(gid, ALICE, clock.tick())  # the host takes it back
    await moves(svc, gid, clock, (DAVE, "12-6 @4"), (ALICE, "4-1 @1"))
    bob = await svc.digest(gid, BOB)
    assert [str(m.move) for m in bob.moves] == ["12-3 @3", "12-6 @4", "4-1 @1"]
    assert bob.on_my_train == () and bob.my_end == 12
    assert "12-5" not in catchup_text(bob, "en")

    # The reader's own turn undone: the digest goes back to the turn before it.
    await moves(svc, gid, clock, (BOB, "draw"), (BOB, "pass"))
    assert (await svc.digest(gid, BOB)).moves == ()
    await svc.undo(gid, ALICE, clock.tick())
    again = await svc.digest(gid, BOB)
    assert [str(m.move) for m in again.moves] == ["12-3 @3", "12-6 @4", "4-1 @1"]


async def test_a_turn_played_while_away_is_told_and_closes_the_train(
    store: Store, clock: FakeClock
) -> None:
    svc = fixed_service(store)
    schedule = ScheduleService(svc)
    gid = await four(svc, clock)
    await moves(svc, gid, clock, *OPENING)
    await schedule.set_away(BOB, True, clock.tick())
    played = await schedule.play_away_turn(gid, BOB, clock.tick())
    assert played is not None
    await moves(svc, gid, clock, (CAROL, "12-2 mexican"))

    bob = await svc.digest(gid, BOB)
    assert bob.since == "turn"  # his own last turn: the pass, not the turn played for him
    [for_him] = bob.played_for_me
    assert (str(for_him.move), for_him.played_for) == ("9-5 @2", "away")
    assert not for_him.by_computer
    assert bob.closed == (1,) and not bob.my_marked and bob.my_end == 9
    assert bob.mexican_started is not None and bob.names[bob.mexican_started.seat] == "Carol"
    text = catchup_text(bob, "en")
    assert "🏖️ Your turn was played for you (you were away): 9-5 on your train." in text
    assert "🔒 Closed again: your train." in text
    assert "🚃 Carol started the Mexican Train (12-2)." in text
    fr = catchup_text(bob, "fr")
    assert "🏖️ Ton tour a été joué à ta place (tu étais absent·e) : 9-5 sur ton train." in fr
    # Dave sees it as a turn played for Bob, not as Bob's own.
    dave = catchup_text(await svc.digest(gid, DAVE), "en")
    assert "Bob (away): 9-5 on their own train" in dave, dave


async def test_a_long_absence_across_a_round_end(store: Store, clock: FakeClock) -> None:
    svc = GameService(store, cache_size=8, rng=random.Random(3))
    schedule = ScheduleService(svc)
    out = await new_game(
        svc, clock, humans=(ALICE, BOB, CAROL), preset="standard", house_rules={"rounds": 3}
    )
    gid = out.game.id
    # Bob plays his first turn himself, then goes away for a round and a bit.
    while (await svc.whose_turn(gid)).user_id != BOB:  # type: ignore[union-attr]
        await play_turn(svc, gid, clock)
    await play_turn(svc, gid, clock)
    await schedule.set_away(BOB, True, clock.tick())
    while True:
        game = await svc.game(gid)
        if game.round_no == 1 and (await svc.table_view(gid)).mexican.tiles:
            break
        assert game.turn is not None
        if game.turn.user_id == BOB:
            assert await schedule.play_away_turn(gid, BOB, clock.tick()) is not None
        else:
            await play_turn(svc, gid, clock)

    bob = await svc.digest(gid, BOB)
    assert bob.since == "turn" and bob.since_round == 0 and bob.round_no == 1 and bob.new_round
    assert len(bob.moves) >= 60
    [over] = bob.rounds_over
    assert over.round_no == 0 and sum(over.scores) > 0 and over.totals == over.scores
    assert bob.totals == over.totals
    assert bob.played_for_me and all(m.played_for == "away" for m in bob.played_for_me)
    record = await svc.game_record(gid)
    assert {m.seq for m in bob.moves} <= {e.seq for e in record.events if e.kind == "move"}
    # What another's drawn tile was stays hidden: only counted. Bob's own, drawn for him
    # while away, are his to read (issue 47: a draw made for you names its tile).
    draws = [m for m in bob.moves if str(m.move) == "draw"]
    assert draws and all(m.drawn == 1 for m in draws)
    assert all(m.applied.drawn == () for m in bob.moves if m.seat != bob.seat)
    mine = [m for m in bob.played_for_me if str(m.move) == "draw"]
    assert all(len(m.applied.drawn) == 1 for m in mine)
    # … and the rest of the engine's record is kept as it was: a pass ends its turn.
    passes = [m for m in bob.moves if str(m.move) == "pass"]
    assert passes and all(m.applied.turn_over and not m.applied.round_over for m in passes)

    for locale in ("en", "fr"):
        for budget in (400, 700, 1000, 1500):
            text = catchup_text(bob, locale, budget)
            assert 0 < len(text) <= budget, (locale, budget, text)
            assert all(line.endswith((".", ":**")) for line in text.split("\n")), text
        text = catchup_text(bob, locale, 1000)
        # Summarised, not listed: a few lines, with counts.
        assert len(text.split("\n")) <= 12, text
    text = catchup_text(bob, "en", 1000)
    assert "🏁 Round 1 is over:" in text and "📊" in text, text
    assert "Round 2/3 is being played" in text
    assert "of your turns were played for you (you were away)" in text
    # Other moves are the new round's only: the ended round is told by its end line.
    assert all(m.round_no == bob.round_no for m in bob.elsewhere)
    assert any(m.round_no == 0 and m.seat != BOB for m in bob.moves)
    assert " tiles" in text and ("Other moves: " in text) == bool(bob.elsewhere)
    fr = catchup_text(bob, "fr", 1000)
    assert "🏁 La manche 1 est finie" in fr and "de tes tours ont été joués à ta place" in fr


async def test_ten_players_with_long_names(store: Store, clock: FakeClock) -> None:
    svc = GameService(store, cache_size=8, rng=random.Random(5))
    users = [100 + i for i in range(10)]
    host = users[0]
    gid = (
        await svc.create_lobby(
            guild_id=1000,
            channel_id=2000,
            user_id=host,
            display_name=_name(0),
            now=clock.tick(),
            preset_name="rules-site",
        )
    ).game.id
    for i, u in enumerate(users[1:], start=1):
        await svc.join(gid, u, _name(i), clock.tick())
    await svc.start(gid, host, clock.tick())
    for _ in range(45):
        await play_turn(svc, gid, clock)
    for u in (*users, STRANGER):
        d = await svc.digest(gid, u)
        assert len(d.names) == 10 and all(len(n) == 32 for n in d.names)
        for locale in ("en", "fr"):
            for budget in (300, 600, 1000):
                text = catchup_text(d, locale, budget)
                assert 0 < len(text) <= budget, (u, locale, budget)
                assert all(line.endswith((".", ":**")) for line in text.split("\n")), text
    # A name's markdown is escaped: it cannot bold or strike the rest of the text.
    d = await svc.digest(gid, users[1])
    assert "\\_" in catchup_text(d, "en", 4000)


def _name(i: int) -> str:
    """A 32-character name (Discord's longest) with markdown in it."""
    return f"Player_{i}_" + "x" * (32 - len(f"Player_{i}_"))


async def test_before_the_first_turn_and_before_the_deal(store: Store, clock: FakeClock) -> None:
    svc = fixed_service(store)
    lobby = await new_game(svc, clock, humans=(ALICE, BOB, CAROL, DAVE), start=False)
    with pytest.raises(errors.WrongPhase):
        await svc.digest(lobby.game.id, ALICE)
    await svc.start(lobby.game.id, ALICE, clock.tick())
    gid = lobby.game.id
    await moves(svc, gid, clock, *OPENING[:3])
    carol = await svc.digest(gid, CAROL)  # she has not played yet: since the deal
    assert carol.since == "start" and [str(m.move) for m in carol.moves] == [
        "12-1 @1",
        "draw",
        "pass",
    ]
    assert carol.opened == (1,)  # Bob's marker went up since the deal
    text = catchup_text(carol, "en")
    assert text.startswith("**Since the game began:**\n") and "🚩 Open now: Bob's train." in text
    with pytest.raises(errors.GameNotFound):
        await svc.digest(12345, ALICE)


def test_fixed_deal_deals_what_it_says() -> None:
    deal = FixedDeal(HANDS, hand_size=15, first_draw="0-1", no_fives=(1,))
    tiles = [t for t in double_set(12) if t != Tile(12, 12)]
    deal.shuffle(tiles)
    assert tiles[:3] == [Tile(12, 1), Tile(4, 1), Tile(12, 0)]
    bob = tiles[15:30]
    assert Tile(9, 5) in bob and not any(t.has(12) for t in bob)
    assert sum(t.has(5) for t in bob) == 1 and tiles[60] == Tile(1, 0)


async def test_digest_reads_only(store: Store, clock: FakeClock) -> None:
    svc = fixed_service(store)
    gid = await four(svc, clock)
    await moves(svc, gid, clock, *OPENING)
    before = (await svc.game(gid)).version, await store.last_seq(gid)
    for u in (ALICE, BOB, STRANGER):
        await svc.digest(gid, u)
    assert ((await svc.game(gid)).version, await store.last_seq(gid)) == before
    view = await svc.seat_view(gid, BOB)
    assert str(pick(view.legal)) == "9-5 @2"


async def test_the_snapshot_is_only_a_shortcut(store: Store, clock: FakeClock) -> None:
    """Without the round snapshot, or with a damaged one, the whole match is replayed and the
    digest is the same."""
    svc = GameService(store, cache_size=8, rng=random.Random(4))
    gid = (
        await new_game(
            svc, clock, humans=(ALICE, BOB), preset="standard", house_rules={"rounds": 3}
        )
    ).game.id
    while (await svc.game(gid)).round_no != 2:
        await play_turn(svc, gid, clock)
    for _ in range(3):
        await play_turn(svc, gid, clock)
    record = await svc.game_record(gid)
    assert record.snapshot is not None
    for user in (ALICE, BOB, STRANGER):
        quick = digest_of(record, user)
        assert digest_of(dataclasses.replace(record, snapshot=None), user) == quick
        damaged = (record.snapshot[0], '[{"scores": [1], "went_out": 0}]')
        assert digest_of(dataclasses.replace(record, snapshot=damaged), user) == quick
    # Over the round end, the totals are the match's.
    assert digest_of(record, STRANGER, recent=40).totals == tuple(
        sum(r) for r in zip(*await svc.round_scores(gid), strict=True)
    )


async def test_a_last_move_that_ended_no_turn(store: Store, clock: FakeClock) -> None:
    """Bob drew (his own move), then went away and the bot finished that turn for him. What
    came before his draw (the round before's end, the new deal) he read when that turn
    began: the digest starts at his draw and tells the rest played for him, once. While a
    turn of his is still going on, it reaches back to his last whole turn, a round earlier."""
    # Round 2 (engine 11-11) is dealt so that Bob, who starts it, holds no 11 and must draw.
    deal = FixedDeal(("", ""), hand_size=16, first_draw="0-1", rigged=1, engine_pip=11)
    svc = GameService(store, cache_size=8, rng=deal)
    schedule = ScheduleService(svc)
    gid = (
        await new_game(
            svc, clock, humans=(ALICE, BOB), preset="standard", house_rules={"rounds": 3}
        )
    ).game.id
    while (await svc.game(gid)).round_no == 0:
        await play_turn(svc, gid, clock)
    assert [str(m) for m in (await svc.seat_view(gid, BOB)).legal] == ["draw"]
    await svc.move(gid, BOB, DRAW, clock.tick())
    # His turn goes on: since his last whole turn, in the round before (its end, the deal).
    mid = await svc.digest(gid, BOB)
    assert mid.since == "turn" and mid.since_round == mid.round_no - 1 and mid.rounds_over
    await schedule.set_away(BOB, True, clock.tick())
    assert await schedule.play_away_turn(gid, BOB, clock.tick()) is not None
    bob = await svc.digest(gid, BOB)
    record = await svc.game_record(gid)
    own = [e.seq for e in record.events if e.kind == "move" and e.actor == BOB]
    # Since his own draw: only what the bot played for him, nothing he read before it.
    assert bob.since == "turn" and bob.since_round == bob.round_no and not bob.rounds_over
    assert all(m.seq > own[-1] for m in bob.moves) and bob.moves == bob.played_for_me
    assert bob.played_for_me[-1].applied.turn_over and bob.played_for_me[0].played_for == "away"
    assert "Round 1 is over" in catchup_text(mid, "en")
    assert "Round 1 is over" not in catchup_text(bob, "en")


async def test_the_round_you_ended_is_told(store: Store, clock: FakeClock) -> None:
    """Going out is the reader's own move, but the round's scores and the new deal are news."""
    svc = GameService(store, cache_size=8, rng=random.Random(6))
    gid = (
        await new_game(
            svc, clock, humans=(ALICE, BOB), preset="standard", house_rules={"rounds": 2}
        )
    ).game.id
    while not (out := await play_turn(svc, gid, clock)).rounds_ended:
        pass
    ender = out.steps[-1]
    assert ender.applied.round_over and ender.player.user_id is not None
    d = await svc.digest(gid, ender.player.user_id)
    assert d.moves == () and d.new_round and [r.round_no for r in d.rounds_over] == [0]
    text = catchup_text(d, "en")
    assert "🏁 Round 1 is over:" in text and "🎲 Round 2/2 is being played" in text, text


async def test_a_damaged_log_is_refused_for_that_game_only(store: Store, clock: FakeClock) -> None:
    svc = fixed_service(store)
    gid = await four(svc, clock)
    await moves(svc, gid, clock, *OPENING)
    record = await svc.game_record(gid)
    bad = [
        dataclasses.replace(e, payload=e.payload.replace("12-5 @2", "12-5 @1"))
        if e.kind == "move"
        else e
        for e in record.events
    ]
    with pytest.raises(errors.GameCorrupt, match=f"game #{gid} cannot be loaded"):
        digest_of(dataclasses.replace(record, events=tuple(bad)), BOB)
    with pytest.raises(ValueError, match="at least one move"):
        digest_of(record, STRANGER, recent=0)
    assert (await svc.digest(gid, BOB)).on_my_train  # the stored game is untouched


async def test_a_turn_the_bot_finished_for_you_repeats_nothing_you_read(
    service: GameService, clock: FakeClock
) -> None:
    """A whole match through the turn use case, three humans on the default autoplay: a
    player who draws a tile that fits nowhere (or plays a double they cannot cover) has the
    rest of that turn played for them. Each human's digest at the start of a turn tells
    nothing they read at the start of their turn before (the turn DM repeated the other
    players' moves: a read-through's Carol, seed 8), and still tells what the bot played
    for them."""
    from bot.service.turn import Turns

    turns = Turns(service, ScheduleService(service))
    gid = (await new_game(service, clock, humans=(ALICE, BOB, CAROL), preset="quick")).game_id
    async for _out in turns.until_human(gid, [], clock.tick()):
        pass
    read_up_to: dict[int, int] = {}  # user -> the last event seq when their turn began
    finished_for_them = told_for_them = 0
    for _ in range(400):
        whose = await service.whose_turn(gid)
        if whose is None or whose.user_id is None:
            break
        uid = whose.user_id
        record = await service.game_record(gid)
        last = [e.actor for e in record.events if e.kind == "move"][-1:]
        # A turn DM comes when a turn reaches them, not after their own double or draw
        # (there "Catch me up" still says what came since their last whole turn).
        if last != [uid]:
            digest = await service.digest(gid, uid)
            if uid in read_up_to:
                again = [str(m.move) for m in digest.moves if m.seq <= read_up_to[uid]]
                assert not again, (uid, again)
            told_for_them += len(digest.played_for_me)
            read_up_to[uid] = record.events[-1].seq
        view = await service.seat_view(gid, uid)
        turn = await turns.take(gid, uid, pick(view.legal), clock.tick())
        async for _out in turns.until_human(gid, turn.outs, clock.tick()):
            pass  # computers' turns and turns with no choice, up to a human's decision
        after = await service.game_record(gid)
        moved = [
            (e.actor, json.loads(e.payload)["seat"])
            for e in after.events
            if e.seq > read_up_to[uid] and e.kind == "move"
        ]
        if len(moved) > 1 and moved[0][0] == uid and moved[1] == (None, moved[0][1]):
            finished_for_them += 1  # their move, then the bot's on their seat
    assert finished_for_them >= 3, finished_for_them  # (the seeded match has several)
    assert told_for_them >= finished_for_them
