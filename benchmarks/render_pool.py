"""Table pictures through the render pool's worker processes vs in a thread of this process.

Draws the same tables (seeded playouts, 4 and 8 players) with ``--in-flight`` pictures
awaited at once, as a busy bot would: once with ``asyncio.to_thread`` (today's bot) and
once through ``RenderPool``. Reports tables/s for each and what the bot's own process
spends per picture: the event-loop thread's CPU and the whole process's CPU (event loop +
the pool's reader threads), next to the workers' CPU read from ``/proc``. Prints ONE JSON
line.

    python benchmarks/render_pool.py --tables 200
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere

from bot.drawing import RenderPool, draw_table
from bot.drawing.jobs import sample_views
from bot.engine import SeatView
from renderers import TableOptions

TICK = os.sysconf("SC_CLK_TCK")


def cpu_of(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / TICK
    return total


async def measure(draw: object, views: list[SeatView], args: argparse.Namespace,
                  pids: list[int]) -> dict[str, float]:  # fmt: skip
    options = TableOptions()
    gate = asyncio.Semaphore(args.in_flight)

    async def one(view: SeatView) -> int:
        async with gate:
            png: bytes = await draw(view, options)  # type: ignore[operator]
            return len(png)

    work = [views[i % len(views)] for i in range(args.tables)]
    loop0, proc0, workers0 = time.thread_time(), time.process_time(), cpu_of(pids)
    t0 = time.perf_counter()
    sizes = await asyncio.gather(*(one(v) for v in work))
    elapsed = time.perf_counter() - t0
    per = 1000 / args.tables
    return {
        "tables_per_s": round(args.tables / elapsed, 1),
        "event_loop_cpu_ms_per_table": round((time.thread_time() - loop0) * per, 3),
        "bot_process_cpu_ms_per_table": round((time.process_time() - proc0) * per, 3),
        "workers_cpu_ms_per_table": round((cpu_of(pids) - workers0) * per, 2),
        "mean_png_kb": round(sum(sizes) / len(sizes) / 1024, 1),
    }


async def main(args: argparse.Namespace) -> dict[str, object]:
    views = [sample_views(players=p, seed=s, moves=m)[0]
             for p, s, m in ((4, 1, 30), (8, 2, 60), (8, 3, 90), (4, 4, 50))]  # fmt: skip

    async def in_thread(view: SeatView, options: TableOptions) -> bytes:
        return await asyncio.to_thread(draw_table, view, options)

    await in_thread(views[0], TableOptions())  # warm this process's fonts too
    thread = await measure(in_thread, views, args, [])
    started = time.perf_counter()
    async with RenderPool(args.workers) as pool:
        start_s = time.perf_counter() - started
        await asyncio.gather(*(pool.table(v, TableOptions()) for v in views))
        pooled = await measure(pool.table, views, args, pool.pids)
        workers = pool.workers
    load = os.getloadavg()
    return {
        "benchmark": "render_pool",
        "tables": args.tables,
        "in_flight": args.in_flight,
        "workers": workers,
        "pool_start_s": round(start_s, 2),
        "thread": thread,
        "pool": pooled,
        "speedup": round(pooled["tables_per_s"] / thread["tables_per_s"], 2),
        "load_average": [round(x, 2) for x in load],
        "cpus": os.cpu_count(),
        "python": sys.version.split()[0],
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--in-flight", type=int, default=8)
    parser.add_argument("--workers", type=int, default=None, help="default: the pool's own")
    print(json.dumps(asyncio.run(main(parser.parse_args()))))
