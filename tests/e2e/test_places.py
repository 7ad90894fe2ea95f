"""A game whose place goes away (issue 38, item 4): its channel deleted, its thread deleted,
or the bot removed from the server. The game ends at once, abandoned, its reminders stop
(nothing more is sent to the place), and each human is told by DM in one line; the fake
answers 10003/10004 for the place afterwards."""

from __future__ import annotations

from collections.abc import Callable

from bot.app import MexicanTrainBot
from bot.cogs.timing import cog_of
from bot.store import GameStatus
from tests.clock import FakeClock
from tests.e2e.helpers import dm_move, open_game, pick, said, to_turn_dm
from tests.fakediscord import WAIT, FakeChannel, FakeDiscord, FakeUser, running_bot


async def ended(fake: FakeDiscord, bot: MexicanTrainBot, game_id: int) -> None:
    async def status() -> GameStatus:
        return (await bot.service.game(game_id)).status

    for _ in range(int(WAIT * 100)):
        if await status() is GameStatus.ABANDONED:
            return
        await fake.wait_for(lambda: True, timeout=0.01, what="a moment")
    raise AssertionError(f"game {game_id} did not end")


async def told(fake: FakeDiscord, user: FakeUser, count: int) -> str:
    """The user's newest DM once they have ``count`` (the one-line notice)."""
    dms = await fake.wait_for(
        lambda: user.dms() if len(user.dms()) >= count else None,
        timeout=WAIT,
        what=f"{user.name}'s DM",
        on=user,
    )
    return dms[-1].text


async def test_a_deleted_channel_ends_its_game_and_each_player_hears_why(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot], clock: FakeClock
) -> None:
    fake = fake_discord
    bot = make_bot()
    alice, bob, games = fake.user("alice"), fake.user("bob"), fake.channel("games")
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="quick")
        before = {u.name: len(u.dms()) for u in (alice, bob)}
        fake.delete_channel(games)
        sent_since = len(fake.requests)
        await ended(fake, bot, game.id)
        for user in (alice, bob):
            line = await told(fake, user, before[user.name] + 1)
            assert f"#{game.id}" in line and "channel was deleted" in line
            assert "\n" not in line
        # The channel is unknown now: /mt new elsewhere works, nothing is sent to the old one.
        other = fake.channel("elsewhere")
        opened = await said(await alice.slash("mt new", channel=other, preset="quick"))
        assert "is open" in opened.text
        assert await bot.service.game_in_channel(games.id) is None
        # Weeks later: no reminder, stall warning or timeout is sent to the deleted channel.
        clock.tick(30 * 86400)
        cog_of(bot).scheduler.wake()
        # The scheduler did run: the lobby opened elsewhere, idle as long, hears of it.
        await fake.wait_for(
            lambda: len(other.messages()) > 1, timeout=WAIT, what="the scheduler", on=other
        )
        assert "has waited" in other.messages()[-1].text
    gone = [r for r in fake.requests[sent_since:] if r.path.startswith(f"/channels/{games.id}")]
    assert gone == []


async def test_a_deleted_thread_ends_the_game_played_in_it(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    alice, bob, games = fake.user("alice"), fake.user("bob"), fake.channel("games")
    async with running_bot(fake, bot):
        await said(await alice.slash("mt new", channel=games, preset="quick", thread=True))
        (thread,) = games.threads()
        game = await bot.service.game_in_channel(thread.id)
        assert game is not None
        await said(await bob.click(games.messages()[0], label="Join"))
        fake.delete_channel(thread)
        await ended(fake, bot, game.id)
        for user in (alice, bob):
            assert "channel was deleted" in await told(fake, user, 1)
    assert games.messages(), "the parent channel is untouched"


async def test_removal_from_the_server_ends_its_games(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    alice, bob = fake.user("alice"), fake.user("bob")
    other = fake.guild("Other server")
    here, there = fake.channel("games"), fake.channel("tables", guild=other)
    async with running_bot(fake, bot):
        kept = await open_game(fake, bot, here, alice, [bob], preset="quick")
        lost = await open_game(fake, bot, there, alice, [bob], preset="quick")
        before = len(bob.dms())
        fake.remove_guild(other)
        await ended(fake, bot, lost.id)
        line = await told(fake, bob, before + 1)
        assert f"#{lost.id}" in line and "removed from" in line and "Other server" in line
        assert (await bot.service.game(kept.id)).status is GameStatus.ACTIVE
        assert bot.get_guild(other.id) is None


async def test_a_server_outage_is_not_a_removal(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    """GUILD_DELETE with ``unavailable`` is Discord's outage: the game stays."""
    fake = fake_discord
    bot = make_bot()
    alice, bob, games = fake.user("alice"), fake.user("bob"), fake.channel("games")
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="quick")
        data = {"id": str(fake.guild_id), "guild_id": str(fake.guild_id), "unavailable": True}
        fake.gateway.broadcast("GUILD_DELETE", data)
        await fake.wait_for(
            lambda: (
                bot.get_guild(fake.guild_id) is None or bot.get_guild(fake.guild_id).unavailable
            ),  # type: ignore[union-attr]
            timeout=WAIT,
            what="the outage to reach the bot",
        )
        assert (await bot.service.game(game.id)).status is GameStatus.ACTIVE


def vanish(fake: FakeDiscord, channel: FakeChannel) -> None:
    """The channel is deleted and no CHANNEL_DELETE reaches the bot (missed while it was
    away past a resume): from now on Discord answers 404/10003 Unknown Channel for it."""
    fake.channels.pop(channel.id)
    fake.deleted_channels.add(channel.id)


async def test_a_channel_gone_without_a_delete_event_ends_its_game_at_the_first_refused_post(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot], clock: FakeClock
) -> None:
    """Issue 50: the game's first post answered 10003 ends it as the event would have: the
    players are told and freed, and nothing more is sent there (no reminder, no retry)."""
    fake = fake_discord
    bot = make_bot()
    alice, bob, games = fake.user("alice"), fake.user("bob"), fake.channel("games")
    users = {u.id: u for u in (alice, bob)}
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="quick")
        user, view, dm = await to_turn_dm(bot, games, users)
        vanish(fake, games)
        sent_since = len(fake.requests)
        # A move from the turn DM: its turn post is the first thing sent to the channel.
        await dm_move(user, dm, pick(view.legal))
        await ended(fake, bot, game.id)
        for u in (alice, bob):
            lines = await fake.wait_for(
                lambda u=u: [m.text for m in u.dms() if "channel was deleted" in m.text] or None,
                timeout=WAIT,
                what=f"{u.name}'s notice",
                on=u,
            )
            assert len(lines) == 1 and f"#{game.id}" in lines[0], lines
        # Freed: a new game elsewhere opens.
        other = fake.channel("elsewhere")
        opened = await said(await alice.slash("mt new", channel=other, preset="quick"))
        assert "is open" in opened.text
        # Weeks later: no reminder, no retry of what the game owed, nothing sent there again.
        tried = [
            r for r in fake.requests[sent_since:] if r.path.startswith(f"/channels/{games.id}")
        ]
        clock.tick(30 * 86400)
        cog_of(bot).scheduler.wake()
        assert bot.deliverer is not None
        await bot.deliverer.drain(all_due=True)
        await fake.wait_for(
            lambda: len(other.messages()) > 1, timeout=WAIT, what="the scheduler", on=other
        )
        again = [
            r for r in fake.requests[sent_since:] if r.path.startswith(f"/channels/{games.id}")
        ]
        assert again == tried, [r.path for r in again[len(tried) :]]
