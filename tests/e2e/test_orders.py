"""Standing orders through the fake Discord (issue 46): the turn DM's one-tap order, the
channel's line for each move an order plays, the player's next DM ("while you were away"),
the one ping that says why an order stopped, ``/play … then:`` and ``/mt orders``; in French;
and privacy: until a queued tile is played, nothing another player or the channel can read
names it.

Bob hosts (his first turn rides on his Start click), Alice plays second. The deal is named
(:class:`tests.service.helpers.Rigged`), so every turn is where the test says."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from bot.app import MexicanTrainBot, create_bot
from bot.config import Config
from bot.engine import Tile
from bot.service import orders
from tests.clock import FakeClock
from tests.e2e.helpers import (
    game_here,
    idle,
    last_public,
    pick,
    said,
    slash_move,
    to_move,
    type_move,
)
from tests.e2e.test_outbox import wait_paid
from tests.fakediscord import FakeDiscord, FakeMessage, running_bot
from tests.service.helpers import Rigged


def hand(named: str, pool: list[Tile], size: int = 16) -> str:
    """``named`` and then tiles from ``pool`` (taken out of it) up to ``size``."""
    tiles = [Tile.parse(t) for t in named.split()]
    while len(tiles) < size:
        tiles.append(pool.pop(0))
    return " ".join(str(t) for t in tiles)


#: The boneyard's first tiles: what Bob and Carol draw when they cannot cover 3-3.
DRAWS = "5-5 11-11"


def deal() -> tuple[str, str, str]:
    """Bob, Alice, Carol (seats 1-3). Alice's hand builds 12-5 7-5 7-2 9-2 9-4 and nothing
    past it (her other tiles have no 12, 5, 7, 2, 9 or 4). Bob holds 3-3 and no other 3 but
    12-3; Carol holds no 3: a 3-3 Bob lays stays open until Alice's turn."""
    chains = {
        "bob": "12-3 3-3 12-1",
        "alice": "12-5 7-5 7-2 9-2 9-4",
        "carol": "12-0 10-0 11-10 11-9 8-2",
    }
    named = {Tile.parse(t) for c in (*chains.values(), DRAWS) for t in c.split()}
    free = [Tile(a, b) for a in range(13) for b in range(a + 1) if Tile(a, b) not in named]
    free.remove(Tile(12, 12))
    alone = [t for t in free if {t.high, t.low}.isdisjoint({2, 4, 5, 7, 9, 12})]
    alice = hand(chains["alice"], alone)
    rest = [t for t in free if str(t) not in alice.split() and not t.has(3)]
    return hand(chains["bob"], rest), alice, hand(chains["carol"], rest)


def text_of(messages: Iterable[FakeMessage]) -> str:
    """Everything a reader of ``messages`` can read: the text, the embeds, the controls."""
    parts = []
    for m in messages:
        controls = [*m.buttons, *m.selects]
        parts += [m.text, json.dumps(m.embeds, ensure_ascii=False)]
        parts.append(json.dumps(controls, ensure_ascii=False))
    return "\n".join(parts)


def bot_with(db_path: Path, clock: FakeClock) -> MexicanTrainBot:
    config = Config(database=db_path, synchronous="NORMAL", render_workers=0, think_workers=0)
    return create_bot(config, clock=clock, rng=Rigged([(deal(), DRAWS)]))


async def test_one_tap_order_from_the_dm_then_told_and_private(
    fake_discord: FakeDiscord, db_path: Path, clock: FakeClock
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    bob, alice, carol = fake.user("bob"), fake.user("alice", locale="fr"), fake.user("carol")
    bot = bot_with(db_path, clock)
    async with running_bot(fake, bot):
        answer = await said(await bob.slash("mt new", channel=games, preset="quick"))
        assert "is open" in answer.text
        lobby = last_public(games)
        for user in (alice, carol):
            await said(await user.click(lobby, label="Join"))
        await said(await bob.click(lobby, label="Start"))
        game = await game_here(bot, games)
        assert [p.name for p in game.players] == ["Bob", "Alice", "Carol"]
        assert (await slash_move(bob, games, "12-3 @1")).startswith("✅")
        game = await bot.service.game(game.id)

        # Alice's turn DM (in French, her client's language) offers her train's plan in one tap.
        dm = alice.dms()[-1]
        button = next(b for b in dm.buttons if str(b.get("custom_id", "")).count(":dm:then:"))
        assert button["custom_id"] == f"mt:{game.id}:{game.version}:dm:then:12-5.7-5.7-2.9-2.9-4"
        assert button["label"] == "📋 12-5, puis continuer 7-5 → 7-2 → 9-2 → 9-4"
        pressed = await said(await alice.click(dm, custom_id=str(button["custom_id"])))
        assert pressed.ephemeral and pressed.text.startswith("✅"), pressed.text
        assert "📋 Ordre donné pour la partie n°1 : `7-5` → `7-2` → `9-2` → `9-4`" in (pressed.text)
        # The DM it was pressed on now holds no move controls: the turn is over.
        assert not dm.selects and not any(
            ":dm:then:" in str(b.get("custom_id")) for b in dm.buttons
        )

        # Privacy: nothing Bob, Carol or the channel can read names a queued tile, nor does the
        # game's log (the history, the export, the replay and the catch-up all read it).
        queued = ("7-5", "7-2", "9-2", "9-4")
        dms_before = len(alice.dms())
        readable = text_of([*games.messages(), *bob.dms(), *carol.dms()])
        assert not [t for t in queued if t in readable]
        history = await said(await carol.slash("mt history", channel=games))
        catchup = await said(await carol.slash("mt catchup", channel=games))
        assert not [t for t in queued if t in text_of([history, catchup])]
        # (The deal, which holds every hand, is the one event that names them: its readers
        # show each player only their own hand.)
        record = await bot.service.game_record(game.id)
        told = [e.payload for e in record.events if e.kind != "round"]
        assert not [t for t in queued if any(t in p for p in told)]

        # Carol and Bob play: Alice's order plays 7-5 at her turn, told in the channel (in
        # the server's English) as her order; she is not pinged for it.
        await slash_move(carol, games, "12-0 @3")
        await slash_move(bob, games, "12-1 mexican")
        post = text_of([last_public(games)])
        assert "📋 Alice's standing order played 7-5 on their own train." in post, post
        assert len(alice.dms()) == dms_before
        readable = text_of([*games.messages(), *bob.dms(), *carol.dms()])
        assert not [t for t in ("7-2", "9-2", "9-4") if t in readable]

        # Bob lays 3-3 and cannot cover it, nor can Carol (each draws and passes): at Alice's
        # turn a double is open, so her order stops. Her one ping, in French, says why, and
        # what her order played while she was away.
        await slash_move(carol, games, "10-0 @3")
        await slash_move(bob, games, "3-3 @1")
        stopped = alice.dms()[-1]
        assert len(alice.dms()) == dms_before + 1
        assert "📋 Ton ordre s'est arrêté : Bob a ouvert un double 3-3." in stopped.text
        assert "📋 Pendant ton absence, ton ordre a joué 7-5." in stopped.text
        assert not any(":dm:then:" in str(b.get("custom_id")) for b in stopped.buttons)
        left = await bot.service.orders.get(game.id, alice.id)
        assert left is not None and not left.active
        # She covers the double herself; her next DM no longer speaks of the order.
        _, view = await to_move(bot, game.id)
        await slash_move(alice, games, str(pick(view.legal)))
        for _ in range(6):
            uid, view = await to_move(bot, game.id)
            if uid == alice.id:
                break
            mover = bob if uid == bob.id else carol
            await slash_move(mover, games, str(pick(view.legal)))
        assert uid == alice.id
        assert "Ton ordre" not in alice.dms()[-1].text
        assert "📋" not in alice.dms()[-1].text.split("\n\n")[0]


async def test_slash_play_then_and_mt_orders(
    fake_discord: FakeDiscord, db_path: Path, clock: FakeClock
) -> None:
    """``/play 12-5 then: 7-5 7-2``: the move and the order, answered together; a chain that
    does not follow is refused before anything moves; ``/mt orders`` shows it, changes a stop,
    cancels it."""
    fake = fake_discord
    games = fake.channel("games")
    bob, alice, carol = fake.user("bob"), fake.user("alice"), fake.user("carol")
    bot = bot_with(db_path, clock)
    async with running_bot(fake, bot):
        await said(await bob.slash("mt new", channel=games, preset="quick"))
        lobby = last_public(games)
        for user in (alice, carol):
            await said(await user.click(lobby, label="Join"))
        await said(await bob.click(lobby, label="Start"))
        game = await game_here(bot, games)
        await slash_move(bob, games, "12-3 @1")
        version = (await bot.service.game(game.id)).version
        refused = await said(
            await alice.slash("play", channel=games, tile="12-5", train="@2", then="7-2 9-2")
        )
        assert refused.text == (
            "7-2 does not fit your train's open end (5): an order starts there."
        ), refused.text
        assert (await bot.service.game(game.id)).version == version  # nothing moved
        answer = await said(
            await alice.slash("play", channel=games, tile="12-5", train="@2", then="7-5 → 7-2")
        )
        assert answer.text.startswith("✅")
        assert "📋 Order set for game #1: `7-5` → `7-2` on your train" in answer.text
        shown = await said(await alice.slash("mt orders", channel=games))
        assert shown.text.startswith("📋 Your order in game #1: `7-5` → `7-2`. It stops when")
        changed = await said(await alice.slash("mt orders", channel=games, on_double=False))
        assert "when a double is open" not in changed.text
        assert "when someone plays on your train" in changed.text
        last = await said(await alice.slash("mt orders", channel=games, on_last_tile=False))
        assert "It plays down to your last tile, and knocks for you" in last.text
        cancelled = await said(await alice.slash("mt orders", channel=games, stop_order=True))
        assert cancelled.text == "📋 Order cancelled."
        await slash_move(carol, games, "12-0 @3")
        await slash_move(bob, games, "4-3 @1")
        assert "order" not in text_of([last_public(games)])
        # In a DM, /mt orders reads her most recent game.
        none = await said(await alice.slash("mt orders", channel=alice.dm_channel))
        assert none.text.startswith("📋 No standing order in game #1.")


async def test_a_crash_between_an_orders_commit_and_its_announcement(
    fake_discord: FakeDiscord, db_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot dies the instant Alice's order has committed its move (nothing announced):
    the move and what is left of the order are in the file together, and the restarted bot
    tells the move once, as her order, pings Carol once and Alice not at all; the order goes
    on at her next turn; a further restart tells nothing more."""
    fake = fake_discord
    games = fake.channel("games")
    bob, alice, carol = fake.user("bob"), fake.user("alice"), fake.user("carol")
    bot = bot_with(db_path, clock)
    async with running_bot(fake, bot):
        await said(await bob.slash("mt new", channel=games, preset="quick"))
        lobby = last_public(games)
        for user in (alice, carol):
            await said(await user.click(lobby, label="Join"))
        await said(await bob.click(lobby, label="Start"))
        game = await game_here(bot, games)
        await slash_move(bob, games, "12-3 @1")
        answer = await said(
            await alice.slash("play", channel=games, tile="12-5", train="@2", then="7-5 7-2 9-2")
        )
        assert answer.text.startswith("✅")
        await slash_move(carol, games, "12-0 @3")

        died = asyncio.Event()
        real = orders.play

        async def play_then_die(*args: Any, **kwargs: Any) -> Any:
            out = await real(*args, **kwargs)
            if out is not None:
                died.set()
                raise asyncio.CancelledError  # the process dies right after the commit
            return out

        monkeypatch.setattr(orders, "play", play_then_die)
        before = len(games.messages())
        pings = {u.id: len(fake.pings_for(u)) for u in (alice, bob, carol)}
        reply = await (await type_move(bob, games, "12-1 mexican")).message()
        await asyncio.wait_for(died.wait(), 10)
        assert reply.text.startswith("✅")
        row = await bot.service.store.order(game.id, alice.id)
        assert row is not None and json.loads(row.tiles) == ["7-2", "9-2"]
        assert len(games.messages()) == before
        owed = await bot.service.outbox.owed(game.id)
        assert owed is not None and owed.post_owed and owed.ping_user == carol.id
    monkeypatch.undo()

    bot = bot_with(db_path, clock)  # a new process on the same file pays what was owed
    async with running_bot(fake, bot):
        await wait_paid(bot, game.id)
        await idle(fake)
        new = text_of(games.messages()[before:])
        assert new.count("📋 Alice's standing order played 7-5 on their own train.") == 1, new
        assert "Bob started the Mexican Train with 12-1" in new
        assert len(fake.pings_for(carol)) == pings[carol.id] + 1
        assert len(fake.pings_for(alice)) == pings[alice.id]
        # The order goes on at her next turn.
        await slash_move(carol, games, "10-0 @3")
        assert (await slash_move(bob, games, "2-1 mexican")).startswith("✅")
        assert "📋 Alice's standing order played 7-2" in text_of([last_public(games)])

    bot = bot_with(db_path, clock)  # and once paid, a restart tells nothing more
    async with running_bot(fake, bot):
        assert bot.deliverer is not None
        await bot.deliverer.drain(all_due=True)
        await idle(fake)
        after = text_of(games.messages())
        assert after.count("📋 Alice's standing order played 7-5") == 1


async def test_the_order_from_the_dms_move_list(
    fake_discord: FakeDiscord, db_path: Path, clock: FakeClock
) -> None:
    """The turn DM's move list carries the same order as its button: picked, its first tile
    is played and the rest queued; a forged pick whose chain does not follow is refused and
    nothing moves."""
    fake = fake_discord
    games = fake.channel("games")
    bob, alice, carol = fake.user("bob"), fake.user("alice"), fake.user("carol")
    bot = bot_with(db_path, clock)
    async with running_bot(fake, bot):
        await said(await bob.slash("mt new", channel=games, preset="quick"))
        lobby = last_public(games)
        for user in (alice, carol):
            await said(await user.click(lobby, label="Join"))
        await said(await bob.click(lobby, label="Start"))
        game = await game_here(bot, games)
        await slash_move(bob, games, "12-3 @1")
        dm = alice.dms()[-1]
        values = [o["value"] for s in dm.selects for o in s["options"]]
        assert "12-5 @2|then:7-5.7-2.9-2.9-4" in values
        version = (await bot.service.game(game.id)).version
        pick_id = str(dm.selects[0]["custom_id"])
        forged = await said(
            await alice.forge_click(dm, custom_id=pick_id, values=["12-5 @2|then:7-2.9-2"])
        )
        assert forged.text.startswith("7-2 does not fit your train's open end (5)")
        assert (await bot.service.game(game.id)).version == version
        picked = await said(await alice.select(dm, values=["12-5 @2|then:7-5.7-2.9-2.9-4"]))
        assert picked.text.startswith("✅")
        assert "📋 Order set for game #1: `7-5` → `7-2` → `9-2` → `9-4`" in picked.text
        order = await bot.service.orders.get(game.id, alice.id)
        assert order is not None and [str(t) for t in order.tiles] == ["7-5", "7-2", "9-2", "9-4"]


async def test_orders_in_a_thread_game_on_a_french_server(
    fake_discord: FakeDiscord, db_path: Path, clock: FakeClock
) -> None:
    """A game in its own thread, the server in French: ``/play … then:`` typed in the thread
    queues the order; its move is told in the thread, in the server's French, as her order."""
    fake = fake_discord
    games = fake.channel("games")
    bob, alice, carol = fake.user("bob"), fake.user("alice"), fake.user("carol")
    bot = bot_with(db_path, clock)
    async with running_bot(fake, bot):
        await said(await fake.owner.slash("mt-admin settings", channel=games, language="fr"))
        await said(await bob.slash("mt new", channel=games, preset="quick", thread=True))
        card = last_public(games)
        (thread,) = games.threads()
        for user in (alice, carol):
            await said(await user.click(card, label="Rejoindre"))
        await said(await bob.click(card, label="Commencer"))
        game = await game_here(bot, thread)
        await slash_move(bob, thread, "12-3 @1")
        answer = await said(
            await alice.slash("play", channel=thread, tile="12-5", train="@2", then="7-5 7-2")
        )
        assert "📋 Order set for game #1: `7-5` → `7-2`" in answer.text  # her client: English
        await slash_move(carol, thread, "12-0 @3")
        await slash_move(bob, thread, "12-1 mexican")
        assert "📋 L'ordre d'Alice a joué 7-5 sur son propre train." in text_of(
            [last_public(thread)]
        )
        assert not [m for m in games.messages() if "7-5" in m.text]  # the thread's alone
        order = await bot.service.orders.get(game.id, alice.id)
        assert order is not None and [str(t) for t in order.tiles] == ["7-2"]


async def test_mt_undo_takes_back_an_orders_move_as_its_players_own(
    fake_discord: FakeDiscord, db_path: Path, clock: FakeClock
) -> None:
    """Alice's order played 7-5 while she was away; before Carol acts, Alice's ``/mt undo``
    takes it back like her own move: the channel says she took back her own turn, the turn is
    hers again with 7-5 in her hand, and the rest of the order is dropped (nothing replays
    it). Carol (no host) may not take it back."""
    fake = fake_discord
    games = fake.channel("games")
    bob, alice, carol = fake.user("bob"), fake.user("alice"), fake.user("carol")
    bot = bot_with(db_path, clock)
    async with running_bot(fake, bot):
        await said(await bob.slash("mt new", channel=games, preset="quick"))
        lobby = last_public(games)
        for user in (alice, carol):
            await said(await user.click(lobby, label="Join"))
        await said(await bob.click(lobby, label="Start"))
        game = await game_here(bot, games)
        await slash_move(bob, games, "12-3 @1")
        await said(
            await alice.slash("play", channel=games, tile="12-5", train="@2", then="7-5 7-2")
        )
        await slash_move(carol, games, "12-0 @3")
        await slash_move(bob, games, "12-1 mexican")
        assert "📋 Alice's standing order played 7-5" in text_of([last_public(games)])
        refused = await said(await carol.slash("mt undo", channel=games))
        assert "host" in refused.text, refused.text  # not hers, and Carol is no host
        taken = await said(await alice.slash("mt undo", channel=games))
        assert taken.text == "Undone: 7-5 on your train.", taken.text
        assert "took back their own turn" in last_public(games).embeds[0]["description"]
        uid, view = await to_move(bot, game.id)
        assert uid == alice.id and Tile(7, 5) in (view.hand or ())
        left = await bot.service.orders.get(game.id, alice.id)
        assert left is None or not left.active
        await idle(fake)
        assert (await bot.service.game(game.id)).turn.user_id == alice.id  # type: ignore[union-attr]
