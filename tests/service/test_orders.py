"""Standing orders (issue 46, bot/service/orders.py): a player queues the next tiles of their
own train and the turn use case plays them at their turns while the order's stops hold.

Each test deals a known round (:class:`Rigged`: the hands and the boneyard's first tiles named,
the rest of the set after them) and plays it through the real turn use case on a real database,
the players' moves named one by one, so every stop is met where the test says."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest

from bot.engine import Play, Tile, parse_move
from bot.service import FactCode, GameService, Outcome
from bot.service.orders import OrderRefused, Stops
from bot.service.schedule import ScheduleService
from bot.service.turn import Turns
from bot.store import Store
from bot.ui.catchup import catchup_text
from tests.clock import FakeClock
from tests.service.conftest import ALICE, BOB, CAROL
from tests.service.helpers import Rigged, new_game

#: Alice (seat 1, first to play) can build 12-5 7-5 7-2 9-2 9-4 on her train.
ALICE_HAND = "12-5 7-5 7-2 9-2 9-4 1-0"
#: Bob and Carol each start their own train and go on along it.
BOB_HAND = "12-3 4-3 6-4 8-6 10-8 1-1"
CAROL_HAND = "12-0 10-0 11-10 11-9 8-2 8-1"


@pytest.fixture
def rigged_service(store: Store) -> GameService:
    return GameService(store, cache_size=8, rng=Rigged([]))


class Table:
    """One rigged game of Alice, Bob and Carol, played through the turn use case."""

    def __init__(self, svc: GameService, clock: FakeClock) -> None:
        self.svc = svc
        self.clock = clock
        self.turns = Turns(svc, ScheduleService(svc))
        self.gid = 0
        self.outs: list[Outcome] = []

    async def deal(
        self,
        hands: Sequence[str] = (ALICE_HAND, BOB_HAND, CAROL_HAND),
        draws: str = "",
        *,
        humans: Sequence[int] = (ALICE, BOB, CAROL),
        more: Sequence[tuple[Sequence[str], str]] = (),
        channel: int = 2000,
        **house: Any,
    ) -> None:
        rng = self.svc.ledger.rng
        assert isinstance(rng, Rigged)
        rng.deals = [(hands, draws), *more]
        rules = {"hand_size": len(hands[0].split()), "rounds": 1, **house}
        # The moves are named one by one: a lone legal tile is the player's to name here, as
        # under autoplay: forced (the default before issue 46 made it only-move), unless the
        # test chose otherwise for a player.
        for uid in humans:
            if (await self.svc.user_settings(uid)).autoplay is None:
                await self.svc.update_user_settings(uid, self.clock.tick(), autoplay="forced")
        out = await new_game(
            self.svc, self.clock, humans=humans, house_rules=rules, channel=channel
        )
        self.gid = out.game.id

    async def move(self, uid: int, notation: str, *, then: str = "") -> list[Outcome]:
        """``uid`` makes a move (with ``then``: and queues those tiles, as ``/play … then:``
        does), then the turns nobody present takes are played; what was committed."""
        view = await self.svc.seat_view(self.gid, uid)
        assert view.my_turn, f"not {uid}'s turn: {view.current}"
        turn = await self.turns.take(self.gid, uid, parse_move(notation), self.clock.tick())
        if then:
            tiles = tuple(Tile.parse(t) for t in then.split())
            await self.svc.orders.set(
                self.gid, uid, tiles, self.clock.tick(), log_from=len(view.log)
            )
        outs = list(turn.outs)
        outs += [o async for o in self.turns.until_human(self.gid, turn.outs, self.clock.tick())]
        self.outs += outs
        return outs

    async def order_moves(self) -> list[tuple[int, list[str]]]:
        """Each order's turn off the log: the marker's seat and the moves made after it."""
        record = await self.svc.game_record(self.gid)
        turns: list[tuple[int, list[str]]] = []
        seat = None
        for e in record.events:
            data = json.loads(e.payload) if e.payload else {}
            if e.kind == "order":
                seat = data["seat"]
                turns.append((seat, []))
            elif e.kind == "move" and e.actor is None and data.get("seat") == seat:
                turns[-1][1].append(str(data["move"]))
            else:
                seat = None
        return turns

    async def news_of(self, uid: int) -> Any:
        ping = await self.turns.schedule.turn_ping(uid, self.clock.tick())  # type: ignore[union-attr]
        return await self.turns.news(self.gid, ping)


async def queued(svc: GameService, game_id: int, user_id: int) -> tuple[str, ...]:
    """The tiles ``user_id`` has queued now (none: no order, or one used up or stopped)."""
    order = await svc.orders.get(game_id, user_id)
    return () if order is None else tuple(str(t) for t in order.tiles)


def order_facts(outs: Sequence[Outcome]) -> list[dict[str, Any]]:
    return [
        dict(f.params)
        for o in outs
        for f in o.facts
        if f.code == FactCode.TURN_PLAYED_FOR and f.params.get("reason") == "order"
    ]


async def test_an_order_plays_the_queued_tiles_at_each_turn_then_ends(
    rigged_service: GameService, clock: FakeClock
) -> None:
    """``/play 12-5 then: 5-7 7-2 9-2``: each of Alice's next three turns is played for her,
    one tile on her own train, after an ``order`` marker, by nobody, told as her order; her
    digest says so; the queue is used up and she decides her fourth turn herself."""
    t = Table(rigged_service, clock)
    await t.deal()
    await t.move(ALICE, "12-5 @1", then="7-5 7-2 9-2")
    await t.move(BOB, "12-3 @2")
    outs = await t.move(CAROL, "12-0 @3")
    assert order_facts(outs) == [dict(order_facts(outs)[0], tiles=("7-5",))]
    assert order_facts(outs)[0]["user_id"] == ALICE
    await t.move(BOB, "4-3 @2")
    await t.move(CAROL, "10-0 @3")
    await t.move(BOB, "6-4 @2")
    await t.move(CAROL, "11-10 @3")
    assert await t.order_moves() == [(0, ["7-5 @1"]), (0, ["7-2 @1"]), (0, ["9-2 @1"])]
    await t.move(BOB, "8-6 @2")
    await t.move(CAROL, "11-9 @3")
    whose = await rigged_service.whose_turn(t.gid)
    assert whose is not None and whose.user_id == ALICE  # the queue is used up: hers now
    assert await queued(rigged_service, t.gid, ALICE) == ()
    digest = await rigged_service.digest(t.gid, ALICE)
    assert [str(m.move) for m in digest.played_for_me] == ["7-5 @1", "7-2 @1", "9-2 @1"]
    assert {m.played_for for m in digest.played_for_me} == {"order"}


async def test_bad_orders_are_refused_and_change_nothing(
    rigged_service: GameService, clock: FakeClock
) -> None:
    """A tile not in hand, a chain that does not follow, one that does not start at the
    train's end, too many tiles: refused with the reason, and no order is kept."""
    t = Table(rigged_service, clock)
    await t.deal()
    orders = rigged_service.orders
    cases = {
        "order-tile": "12-5 5-5",
        "order-chain": "12-5 7-2",
        "order-start": "7-5",
        "order-empty": "",
    }
    for code, text in cases.items():
        tiles = tuple(Tile.parse(x) for x in text.split())
        with pytest.raises(OrderRefused) as err:
            await orders.set(t.gid, ALICE, tiles, clock.tick())
        assert err.value.code == code
    with pytest.raises(OrderRefused) as err:
        await orders.set(t.gid, ALICE, (Tile(12, 5),) * 9, clock.tick())
    assert err.value.code == "order-long"
    assert await rigged_service.store.order(t.gid, ALICE) is None


async def test_set_during_ones_own_turn_it_waits_for_that_turns_move(
    rigged_service: GameService, clock: FakeClock
) -> None:
    """``/mt orders queue:`` during Alice's own turn plays nothing now (this turn's move is
    hers), then plays from her next turn."""
    t = Table(rigged_service, clock)
    await t.deal()
    await rigged_service.orders.set(t.gid, ALICE, (Tile(12, 5), Tile(7, 5)), clock.tick())
    assert await t.turns.play_order(t.gid, ALICE, clock.tick()) is None
    await t.move(ALICE, "12-5 @1")  # she plays the order's first tile herself
    await t.move(BOB, "12-3 @2")
    await t.move(CAROL, "12-0 @3")
    # Her own move took the queue's first tile out of her hand: the order stops, saying so.
    assert await t.order_moves() == []
    news = await t.news_of(ALICE)
    assert news.stopped is not None and news.stopped.reason == "gone"
    assert news.stopped.params == {"tile": "12-5"}


@pytest.mark.parametrize("rule", ["satisfy", "any-open-train"])
async def test_a_double_opened_by_someone_else_stops_the_order(
    rule: str, rigged_service: GameService, clock: FakeClock
) -> None:
    """Bob lays 3-3 on his train and cannot cover it; nor can Carol: at Alice's turn a double
    is open, so her order stops (the default stop) under either double rule, nothing more is
    played by it (her turn, a draw that fits nowhere, is played for her as for anyone), and
    her turn DM reads why until she next moves herself."""
    t = Table(rigged_service, clock)
    bob = "12-3 3-3 6-4 8-6 10-8 1-1"
    await t.deal((ALICE_HAND, bob, CAROL_HAND), "5-5 6-6 0-0", double_rule=rule)
    await t.move(ALICE, "12-5 @1", then="7-5 7-2")
    await t.move(BOB, "12-3 @2")
    await t.move(CAROL, "12-0 @3")
    assert await t.order_moves() == [(0, ["7-5 @1"])]
    # Nothing covers 3-3: Bob, Carol and Alice draw and pass in turn until Bob draws 3-0.
    await t.move(BOB, "3-3 @2")
    assert await t.order_moves() == [(0, ["7-5 @1"])]
    order = await rigged_service.orders.get(t.gid, ALICE)
    assert order is not None and not order.active
    news = await t.news_of(ALICE)
    assert news.stopped is not None and news.stopped.reason == "double"
    assert news.stopped.params["name"] == "Bob" and news.stopped.params["tile"] == "3-3"
    # Her DM's "what changed": what her order played, then the turns she had no choice in.
    text = catchup_text(news.digest, "en", 1000, whose_turn=False)
    assert "📋 While you were away your order played 7-5.\n⏩ " in text, text
    assert "(you had no choice)" in text


async def test_with_the_double_stop_off_an_open_double_still_binds_and_stops_it(
    rigged_service: GameService, clock: FakeClock
) -> None:
    """``on_double: False``: the order does not stop for the double itself, but the double
    must be covered first, so its tile is not legal on her train: it stops as illegal."""
    t = Table(rigged_service, clock)
    bob = "12-3 3-3 6-4 8-6 10-8 1-1"
    await t.deal((ALICE_HAND, bob, CAROL_HAND), "5-5 6-6 0-0")
    await t.move(ALICE, "12-5 @1", then="7-5 7-2")
    await rigged_service.orders.set_stops(t.gid, ALICE, Stops(double=False))
    await t.move(BOB, "12-3 @2")
    await t.move(CAROL, "12-0 @3")
    await t.move(BOB, "3-3 @2")
    news = await t.news_of(ALICE)
    assert news.stopped is not None and news.stopped.reason == "illegal"
    assert news.stopped.params == {"tile": "7-2"}


@pytest.mark.parametrize("rule", ["satisfy", "any-open-train"])
async def test_the_orders_own_double_and_its_cover_are_one_turn(
    rule: str, rigged_service: GameService, clock: FakeClock
) -> None:
    """A queued double and the tile after it that covers it are played in the same turn,
    under either double rule; the double stop is about other players' doubles."""
    t = Table(rigged_service, clock)
    alice = "12-5 5-5 7-5 7-2 9-4 1-0"
    await t.deal((alice, BOB_HAND, CAROL_HAND), double_rule=rule)
    await t.move(ALICE, "12-5 @1", then="5-5 7-5 7-2")
    await t.move(BOB, "12-3 @2")
    await t.move(CAROL, "12-0 @3")
    await t.move(BOB, "4-3 @2")
    await t.move(CAROL, "10-0 @3")
    assert await t.order_moves() == [(0, ["5-5 @1", "7-5 @1"]), (0, ["7-2 @1"])]


async def test_someone_playing_on_my_train_stops_the_order(
    rigged_service: GameService, clock: FakeClock
) -> None:
    """Alice's marker goes up (a double she could not cover); she queues her train again;
    Carol lays 7-4 on it: at Alice's turn the order stops before playing, naming Carol and
    the tile. With that stop off, the queued tile no longer fits: it stops as not legal."""
    for stop in (True, False):
        t = Table(rigged_service, clock)
        bob = "12-3 3-3 6-4 8-6 10-8 1-1"
        carol = "12-0 10-0 11-10 11-9 8-2 7-4"
        await t.deal((ALICE_HAND, bob, carol), "5-5 6-6 0-0", channel=2000 + stop)
        await t.move(ALICE, "12-5 @1", then="7-5")
        await t.move(BOB, "12-3 @2")
        await t.move(CAROL, "12-0 @3")
        await t.move(BOB, "3-3 @2")  # the table draws and passes until Bob draws 3-0
        view = await rigged_service.seat_view(t.gid, ALICE)
        assert view.trains[0].marked and view.trains[0].end == 7
        await rigged_service.orders.set(
            t.gid, ALICE, (Tile(7, 2), Tile(9, 2)), clock.tick(), stops=Stops(train=stop)
        )
        await t.move(BOB, "3-0 @2")
        await t.move(CAROL, "7-4 @1")
        assert await t.order_moves() == [(0, ["7-5 @1"])]
        news = await t.news_of(ALICE)
        assert news.stopped is not None
        if stop:
            assert (news.stopped.reason, news.stopped.params) == (
                "train",
                {"name": "Carol", "tile": "7-4"},
            )
        else:
            assert (news.stopped.reason, news.stopped.params) == ("illegal", {"tile": "7-2"})


async def test_the_last_tile_stop_and_the_knock_rule(
    rigged_service: GameService, clock: FakeClock
) -> None:
    """With the stop kept (default), an order never plays the tile that would leave its
    player one tile: it stops, the move is theirs. With the stop off under the knock rule,
    the order plays it and knocks for them in the same commit (no catch is possible)."""
    for last in (True, False):
        t = Table(rigged_service, clock)
        alice = "12-5 7-5 7-2 9-2"
        bob = "12-3 4-3 6-4 8-6"
        carol = "12-0 10-0 11-10 11-9"
        await t.deal((alice, bob, carol), knock=True, channel=2000 + last)
        await t.move(ALICE, "12-5 @1", then="7-5 7-2 9-2")
        await rigged_service.orders.set_stops(t.gid, ALICE, Stops(last=last))
        await t.move(BOB, "12-3 @2")
        await t.move(CAROL, "12-0 @3")
        await t.move(BOB, "4-3 @2")
        outs = await t.move(CAROL, "10-0 @3")
        if last:
            assert await t.order_moves() == [(0, ["7-5 @1"])]
            news = await t.news_of(ALICE)
            assert news.stopped is not None and news.stopped.reason == "last"
            assert news.stopped.params == {"tile": "7-2"}
        else:
            assert await t.order_moves() == [(0, ["7-5 @1"]), (0, ["7-2 @1", "knock"])]
            view = await rigged_service.seat_view(t.gid, BOB)
            assert 0 in view.knocked and 0 not in view.catchable
            assert any(f["tiles"] == ("7-2",) for f in order_facts(outs))
            # Her last tile too: she goes out by her order, and the (one-round) match ends.
            await t.move(BOB, "6-4 @2")
            outs = await t.move(CAROL, "11-10 @3")
            assert (await t.order_moves())[-1] == (0, ["9-2 @1"])
            assert outs[-1].match_over is not None and outs[-1].rounds_ended[0].went_out == 0


async def test_an_order_ends_with_its_round(rigged_service: GameService, clock: FakeClock) -> None:
    """Alice queues 7-5 and Carol goes out before Alice's next turn: in the next round the
    order plays nothing (it was the last round's), and her turn DM says it ended."""
    t = Table(rigged_service, clock)
    first = ("12-0 10-0", "12-3 4-3", "12-5 7-5")  # Carol, Bob, Alice
    second = ("11-1 1-2", "11-3 3-4", "11-6 6-7")
    await t.deal(first, humans=(CAROL, BOB, ALICE), rounds=2, more=[(second, "")])
    await t.move(CAROL, "12-0 @1")
    await t.move(BOB, "12-3 @2")
    await t.move(ALICE, "12-5 @3", then="7-5")
    outs = await t.move(CAROL, "10-0 @1")  # out: round 2 is dealt, Bob starts it
    assert [o.rounds_ended for o in outs if o.rounds_ended]
    await t.move(BOB, "11-3 @2")
    assert await t.order_moves() == []
    whose = await rigged_service.whose_turn(t.gid)
    assert whose is not None and whose.user_id == ALICE
    news = await t.news_of(ALICE)
    assert news.stopped is not None and news.stopped.reason == "round"
    assert await queued(rigged_service, t.gid, ALICE) == ()


async def test_undo_of_an_orders_move_is_its_players_and_drops_the_order(
    rigged_service: GameService, clock: FakeClock
) -> None:
    """Alice may take back the move her order made, as her own last turn (``/mt undo``): the
    tile comes back to her hand, the marker and the move are cancelled, and the rest of the
    order is dropped — the turn is hers again, so is what to play."""
    t = Table(rigged_service, clock)
    await t.deal()
    await t.move(ALICE, "12-5 @1", then="7-5 7-2 9-2")
    await t.move(BOB, "12-3 @2")
    await t.move(CAROL, "12-0 @3")
    assert await t.order_moves() == [(0, ["7-5 @1"])]
    undone = await rigged_service.undo(t.gid, ALICE, clock.tick(), player_user_id=ALICE)
    assert undone.player.user_id == ALICE and undone.moves == ("7-5 @1",)
    view = await rigged_service.seat_view(t.gid, ALICE)
    assert view.my_turn and Tile(7, 5) in (view.hand or ())
    assert await queued(rigged_service, t.gid, ALICE) == ()  # dropped (her stops kept)
    # Nothing plays for her now: the announcer's next cycle leaves her turn to her.
    assert [o async for o in t.turns.until_human(t.gid, [], clock.tick())] == []
    assert await t.turns.play_order(t.gid, ALICE, clock.tick()) is None
    # Bob may not take back Alice's order move for her.
    assert Play(Tile(7, 5), 0) in view.legal


async def test_ten_seats(rigged_service: GameService, clock: FakeClock) -> None:
    """At 10 seats (double-15), an order plays at its player's turn after the nine others."""
    humans = tuple(range(101, 111))
    spare = iter(
        Tile(a, b) for a in range(1, 15) for b in range(a) if {a, b}.isdisjoint({2, 4, 5, 7, 9})
    )
    hands = ["15-5 7-5 7-2 9-2 9-4"] + [
        " ".join(str(x) for x in (Tile(15, k), *(next(spare) for _ in range(4))))
        for k in (0, 1, 3, 4, 6, 8, 10, 11, 12)
    ]
    t = Table(rigged_service, clock)
    await t.deal(hands, humans=humans, max_pip=15)
    await t.move(humans[0], "15-5 @1", then="7-5 7-2")
    for seat, k in enumerate((0, 1, 3, 4, 6, 8, 10, 11, 12), start=1):
        await t.move(humans[seat], f"15-{k} @{seat + 1}")
    assert await t.order_moves() == [(0, ["7-5 @1"])]
    for _ in range(40):  # the nine others play on (or draw) until the order has played
        if len(await t.order_moves()) == 2:
            break
        whose = await rigged_service.whose_turn(t.gid)
        assert whose is not None and whose.user_id is not None and whose.seat != 0
        view = await rigged_service.seat_view(t.gid, whose.user_id)
        plays = [m for m in view.legal if isinstance(m, Play)]
        await t.move(whose.user_id, str(plays[0] if plays else view.legal[0]))
    assert await t.order_moves() == [(0, ["7-5 @1"]), (0, ["7-2 @1"])]


async def test_the_stops_are_the_players_and_outlive_an_order(
    rigged_service: GameService, clock: FakeClock
) -> None:
    """Stops chosen with no order queued are kept for the next one; an order played to its
    end or cancelled keeps them too; a cancelled order plays nothing."""
    t = Table(rigged_service, clock)
    await t.deal()
    orders = rigged_service.orders
    assert await orders.set_stops(t.gid, ALICE, Stops(double=False)) is None  # none queued
    order = await orders.set(t.gid, ALICE, (Tile(12, 5), Tile(7, 5)), clock.tick())
    assert order.stops == Stops(double=False)
    assert await orders.cancel(t.gid, ALICE) is True
    assert await orders.cancel(t.gid, ALICE) is False
    await t.move(ALICE, "12-5 @1")
    await t.move(BOB, "12-3 @2")
    await t.move(CAROL, "12-0 @3")
    assert await t.order_moves() == []
    order = await orders.set(t.gid, BOB, (Tile(4, 3),), clock.tick())
    assert order.stops == Stops()  # each player's own
    order = await orders.set(t.gid, ALICE, (Tile(7, 5),), clock.tick())
    assert order.stops == Stops(double=False)


async def test_an_order_set_during_a_turn_waits_out_a_draw(
    rigged_service: GameService, clock: FakeClock
) -> None:
    """Bound by Bob's 3-3, Alice (``autoplay: off``) queues her train during her own turn,
    then draws 3-0, which she must play: the order neither plays nor stops in that turn
    (where the drawn tile goes is hers) and plays from her next one."""
    await rigged_service.update_user_settings(ALICE, clock.tick(), autoplay="off")
    t = Table(rigged_service, clock)
    bob = "12-3 3-3 6-4 8-6 10-8 1-1"
    await t.deal((ALICE_HAND, bob, CAROL_HAND), "5-5 6-6 3-0 4-1")
    await t.move(ALICE, "12-5 @1")
    await t.move(BOB, "12-3 @2")
    await t.move(CAROL, "12-0 @3")
    await t.move(ALICE, "7-5 @1")
    await t.move(BOB, "3-3 @2")  # Bob and Carol draw and pass: Alice must cover, or draw
    order = await rigged_service.orders.set(t.gid, ALICE, (Tile(7, 2), Tile(9, 2)), clock.tick())
    assert order.waits
    await t.move(ALICE, "draw")  # 3-0: she must play it on 3-3
    view = await rigged_service.seat_view(t.gid, ALICE)
    assert view.my_turn and view.turn_drawn
    assert await t.order_moves() == []
    assert await queued(rigged_service, t.gid, ALICE) == ("7-2", "9-2")
    await t.move(ALICE, "3-0 @2")
    await t.move(CAROL, "10-0 @3")  # (Bob drew 4-1, which fits nowhere, and passed)
    assert await t.order_moves() == [(0, ["7-2 @1"])]


async def test_the_cover_the_bot_played_after_an_orders_double_is_not_called_the_orders(
    rigged_service: GameService, clock: FakeClock
) -> None:
    """Alice's order ends on her double 5-5, and 7-5 is the only tile that covers it: the bot
    plays it for her (she had no choice), not her order. Her turn DM says so, in both
    languages ("your order played 5-5, 11-6" was the play-through's Bob, who had queued 6-6
    last and never 11-6), and so does Bob's list of the others' moves."""
    t = Table(rigged_service, clock)
    await rigged_service.update_user_settings(ALICE, clock.tick(), autoplay="only")
    await t.deal(("12-5 5-5 7-5 9-2 9-4 1-0", BOB_HAND, CAROL_HAND))
    await t.move(ALICE, "12-5 @1", then="5-5")
    await t.move(BOB, "12-3 @2")
    await t.move(CAROL, "12-0 @3")
    assert await t.order_moves() == [(0, ["5-5 @1"])]
    bob = catchup_text((await t.news_of(BOB)).digest, "en", 1000, whose_turn=False)
    assert (
        "Alice (standing order): 5-5 on their own train (double), "
        "then (no choice) 7-5 on their own train" in bob
    ), bob
    await t.move(BOB, "4-3 @2")
    await t.move(CAROL, "10-0 @3")
    news = await t.news_of(ALICE)
    en = catchup_text(news.digest, "en", 1000, whose_turn=False)
    assert "📋 While you were away your order played 5-5, then (you had no choice) 7-5 on " in en
    assert "order played 5-5, 7-5" not in en, en
    fr = catchup_text(news.digest, "fr", 1000, whose_turn=False)
    assert "ton ordre a joué 5-5, puis (tu n'avais pas le choix) 7-5 sur " in fr, fr
