"""What players see over a match, on the fake Discord: one post per human turn, old posts
quiet, one hand DM per round edited in place, a short DM when a turn comes, the tile mode of
``/mt me tiles:`` — and all of it after a restart too (issue 17)."""

from __future__ import annotations

from collections.abc import Callable

from bot.app import MexicanTrainBot
from bot.engine import Play
from bot.ui.pictures import hand_png
from tests.e2e.helpers import last_public, open_game, pick, said, slash_move, to_move
from tests.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser, running_bot


def hand_messages(user: FakeUser) -> list[FakeMessage]:
    return [m for m in user.dms() if m.images()]


def turn_dms(user: FakeUser) -> list[FakeMessage]:
    return [m for m in user.dms() if not m.images()]


def live_posts(channel: FakeChannel) -> list[FakeMessage]:
    return [m for m in channel.messages() if m.buttons]


async def add_computers(bot: MexicanTrainBot, host: FakeUser, channel: FakeChannel, n: int) -> None:
    game = await bot.service.game_in_channel(channel.id)
    assert game is not None
    for _ in range(n):
        answer = await said(
            await host.select(
                last_public(channel), values=["easy"], custom_id=f"mt:{game.id}:lobby:cpu"
            )
        )
        assert "Computer player added" in answer.content


async def test_computer_moves_share_the_next_turn_post_and_old_posts_go_quiet(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice = fake.user("alice")
    bot = make_bot()
    async with running_bot(fake, bot):
        await open_game(fake, bot, games, alice, [], start=False, preset="standard")
        await add_computers(bot, alice, games, 2)
        await said(await alice.click(last_public(games), label="Start"))
        game = await bot.service.game_in_channel(games.id)
        assert game is not None
        for _ in range(6):
            uid, view = await to_move(bot, game.id)
            assert uid == alice.id
            before = last_public(games)
            posted = len(games.messages())
            await slash_move(alice, games, str(pick(view.legal)))
            await to_move(bot, game.id)
            now = last_public(games)
            lines = (now.embeds[0].get("description") or "").splitlines()
            if "round 2/" in now.embeds[0]["title"]:
                break  # a round ended on the way: its own post came first
            # ONE new post for Alice's move and both computers' after it, a line each.
            assert len(games.messages()) == posted + 1 or before.edits, lines
            if now is not before:
                assert lines[0].startswith("Alice ") and sum("(computer)" in x for x in lines) >= 2
                # The post before went quiet: no buttons, text and picture kept.
                assert before.buttons == [] and before.images() and before.embeds
            assert now.button_labels == ["Play", "Draw", "Pass", "My hand"]
            assert f"<@{alice.id}>" in now.content
            assert live_posts(games) == [now]


async def test_one_hand_message_per_round_edited_and_a_short_dm_when_the_turn_comes(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    users = {alice.id: alice, bob.id: bob}
    bot = make_bot()
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="standard")
        first, _ = await to_move(bot, game.id)
        for u in users.values():
            assert len(hand_messages(u)) == 1 and "Your hand" in u.dms()[0].content
            assert turn_dms(u) == []  # the deal's hand message is the news
        # The hand of a player who is not to play comes silently (no push notification).
        waiting = next(u for u in users.values() if u.id != first)
        assert waiting.dms()[0].flags & 4096

        hand = users[first].dms()[0]
        picture = hand.attachments[0].id
        for _ in range(4):
            uid, view = await to_move(bot, game.id)
            mover, other = users[uid], next(u for u in users.values() if u.id != uid)
            dms_before = {u.id: len(u.dms()) for u in users.values()}
            await slash_move(mover, games, str(pick(view.legal)))
            nxt, _ = await to_move(bot, game.id)
            if nxt == uid:
                continue  # a draw: still their turn, nobody is told anything new
            # The mover gets nothing new (their hand message was edited); the next player
            # gets ONE short DM with links to the table post and their hand message.
            assert len(mover.dms()) == dms_before[mover.id]
            assert len(other.dms()) == dms_before[other.id] + 1
            note = other.dms()[-1]
            assert "Your turn in game" in note.content and not note.images()
            assert f"/{last_public(games).id})" in note.content
            assert f"/{hand_messages(other)[0].id})" in note.content
        # Still one hand message each this round, edited in place with a new picture.
        assert len(hand_messages(alice)) == len(hand_messages(bob)) == 1
        assert hand.edits >= 2 and hand.attachments[0].id != picture
        assert len(hand.attachments) == 1


async def test_tile_mode_changes_the_hand_pictures(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    users = {alice.id: alice, bob.id: bob}
    bot = make_bot()
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="standard")
        uid, view = await to_move(bot, game.id)
        waiter = next(u for u in users.values() if u.id != uid)
        answer = await said(await waiter.slash("mt me", channel=games, tiles="numerals"))
        assert "Tiles: big numbers (high contrast)" in answer.content
        assert (await bot.service.user_settings(waiter.id)).tiles == "numerals"
        # Their hand message is redrawn in numerals when it is next edited (their turn).
        await slash_move(users[uid], games, str(_tile_move(view.legal)))
        nxt, mine = await to_move(bot, game.id)
        assert nxt == waiter.id
        shown = hand_messages(waiter)[0].images()[0]
        assert shown == hand_png(mine, True, "en", "numerals")
        assert shown != hand_png(mine, True, "en", "pips")
        # /hand draws their private picture the same way.
        private = await said(await waiter.slash("hand", channel=games))
        assert private.images()[0] == shown
        # A French player reads the choice in French.
        french = fake.user("zoé", locale="fr")
        answer = await said(await french.slash("mt me", channel=games, tiles="pips"))
        assert "Dominos : points et chiffres" in answer.content


def _tile_move(legal: object) -> object:
    moves = list(legal)  # type: ignore[call-overload]
    return next((m for m in moves if isinstance(m, Play)), moves[0])


async def test_after_a_restart_old_posts_still_go_quiet_and_hands_are_still_edited(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    users = {alice.id: alice, bob.id: bob}
    bot = make_bot()
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="standard")
        uid, view = await to_move(bot, game.id)
        await slash_move(users[uid], games, str(_tile_move(view.legal)))
        await to_move(bot, game.id)
    before = last_public(games)
    hands = {u.id: hand_messages(u)[0] for u in users.values()}
    edits = {i: m.edits for i, m in hands.items()}
    assert before.buttons

    bot = make_bot()  # a new process: nothing in memory
    async with running_bot(fake, bot):
        uid, view = await to_move(bot, game.id)
        other = next(u for u in users.values() if u.id != uid)
        dms_before = len(other.dms())
        await slash_move(users[uid], games, str(_tile_move(view.legal)))
        nxt, _ = await to_move(bot, game.id)
        # The post from before the restart went quiet; the new one is the only live one.
        assert before.buttons == [] and before.images()
        assert live_posts(games) == [last_public(games)]
        # The same hand message was edited (found in the database), not a new one sent.
        assert [hand_messages(u) for u in users.values()] == [[hands[u.id]] for u in users.values()]
        assert hands[uid].edits > edits[uid]
        if nxt == other.id:
            assert len(other.dms()) == dms_before + 1 and "Your turn" in other.dms()[-1].content


async def test_an_old_post_discord_will_not_edit_is_left_and_its_buttons_are_stale(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    users = {alice.id: alice, bob.id: bob}
    bot = make_bot()
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="standard")
        uid, view = await to_move(bot, game.id)
        old = last_public(games)
        fake.refuse_edits(old)  # 30046: too many edits on an old message
        answer = await slash_move(users[uid], games, str(_tile_move(view.legal)))
        assert answer.startswith("✅")
        new = last_public(games)
        assert new is not old and new.buttons
        assert old.button_labels == ["Play", "Draw", "Pass", "My hand"] and old.edits == 0
        nxt, _ = await to_move(bot, game.id)
        stale = await said(await users[nxt].click(old, label="Draw"))
        assert "table changed" in stale.content
