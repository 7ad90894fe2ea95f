"""A move's pipe stays straight (issue 33): ``scripts/turn_trace.py``, the figure's own script,
run as the docs run it, must find every kind of move within the budget the issue set.

The real bot on the fake Discord, traced with a profile hook: a typed move and a clicked move
(Play, then the pick), each the first time its pinged player gets a DM and once every DM channel
is kept. Each must run in at most 43 of the bot's modules (issue 33's 40, issue 51's ``batch``
and ``guards``, and the turn post's own module, ``bot.ui.turnpost``) and make at most four
awaited calls from the Discord layer into the service — the look-up, the move, the rest of the
turn and the outbox's clearing — and none into the store. A change that sends a move through
more modules, or adds a round trip, fails here with the trace that shows where. (The post book's
batched write of table posts, one per two seconds for every game, is the one call the script
lists apart: on a loaded machine an earlier move's batch lands inside the window.)
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Issue 33's budget per move (40 modules), plus the two that issue 51's carve of the commit
#: path put on a move's way: ``service/batch.py`` (the moves in memory) and
#: ``service/guards.py`` (``utc``, ``seated``), split out of a 591-line ``service/commit.py``.
#: And one more, by the lead's decision on issue 51: ``ui/turnpost.py``, the one module that
#: owns a turn's post from its first send to its last edit (which path and editor, the held
#: draw, the live post grown, the post before quietened), so a move's post is followed in one
#: place; the announcer, the route and the post book keep their own parts, so a move enters
#: them too (the post's ~650 lines did not fit in any one of them under the 500-line cap).
MODULES, CALLS = 43, 4
KINDS = ("typed", "clicked", "typed_later", "clicked_later")


def test_every_move_runs_in_at_most_43_modules_and_4_service_calls() -> None:
    run = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "turn_trace.py"), "--names"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    figures = json.loads(run.stdout.strip().splitlines()[-1])
    for kind in KINDS:
        move = figures[kind]
        assert move["modules"] <= MODULES, (kind, move["module_names"])
        assert move["store_calls"] == [], (kind, move["store_calls"])
        # On a busy machine an earlier move's batched write of table posts may fall in the
        # window: the script lists it apart, and it is only ever that.
        batched = {c.rsplit(".", 1)[-1] for c in move["batched_calls"]}
        assert batched <= {"record_messages"}, (kind, move["batched_calls"])
        called = [c.split(" -> ")[1].rsplit(".", 1)[-1] for c in move["calls"]]
        assert len(called) <= CALLS, (kind, move["calls"])
        # The look-up first (a typed move reads the channel's game and the mover's seat, a
        # click its game), then the move, the rest of the turn, and the outbox's clearing.
        lookup = "look_here" if kind.startswith("typed") else "look"
        assert called == [lookup, "take", "play_out", "delivered"], (kind, move["calls"])
