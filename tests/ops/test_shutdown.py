"""SIGTERM (``docker stop``): the move in progress finishes, the database closes clean, the
render workers stop, exit 0.

``python -m bot`` runs as a real subprocess against the in-process fake Discord (through the
test-only ``MT_DISCORD_API_BASE``/``MT_DISCORD_GATEWAY``), so signals, the health endpoint
and the exit code are the real ones.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import sqlite3
from pathlib import Path

from bot.engine import Play
from bot.service import GameService
from bot.store import Store
from tests.fakediscord import FakeChannel, FakeDiscord, FakeUser, Invocation
from tests.ops.helpers import bot_env, free_port, start_bot, wait_healthy


async def _move(
    svc: GameService, gid: int, users: dict[int, FakeUser], ch: FakeChannel, sent: list[str]
) -> Invocation:
    for _ in range(500):  # the bot may still play a turn with no choice after the answer:
        turn = await svc.whose_turn(gid)  # read whose turn it is again if it moved meanwhile
        assert turn is not None and turn.user_id is not None
        view = await svc.seat_view(gid, turn.user_id)
        if view.legal:
            break
        await asyncio.sleep(0.01)
    plays = [m for m in view.legal if isinstance(m, Play)]
    move = plays[0] if plays else view.legal[0]
    user = users[turn.user_id]
    sent.append(str(move))
    if isinstance(move, Play):
        tile, train = str(move).split()
        return await user.slash("play", channel=ch, tile=tile, train=train)
    return await user.slash(str(move), channel=ch)


def _children(pid: int) -> set[int]:
    """The processes ``pid`` started (its render workers), from /proc."""
    found: set[int] = set()
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as f:
            found |= {int(child) for child in f.read().split()}
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


async def test_sigterm_finishes_the_move_in_flight_and_exits_0(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    db = tmp_path / "data" / "games.sqlite3"
    port = free_port()
    # Real render and thinking worker processes: the drain must stop them too.
    env = bot_env(
        fake,
        db,
        MT_HEALTH_PORT=str(port),
        MT_SHUTDOWN_GRACE="10",
        MT_RENDER_WORKERS="2",
        MT_THINK_WORKERS="1",
    )
    proc = await start_bot(env, "--sync")
    try:
        health = await wait_healthy(f"http://127.0.0.1:{port}", proc)
        assert health["gateway"] and health["database"]
        workers = _children(proc.pid)
        assert len(workers) == 3 and all(_alive(w) for w in workers)
        probe = await start_bot(env, "health")  # what the Docker HEALTHCHECK runs
        out, _ = await probe.communicate()
        assert probe.returncode == 0 and json.loads(out)["status"] == "ok"
        alice, bob, ch = fake.user("alice"), fake.user("bob"), fake.channel("games")
        users = {alice.id: alice, bob.id: bob}
        assert "is open" in (await (await alice.slash("mt new", channel=ch)).message()).content
        for _ in range(500):  # the card follows the host's answer, as the command's followup
            lobby = ch.last_message()
            if lobby is not None:
                break
            await asyncio.sleep(0.01)
        assert lobby is not None
        await (await bob.click(lobby, label="Join")).message()
        await (await alice.click(lobby, label="Start")).message()

        store = await Store.open(db, synchronous="NORMAL")  # a second reader, like an admin's
        svc = GameService(store)
        game = await svc.game_in_channel(ch.id)
        assert game is not None
        sent: list[str] = []
        for _ in range(4):
            answer = await (await _move(svc, game.id, users, ch, sent)).message(timeout=10)
            assert answer.ephemeral and not answer.loading
        # The next move's table message is held up by a 1 s rate limit: it is in flight when
        # SIGTERM arrives, and must still be finished, posted and answered.
        fake.rate_limit("POST /channels/{channel_id}/messages", times=1, retry_after=1.0)
        last = await _move(svc, game.id, users, ch, sent)
        await store.close()
        await last.answer(timeout=10)  # deferred: the bot is working on it
        proc.send_signal(signal.SIGTERM)
        answer = await last.message(timeout=15)
        assert not answer.loading and not last.rejections
        table = ch.last_message()
        assert table is not None and table.images()  # the move in flight posted its picture
        await asyncio.wait_for(proc.wait(), 20)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert proc.stderr is not None
    log = (await proc.stderr.read()).decode()
    assert proc.returncode == 0, log
    # The move held up, and perhaps the one before it still sending its ping (the mover's
    # answer comes first, the rest after it).
    assert re.search(r"stopping: waiting up to 10\.0s for [12] interaction\(s\)", log), log
    assert "stopped cleanly" in log and "Traceback" not in log
    assert "render pool: 2 worker(s) ready" in log, log
    assert "thinking pool: 1 worker(s) ready" in log, log
    assert not any(_alive(w) for w in workers), log  # the workers stopped with the bot
    assert "outcome=ok" in log and "command=play" in log

    assert not Path(f"{db}-wal").exists()  # checkpointed and closed: one self-contained file
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        rows = conn.execute(
            "SELECT payload, actor FROM events WHERE game_id = ? AND kind = 'move' ORDER BY seq",
            (game.id,),
        ).fetchall()
    logged = [(json.loads(payload)["move"], actor) for (payload, actor) in rows]
    # Every acknowledged move, in order; the only others are the bot's own, made by nobody
    # (no actor): the pass after a useless draw, and turns it played for a player with no
    # choice or one legal move (autoplay's default, only-move since issue 46).
    extra = [move for move, _actor in logged]
    for move in sent:
        assert move in extra, (sent, logged)
        extra.remove(move)
    by_nobody = [move for move, actor in logged if actor is None]
    for move in extra:
        assert move in by_nobody, (move, sent, logged)
        by_nobody.remove(move)
    store = await Store.open(db, synchronous="NORMAL")
    try:
        await GameService(store).verify_game(game.id)
    finally:
        await store.close()
