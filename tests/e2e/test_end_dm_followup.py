"""The end-of-match DM rides on the player's own DM interaction where its token lives (issue
47): a followup of their latest click in the DM is a new message in that DM, off the bot's
global limit (docs/discord.md), where the bot's own DM is a paid ``POST
/channels/{dm}/messages``. Past the token's 15 minutes the DM is the bot's own, as before; and
a crash between the followup and the outbox's crossing-off tells nobody twice at the restart
(a followup takes no nonce: the restarted bot reads the DM for the end DM first)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from bot.app import MexicanTrainBot
from bot.service.outbox import Outbox
from bot.store import GameStatus
from tests.clock import FakeClock
from tests.e2e.helpers import dm_move, idle, live_dm, open_game, pick, said, slash_move, to_move
from tests.e2e.test_outbox import wait_paid
from tests.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser, running_bot
from tests.fakediscord import fake_discord as fake_discord_at
from tests.fakediscord.models import SUPPRESS_NOTIFICATIONS

POST = "POST /channels/{channel_id}/messages"


async def _start(
    fake: FakeDiscord, bot: MexicanTrainBot
) -> tuple[FakeChannel, dict[int, FakeUser], int]:
    games = fake.channel("games")
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    users = {u.id: u for u in (alice, bob, carol)}
    game = await open_game(fake, bot, games, alice, [bob, carol], preset="quick")
    return games, users, game.id


async def _play_out(
    bot: MexicanTrainBot,
    games: FakeChannel,
    users: dict[int, FakeUser],
    game_id: int,
    *,
    between: Callable[[], None] = lambda: None,
) -> set[int]:
    """Play the match to its end, each move from the mover's turn DM where they have one
    (``between``: called before each move); who moved from a DM."""
    by_dm: set[int] = set()
    for _ in range(600):
        now = await bot.service.game(game_id)
        if now.status is not GameStatus.ACTIVE:
            return by_dm
        between()
        uid, view = await to_move(bot, game_id)
        dm = live_dm(users[uid], now.version)
        if dm is not None:
            by_dm.add(uid)
            await dm_move(users[uid], dm, pick(view.legal))
        else:
            await slash_move(users[uid], games, str(pick(view.legal)))
    raise AssertionError("the match did not end")


def _end_dms(user: FakeUser, game_id: int) -> list[FakeMessage]:
    review = f"mt:{game_id}:review"
    return [m for m in user.dms() if any(b.get("custom_id") == review for b in m.buttons)]


def _paid_end_dms(fake: FakeDiscord, user: FakeUser, game_id: int) -> int:
    """Requests that sent ``user`` an end DM with the bot token (Create Message)."""
    assert user.dm_channel is not None
    path = f"/channels/{user.dm_channel.id}/messages"
    review = f"mt:{game_id}:review"
    return len([r for r in fake.requests_to(POST) if r.path == path and review in str(r.body)])


async def test_the_end_dm_is_a_followup_of_the_players_live_dm_click(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot], clock: FakeClock
) -> None:
    fake = fake_discord
    bot = make_bot()
    async with running_bot(fake, bot):
        games, users, game_id = await _start(fake, bot)
        carol = next(u for u in users.values() if u.name == "carol")
        # Carol is in her quiet hours: her end DM comes silently, as the bot's own DM did.
        quiet = {"quiet_start": clock.now.hour, "quiet_end": (clock.now.hour + 2) % 24}
        await said(await carol.slash("mt me", channel=games, time_zone="UTC", **quiet))
        by_dm = await _play_out(bot, games, users, game_id)
        await idle(fake)
        assert len(by_dm) >= 2 and carol.id in by_dm
        for uid in by_dm:
            user = users[uid]
            [end] = _end_dms(user, game_id)
            # A followup of their click: a public message of the application in their DM.
            assert end.webhook_id == fake.application_id and not end.ephemeral
            assert end.channel_id == user.dm_channel.id  # type: ignore[union-attr]
            assert f"Game #{game_id}" in end.text and "Final standings" in end.text
            assert end.button_labels == ["Review my match"]
            assert _paid_end_dms(fake, user, game_id) == 0
            # It is their one notification of the end, as the bot's own DM was (none in
            # their quiet hours: sent with SUPPRESS_NOTIFICATIONS).
            pinged = [p.how for p in fake.pings_for(user) if p.message_id == end.id]
            assert pinged == ([] if user is carol else ["dm"]), user.name
            assert bool(end.flags & SUPPRESS_NOTIFICATIONS) is (user is carol)
        assert await bot.service.outbox.owed(game_id) is None


async def test_past_the_tokens_15_minutes_the_end_dm_is_the_bots_own(
    clock: FakeClock, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    async with fake_discord_at(clock=clock) as fake:
        bot = make_bot()

        def twenty_minutes() -> None:  # every move 20 minutes after the one before
            clock.tick(20 * 60)
            fake.after_advance()

        async with running_bot(fake, bot):
            games, users, game_id = await _start(fake, bot)
            await _play_out(bot, games, users, game_id, between=twenty_minutes)
            await idle(fake)
            paid = followed = 0
            for user in users.values():
                [end] = _end_dms(user, game_id)
                if end.webhook_id is None:
                    paid += 1
                    assert _paid_end_dms(fake, user, game_id) == 1
                else:  # only the last mover's own click lives: it made the end
                    followed += 1
            assert paid >= 2 and followed <= 1
            # Nothing was refused: no followup was tried on a dead token.
            assert [r for r in fake.requests if r.status >= 400 and r.status != 429] == []


async def test_a_crash_after_the_followup_tells_nobody_twice_at_restart(
    fake_discord: FakeDiscord,
    make_bot: Callable[[], MexicanTrainBot],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = fake_discord
    bot = make_bot()
    crossed: list[tuple[int, ...]] = []

    async def killed(self: Outbox, game_id: int, user_ids: tuple[int, ...]) -> None:
        crossed.append(user_ids)
        raise asyncio.CancelledError  # the process dies: told, but not crossed off

    async with running_bot(fake, bot):
        games, users, game_id = await _start(fake, bot)
        monkeypatch.setattr(Outbox, "told_end", killed)
        await _play_out(bot, games, users, game_id)
        await idle(fake)
        assert len(crossed) == 1  # the first told, nobody crossed off
        [first] = crossed[0]
        [end] = _end_dms(users[first], game_id)
        assert end.webhook_id == fake.application_id  # by followup: no nonce guards it
        debt = await bot.service.outbox.owed(game_id)
        assert debt is not None and first in debt.end_users
    monkeypatch.undo()

    bot = make_bot()
    async with running_bot(fake, bot):
        await wait_paid(bot, game_id)
        await idle(fake)
        for user in users.values():
            assert len(_end_dms(user, game_id)) == 1, user.name
        # The one told before the crash: the DM was read, not written to again.
        assert _paid_end_dms(fake, users[first], game_id) == 0
