"""Playing across time zones, through Discord: deadlines shown, reminders in the channel and by
DM, quiet hours, timeouts, away mode, nudges, /mt mygames, restarts and stalled games.

The bot's clock is the fake clock: a test moves it and runs the scheduler's tick (or lets the
running loop, woken by a move, do the work), so nothing here sleeps for real.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from bot.app import MexicanTrainBot
from bot.cogs import timing
from bot.store import GameStatus
from bot.ui.posts import PostBook
from tests.clock import FakeClock
from tests.e2e.helpers import (
    game_here,
    last_public,
    open_game,
    pick,
    said,
    slash_move,
    to_move,
)
from tests.fakediscord import WAIT, FakeChannel, FakeDiscord, FakeMessage, running_bot

HOUR = 3600


@pytest.fixture(autouse=True)
def no_pacing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(timing.ScheduleCog, "send_interval", 0)
    monkeypatch.setattr(PostBook, "flush_delay", 0.01)


async def _tick(bot: MexicanTrainBot, clock: FakeClock, seconds: float) -> None:
    clock.tick(seconds)
    await timing.cog_of(bot).scheduler.tick()


def _text(message: FakeMessage) -> str:
    parts = [message.text] + [str(e.get("description") or "") for e in message.embeds]
    return "\n".join(parts)


async def _wait_for_text(
    fake: FakeDiscord, channel: FakeChannel, needle: str, *, after: int = 0
) -> FakeMessage:
    def found() -> FakeMessage | None:
        return next((m for m in channel.messages()[after:] if needle in _text(m)), None)

    return await fake.wait_for(found, timeout=WAIT, what=repr(needle))


async def test_deadline_reminder_then_timeout_in_the_channel(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot], clock: FakeClock
) -> None:
    fake = fake_discord
    bot = make_bot()
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="quick", deadline_hours=24)
        table = last_public(games)
        # Each reader sees the deadline in their own zone: relative, and as a date and time.
        assert re.search(r"Play by <t:(\d+):R> \(<t:\1:f>\)", table.text), table.text
        uid, _ = await to_move(bot, game.id)
        status = await said(await bob.slash("mt status", channel=games))
        assert "<t:" in status.text and "the computer plays that turn" in status.text

        await _tick(bot, clock, 11 * HOUR)
        assert last_public(games) is table
        await _tick(bot, clock, HOUR)
        reminder = last_public(games)
        assert reminder.text.startswith(f"⏰ <@{uid}>, a reminder: it's your turn")
        link = f"https://discord.com/channels/{fake.guild_id}/{games.id}/{table.id}"
        assert link in reminder.text and "Play by <t:" in reminder.text

        await _tick(bot, clock, 12 * HOUR)
        posted = last_public(games)
        description = posted.told  # a card: the scheduler's move is the bot's own post
        assert posted.card
        assert re.search(r"time ran out: the computer (played \S+ on |drew and \w+)", description)
        # One line tells the turn played for them, where a tile went included: no line of
        # its own for each of its moves.
        name = "Alice" if uid == alice.id else "Bob"
        assert not [line for line in description.splitlines() if line.startswith(name)]
        assert posted.images()
        after, _ = await to_move(bot, game.id)
        assert after != uid and f"<@{after}>, it's your turn" in posted.text
        count = len(games.messages())
        await _tick(bot, clock, 60)
        assert len(games.messages()) == count  # the timeout fired once


async def test_quiet_hours_dm_reminders_and_closed_dms(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot], clock: FakeClock
) -> None:
    fake = fake_discord
    bot = make_bot()
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    async with running_bot(fake, bot):
        choices = await alice.autocomplete("mt me", focused="time_zone", time_zone="paris")
        assert "Europe/Paris" in [c["value"] for c in choices]
        refused = await said(await alice.slash("mt me", time_zone="Mars/Olympus"))
        assert "not a time zone" in refused.text
        answer = await said(
            await alice.slash(
                "mt me", time_zone="Europe/Paris", quiet_start=0, quiet_end=9, reminder_dms=True
            )
        )
        assert "Europe/Paris" in answer.text and "0:00 to 9:00" in answer.text
        assert "by DM" in answer.text
        # The clock says 12:00 UTC on March 1: the reminder falls at 00:00 UTC, 01:00 in Paris.
        game = await open_game(fake, bot, games, alice, [bob], preset="quick", deadline_hours=24)
        uid, view = await to_move(bot, game.id)
        assert uid == alice.id
        dms = len(alice.dms())
        await _tick(bot, clock, 12 * HOUR)
        assert len(alice.dms()) == dms  # asleep: it waits for 09:00 Paris (08:00 UTC)
        await _tick(bot, clock, 7 * HOUR + 55 * 60)
        assert len(alice.dms()) == dms
        await _tick(bot, clock, 5 * 60)
        dm = alice.dms()[-1]
        assert "A reminder: it's your turn in game" in dm.text and f"<#{games.id}>" in dm.text

        # Bob opts in to DMs, then closes them: the nudge falls back to the channel, and the
        # bot remembers (no retry).
        await said(await bob.slash("mt me", reminder_dms=True))
        await slash_move(alice, games, str(pick(view.legal)))
        uid, _ = await to_move(bot, game.id)
        assert uid == bob.id
        fake.close_dms(bob)
        answer = await said(await alice.slash("mt nudge", channel=games))
        assert "Nudged Bob" in answer.text
        assert last_public(games).text.startswith(f"👋 <@{bob.id}>, Alice is waiting")
        assert not (await bot.service.user_settings(bob.id)).dms_open


async def test_away_nudge_and_mygames(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot], clock: FakeClock
) -> None:
    fake = fake_discord
    bot = make_bot()
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    users = {alice.id: alice, bob.id: bob}
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="quick")
        table = last_public(games)
        assert (await to_move(bot, game.id))[0] == alice.id

        # Where is it my turn? In the server: its games; in a DM: every server.
        listing = await said(await bob.slash("mt mygames", channel=games))
        assert f"Game #{game.id} in <#{games.id}>: waiting for Alice" in listing.text
        listing = await said(await alice.slash("mt mygames"))
        assert f"**Your turn** — game #{game.id} in <#{games.id}> (" in listing.text
        assert f"/{fake.guild_id}/{games.id}/{table.id})" in listing.text

        # Nudges: once per interval per game, never your own turn.
        answer = await said(await bob.slash("mt nudge", channel=games))
        assert "Nudged Alice" in answer.text
        assert last_public(games).text.startswith(f"👋 <@{alice.id}>, Bob is waiting")
        again = await said(await bob.slash("mt nudge", channel=games))
        assert "nudged recently" in again.text and "<t:" in again.text
        own = await said(await alice.slash("mt nudge", channel=games))
        assert "your own turn" in own.text

        # Away: the waiting turn is played at once, and every turn after it, until back.
        seen = len(games.messages())
        answer = await said(await alice.slash("mt away", state="on"))
        assert "You're away" in answer.text and "1 game" in answer.text
        await _wait_for_text(fake, games, "Alice is away: the computer plays", after=seen)
        await _wait_for_text(fake, games, "Alice is away: the computer", after=seen + 1)
        status = await said(await bob.slash("mt status", channel=games))
        assert "Away: Alice" in status.text
        for _ in range(2):
            current = await game_here(bot, games)
            if current.status is not GameStatus.ACTIVE:
                break
            uid, view = await to_move(bot, game.id)
            assert uid == bob.id  # Alice's turns never wait
            # Time passes between turns: a turn is known by when it began, and Bob's next turn
            # (after Alice's, played for her in his post) must not look like this one.
            clock.tick(60)
            seen = len(games.messages())
            await slash_move(users[uid], games, str(pick(view.legal)))
            if (await bot.service.game(game.id)).status is GameStatus.ACTIVE:
                await _wait_for_text(fake, games, "Alice is away: the computer", after=seen)
        answer = await said(await alice.slash("mt away", state="off"))
        assert "Welcome back" in answer.text
        if (await bot.service.game(game.id)).status is GameStatus.ACTIVE:
            await _wait_for_text(fake, games, "Alice is back and plays their own turns")


async def test_an_away_players_turn_joins_the_next_present_players_post(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot], clock: FakeClock
) -> None:
    """Alice present, Bob away, one computer after him: Alice's move, Bob's turn played for
    him and the computer's move share ONE post, which mentions Alice; the scheduler then has
    nothing left to post. Bob back: his turn waits for him again."""
    fake = fake_discord
    bot = make_bot()
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], start=False, preset="standard")
        added = await said(
            await alice.select(
                last_public(games), values=["easy"], custom_id=f"mt:{game.id}:lobby:cpu"
            )
        )
        assert "Computer player added" in added.text
        await said(await alice.click(last_public(games), label="Start"))
        scheduler = timing.cog_of(bot).scheduler
        answer = await said(await bob.slash("mt away", state="on"))
        assert "You're away" in answer.text

        async def alices_turn() -> None:
            await scheduler.tick()  # Bob's turn, if it was his when he left, is played
            uid, _ = await to_move(bot, game.id)
            assert uid == alice.id  # Bob's turns never wait

        joined = 0
        for _ in range(8):
            await alices_turn()
            _, view = await to_move(bot, game.id)
            clock.tick(60)  # a turn is known by when it began: time passes between turns
            posted, bob_dms = len(games.messages()), len(bob.dms())
            await slash_move(alice, games, str(pick(view.legal)))
            await scheduler.tick()  # the scheduler finds Bob's away row gone with his turn
            await alices_turn()
            new = games.messages()[posted:]
            assert all(f"<@{bob.id}>" not in m.text for m in new)  # never "Bob, your turn"
            # Bob's hand message may be edited; he gets no new DM for a turn played for him.
            assert [m for m in bob.dms()[bob_dms:] if not m.images()] == []
            if len(new) != 1 or "Bob is away" not in _text(new[0]):
                continue  # a draw or double (Alice moves again) or a round's end on the way
            lines = _text(new[0]).splitlines()
            away = next(i for i, x in enumerate(lines) if "Bob is away: the computer" in x)
            assert lines[1].startswith("Alice ") and any(
                "(computer)" in x for x in lines[away + 1 :]
            ), lines
            assert f"<@{alice.id}>" in new[0].text and new[0].images()
            assert new[0].button_labels == ["Play", "Draw", "Pass", "My hand", "Catch me up"]
            joined += 1
            if joined == 2:
                break
        assert joined == 2
        # Nothing is left for the scheduler to post, now or later.
        count = len(games.messages())
        await _tick(bot, clock, 0)
        await _tick(bot, clock, HOUR)
        assert len(games.messages()) == count
        assert all(
            w.kind != "away" for w in await timing.cog_of(bot).schedule.rows.work_for(game.id)
        )

        # Bob is back: after Alice's move, the turn post mentions him and waits for him.
        answer = await said(await bob.slash("mt away", state="off"))
        assert "Welcome back" in answer.text
        for _ in range(8):
            uid, view = await to_move(bot, game.id)
            if uid == bob.id:
                break
            await slash_move(alice, games, str(pick(view.legal)))
        assert (await to_move(bot, game.id))[0] == bob.id
        await _tick(bot, clock, 60)
        assert (await to_move(bot, game.id))[0] == bob.id
        assert f"<@{bob.id}>" in last_public(games).text
        assert "Your turn in game" in bob.dms()[-1].text


async def test_a_game_where_everyone_is_away_plays_to_its_end_a_round_or_so_a_post(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot], clock: FakeClock
) -> None:
    """Nobody present to stop at: each announcement plays on to a second round end (never a
    whole match under one lock) and the scheduler takes the next turn, to the match's end."""
    fake = fake_discord
    bot = make_bot()
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], start=False, preset="double-9")
        await said(
            await alice.select(
                last_public(games), values=["easy"], custom_id=f"mt:{game.id}:lobby:cpu"
            )
        )
        await said(await alice.click(last_public(games), label="Start"))
        posted = len(games.messages())
        await said(await bob.slash("mt away", state="on"))
        await said(await alice.slash("mt away", state="on"))
        for _ in range(40):
            await _tick(bot, clock, 60)
            if (await bot.service.game(game.id)).status is not GameStatus.ACTIVE:
                break
        assert (await bot.service.game(game.id)).status is GameStatus.FINISHED
        posts = [m for m in games.messages()[posted:] if m.embeds or m.card]
        rounds = game.rules.rounds_total
        scored = [m for m in posts if any(f.filename == "round.png" for f in m.files)]
        assert len(scored) == rounds  # each round's end has its post
        # Hundreds of turns played for them, yet a turn post only every round or two; and
        # more than one: no announcement played the whole match.
        assert 2 <= len(posts) - len(scored) <= rounds // 2 + 2
        assert sum(_text(m).count("is away: the computer played") for m in posts) > rounds * 4


async def test_restart_sends_a_reminder_due_while_down_once(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot], clock: FakeClock
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    bot = make_bot()
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="quick", deadline_hours=24)
        table = last_public(games)
    clock.tick(13 * HOUR)  # the bot is down when the reminder falls due
    bot = make_bot()
    async with running_bot(fake, bot):
        # The loop starts once the bot is ready and finds the reminder due; the table message
        # noted before the restart (written when the bot closed) is what it links to.
        reminder = await _wait_for_text(fake, games, "a reminder: it's your turn")
        assert f"/{games.id}/{table.id})" in reminder.text
        assert (await bot.service.messages(game.id))["table"].message_id == table.id
        await timing.cog_of(bot).scheduler.tick()
    bot = make_bot()
    async with running_bot(fake, bot):
        await timing.cog_of(bot).scheduler.tick()
        reminders = [m for m in games.messages() if "a reminder" in m.text]
        assert len(reminders) == 1
        assert (await bot.service.game(game.id)).status is GameStatus.ACTIVE


async def test_server_defaults_and_a_stalled_lobby(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot], clock: FakeClock
) -> None:
    fake = fake_discord
    bot = make_bot()
    games = fake.channel("games")
    alice = fake.user("alice")
    async with running_bot(fake, bot):
        refused = await said(
            await alice.forge_slash("mt-admin settings", channel=games, stall_days=3)
        )
        assert "Manage Server" in refused.text
        answer = await said(
            await fake.owner.slash(
                "mt-admin settings",
                channel=games,
                deadline_hours=12,
                on_timeout="skip",
                stall_days=3,
            )
        )
        assert "turn deadline 12 h" in answer.text and "skipped" in answer.text
        assert "after 3 days" in answer.text
        await said(await alice.slash("mt new", channel=games, preset="quick"))
        lobby = last_public(games)
        game = await game_here(bot, games)
        assert game.options.turn_deadline is not None
        assert game.options.turn_deadline.total_seconds() == 12 * HOUR
        schedule = await timing.cog_of(bot).schedule.game_schedule(game.id)
        assert schedule.timeout_policy == "skip"

        await _tick(bot, clock, 3 * 24 * HOUR + 60)
        warning = last_public(games)
        assert f"Lobby #{game.id} has waited 3 days. <@{alice.id}>" in warning.text
        await _tick(bot, clock, 2 * 24 * HOUR + 60)
        assert "was closed: it never started" in last_public(games).text
        assert (await bot.service.game(game.id)).status is GameStatus.ABANDONED
        assert lobby.buttons == []  # the lobby message lost its Join button


async def test_a_thread_game_reminds_and_times_out_in_its_thread(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot], clock: FakeClock
) -> None:
    """The scheduler finds a game played in its own thread: the reminder and the timeout's
    move go to the thread, and the parent channel keeps only the lobby card."""
    fake = fake_discord
    bot = make_bot()
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    async with running_bot(fake, bot):
        opened = await said(
            await alice.slash(
                "mt new", channel=games, preset="quick", deadline_hours=24, thread=True
            )
        )
        assert "own thread" in opened.text
        card = last_public(games)
        (thread,) = games.threads()
        assert "joined" in (await said(await bob.click(card, label="Join"))).text
        assert "started" in (await said(await alice.click(card, label="Start"))).text
        game = await game_here(bot, thread)
        uid, _ = await to_move(bot, game.id)
        table = last_public(thread)

        await _tick(bot, clock, 12 * HOUR)
        reminder = await _wait_for_text(fake, thread, "a reminder: it's your turn")
        assert reminder.text.startswith(f"⏰ <@{uid}>")
        link = f"https://discord.com/channels/{fake.guild_id}/{thread.id}/{table.id}"
        assert link in reminder.text

        await _tick(bot, clock, 12 * HOUR)
        posted = await _wait_for_text(fake, thread, "time ran out")
        assert posted.images()
        after, _ = await to_move(bot, game.id)
        assert after != uid and f"<@{after}>, it's your turn" in posted.text
        assert games.messages() == [card]  # nothing of the turns in the parent channel
