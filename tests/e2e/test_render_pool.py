"""The render pool wired into the bot, seen where players see it: the table messages and
hand DMs in the fake Discord.

Worker processes are started before the bot takes an interaction and draw the same pictures
as the bot's own process would; a killed worker is replaced and the next move still posts
its picture; a picture that cannot be made leaves the move's post with its lines and the
table as text; a channel's table that a newer one replaced before it was drawn is posted
with its lines but no stale picture; an unchanged hand is not drawn again.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any

import pytest

from bot.app import MexicanTrainBot
from bot.drawing import jobs
from bot.service import Outcome
from bot.ui import announcer
from bot.ui.alt_text import describe_hand, describe_table
from bot.ui.pictures import hand_png, table_png
from tests.clock import FakeClock
from tests.e2e.helpers import idle, last_public, open_game, pick, said, slash_move, to_move
from tests.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser, running_bot

MakeBot = Callable[..., MexicanTrainBot]


async def _move(
    bot: MexicanTrainBot, game_id: int, users: dict[int, FakeUser], ch: FakeChannel
) -> str:
    """The player to move makes a move through Discord; their answer."""
    uid, view = await to_move(bot, game_id)
    return await slash_move(users[uid], ch, str(pick(view.legal)))


async def _posted_after(ch: FakeChannel, count: int, timeout: float = 30.0) -> FakeMessage:
    """The channel's newest public message once there are more than ``count``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while len(ch.messages()) <= count:
        assert loop.time() < deadline, "no new table message"
        await asyncio.sleep(0.01)
    return last_public(ch)


async def _until(check: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    """Wait for a counted fact (generous bound: a loaded machine is slow, never wrong)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        assert loop.time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.005)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


async def test_worker_processes_draw_the_pictures_players_see(
    fake_discord: FakeDiscord, make_bot: MakeBot
) -> None:
    fake = fake_discord
    bot = make_bot(render_workers=2)
    alice, bob, ch = fake.user("alice"), fake.user("bob"), fake.channel("games")
    async with running_bot(fake, bot):
        # Started and warm in setup_hook, before the gateway: before any interaction.
        pool = bot.pictures.pool
        assert pool.running and len(pool.pids) == 2 and os.getpid() not in pool.pids
        assert all(_alive(pid) for pid in pool.pids)
        game = await open_game(fake, bot, ch, alice, [bob], preset="quick")
        assert (await _move(bot, game.id, {alice.id: alice, bob.id: bob}, ch)).startswith("✅")
        table = last_public(ch)
        view = await bot.service.table_view(game.id)
        # Byte for byte the picture the bot's own process draws for the same table.
        assert table.images() == [table_png(view, game.players, "en")]
        assert table.embeds[0]["image"]["url"].endswith("/table.png")
        assert not table.embeds[0].get("fields")  # no text fallback when the picture is there
        assert pool.stats["drawn"] >= 2 and not pool.stats["failed"]
        # The player now to move got their hand by DM, drawn by a worker too.
        uid, mine = await to_move(bot, game.id)
        told = {alice.id: alice, bob.id: bob}[uid]
        if told.dms():
            dm_hand = hand_png(mine, game.options.hints, "en", pick=True)  # as a turn DM shows it
            assert told.dms()[-1].images() == [dm_hand]


async def test_a_move_s_pictures_and_their_words_are_made_in_the_worker(
    fake_discord: FakeDiscord, make_bot: MakeBot
) -> None:
    """The bot's own process runs no renderer, no describer and no AI search for a move: the
    worker draws the table and the hand, writes their alt text (the same words the Discord
    layer's describers write) and cuts the DM's names; the scheduler's cog is not entered."""
    fake = fake_discord
    bot = make_bot(render_workers=1)
    alice, bob, ch = fake.user("alice"), fake.user("bob"), fake.channel("games")
    users = {alice.id: alice, bob.id: bob}
    ran: set[str] = set()

    def hook(frame: FrameType, event: str, _arg: Any) -> None:
        if event == "call":
            ran.add(str(frame.f_globals.get("__name__", "")))

    async with running_bot(fake, bot):
        game = await open_game(fake, bot, ch, alice, [bob], preset="quick")
        await idle(fake)
        dms = {u: len(u.dms()) for u in users.values()}
        threading.setprofile(hook)
        sys.setprofile(hook)
        try:
            answer = await _move(bot, game.id, users, ch)
            await idle(fake)
        finally:
            sys.setprofile(None)
            threading.setprofile(None)
        assert answer.startswith("✅"), answer
        assert {"bot.ui.pictures", "bot.workers.pool", "bot.ui.announcer"} <= ran  # seen
        assert not {m for m in ran if m.startswith("renderers")}
        assert not ran & {"bot.ui.alt_text", "bot.engine.ai.trains", "bot.cogs.timing"}
        view = await bot.service.table_view(game.id)
        [table] = last_public(ch).files
        assert table.description == describe_table(view, game.players, "en")
        uid, mine = await to_move(bot, game.id)
        if len(users[uid].dms()) > dms[users[uid]]:
            [hand] = users[uid].dms()[-1].files
            assert hand.description == describe_hand(mine, game.options.hints, "en")


async def test_a_killed_worker_is_replaced_and_the_next_move_still_posts_a_picture(
    fake_discord: FakeDiscord, make_bot: MakeBot
) -> None:
    fake = fake_discord
    bot = make_bot(render_workers=2)
    alice, bob, ch = fake.user("alice"), fake.user("bob"), fake.channel("games")
    users = {alice.id: alice, bob.id: bob}
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, ch, alice, [bob], preset="quick")
        pool = bot.pictures.pool
        killed = list(pool.pids)
        for pid in killed:  # every worker dies mid-game, as if the OOM killer struck
            os.kill(pid, signal.SIGKILL)
        before = len(ch.messages())
        assert (await _move(bot, game.id, users, ch)).startswith("✅")
        table = await _posted_after(ch, before)
        view = await bot.service.table_view(game.id)
        assert table.images() == [table_png(view, game.players, "en")]
        assert pool.stats["crashed"] >= 1
        # Both replaced: two live workers, none of them the killed ones.
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 20
        while len(pool.pids) < 2 or set(pool.pids) & set(killed):
            assert loop.time() < deadline, pool.pids
            await asyncio.sleep(0.05)
        assert all(_alive(pid) for pid in pool.pids)
        assert not any(_alive(pid) for pid in killed)  # reaped, not left as zombies
        assert (await _move(bot, game.id, users, ch)).startswith("✅")
        assert last_public(ch).images()


async def test_a_picture_that_fails_posts_the_move_with_the_table_as_text(
    fake_discord: FakeDiscord, make_bot: MakeBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = fake_discord
    bot = make_bot()  # pictures in a thread of this process, so the renderer can be broken
    alice, bob, ch = fake.user("alice"), fake.user("bob"), fake.channel("games")
    users = {alice.id: alice, bob.id: bob}
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, ch, alice, [bob], preset="quick")

        def broken(*args: object) -> bytes:
            raise ValueError("the renderer hit a bug")

        monkeypatch.setattr(jobs, "draw_table", broken)
        monkeypatch.setattr(jobs, "draw_hand", broken)
        dms_before = {u: len(u.dms()) for u in users.values()}
        answer = await _move(bot, game.id, users, ch)
        assert answer.startswith("✅"), answer  # the mover is told the move landed
        table = last_public(ch)
        embed = table.embeds[0]
        assert not table.images() and "image" not in embed
        # The move's lines are there, and the table as text in their place.
        assert any(w in embed["description"] for w in ("played", "drew", "passed"))
        (field,) = embed["fields"]
        view = await bot.service.table_view(game.id)
        assert field["value"].startswith("```\nRound 1/")
        assert f"@1 {view.names[0]}" in field["value"] and "in boneyard" in field["value"]
        assert f"{view.names[view.current]} to play" in field["value"]  # type: ignore[index]
        assert table.button_labels == ["Play", "Draw", "Pass", "My hand", "Catch me up"]
        # The hand DM still comes, as text.
        sent = [u for u in users.values() if len(u.dms()) > dms_before[u]]
        assert sent and all(not u.dms()[-1].images() and u.dms()[-1].text for u in sent)
        assert bot.pictures.pool.stats["failed"] >= 2

        monkeypatch.undo()  # fixed: the next move has its picture again
        assert (await _move(bot, game.id, users, ch)).startswith("✅")
        assert last_public(ch).images() and not last_public(ch).embeds[0].get("fields")


def _hold(gate: threading.Event) -> bytes:
    """A job that keeps the pool's one lane busy until the test opens ``gate``."""
    gate.wait(60)
    return b""


async def _service_move(bot: MexicanTrainBot, game_id: int) -> Outcome:
    uid, view = await to_move(bot, game_id)
    move = pick(view.legal)
    return await bot.service.move(game_id, uid, move, bot.now(), computer_moves=0)


async def test_a_stale_table_is_not_drawn_and_its_post_keeps_the_move_lines(
    fake_discord: FakeDiscord, make_bot: MakeBot, clock: FakeClock
) -> None:
    """Under a backlog a channel's newer table replaces its older one that no worker has
    started yet: the older post goes out with its move lines and no picture (the newer post,
    right after it, shows the table), and only the newer table is drawn.

    Moves made through Discord post under the game's posting lock, so today one channel never
    has two tables waiting at once; this drives the announcer as a caller without that lock
    would (two moves' posts at once while the pool is busy)."""
    fake = fake_discord
    bot = make_bot()
    alice, bob, ch = fake.user("alice"), fake.user("bob"), fake.channel("games")
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, ch, alice, [bob], preset="quick")
        pool = bot.pictures.pool
        clock.tick(60)  # each turn begins at its own time (a turn post is known by it)
        first = await _service_move(bot, game.id)
        clock.tick(60)
        second = await _service_move(bot, game.id)
        gate = threading.Event()
        busy = asyncio.ensure_future(pool.run(_hold, gate))  # the backlog: the lane is taken
        before, drawn = len(ch.messages()), pool.stats["drawn"]
        older = asyncio.ensure_future(announcer.publish(bot, [first], None))
        await _until(lambda: pool.queued == 1, "its table queued behind the busy lane")
        newer = asyncio.ensure_future(announcer.publish(bot, [second], None))
        assert await older is None  # posted, without waiting for a worker
        stale = await _posted_after(ch, before)
        gate.set()
        assert await newer is None and await busy == b""
        fresh = await _posted_after(ch, before + 1)
    assert pool.stats["superseded"] == 1 and pool.stats["drawn"] == drawn + 2  # hold + newer
    assert not stale.images() and "image" not in stale.embeds[0]
    assert not stale.embeds[0].get("fields")  # no text table either: the next post has it
    assert first.steps[0].player.name in stale.embeds[0]["description"]
    assert fresh.images() and second.steps[0].player.name in fresh.embeds[0]["description"]


async def test_an_unchanged_hand_is_not_drawn_again(
    fake_discord: FakeDiscord, make_bot: MakeBot
) -> None:
    fake = fake_discord
    bot = make_bot(render_workers=2)
    alice, bob, ch = fake.user("alice"), fake.user("bob"), fake.channel("games")
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, ch, alice, [bob], preset="quick")
        pool = bot.pictures.pool
        # The player to move was shown their hand at the deal (Bob by DM, Alice who pressed
        # Start privately): asking for it again draws nothing, it comes from the cache.
        uid, _ = await to_move(bot, game.id)
        player = alice if uid == alice.id else bob
        hits, drawn = pool.stats["hand_cache_hits"], pool.stats["drawn"]
        first = await said(await player.slash("hand", channel=ch))
        again = await said(await player.slash("hand", channel=ch))
        assert again.images() == first.images() and len(first.images()) == 1
        assert pool.stats["hand_cache_hits"] == hits + 2 and pool.stats["drawn"] == drawn
