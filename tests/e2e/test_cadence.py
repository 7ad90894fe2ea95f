"""Issue 46, item 6: each player's own cadence, through Discord. ``/mt me remind_after:`` (the
reminder interval, stored since migration 5 but not offered) and the daily digest (``digest:``,
``digest_hour:``): one DM a day at the player's hour listing every game waiting on them,
instead of a DM per turn; once a day, even across a crash between the DM and its record.

The bot's clock is the fake clock (12:00 UTC on 1 March 2025): a test moves it and runs the
scheduler's tick, so nothing here sleeps for real.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime

import pytest

from bot.app import MexicanTrainBot
from bot.cogs import timing
from bot.service.daily import DailyDigests
from bot.ui.posts import PostBook
from tests.clock import FakeClock
from tests.e2e.helpers import game_here, last_public, open_game, play_until, said, to_move
from tests.fakediscord import FakeChannel, FakeDiscord, FakeUser, running_bot

HOUR = 3600


@pytest.fixture(autouse=True)
def no_pacing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(timing.ScheduleCog, "send_interval", 0)
    monkeypatch.setattr(PostBook, "flush_delay", 0.01)


async def _tick(bot: MexicanTrainBot, clock: FakeClock, seconds: float) -> None:
    clock.tick(seconds)
    await timing.cog_of(bot).scheduler.tick()


async def _until(bot: MexicanTrainBot, clock: FakeClock, when: datetime) -> None:
    await _tick(bot, clock, (when - clock.now).total_seconds())


async def _alice_to_move(
    bot: MexicanTrainBot, channel: FakeChannel, users: dict[int, FakeUser], alice: FakeUser
) -> None:
    await play_until(bot, channel, users, lambda user, _v, _dm: user is alice)


async def test_daily_digest_once_a_day_at_the_players_hour_instead_of_a_dm_per_turn(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot], clock: FakeClock
) -> None:
    fake = fake_discord
    bot = make_bot()
    one, two = fake.channel("one"), fake.channel("two")
    alice, bob = fake.user("alice"), fake.user("bob")
    users = {alice.id: alice, bob.id: bob}
    async with running_bot(fake, bot):
        answer = await said(await alice.slash("mt me", time_zone="Europe/Paris", digest_hour=9))
        # Paris is UTC+1 in March: 09:00 there is 08:00 UTC, tomorrow.
        due = datetime(2025, 3, 2, 8, tzinfo=UTC)
        assert "one daily digest by DM at 9:00 your time (Europe/Paris)" in answer.content
        assert f"<t:{int(due.timestamp())}:R>" in answer.content
        assert (
            "no DM nor reminder per turn" in answer.content and "Reminders: off" in answer.content
        )

        first = await open_game(fake, bot, one, bob, [alice], preset="quick")
        second = await open_game(fake, bot, two, bob, [alice], preset="quick")
        dms, pings = len(alice.dms()), len(fake.pings_for(alice))
        await _alice_to_move(bot, one, users, alice)
        await _alice_to_move(bot, two, users, alice)
        # Her turns came in both games: no turn DM, and the posts name her without a ping.
        assert len(alice.dms()) == dms and len(fake.pings_for(alice)) == pings
        assert f"<@{alice.id}>" in last_public(one).content

        # No reminder either (the digest is her one DM a day), however long she waits.
        await _until(bot, clock, due.replace(hour=7, minute=59))
        assert len(alice.dms()) == dms and len(fake.pings_for(alice)) == pings
        assert "reminder" not in last_public(one).content

        await _tick(bot, clock, 60)  # 09:00 in Paris
        assert len(alice.dms()) == dms + 1
        digest = alice.dms()[-1]
        text = digest.content
        assert text.startswith("📬 Your daily digest: 2 games are waiting on you."), text
        for game, channel in ((first, one), (second, two)):
            link = rf"\[Game #{game.id}\]\(https://discord\.com/channels/{fake.guild_id}/"
            assert re.search(link + rf"{channel.id}/{last_public(channel).id}\)", text), text
        assert "One digest a day at 9:00 (Europe/Paris)" in text
        assert len(fake.pings_for(alice)) == pings + 1  # the digest is her one ping

        await _tick(bot, clock, 60)
        await _tick(bot, clock, 12 * HOUR)
        assert len(alice.dms()) == dms + 1  # once a day, not once a tick
        await _until(bot, clock, datetime(2025, 3, 3, 8, tzinfo=UTC))
        assert len(alice.dms()) == dms + 2  # the next day at her hour, still waiting on her
        # Back to a DM per turn: her settings say so, and her next digest is gone.
        back = await said(await alice.slash("mt me", digest=False))
        assert "Your turns: one ping per turn" in back.content
        mine = await bot.schedule.my_settings(alice.id)
        assert mine.schedule.digest_hour is None and mine.schedule.digest_due_at is None


async def test_a_crash_between_the_digest_and_its_record_sends_it_once(
    fake_discord: FakeDiscord,
    make_bot: Callable[[], MexicanTrainBot],
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    users = {alice.id: alice, bob.id: bob}
    bot = make_bot()
    async with running_bot(fake, bot):
        await said(await alice.slash("mt me", digest=True))  # 18:00 UTC, her zone's default
        await open_game(fake, bot, games, bob, [alice], preset="quick")
        await _alice_to_move(bot, games, users, alice)
        dms = len(alice.dms())

        async def crashed(*_args: object) -> None:
            return None  # the process died after the DM, before its record

        monkeypatch.setattr(DailyDigests, "sent", crashed)
        await _until(bot, clock, datetime(2025, 3, 1, 18, tzinfo=UTC))
        assert len(alice.dms()) == dms + 1
    monkeypatch.undo()
    restarted = make_bot()
    async with running_bot(fake, restarted):
        await timing.cog_of(restarted).scheduler.tick()
        # Sent again with the same nonce: Discord answers with the first DM, no second one.
        assert len(alice.dms()) == dms + 1 and fake.nonce_repeats == 1
        mine = await restarted.schedule.my_settings(alice.id)
        assert mine.schedule.digest_due_at == datetime(2025, 3, 2, 18, tzinfo=UTC)
        game = await game_here(restarted, games)
        assert (await to_move(restarted, game.id))[0] == alice.id


async def test_the_reminder_interval_is_the_players(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot], clock: FakeClock
) -> None:
    fake = fake_discord
    bot = make_bot()
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    users = {alice.id: alice, bob.id: bob}
    async with running_bot(fake, bot):
        answer = await said(await alice.slash("mt me", remind_after="2"))
        assert (
            "Reminders: a mention in the channel, 2 h into a turn without a deadline"
            in answer.content
        )
        await open_game(fake, bot, games, bob, [alice], preset="quick")
        await _alice_to_move(bot, games, users, alice)
        count = len(games.messages())
        await _tick(bot, clock, 2 * HOUR - 60)
        assert len(games.messages()) == count
        await _tick(bot, clock, 60)
        reminder = last_public(games)
        assert reminder.content.startswith(f"⏰ <@{alice.id}>, a reminder: it's your turn")

        # Never: reminders off, and said so.
        answer = await said(await alice.slash("mt me", remind_after="never"))
        assert "Reminders: off" in answer.content
        assert not (await bot.service.user_settings(alice.id)).reminders


async def test_bad_cadence_input_is_answered_and_changes_nothing(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    alice = fake.user("alice")
    async with running_bot(fake, bot):
        before = await bot.schedule.my_settings(alice.id)
        refused = await said(
            await alice.slash("mt me", digest=False, digest_hour=9, tiles="numerals")
        )
        assert "You chose a digest hour and switched the digest off" in refused.content
        refused = await said(await alice.slash("mt me", reminders=True, remind_after="never"))
        assert "reminders:True and remind_after:never disagree" in refused.content
        refused = await said(await alice.slash("mt me", dms=False, digest=True))
        assert "The daily digest is a DM, and your DMs from the bot are off" in refused.content
        assert await bot.schedule.my_settings(alice.id) == before


async def test_french_cadence(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot], clock: FakeClock
) -> None:
    fake = fake_discord
    bot = make_bot()
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    users = {alice.id: alice, bob.id: bob}
    async with running_bot(fake, bot):
        await open_game(fake, bot, games, bob, [alice], preset="quick")
        alice.locale = "fr"
        answer = await said(
            await alice.slash("mt me", language="fr", digest_hour=20, remind_after="6")
        )
        assert "un résumé par jour en MP à 20 h chez toi (UTC)" in answer.content, answer.content
        await _alice_to_move(bot, games, users, alice)
        dms = len(alice.dms())
        await _until(bot, clock, datetime(2025, 3, 1, 20, tzinfo=UTC))
        assert len(alice.dms()) == dms + 1
        text = alice.dms()[-1].content
        assert text.startswith("📬 Ton résumé du jour : 1 partie t'attend."), text
        assert "Un résumé par jour à 20 h (UTC)" in text
