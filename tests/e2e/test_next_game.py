"""Issue 46, item 5: a move's answer names the player's next game waiting on them, with a jump
link, riding on the answer the move sends anyway (no request of its own)."""

from __future__ import annotations

import re
from collections.abc import Callable

from bot.app import MexicanTrainBot
from bot.engine import Play, SeatView
from tests.e2e.helpers import (
    dm_move,
    open_game,
    pick,
    play_until,
    settled,
    slash_move,
    to_move,
)
from tests.fakediscord import FakeDiscord, running_bot


async def test_the_answer_to_a_move_names_the_next_game_waiting_on_the_player(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    friends = fake.guild("Friends' *club* @everyone")
    here, there = fake.channel("games"), fake.channel("friends", guild=friends)
    alice, bob = fake.user("alice"), fake.user("bob")
    users = {alice.id: alice, bob.id: bob}
    async with running_bot(fake, bot):
        first = await open_game(fake, bot, here, alice, [bob], preset="quick")
        # One game only: nothing else waits on the mover, the answer says nothing more.
        uid, view = await to_move(bot, first.id)
        answer = await slash_move(users[uid], here, str(pick(view.legal)))
        assert "Next:" not in answer, answer

        second = await open_game(fake, bot, there, bob, [alice], preset="quick")
        waiter, _ = await to_move(bot, second.id)
        await settled(bot, second.id)
        seen = ""
        for _ in range(40):  # until the second game's waiter ends a turn in the first game
            uid, view = await to_move(bot, first.id)
            answer = await slash_move(users[uid], here, str(pick(view.legal)))
            mover_again = (await to_move(bot, first.id))[0] == uid
            if uid == waiter and not mover_again:
                seen = answer
                break
            if uid != waiter or mover_again:
                assert "Next:" not in answer, answer  # the turn goes on, or nothing waits
        assert seen, "the second game's waiter never ended a turn in the first game"
        link = rf"https://discord\.com/channels/{friends.id}/{there.id}(/\d+)?"
        match = re.search(rf"➡️ Next: \[game #{second.id}\]\(({link})\) on (.+) is waiting", seen)
        assert match is not None, seen
        assert match.group(2), "the link jumps to the game's latest table post"
        table = there.last_message()
        assert table is not None and match.group(1).endswith(f"/{table.id}")
        # The server's name is shown inert: its markdown and its @everyone do nothing.
        assert match.group(3) == "Friends' \\*club\\* @\u200beveryone", match.group(3)


async def test_french_next_game(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    one, two = fake.channel("one"), fake.channel("two")
    chloe, denis = fake.user("chloe"), fake.user("denis")
    users = {chloe.id: chloe, denis.id: denis}
    async with running_bot(fake, bot):
        first = await open_game(fake, bot, one, chloe, [denis], preset="quick")
        second = await open_game(fake, bot, two, denis, [chloe], preset="quick")
        chloe.locale = denis.locale = "fr"  # their clients in French from now on
        waiter, _ = await to_move(bot, second.id)
        for _ in range(40):
            uid, view = await to_move(bot, first.id)
            answer = await slash_move(users[uid], one, str(pick(view.legal)))
            if uid == waiter and (await to_move(bot, first.id))[0] != uid:
                assert f"➡️ Ensuite : [la partie n°{second.id}](" in answer, answer
                assert f"dans <#{two.id}> t'attend" in answer, answer
                return
        raise AssertionError("the second game's waiter never ended a turn in the first game")


async def test_a_move_from_the_turn_dm_names_the_next_game_in_its_answer(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    one, two = fake.channel("one"), fake.channel("two")
    alice, bob = fake.user("alice"), fake.user("bob")
    users = {alice.id: alice, bob.id: bob}
    async with running_bot(fake, bot):
        first = await open_game(fake, bot, one, alice, [bob], preset="quick")
        second = await open_game(fake, bot, two, bob, [alice], preset="quick")
        waiter, _ = await to_move(bot, second.id)
        user, view, dm = await play_until(
            bot, one, users, lambda u, v, dm: u.id == waiter and dm is not None and _ends(v)
        )
        assert dm is not None
        answer = await dm_move(user, dm, pick(view.legal))
        assert f"➡️ Next: [game #{second.id}](" in answer.content, answer.content
        # From a DM the server is named (its name shown inert), not a channel mention.
        assert f"on {fake.guild_name} is waiting on you." in answer.content, answer.content
        assert (await to_move(bot, first.id))[0] != waiter


def _ends(view: SeatView) -> bool:
    """The move :func:`pick` makes ends the turn: a tile that is not a double."""
    move = pick(view.legal)
    return isinstance(move, Play) and not move.tile.is_double
