"""Two real ``python -m bot`` processes, one per shard (``MT_SHARD_COUNT=2``, ``MT_SHARD_IDS=0``
and ``1``), over one PostgreSQL database, through one fake Discord with a server on each shard.

Games are played in both servers, each through the process that carries its shard; a player
acts from a DM (Discord sends DMs to shard 0) on a game of the other shard's server; the
scheduled work that action creates (an away player's turn) is done exactly once, by whichever
process claims it, and posted in the right channel; both processes stop cleanly on SIGTERM.
"""

from __future__ import annotations

import asyncio
import signal
import sys
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.service import GameService
from bot.store import Store
from tests.e2e.helpers import pick, slash_move
from tests.fakediscord import FakeChannel, FakeDiscord, FakeUser, fake_discord
from tests.ops.helpers import ROOT, bot_env


class Cluster:
    """The two bot processes; their logs go to files (a pipe nobody reads would fill up)."""

    def __init__(self, fake: FakeDiscord, url: str, logs: Path) -> None:
        self.fake, self.url, self.logs = fake, url, logs
        self.procs: dict[int, asyncio.subprocess.Process] = {}

    async def start(self, shard: int) -> None:
        env = bot_env(
            self.fake,
            Path("unused"),
            MT_DATABASE=self.url,
            MT_SHARD_COUNT="2",
            MT_SHARD_IDS=str(shard),
            MT_SCHEDULE_LEASE="2",
            MT_RENDER_WORKERS="0",
        )
        log = (self.logs / f"shard{shard}.log").open("wb")
        self.procs[shard] = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "--sync", cwd=ROOT, env=env, stdout=log, stderr=log
        )

    def log(self, shard: int) -> str:
        return (self.logs / f"shard{shard}.log").read_text()

    async def ready(self) -> None:
        def up() -> bool | None:
            for shard, proc in self.procs.items():
                if proc.returncode is not None:
                    raise AssertionError(f"shard {shard} exited: {self.log(shard)}")
            live = {s.shard[0] for s in self.fake.sessions.values() if s.conn is not None}
            return (live == {0, 1} and bool(self.fake.commands())) or None

        for _ in range(300):
            if up():
                return
            await asyncio.sleep(0.1)
        raise TimeoutError(f"the two processes never connected: {self.log(0)}{self.log(1)}")

    async def stop(self) -> dict[int, int]:
        for proc in self.procs.values():
            if proc.returncode is None:
                proc.send_signal(signal.SIGTERM)
        codes = {}
        for shard, proc in self.procs.items():
            try:
                codes[shard] = await asyncio.wait_for(proc.wait(), 20)
            except TimeoutError:
                proc.kill()
                codes[shard] = await proc.wait()
        return codes


@pytest.fixture
async def cluster(pg_url: str, tmp_path: Path) -> AsyncIterator[Cluster]:
    async with fake_discord(shards=2) as fake:
        c = Cluster(fake, pg_url, tmp_path)
        try:
            await asyncio.gather(c.start(0), c.start(1))
            await c.ready()
            yield c
        finally:
            await c.stop()


async def _open(svc: GameService, channel: FakeChannel, host: FakeUser, guest: FakeUser) -> int:
    answer = await (await host.slash("mt new", channel=channel, preset="quick")).message()
    assert "is open" in answer.content, answer.content
    for _ in range(500):  # the card follows the host's answer, as the command's followup
        lobby = channel.last_message()
        if lobby is not None:
            break
        await asyncio.sleep(0.01)
    assert lobby is not None
    # The click's own answer is its first followup: the card's edit that a click makes after
    # answering (the Join's) may land after the next click was acknowledged, and would be
    # that click's "message" (what the user reads next) if it came first.
    assert "joined" in (await (await guest.click(lobby, label="Join")).followup(0)).content
    assert "started" in (await (await host.click(lobby, label="Start")).followup(0)).content
    game = await svc.game_in_channel(channel.id)
    assert game is not None
    return game.id


async def _play(
    svc: GameService, gid: int, channel: FakeChannel, users: dict[int, FakeUser], n: int
) -> None:
    for _ in range(n):
        game = await svc.game(gid)
        assert game.turn is not None and game.turn.user_id is not None
        view = await svc.seat_view(gid, game.turn.user_id)
        answer = await slash_move(users[game.turn.user_id], channel, str(pick(view.legal)))
        assert answer.startswith("✅"), answer


async def _events(store: Store, gid: int, kind: str) -> int:
    record = await store.load(gid)
    assert record is not None
    return sum(1 for e in record.events if e.kind == kind)


async def test_two_processes_two_shards_one_database(cluster: Cluster) -> None:
    fake = cluster.fake
    first = fake.guilds[fake.guild_id]
    second = fake.guild("Second Club", shard=1 - first.shard(2))
    # The game played from a DM is on shard 1's server: DMs reach shard 0's process.
    far, near = (first, second) if first.shard(2) == 1 else (second, first)
    far_ch, near_ch = fake.channel("far", guild=far), fake.channel("near", guild=near)
    alice, bob, carol, dave = (fake.user(n) for n in ("alice", "bob", "carol", "dave"))
    users = {u.id: u for u in (alice, bob, carol, dave)}
    async with await Store.open(cluster.url) as store:
        svc = GameService(store)  # the test reads the database; it acts through Discord
        # Each process would play a turn with no choice for its player on its own, right after
        # the answer (autoplay): the test reads whose turn it is, then acts, so it asks players
        # to take every turn themselves (this test is about processes and shards).
        for u in users.values():
            await svc.update_user_settings(u.id, datetime.now(UTC), autoplay="off")
        far_game = await _open(svc, far_ch, alice, bob)
        near_game = await _open(svc, near_ch, carol, dave)
        await _play(svc, far_game, far_ch, users, 3)
        await _play(svc, near_game, near_ch, users, 3)
        assert "Second Club" in {g.name for g in fake.guilds.values()}

        # From a DM (shard 0's process), a player of the game on shard 1's server.
        game = await svc.game(far_game)
        assert game.turn is not None and game.turn.user_id is not None
        player = users[game.turn.user_id]
        hand = await (await player.slash("hand")).message()
        assert f"#{far_game}" in hand.content and hand.files, hand.content
        mine = await (await player.slash("mt mygames")).message()
        assert f"#{far_game}" in mine.content, mine.content
        before = await _events(store, far_game, "away")
        away = await (await player.slash("mt away", state="on")).message()
        assert "away" in away.content.lower(), away.content

        # The away turn is scheduled work: one process claims it and plays it, once.
        def played() -> bool | None:
            return any("is away: the computer" in m.content for m in far_ch.messages()) or None

        await fake.wait_for(played, timeout=10, what="the away turn's post", on=far_ch)
        await asyncio.sleep(2.5)  # a second process would have fired it by now (lease 2 s)
        assert await _events(store, far_game, "away") == before + 1
        posts = [m for m in far_ch.messages() if "is away: the computer" in m.content]
        assert len(posts) == 1, [m.content for m in posts]
        assert not any("is away: the computer" in m.content for m in near_ch.messages())

        await _play(svc, near_game, near_ch, users, 2)  # the other shard goes on meanwhile
        for gid in (far_game, near_game):
            await svc.verify_game(gid)
        assert await store.integrity_check() == "ok"
    codes = await cluster.stop()
    assert codes == {0: 0, 1: 0}, (cluster.log(0), cluster.log(1))
    for shard in (0, 1):
        text = cluster.log(shard)
        assert "stopped cleanly" in text and "Traceback" not in text, text
