"""``/mt catchup`` and the Catch me up button through the fake Discord: a private answer with
what happened since your last turn, the table picture and your own hand's picture — never
anyone else's; a spectator gets the last moves and the table; clear refusals."""

from __future__ import annotations

from collections.abc import Callable

import discord

from bot.app import MexicanTrainBot
from bot.ui import components
from bot.ui.pictures import hand_png, table_png
from tests.e2e.helpers import open_game, pick, said, settled, slash_move, to_move
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser, running_bot


def _check_private_answer(answer: FakeMessage, viewer: FakeUser, *, hand: bool) -> str:
    """The answer is ephemeral (its user's only), with the digest and the pictures; returns
    the digest's text."""
    assert answer.ephemeral and answer.visible_to == viewer.id
    names = [f.filename for f in answer.files]
    assert names == (["table.png", "hand.png"] if hand else ["table.png"]), names
    assert all(data.startswith(b"\x89PNG") for data in answer.images())
    # Each picture says in words what it shows (alt text), like every other the bot sends.
    assert all(f.description for f in answer.files), [f.description for f in answer.files]
    if hand:  # the table and the hand, each described from its own view
        assert answer.files[0].description != answer.files[1].description
    assert len(answer.embeds) == (2 if hand else 1)
    if hand:  # "Your hand" once: the embed's title, not again in its text (issue 34)
        shown = [str(e.get("title") or "") + str(e.get("description") or "") for e in answer.embeds]
        both = "\n".join(shown)
        assert both.count("Your hand") + both.count("Ta main") == 1, shown
        # Whose turn said once (issue 47: "It is your turn" twice), the tiles where they fit
        # grouped by train, never one tile per bullet.
        turn = ("It is your turn", "It's your turn", "C'est à toi", "À toi de jouer")
        assert sum(both.count(t) for t in turn) <= 1, shown
        assert not any(line.startswith("• `") for line in both.splitlines()), shown
    return str(answer.embeds[0].get("description") or "")


def _catchup_only(game_id: int) -> discord.ui.View:
    """A message's controls holding only the Catch me up button, as the bot makes it."""
    view = discord.ui.View(timeout=None)
    view.add_item(components.CatchUpButton(game_id, "en"))
    return view


async def _play(bot: MexicanTrainBot, game_id: int, users: dict[int, FakeUser], turns: int) -> None:
    games = None
    for _ in range(turns):
        uid, view = await to_move(bot, game_id)
        game = await bot.service.game(game_id)
        games = games or users[uid].fake.channels[game.channel_id]
        await slash_move(users[uid], games, str(pick(view.legal)))
        await settled(bot, game_id)


async def test_catchup_answers_privately_with_the_digest_and_both_pictures(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol", locale="fr")
    dave = fake.user("dave")  # watches, no seat
    users = {u.id: u for u in (alice, bob, carol)}
    bot = make_bot()
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob, carol], preset="standard")
        await _play(bot, game.id, users, 5)
        uid, _ = await to_move(bot, game.id)
        reader = users[uid]
        public_before = len(games.messages())

        answer = await said(await reader.slash("mt catchup", channel=games))
        text = _check_private_answer(answer, reader, hand=True)
        digest = await bot.service.digest(game.id, uid)
        assert digest.moves, "others played since this player's last turn"
        head = "**Depuis ton dernier tour :**" if reader is carol else "**Since your last turn:**"
        assert text.startswith(head), text
        for m in digest.moves:  # each turn since is told (a short stretch is listed)
            assert str(m.tile or "") in text
        # The pictures: the table as everyone sees it, and the reader's own hand.
        locale = "fr" if reader is carol else "en"
        table = await bot.service.table_view(game.id)
        mine = await bot.service.seat_view(game.id, uid)
        table_file, hand_file = (f.data for f in answer.files)
        assert table_file == table_png(table, game.players, locale)
        assert hand_file == hand_png(mine, True, locale)
        for other in users.values():
            if other is not reader:
                theirs = await bot.service.seat_view(game.id, other.id)
                assert hand_file != hand_png(theirs, True, locale)
        # Nothing public was posted, and nobody else can see the answer.
        assert len(games.messages()) == public_before
        for other in (*users.values(), dave):
            if other is not reader:
                assert answer not in games.messages(visible_to=other)

        # A spectator: the last moves and the table, no hand.
        watched = await said(await dave.slash("mt catchup", channel=games))
        text = _check_private_answer(watched, dave, hand=False)
        assert text.startswith("**The last "), text

        # From a DM the player's game is found, as /hand does.
        in_dm = await said(await bob.slash("mt catchup"))
        _check_private_answer(in_dm, bob, hand=True)
        assert f"#{game.id}" in in_dm.embeds[0]["title"]


async def test_the_catch_me_up_button_in_the_channel_and_in_a_dm(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games, other = fake.channel("games"), fake.channel("other")
    alice, bob, dave = fake.user("alice"), fake.user("bob"), fake.user("dave")
    users = {alice.id: alice, bob.id: bob}
    bot = make_bot()
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="standard")
        await _play(bot, game.id, users, 3)
        # The button as the announcer will carry it: on a post in the channel, in a turn DM.
        channel = bot.get_partial_messageable(games.id)
        await channel.send("🎲", view=_catchup_only(game.id))
        post = games.last_message()
        assert post is not None and post.button_labels == ["Catch me up"]
        dm = await bot.create_dm(discord.Object(bob.id))
        await dm.send("🎲", view=_catchup_only(game.id))
        bob_dm = bob.dms()[-1]

        for clicker in (alice, bob):
            answer = await said(await clicker.click(post, label="Catch me up"))
            _check_private_answer(answer, clicker, hand=True)
        answer = await said(await bob.click(bob_dm, label="Catch me up"))
        text = _check_private_answer(answer, bob, hand=True)
        assert "**Since your last turn:**" in text or "**Since the game began:**" in text
        mine = await bot.service.seat_view(game.id, bob.id)
        assert answer.files[1].data == hand_png(mine, True, "en")
        # Someone without a seat clicking the channel's button: the last moves, no hand.
        watched = await said(await dave.click(post, label="Catch me up"))
        _check_private_answer(watched, dave, hand=False)

        # A client can send any custom_id: not in another channel, not in a stranger's DM.
        custom_id = f"mt:{game.id}:catchup"
        await bot.get_partial_messageable(other.id).send("elsewhere")
        elsewhere = other.last_message()
        assert elsewhere is not None
        refused = await said(await alice.forge_click(elsewhere, custom_id=custom_id))
        assert f"Game #{game.id} is played in another channel" in refused.text
        assert not refused.files
        dave_dm = await bot.create_dm(discord.Object(dave.id))
        await dave_dm.send("hello")
        refused = await said(await dave.forge_click(dave.dms()[-1], custom_id=custom_id))
        assert f"You are not playing in game #{game.id}." in refused.text
        assert not refused.files and refused.ephemeral


async def test_catchup_refusals(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games, empty = fake.channel("games"), fake.channel("empty")
    alice, bob = fake.user("alice"), fake.user("bob", locale="fr")
    bot = make_bot()
    async with running_bot(fake, bot):
        nothing = await said(await alice.slash("mt catchup", channel=empty))
        assert "There is no game in this channel" in nothing.text and not nothing.files
        none_mine = await said(await alice.slash("mt catchup"))
        assert "You are not in any game." in none_mine.text
        await open_game(fake, bot, games, alice, [bob], preset="standard", start=False)
        early = await said(await alice.slash("mt catchup", channel=games))
        assert early.ephemeral and "The game has not started yet." in early.text
        assert not early.files
        french = await said(await bob.slash("mt catchup", channel=games))
        assert "La partie n'a pas encore commencé." in french.text
