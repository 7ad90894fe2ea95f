"""The bot restarts mid-game and carries on; computer players, knocks and catches, deadlines."""

from __future__ import annotations

import re
from collections.abc import Callable

from bot.app import MexicanTrainBot
from bot.engine import Play
from bot.store import GameStatus
from tests.clock import FakeClock
from tests.e2e.helpers import (
    game_here,
    last_public,
    open_game,
    pick,
    said,
    settled,
    slash_move,
    to_move,
)
from tests.fakediscord import FakeChannel, FakeDiscord, FakeUser, Invocation, running_bot


async def test_restart_mid_round_keeps_buttons_lobbies_hands_and_deadlines(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot], clock: FakeClock
) -> None:
    fake = fake_discord
    games, other_room = fake.channel("games"), fake.channel("other")
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    users = {u.id: u for u in (alice, bob, carol)}
    bot = make_bot()
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="quick", deadline_hours=24)
        first_table = last_public(games)
        first_table_buttons = list(first_table.buttons)
        assert re.search(r"Play by <t:\d+:R>", first_table.content)
        uid, view = await to_move(bot, game.id)
        await slash_move(users[uid], games, str(pick(view.legal)))
        await open_game(fake, bot, other_room, carol, [], start=False)
        deadline = (await bot.service.game(game.id)).deadline_at
    old_table = last_public(games)
    old_table_buttons = list(first_table_buttons)
    assert first_table.buttons == [], "the first post went quiet when the second went out"

    bot = make_bot()  # a new process: same database file, nothing in memory
    clock.tick(3600)
    async with running_bot(fake, bot):
        assert (await bot.service.game(game.id)).deadline_at == deadline
        uid, view = await to_move(bot, game.id)
        user = users[uid]
        picker = await said(await user.click(old_table, label="Play"))  # posted before restart
        assert picker.selects, picker.content
        move = pick(view.legal)
        answer = await said(await user.select(picker, values=[str(move)]))
        assert answer.content.startswith("✅"), answer.content
        assert re.search(r"<t:\d+:R>", last_public(games).content)
        # The post from before the restart went quiet when the new one went out (the bot
        # found it in the database): buttons gone, picture kept.
        assert last_public(games) is not old_table
        assert old_table.buttons == [] and old_table.images()
        # The first table message is from before the last two moves; a client still showing
        # its buttons acts on the table as it is now (the rules answer for Draw now).
        uid, _ = await to_move(bot, game.id)
        draw = next(str(b["custom_id"]) for b in old_table_buttons if b.get("label") == "Draw")
        stale = await said(await users[uid].forge_click(first_table, custom_id=draw))
        assert stale.content.startswith(("✅", "Not possible")), stale.content
        # Hands still come on request, and the lobby from before the restart still seats people.
        hand = await said(await users[uid].click(last_public(games), label="My hand"))
        assert "Your hand" in hand.content
        joined = await said(await alice.click(last_public(other_room), label="Join"))
        assert "joined" in joined.content
        assert len((await game_here(bot, other_room)).players) == 2


async def test_computer_players_move_like_anyone(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    games = fake.channel("games")
    alice = fake.user("alice")
    async with running_bot(fake, bot):
        await open_game(fake, bot, games, alice, [], start=False, preset="quick")
        lobby = last_public(games)
        answer = await said(await alice.select(lobby, values=["easy"]))
        assert "Computer player added" in answer.content
        await said(await alice.slash("mt computer", channel=games, level="hard"))
        assert "CPU 2 (computer, hard)" in lobby.embeds[0]["fields"][0]["value"]
        # Only the host may add computer players or start.
        bob = fake.user("bob")
        add = f"mt:{(await game_here(bot, games)).id}:lobby:cpu"
        answer = await said(await bob.select(lobby, values=["normal"], custom_id=add))
        assert "Only the host" in answer.content
        await said(await alice.click(lobby, label="Start"))
        game = await game_here(bot, games)
        alice_moves = 0
        for _ in range(300):
            game = await settled(bot, game.id)
            if game.status is not GameStatus.ACTIVE:
                break
            uid, view = await to_move(bot, game.id)
            assert uid == alice.id  # computers never wait for a click
            await slash_move(alice, games, str(pick(view.legal)))
            alice_moves += 1
        computer_posts = [
            m for m in games.messages()
            if m.embeds and "(computer)" in (m.embeds[0].get("description") or "")
        ]  # fmt: skip
        turn_posts = [m for m in computer_posts if m.images()]
        assert turn_posts
        # The computer moves since Alice's last turn share her next turn's post: a line
        # each (both computers), never a post each.
        assert max(m.embeds[0]["description"].count("(computer)") for m in turn_posts) >= 2
        assert len(turn_posts) <= alice_moves + 1
        # Only the newest post has buttons (Rematch); every older one went quiet.
        posts = games.messages()
        assert posts[-1].button_labels == ["Rematch"]
        assert all(m.buttons == [] for m in posts[:-1])


async def test_the_host_takes_a_computer_player_back_out_of_the_lobby(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    async with running_bot(fake, bot):
        await open_game(fake, bot, games, alice, [], start=False, preset="quick")
        lobby = last_public(games)
        game_id = (await game_here(bot, games)).id
        add, remove = f"mt:{game_id}:lobby:cpu", f"mt:{game_id}:lobby:uncpu"

        def offered() -> dict[str, str]:
            return {o["label"]: o["value"] for s in lobby.selects if s["custom_id"] == remove
                    for o in s["options"]}  # fmt: skip

        async def computers() -> list[str]:
            return [p.name for p in (await game_here(bot, games)).players if p.is_computer]

        # No computer seated: nothing to remove, so no such select.
        assert [s["custom_id"] for s in lobby.selects] == [add]
        for level in ("easy", "hard", "normal"):
            await said(await alice.select(lobby, values=[level], custom_id=add))
        # The lobby message now offers each computer seat by name.
        before = offered()
        assert set(before) == {"CPU 1", "CPU 2", "CPU 3"}
        # Only the host may take one out, and a refusal changes nothing.
        answer = await said(await bob.select(lobby, values=[before["CPU 1"]], custom_id=remove))
        assert "Only the host" in answer.content
        assert await computers() == ["CPU 1", "CPU 2", "CPU 3"]
        answer = await said(await alice.select(lobby, values=[before["CPU 1"]], custom_id=remove))
        assert "Computer player removed" in answer.content
        assert await computers() == ["CPU 2", "CPU 3"]
        seats = lobby.embeds[0]["fields"][0]["value"]
        assert "CPU 1" not in seats and "CPU 2 (computer, hard)" in seats
        # The others moved up a seat. A phone still showing the old lobby picks CPU 2 at its
        # old seat, where CPU 3 sits now: refused as stale, and nothing changes.
        lagging = {"custom_id": remove, "component_type": 3, "values": [before["CPU 2"]]}
        record = fake.start_interaction(3, alice, games, lagging, name="stale pick", source=lobby)
        stale = await said(Invocation(fake, record))
        assert "table changed" in stale.content
        assert await computers() == ["CPU 2", "CPU 3"]
        # The redrawn lobby offers them at their new seats; taking both out removes the select.
        for name in ("CPU 3", "CPU 2"):
            await said(await alice.select(lobby, values=[offered()[name]], custom_id=remove))
        assert await computers() == []
        assert [s["custom_id"] for s in lobby.selects] == [add]


async def _until_two_tiles(
    bot: MexicanTrainBot, channel: FakeChannel, game_id: int, users: dict[int, FakeUser]
) -> tuple[FakeUser, FakeUser, Play]:
    """Play on until the player to move holds two tiles and can play a non-double."""
    for _ in range(400):
        uid, view = await to_move(bot, game_id)
        me = users[uid]
        other = next(u for u in users.values() if u is not me)
        move = pick(view.legal)
        if len(view.hand or ()) == 2 and isinstance(move, Play) and not move.tile.is_double:
            return me, other, move
        await slash_move(me, channel, str(move))
    raise AssertionError("nobody got down to two tiles")


async def test_knock_and_catch(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    alice, bob = fake.user("alice"), fake.user("bob")
    users = {alice.id: alice, bob.id: bob}
    async with running_bot(fake, bot):
        # Forgetting to knock: caught once the next player has acted. (Both on autoplay:
        # forced, the default before issue 46, so that the seeded deal's next turn is Bob's to
        # take: under only-move his one legal tile would be played at once, the window shut.)
        for uid in users:
            await bot.service.update_user_settings(uid, bot.now(), autoplay="forced")
        games = fake.channel("catch")
        game = await open_game(fake, bot, games, alice, [bob], preset="quick", knock=True)
        me, other, move = await _until_two_tiles(bot, games, game.id, users)
        await slash_move(me, games, str(move))
        assert "has one tile left" in last_public(games).embeds[0]["description"]
        early = await said(await other.slash("catch", channel=games, player=me))
        assert "may still knock" in early.content
        _, next_view = await to_move(bot, game.id)
        await slash_move(other, games, str(pick(next_view.legal)))
        answer = await said(await other.slash("catch", channel=games, player=me))
        assert answer.content.startswith("✅") and "caught" in answer.content
        assert "without a knock" in last_public(games).embeds[0]["description"]

        # Knocking in time: nobody can catch.
        games = fake.channel("knock")
        game = await open_game(fake, bot, games, alice, [bob], preset="quick", knock=True)
        me, other, move = await _until_two_tiles(bot, games, game.id, users)
        await slash_move(me, games, str(move))
        answer = await said(await me.slash("knock", channel=games))
        assert "knocks" in answer.content
        assert "knocks" in last_public(games).embeds[0]["description"]
        _, next_view = await to_move(bot, game.id)
        await slash_move(other, games, str(pick(next_view.legal)))
        answer = await said(await other.slash("catch", channel=games, player=me))
        assert not answer.content.startswith("✅")
