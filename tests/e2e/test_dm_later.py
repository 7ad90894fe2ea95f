"""A turn's DM that Discord turns away as "opening direct messages too fast" (403/40003;
issue 38, item 5) is sent again later, with what it meant — it is still that player's turn —
and never dropped: after the last try the player gets the channel mention instead."""

from __future__ import annotations

from collections.abc import Callable

from bot.app import MexicanTrainBot
from tests.e2e.helpers import last_public, open_game, pick, said, to_move, type_move
from tests.fakediscord import WAIT, FakeChannel, FakeDiscord, FakeUser, running_bot


def too_fast(fake: FakeDiscord) -> int:
    return sum(1 for r in fake.requests if r.error_code == 40003)


async def hand_turn_to_the_other(
    bot: MexicanTrainBot, game_id: int, users: dict[int, FakeUser], channel: FakeChannel
) -> FakeUser:
    """Moves until the turn passes to a player who did not act (their DM is the ping)."""
    for _ in range(20):
        uid, view = await to_move(bot, game_id)
        await said(await type_move(users[uid], channel, str(pick(view.legal))))
        nxt, _ = await to_move(bot, game_id)
        if nxt != uid:
            return users[nxt]
    raise AssertionError("the turn never passed")


async def test_a_turn_dm_refused_as_too_fast_arrives_later(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    alice, bob, games = fake.user("alice"), fake.user("bob"), fake.channel("games")
    users = {alice.id: alice, bob.id: bob}
    async with running_bot(fake, bot):
        bot.dm_retry_delays = (0.05, 0.05, 0.05)
        game = await open_game(fake, bot, games, alice, [bob], preset="quick")
        dms = {u.id: len(u.dms()) for u in users.values()}
        fake.too_fast_dms = 1
        told = await hand_turn_to_the_other(bot, game.id, users, games)
        assert too_fast(fake) == 1, "Discord refused the turn's DM once"
        got = await fake.wait_for(
            lambda: told.dms() if len(told.dms()) > dms[told.id] else None,
            timeout=WAIT,
            what=f"{told.name}'s turn DM, sent again",
            on=told,
        )
        assert got[-1].files and got[-1].files[0].filename == "hand.png"
        assert "your turn" in last_public(games).text or last_public(games).buttons
        assert not any("would not let me DM" in m.text for m in games.messages())


async def test_a_turn_dm_refused_to_the_end_becomes_the_channel_mention(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    alice, bob, games = fake.user("alice"), fake.user("bob"), fake.channel("games")
    users = {alice.id: alice, bob.id: bob}
    async with running_bot(fake, bot):
        bot.dm_retry_delays = (0.01, 0.01)
        game = await open_game(fake, bot, games, alice, [bob], preset="quick")
        fake.too_fast_dms = 1000
        told = await hand_turn_to_the_other(bot, game.id, users, games)
        notice = await fake.wait_for(
            lambda: next((m for m in games.messages() if "would not let me DM" in m.text), None),
            timeout=WAIT,
            what="the channel mention instead of the DM",
            on=games,
        )
        assert f"<@{told.id}>" in notice.text and f"#{game.id}" in notice.text
        assert too_fast(fake) >= 3  # the first try and two more
        fake.too_fast_dms = 0
