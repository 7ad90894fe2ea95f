"""Nothing a player needs is lost (issue 37): what a committed move owes is kept with it.

The bot "dies" the instant the mover's ✅ is sent (the announcer's next step never runs), then
a new bot starts on the same database file: the move's post must appear once, the next player
be pinged once, and a further restart post nothing more. A DM refused with a 503 is retried by
the outbox; one that keeps failing becomes a mention. The fake honours ``enforce_nonce``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from bot.app import MexicanTrainBot
from bot.engine import Play, SeatView
from bot.service.turn import Turns
from bot.ui import announcer
from bot.ui.route import DM_TRIES
from tests.e2e.helpers import idle, open_game, pick, to_move, type_move
from tests.fakediscord import (
    WAIT,
    FakeChannel,
    FakeDiscord,
    FakeMessage,
    FakeUser,
    running_bot,
)

DM_ROUTE = "/channels/{channel_id}/messages"


def posts_of(channel: FakeChannel, game_id: int) -> list[FakeMessage]:
    """The bot's game posts in the channel (those with the game's table embed)."""
    return [
        m
        for m in channel.messages()
        if any(f"#{game_id}" in str(e.get("title", "")) for e in m.embeds)
    ]


def text_of(message: FakeMessage) -> str:
    return message.content + "\n" + "\n".join(str(e.get("description", "")) for e in message.embeds)


async def die_after_the_answer(monkeypatch: pytest.MonkeyPatch) -> asyncio.Event:
    """Make the announcer stop dead right after the actor's answer (step 1), as a process
    killed at that instant would: nothing after it runs. Returns an event set when it did."""
    died = asyncio.Event()

    async def killed(*args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        died.set()
        raise asyncio.CancelledError  # the task ends here, like the process would
        yield  # an async generator, as the step it replaces

    # Step 2 of the turn cycle: the turns nobody present takes (bot.service.turn).
    monkeypatch.setattr(Turns, "until_human", killed)
    return died


async def test_a_crash_after_the_commit_is_announced_once_at_restart(
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
        mover = users[uid]
        other = bob if mover is alice else alice
        before = len(posts_of(room, game.id))
        pings_before = len(fake.pings_for(other))
        died = await die_after_the_answer(monkeypatch)
        move = pick(view.legal)
        answer = await (await type_move(mover, room, str(move))).message()
        await asyncio.wait_for(died.wait(), 10)
        assert answer.content.startswith("✅"), answer.content
        # The move is committed, but nothing told the channel or the next player.
        assert (await bot.service.game(game.id)).version > game.version
        assert len(posts_of(room, game.id)) == before
        assert len(fake.pings_for(other)) == pings_before
        owed = await bot.service.outbox.owed(game.id)
        assert owed is not None and owed.post_owed and owed.ping_user == other.id
    monkeypatch.undo()

    bot = make_bot()  # a new process on the same file: it pays what was owed
    async with running_bot(fake, bot):
        await wait_paid(bot, game.id)
        await idle(fake)
        new = posts_of(room, game.id)[before:]
        assert len(new) == 1, [text_of(m) for m in new]
        if isinstance(move, Play):  # (pick() prefers tiles: the quick deal always has one)
            assert str(move.tile) in text_of(new[0])
        assert len(fake.pings_for(other)) == pings_before + 1
        assert fake.pings_for(other)[-1].how in ("dm", "mention")

    bot = make_bot()  # and once paid, a restart owes nothing more
    async with running_bot(fake, bot):
        assert bot.deliverer is not None
        assert await bot.deliverer.drain(all_due=True) == 0  # counted, not slept on
        await idle(fake)
        assert await bot.service.outbox.owed(game.id) is None
        assert len(posts_of(room, game.id)) == before + 1
        assert len(fake.pings_for(other)) == pings_before + 1


async def wait_paid(bot: MexicanTrainBot, game_id: int, timeout: float = WAIT) -> None:
    """Until the restarted bot's deliverer has paid the game's debt (a generous wall-clock
    bound: under load a restart and its start-up drain take seconds)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while await bot.service.outbox.owed(game_id) is not None:
        assert loop.time() < deadline, "the outbox was never paid"
        await asyncio.sleep(0.02)


async def test_a_turn_dm_refused_with_503_is_retried(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    room = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    users: dict[int, FakeUser] = {u.id: u for u in (alice, bob)}
    bot = make_bot()
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, room, alice, [bob], preset="quick")
        uid, view = await to_move(bot, game.id)
        other = bob if users[uid] is alice else alice
        dms = len([p for p in fake.pings_for(other) if p.how == "dm"])
        fake.fail_next("POST", DM_ROUTE, times=1)  # the next channel post: the turn DM
        await (await type_move(users[uid], room, str(pick(view.legal)))).message()
        await idle(fake)
        # The table was posted through the interaction; the DM (a channel message) failed.
        owed = await bot.service.outbox.owed(game.id)
        assert owed is not None and not owed.post_owed and owed.ping_user == other.id
        assert bot.deliverer is not None
        # Its retry comes at the backoff's time (the fake clock decides; no sleeping).
        assert await bot.deliverer.drain() == 0
        await bot.deliverer.drain(all_due=True)
        await idle(fake)
        assert await bot.service.outbox.owed(game.id) is None
        assert len([p for p in fake.pings_for(other) if p.how == "dm"]) == dms + 1


async def test_the_fake_honours_enforce_nonce(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    room = fake.channel("games")
    bot = make_bot()
    async with running_bot(fake, bot):
        channel = bot.get_partial_messageable(room.id)
        first = await channel.send("hello", nonce="mt1.2.0")
        again = await channel.send("hello again", nonce="mt1.2.0")
        other = await channel.send("other", nonce="mt1.3.0")
    assert first.id == again.id != other.id
    assert [m.content for m in room.messages()] == ["hello", "other"]
    assert fake.nonce_repeats == 1


async def test_a_dm_that_keeps_failing_becomes_a_mention(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    room = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    users: dict[int, FakeUser] = {u.id: u for u in (alice, bob)}
    bot = make_bot()
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, room, alice, [bob], preset="quick")
        uid, view = await to_move(bot, game.id)
        other = bob if users[uid] is alice else alice
        pings = len(fake.pings_for(other))
        fake.fail_next("POST", DM_ROUTE, times=1 + DM_TRIES)  # the live try and DM_TRIES more
        await (await type_move(users[uid], room, str(pick(view.legal)))).message()
        await idle(fake)
        assert bot.deliverer is not None
        for _ in range(DM_TRIES):
            await bot.deliverer.drain(all_due=True)
            assert len(fake.pings_for(other)) == pings  # still failing, nothing reached them
        await bot.deliverer.drain(all_due=True)
        await idle(fake)
        assert fake.faults_served == 1 + DM_TRIES
        assert await bot.service.outbox.owed(game.id) is None
        got = fake.pings_for(other)[pings:]
        assert [p.how for p in got] == ["mention"]
        assert "your turn" in fake.messages[got[0].message_id].content


async def test_a_crash_after_the_post_pings_nobody_twice(
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
        other = bob if users[uid] is alice else alice

        async def killed(*args: Any, **kwargs: Any) -> None:
            # The announcer dies after its post and ping, before clearing.
            raise asyncio.CancelledError

        monkeypatch.setattr(announcer, "settle", killed)
        await (await type_move(users[uid], room, str(pick(view.legal)))).message()
        await idle(fake)
        posts, pings = len(posts_of(room, game.id)), len(fake.pings_for(other))
        assert await bot.service.outbox.owed(game.id) is not None
    monkeypatch.undo()

    bot = make_bot()
    async with running_bot(fake, bot):
        await wait_paid(bot, game.id)
        await idle(fake)
        assert len(posts_of(room, game.id)) == posts  # the post was found in the channel
        assert len(fake.pings_for(other)) == pings  # a DM again is the same nonce: no new one


def stuck_double(view: SeatView) -> Play | None:
    """A double the player can play with nothing in hand to play on it: they move again, and
    the only move left to them is a forced draw (played for them by autoplay)."""
    for move in view.legal:
        if isinstance(move, Play) and move.tile.is_double:
            pip = move.tile[0]
            rest = [t for t in view.hand or () if t != move.tile]
            if not any(pip in t for t in rest):
                return move
    return None


async def forced_only(bot: MexicanTrainBot, users: dict[int, Any]) -> None:
    """Both players on ``autoplay: forced`` (the default before issue 46), so seed 3's deal
    brings the stuck double these tests are about: a forced draw played for its mover."""
    for uid in users:
        await bot.service.update_user_settings(uid, bot.now(), autoplay="forced")


async def test_a_turn_played_for_the_mover_after_a_crash_pings_them(
    fake_discord: FakeDiscord,
    make_bot: Callable[..., MexicanTrainBot],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A double with nothing to play on it, and a crash right after its ✅: the mover moves
    again, so the commit owes nobody a ping. The restarted bot plays the forced draw (and
    pass, and the turns after it) for them; whoever is then to move — the mover included,
    who saw only their double's ✅ — is pinged once (kill_outbox --at-end 2, seed 1). Seed 3's
    deal brings the turn back to the mover: without the fix, nobody was pinged."""
    fake = fake_discord
    room = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    users = {u.id: u for u in (alice, bob)}
    bot = make_bot(3)
    async with running_bot(fake, bot):
        await forced_only(bot, users)
        game = await open_game(fake, bot, room, alice, [bob], preset="quick")
        for _ in range(300):
            uid, view = await to_move(bot, game.id)
            double = stuck_double(view)
            if double is not None:
                break
            answer = await (await type_move(users[uid], room, str(pick(view.legal)))).message()
            assert answer.content.startswith("✅"), answer.content
            await wait_paid(bot, game.id)
            await idle(fake)
        else:
            pytest.fail("no stuck double came")
        pings_before = {u: len(fake.pings_for(users[u])) for u in users}
        died = await die_after_the_answer(monkeypatch)
        answer = await (await type_move(users[uid], room, str(double))).message()
        await asyncio.wait_for(died.wait(), 10)
        assert answer.content.startswith("✅"), answer.content
        owed = await bot.service.outbox.owed(game.id)
        assert owed is not None and owed.ping_user is None  # the mover moves again
    monkeypatch.undo()

    bot = make_bot(3)
    async with running_bot(fake, bot):
        await wait_paid(bot, game.id)
        await idle(fake)
        now = await bot.service.game(game.id)
        assert now.turn is not None and now.turn.user_id is not None
        to_ping = now.turn.user_id
        got = {u: len(fake.pings_for(users[u])) - pings_before[u] for u in users}
        assert got == {u: int(u == to_ping) for u in users}, (uid, to_ping, got)


async def test_a_turn_dm_sent_again_after_the_version_moved_pings_once(
    fake_discord: FakeDiscord,
    make_bot: Callable[[], MexicanTrainBot],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 50: the turn DM went out, the process died before clearing it, and the game's
    version moved before the debt was paid (the mover left: a computer took the seat; the
    turn is still the same player's). The restarted bot sends the DM again: it names the
    turn, not the version, so Discord answers it with the first and the player is pinged
    once. With the version in the nonce they were pinged twice for one turn."""
    fake = fake_discord
    room = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    users = {u.id: u for u in (alice, bob)}
    bot = make_bot()
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, room, alice, [bob], preset="quick")
        uid, view = await to_move(bot, game.id)
        mover = users[uid]
        other = bob if mover is alice else alice

        async def killed(*args: Any, **kwargs: Any) -> None:
            raise asyncio.CancelledError  # dies after the post and the DM, before clearing

        monkeypatch.setattr(announcer, "settle", killed)
        await (await type_move(mover, room, str(pick(view.legal)))).message()
        await idle(fake)
        monkeypatch.undo()
        dms = [p for p in fake.pings_for(other) if p.how == "dm"]
        assert dms, "the player to move was told by DM"
        before = (await bot.service.game(game.id)).version
        # The version moves, the turn stays: the mover leaves (no announcement: dead).
        await bot.service.leave(game.id, mover.id, bot.now(), computer_moves=0)
        now = await bot.service.game(game.id)
        assert now.version > before and now.turn is not None and now.turn.user_id == other.id
        owed = await bot.service.outbox.owed(game.id)
        assert owed is not None and owed.ping_user == other.id

    bot = make_bot()  # the restart pays the debt: the post, and the DM once more
    async with running_bot(fake, bot):
        await wait_paid(bot, game.id)
        await idle(fake)
        assert [p for p in fake.pings_for(other) if p.how == "dm"] == dms
        assert fake.nonce_repeats >= 1  # Discord answered the DM sent again with the first


async def test_a_turn_back_to_the_mover_told_with_their_answer_is_not_pinged_after_a_crash(
    fake_discord: FakeDiscord,
    make_bot: Callable[..., MexicanTrainBot],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 50: a stuck double, then the draw played for its mover (no choice) leaves them to
    move: the live path pings nobody (they are looking: their answer and the post tell it, as
    for any mover who moves again). The process dies after that, before clearing; the draw's
    commit owed the ping of whoever was then to move (it was made by nobody). The restarted
    bot must not DM the mover: kill_outbox counted it as a ping too many."""
    fake = fake_discord
    room = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    users = {u.id: u for u in (alice, bob)}
    bot = make_bot(3)
    async with running_bot(fake, bot):
        await forced_only(bot, users)
        game = await open_game(fake, bot, room, alice, [bob], preset="quick")
        for _ in range(300):
            uid, view = await to_move(bot, game.id)
            double = stuck_double(view)
            if double is not None:
                break
            answer = await (await type_move(users[uid], room, str(pick(view.legal)))).message()
            assert answer.content.startswith("✅"), answer.content
            await wait_paid(bot, game.id)
            await idle(fake)
        else:
            pytest.fail("no stuck double came")
        pings_before = {u: len(fake.pings_for(users[u])) for u in users}

        async def killed(*args: Any, **kwargs: Any) -> None:
            raise asyncio.CancelledError  # dies after the post and the hand, before clearing

        monkeypatch.setattr(announcer, "settle", killed)
        inv = await type_move(users[uid], room, str(double))
        await inv.message()
        await idle(fake)
        monkeypatch.undo()
        now = await bot.service.game(game.id)
        assert now.turn is not None and now.turn.user_id == uid  # the draw left them to move
        owed = await bot.service.outbox.owed(game.id)
        assert owed is not None and owed.ping_user == uid  # owed by the draw made by nobody

    bot = make_bot(3)
    async with running_bot(fake, bot):
        await wait_paid(bot, game.id)
        await idle(fake)
        got = {u: len(fake.pings_for(users[u])) - pings_before[u] for u in users}
        assert got == {u: 0 for u in users}, (uid, got)
