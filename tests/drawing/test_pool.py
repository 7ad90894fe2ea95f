"""The render pool with real worker processes: real pictures, start/stop, a killed worker,
a hung render, a superseded table, the hand cache, and the thread mode.

One two-worker pool serves the module (starting workers costs ~0.3 s each); tests that
break a pool on purpose start their own small one.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import os
import signal
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
import pytest_asyncio
from PIL import Image

from bot.drawing import RenderPool, draw_hand, draw_table
from bot.drawing.jobs import draw_table as draw_table_job
from bot.drawing.jobs import sample_views
from bot.workers import PoolClosed, Superseded, WorkerCrashed, WorkerFailed, WorkerTimeout
from renderers import LIGHT, HandOptions, TableOptions

pytestmark = pytest.mark.asyncio(loop_scope="module")

TABLE, HAND = sample_views(players=4, moves=14)


# Jobs the tests send to workers (module-level, so they pickle by name).


def slow(seconds: float) -> bytes:
    time.sleep(seconds)
    return b"slept"


def pid_after(seconds: float) -> bytes:
    time.sleep(seconds)
    return str(os.getpid()).encode()


def die() -> bytes:
    os.kill(os.getpid(), signal.SIGKILL)
    return b"unreachable"


def broken() -> bytes:
    raise ValueError("no such tile 13-13")


def gated(gate: str) -> bytes:
    """Keep a worker busy until the test creates the file ``gate`` (or a minute passes):
    what a test orders then does not depend on how fast a loaded machine runs."""
    deadline = time.monotonic() + 60
    while not os.path.exists(gate) and time.monotonic() < deadline:
        time.sleep(0.005)
    return gate.encode()


async def until(check: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    """Wait for a counted fact about the pool (generous bound: a loaded machine is slow)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        assert loop.time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.005)


def open_gate(gate: Path) -> None:
    gate.touch()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def pool() -> AsyncIterator[RenderPool]:
    # A picture's limit far above its cost (tens of ms): a loaded machine must not fail it.
    async with RenderPool(2, timeout=30) as started:
        yield started


def is_png(data: bytes) -> tuple[int, int]:
    image = Image.open(io.BytesIO(data))
    image.verify()
    assert image.format == "PNG"
    return image.size


async def test_workers_draw_the_same_pictures_as_this_process(pool: RenderPool) -> None:
    assert len(pool.pids) == 2 and os.getpid() not in pool.pids
    options = TableOptions(is_computer=(False, True, False, True), language="fr", theme=LIGHT)
    table = await pool.table(TABLE, options)
    assert is_png(table)[0] > 0
    assert table == draw_table(TABLE, options)
    hand_options = HandOptions(plan=HAND.hand[:2] if HAND.hand else ())
    hand = await pool.hand(HAND, hand_options)
    assert is_png(hand) and hand == draw_hand(HAND, hand_options)


async def test_pictures_run_in_parallel_on_both_workers(pool: RenderPool) -> None:
    answers = await asyncio.gather(*(pool.run(pid_after, 0.2) for _ in range(4)))
    assert {int(a) for a in answers} == set(pool.pids)


async def test_a_renderer_error_fails_that_picture_only(pool: RenderPool) -> None:
    with pytest.raises(WorkerFailed, match="ValueError: no such tile 13-13"):
        await pool.run(broken)
    assert await pool.run(slow, 0) == b"slept"


async def test_a_newer_table_supersedes_a_queued_older_one(
    pool: RenderPool, tmp_path: Path
) -> None:
    # Both workers held busy, so the channel's tables queue up behind them.
    gate = tmp_path / "open"
    busy = [asyncio.ensure_future(pool.run(gated, str(gate))) for _ in range(2)]
    await until(lambda: pool.working == 2, "both workers busy")
    before = pool.stats["superseded"]
    first = asyncio.ensure_future(pool.table(TABLE, TableOptions(), key=111))
    other = asyncio.ensure_future(pool.table(TABLE, TableOptions(), key=222))
    await until(lambda: pool.queued == 2, "two tables queued")
    newest = asyncio.ensure_future(pool.table(TABLE, TableOptions(language="fr"), key=111))
    with pytest.raises(Superseded):
        await first
    assert not isinstance(Superseded(), WorkerFailed)  # the caller skips, not falls back
    assert pool.queued == 2  # the newest took the older one's place
    open_gate(gate)
    assert is_png(await newest) and is_png(await other)
    assert await newest == draw_table(TABLE, TableOptions(language="fr"))
    assert pool.stats["superseded"] == before + 1
    await asyncio.gather(*busy)


async def test_tables_are_drawn_before_other_pictures_waiting(
    pool: RenderPool, tmp_path: Path
) -> None:
    # Both workers held busy; two other pictures wait, then a table arrives. One worker is
    # let go: it must take the table (the others wait on gates still shut, so if it took
    # one of them, the table could not be drawn until the test opened them).
    first_gate, second_gate, others_gate = (tmp_path / n for n in ("a", "b", "others"))
    busy = [
        asyncio.ensure_future(pool.run(gated, str(first_gate))),
        asyncio.ensure_future(pool.run(gated, str(second_gate))),
    ]
    await until(lambda: pool.working == 2, "both workers busy")
    waiting = [asyncio.ensure_future(pool.run(gated, str(others_gate))) for _ in range(2)]
    await until(lambda: pool.queued == 2, "two other pictures queued")
    table = asyncio.ensure_future(pool.table(TABLE, TableOptions()))
    await until(lambda: pool.queued == 3, "the table queued behind them")
    open_gate(first_gate)
    assert is_png(await asyncio.wait_for(table, 30)), "the table did not go first"
    assert not any(w.done() for w in waiting) and pool.queued == 1
    open_gate(second_gate)
    open_gate(others_gate)
    await asyncio.gather(*busy, *waiting)


async def test_an_unchanged_hand_is_not_redrawn(pool: RenderPool) -> None:
    options = HandOptions(language="en")
    drawn, hits = pool.stats["drawn"], pool.stats["hand_cache_hits"]
    # A move elsewhere on the table: the log, the counts and the trains change.
    later = dataclasses.replace(HAND, log=HAND.log[:-1], boneyard_count=HAND.boneyard_count - 1)
    twice = await asyncio.gather(pool.hand(HAND, options), pool.hand(HAND, options))
    again = await pool.hand(later, options)
    assert twice[0] == twice[1] == again
    assert pool.stats["drawn"] == drawn + 1
    assert pool.stats["hand_cache_hits"] == hits + 2
    # Another language is another picture.
    french = await pool.hand(HAND, HandOptions(language="fr"))
    assert french != again and pool.stats["drawn"] == drawn + 2


async def test_a_killed_worker_is_replaced_and_its_picture_retried() -> None:
    async with RenderPool(1, timeout=10) as pool:
        (victim,) = pool.pids
        drawing = asyncio.ensure_future(pool.table(TABLE, TableOptions()))
        waiting = asyncio.ensure_future(pool.run(slow, 0))
        await asyncio.sleep(0)
        os.kill(victim, signal.SIGKILL)
        # The table was either done already or is retried on the replacement worker.
        assert await drawing == draw_table(TABLE, TableOptions())
        assert await waiting == b"slept"
        (replacement,) = pool.pids
        assert replacement != victim
        assert is_png(await pool.table(TABLE, TableOptions()))


async def test_a_picture_that_kills_its_worker_fails_clearly_after_one_retry() -> None:
    async with RenderPool(1, timeout=10) as pool:
        first = pool.pids[0]
        with pytest.raises(WorkerCrashed, match="died"):
            await pool.run(die)
        assert pool.stats["crashed"] == 2
        assert await pool.run(slow, 0) == b"slept"  # the second replacement works
        assert pool.pids and pool.pids[0] != first


async def test_a_hung_picture_times_out_and_its_worker_is_replaced() -> None:
    async with RenderPool(1, timeout=0.5) as pool:
        (hung,) = pool.pids
        started = time.monotonic()
        with pytest.raises(WorkerTimeout, match=r"0\.5s"):
            await pool.run(slow, 60)
        assert time.monotonic() - started < 30  # not the job's minute
        # The replacement draws; its own limit, not the 0.5 s the test gave the pool.
        assert is_png(await pool.run(draw_table_job, TABLE, TableOptions(), timeout=60))
        assert pool.pids[0] != hung


async def test_close_drains_in_flight_pictures_then_stops_the_workers() -> None:
    pool = RenderPool(1, timeout=10)
    with pytest.raises(PoolClosed):
        await pool.run(slow, 0)  # not started yet
    await pool.start()
    (pid,) = pool.pids
    in_flight = asyncio.ensure_future(pool.run(slow, 0.3))
    queued = asyncio.ensure_future(pool.table(TABLE, TableOptions()))
    await until(lambda: pool.working == 1 and pool.queued == 1, "one drawing, one queued")
    # A grace long enough for a loaded machine: close returns as soon as both are done.
    await pool.close(grace=60)
    assert await in_flight == b"slept" and is_png(await queued)
    with pytest.raises(PoolClosed):
        await pool.run(slow, 0)
    assert pool.pids == []
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # the worker is gone (and reaped)


async def test_close_after_the_grace_fails_what_is_left() -> None:
    pool = RenderPool(1, timeout=10)
    await pool.start()
    stuck = asyncio.ensure_future(pool.run(slow, 60))
    behind = asyncio.ensure_future(pool.run(slow, 0))
    await until(lambda: pool.working == 1 and pool.queued == 1, "one drawing, one queued")
    started = time.monotonic()
    await pool.close(grace=0.2)
    assert time.monotonic() - started < 30  # it did not wait out the stuck minute
    for future in (stuck, behind):
        with pytest.raises(PoolClosed):
            await future


async def test_thread_mode_draws_the_same_and_keeps_the_rules(tmp_path: Path) -> None:
    async with RenderPool(0, timeout=30) as pool:
        assert pool.pids == []
        assert await pool.table(TABLE, TableOptions()) == draw_table(TABLE, TableOptions())
        gate = tmp_path / "open"
        busy = asyncio.ensure_future(pool.run(gated, str(gate)))
        await until(lambda: pool.working == 1, "the thread busy")
        old = asyncio.ensure_future(pool.table(TABLE, TableOptions(), key="c"))
        await until(lambda: pool.queued == 1, "the table queued")
        new = asyncio.ensure_future(pool.table(TABLE, TableOptions(), key="c"))
        with pytest.raises(Superseded):
            await old
        open_gate(gate)
        assert is_png(await new) and await busy == str(gate).encode()
        with pytest.raises(WorkerTimeout):
            await pool.run(slow, 3, timeout=0.5)
