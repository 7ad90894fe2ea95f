"""The outbox's last two gaps (issue 37): an undo and the end of a match are owed like a move.

A crash right after the undo's answer: the restarted bot posts the undo once (its words, the
table again) and pings the player to move once. A crash at a match's end after one player's
end DM and before the others': the restarted bot tells the rest, and the one already told is
not told again (the DM's nonce). An end DM that keeps failing with a 5xx is retried and then
becomes a mention. Each time, a further restart owes nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from bot.app import MexicanTrainBot
from bot.service.outbox import OutboxStore
from bot.store import GameStatus
from bot.ui.route import DM_TRIES
from tests.e2e.helpers import (
    game_here,
    idle,
    last_public,
    open_game,
    pick,
    said,
    slash_move,
    to_move,
)
from tests.e2e.test_outbox import DM_ROUTE, die_after_the_answer, posts_of, text_of, wait_paid
from tests.fakediscord import FakeChannel, FakeDiscord, FakeUser, running_bot


async def test_a_crash_after_an_undo_is_announced_once_at_restart(
    fake_discord: FakeDiscord,
    make_bot: Callable[[], MexicanTrainBot],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = fake_discord
    room = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    users = {u.id: u for u in (alice, bob)}
    bot = make_bot()
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, room, alice, [bob], preset="quick")
        uid, view = await to_move(bot, game.id)
        while uid != bob.id:  # to Bob's turn; he plays, and Alice (the host) takes it back
            await slash_move(users[uid], room, str(pick(view.legal)))
            uid, view = await to_move(bot, game.id)
        await slash_move(bob, room, str(pick(view.legal)))
        before, pings_before = len(posts_of(room, game.id)), len(fake.pings_for(bob))
        died = await die_after_the_answer(monkeypatch)
        answer = await (await alice.slash("mt undo", channel=room)).message()
        await asyncio.wait_for(died.wait(), 10)
        assert answer.text.startswith("Undone: "), answer.text
        # The undo is committed, but neither the channel nor Bob heard of it.
        now = await bot.service.game(game.id)
        assert now.turn is not None and now.turn.user_id == bob.id
        assert len(posts_of(room, game.id)) == before
        assert len(fake.pings_for(bob)) == pings_before
        owed = await bot.service.outbox.owed(game.id)
        assert owed is not None and owed.post_owed and owed.ping_user == bob.id
    monkeypatch.undo()

    bot = make_bot()  # a new process on the same file: it pays what the undo owed
    async with running_bot(fake, bot):
        await wait_paid(bot, game.id)
        await idle(fake)
        new = posts_of(room, game.id)[before:]
        assert len(new) == 1, [text_of(m) for m in new]
        assert "Alice took back Bob's turn (" in text_of(new[0])
        assert len(fake.pings_for(bob)) == pings_before + 1

    bot = make_bot()  # once paid, a restart owes nothing more
    async with running_bot(fake, bot):
        assert bot.deliverer is not None
        assert await bot.deliverer.drain(all_due=True) == 0
        await idle(fake)
        assert await bot.service.outbox.owed(game.id) is None
        assert len(posts_of(room, game.id)) == before + 1
        assert len(fake.pings_for(bob)) == pings_before + 1


async def test_a_crash_between_the_end_dms_tells_each_player_once(
    fake_discord: FakeDiscord,
    make_bot: Callable[[], MexicanTrainBot],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = fake_discord
    room = fake.channel("games")
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    users = {u.id: u for u in (alice, bob, carol)}
    bot = make_bot()
    async with running_bot(fake, bot):
        await said(await bob.slash("mt me", channel=room, ping="mention"))
        game = await open_game(fake, bot, room, alice, [bob, carol], preset="quick")
        crossed: list[tuple[int, ...]] = []

        async def dies(self: OutboxStore, game_id: int, user_ids: tuple[int, ...]) -> None:
            crossed.append(user_ids)  # the first player told; the process dies before the note
            raise asyncio.CancelledError

        monkeypatch.setattr(OutboxStore, "told_end", dies)
        pings = await play_to_the_end_here(fake, bot, room, game.id, users)
        await idle(fake)
        assert len(crossed) == 1
        told_first = {uid for uid in users if len(fake.pings_for(users[uid])) > pings[uid]}
        assert told_first == set(crossed[0]), (told_first, crossed)
        owed = await bot.service.outbox.owed(game.id)
        assert owed is not None and set(owed.end_users) == set(users)
        repeats = fake.nonce_repeats
    monkeypatch.undo()

    bot = make_bot()  # the restart tells the others; the one told already, not again
    async with running_bot(fake, bot):
        await wait_paid(bot, game.id)
        await idle(fake)
        got = {uid: [p.how for p in fake.pings_for(u)[pings[uid] :]] for uid, u in users.items()}
        assert got == {alice.id: ["dm"], bob.id: ["mention"], carol.id: ["dm"]}, got
        # The DM sent before the crash is found in the player's DM (its Review button) before
        # anything is sent (issue 47: an end DM may have gone as a followup, which takes no
        # nonce): not sent again, not even as a repeat of its nonce.
        assert fake.nonce_repeats == repeats

    bot = make_bot()
    async with running_bot(fake, bot):
        assert bot.deliverer is not None
        assert await bot.deliverer.drain(all_due=True) == 0
        await idle(fake)
        assert await bot.service.outbox.owed(game.id) is None
        told = {uid: len(fake.pings_for(u)) - pings[uid] for uid, u in users.items()}
        assert told == dict.fromkeys(users, 1)


async def play_to_the_end_here(
    fake: FakeDiscord,
    bot: MexicanTrainBot,
    room: FakeChannel,
    game_id: int,
    users: dict[int, FakeUser],
) -> dict[int, int]:
    """Every human plays until the match is over; each user's pings before the last move."""
    pings = dict.fromkeys(users, 0)
    for _ in range(400):
        if (await bot.service.game(game_id)).status is not GameStatus.ACTIVE:
            return pings
        pings = {uid: len(fake.pings_for(u)) for uid, u in users.items()}
        uid, view = await to_move(bot, game_id)
        await slash_move(users[uid], room, str(pick(view.legal)))
    raise AssertionError("the match did not end")


async def test_an_end_dm_that_keeps_failing_becomes_a_mention(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    room = fake.channel("games")
    alice = fake.user("alice")
    bot = make_bot()
    async with running_bot(fake, bot):
        # Alice plays a computer: every post rides on her moves' interactions, and nobody
        # else is told by DM, so the only channel message sent by REST is her end DM. It
        # fails (a 503) at the live try and at DM_TRIES retries.
        await open_game(fake, bot, room, alice, [], start=False, preset="quick")
        await said(await alice.slash("mt computer", channel=room, level="easy"))
        await said(await alice.click(last_public(room), label="Start"))
        game = await game_here(bot, room)
        fake.fail_next("POST", DM_ROUTE, times=1 + DM_TRIES)
        pings = await play_to_the_end_here(fake, bot, room, game.id, {alice.id: alice})
        await idle(fake)
        assert fake.faults_served == 1
        owed = await bot.service.outbox.owed(game.id)
        assert owed is not None and owed.end_users == (alice.id,) and not owed.post_owed
        assert bot.deliverer is not None
        for _ in range(DM_TRIES):
            await bot.deliverer.drain(all_due=True)
            assert len(fake.pings_for(alice)) == pings[alice.id]  # still failing
        await bot.deliverer.drain(all_due=True)
        await idle(fake)
        assert fake.faults_served == 1 + DM_TRIES
        assert await bot.service.outbox.owed(game.id) is None
        got = fake.pings_for(alice)[pings[alice.id] :]
        assert [p.how for p in got] == ["mention"]
        assert f"🏁 Game #{game.id} is over." in fake.messages[got[0].message_id].text
