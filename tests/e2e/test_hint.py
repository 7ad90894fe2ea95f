"""``/mt hint`` through Discord: advice for the player to move only, in their language, and
only when the host left hints on."""

from __future__ import annotations

from collections.abc import Callable

from bot.app import MexicanTrainBot
from bot.engine.ai import hint
from bot.ui.hints import hint_text
from tests.e2e.helpers import open_game, said, to_move
from tests.fakediscord import FakeDiscord, running_bot


async def test_hint_for_the_player_to_move(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob", locale="fr")
    users = {alice.id: alice, bob.id: bob}
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="quick")
        uid, view = await to_move(bot, game.id)
        mover = users[uid]
        other = bob if mover is alice else alice
        answer = await said(await mover.slash("mt hint", channel=games))
        expected = hint(view)
        assert answer.ephemeral
        assert f"`{expected.move}`" in answer.text
        assert all(f"`{t}`" in answer.text for t in expected.train)
        language_word = "Coup conseillé" if mover is bob else "Suggested move"
        assert language_word in answer.text
        refused = await said(await other.slash("mt hint", channel=games))
        assert refused.ephemeral and "`" not in refused.text
        assert view.seat is not None and view.names[view.seat] in refused.text
        # The hint changed nothing: still the same player to move.
        assert (await to_move(bot, game.id))[0] == uid


async def test_hint_refused_when_the_host_switched_hints_off(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    users = {alice.id: alice, bob.id: bob}
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="quick", hints=False)
        uid, _ = await to_move(bot, game.id)
        answer = await said(await users[uid].slash("mt hint", channel=games))
        assert answer.ephemeral and "switched hints off" in answer.text


async def test_two_players_following_hints_under_the_knock_rule_are_never_catchable(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    """A knock-rule round between two people who do only what ``/mt hint`` says (the move,
    and the knock it says to make with it): neither can ever be caught. Hints once never
    mentioned the knock, so a player who followed them was caught by the other."""
    import re

    from tests.e2e.helpers import slash_move

    fake = fake_discord
    bot = make_bot()
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    users = {alice.id: alice, bob.id: bob}
    knocked = 0
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], knock=True, rounds=1)
        for _turn in range(300):
            if (await bot.service.game(game.id)).turn is None:
                break
            uid, view = await to_move(bot, game.id)
            # Nobody may be caught now: not the last mover, by the player to move.
            assert view.catchable == (), f"{view.names[view.catchable[0]]} can be caught"
            answer = (await said(await users[uid].slash("mt hint", channel=games))).text
            if "knock now" in answer:
                await said(await users[uid].slash("knock", channel=games))
            move = re.search(r"Suggested move: `([^`]+)`", answer)
            assert move is not None, answer
            knock = "It leaves you one tile" in answer
            assert not knock or len(view.hand or ()) == 2, answer
            knocked += knock
            reply = await slash_move(users[uid], games, move.group(1), knock=knock)
            assert "✋" not in reply and "can't" not in reply, reply
        else:
            raise AssertionError("the round did not end")
    assert knocked >= 1, "nobody followed a hint down to one tile"


async def test_a_hint_is_searched_in_a_thinking_worker(
    fake_discord: FakeDiscord, make_bot: Callable[..., MexicanTrainBot]
) -> None:
    """With thinking workers (the bot's default), the hint's search runs in one — the event
    loop only awaits it — and the player reads the same advice as when it runs here."""
    fake = fake_discord
    bot = make_bot(think_workers=1)
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    users = {alice.id: alice, bob.id: bob}
    async with running_bot(fake, bot):
        pool = bot.thinker.pool
        assert pool is not None
        pool.timeout = 60.0  # a loaded machine is slow, never wrong
        game = await open_game(fake, bot, games, alice, [bob], preset="quick")
        uid, view = await to_move(bot, game.id)
        searched = pool.stats["drawn"]
        answer = await said(await users[uid].slash("mt hint", channel=games))
        assert pool.stats["drawn"] == searched + 1
        assert answer.ephemeral
        assert answer.text == hint_text(view, "en-US", hint(view))
