"""How straight is one move's pipe? A runtime trace of the real bot on the fake Discord.

Two humans play on the fake Discord (``tests/fakediscord``) with the real bot on a fresh
database; for one typed move (``/play tile train``) and one clicked move (the turn post's Play
button, then the move picked in its list) it records, from the interaction to the moment the
bot is idle again (the answer, the computer players' moves, the post, the ping):

* ``modules``: the ``bot`` and ``renderers`` modules in which any Python function ran (a
  profile hook on every thread, so the digest's worker thread counts too; pictures drawn in
  a render worker process do not);
* ``service_calls``: the coroutines of ``bot.service`` entered straight from ``bot.ui`` or
  ``bot.cogs`` — the awaited round trips from the Discord layer to the service (each
  coroutine counted once, however often it is resumed);
* ``store_calls``: the same for coroutines of ``bot.store`` entered straight from the Discord
  layer (a store object the service would hand upward), listed apart so that no round trip
  goes unseen; none since the outbox's clearing is the service's ``Outbox.delivered``;
* ``batched_calls``: service calls made by the post book's batched write of new table posts
  (``PostBook._flush_later``: one write :data:`~bot.ui.posts.FLUSH_DELAY` seconds after the
  first unrecorded post, for every game's posts since), not by the move: on a busy machine
  an earlier move's batch can fall inside the traced window. Listed, not counted.

Each kind of move is traced twice: the first (``typed``, ``clicked``), in which the pinged
player may get their first DM ever — its channel is opened, and kept by the announcement's
last write (``Outbox.delivered``) — and a later one, once both players' DM channels are kept
(``typed_later``, ``clicked_later``): the steady state of a match.

Prints ONE JSON line (issue 33's "done when": at most 40 modules and 4 service calls each);
``--names`` adds the sorted module names of each move (``module_names``)::

    python scripts/turn_trace.py [--seed 7] [--preset standard] [--names]
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import json
import logging
import random
import sys
import tempfile
import threading
from pathlib import Path
from types import FrameType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere

from bot.app import MexicanTrainBot, create_bot
from bot.config import Config
from bot.engine import Play
from tests.e2e.helpers import idle, last_public, open_game, said, to_move, type_move
from tests.fakediscord import FakeDiscord, FakeUser, fake_discord, running_bot

_COROUTINE = inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR


#: Background batches that write for many moves at once (their calls are not a move's).
BATCHES = {("bot.ui.posts", "PostBook._flush_later")}


#: The modules a move's post goes through (issue 51: how often each is entered); since issue
#: 51's turn post, ``bot.ui.turnpost`` owns it, the others only entered for their own part.
POST_ROOMS = ("bot.ui.announcer", "bot.ui.turnpost", "bot.ui.route", "bot.ui.posts")


def _batched(frame: FrameType | None) -> bool:
    """Whether the call was made inside one of :data:`BATCHES` (a coroutine's frames chain to
    the one that awaits it, up to its task)."""
    while frame is not None:
        if (str(frame.f_globals.get("__name__", "")), frame.f_code.co_qualname) in BATCHES:
            return True
        frame = frame.f_back
    return False


class Trace:
    """A profile hook that notes the modules entered and the service coroutines the Discord
    layer starts, while it is installed."""

    def __init__(self) -> None:
        self.modules: set[str] = set()
        self.calls: list[str] = []
        self.store_calls: list[str] = []
        self.batched_calls: list[str] = []
        self._seen: set[FrameType] = set()  # kept alive, so no frame id is reused meanwhile
        #: Calls from one module into another (a function's first call, not a coroutine's
        #: resumption), those into a module already entered before, and the entries into
        #: each module (issue 51: "rooms entered").
        self.transitions = 0
        self.reentries = 0
        self.entries: dict[str, int] = {}
        self._frames: set[FrameType] = set()

    def hook(self, frame: FrameType, event: str, _arg: Any) -> None:
        if event != "call":
            return
        module = str(frame.f_globals.get("__name__", ""))
        if not module.startswith(("bot.", "renderers")):
            return
        self.modules.add(module)
        self._rooms(frame, module)
        code = frame.f_code
        below = module.startswith(("bot.service", "bot.store"))
        if not below or not code.co_flags & _COROUTINE:
            return
        if frame in self._seen:
            return  # a resumption, not a new call
        self._seen.add(frame)
        back = frame.f_back
        caller = str(back.f_globals.get("__name__", "")) if back is not None else ""
        if caller.startswith(("bot.ui", "bot.cogs")):
            calls = self.calls if module.startswith("bot.service") else self.store_calls
            if _batched(back):
                calls = self.batched_calls
            calls.append(f"{caller} -> {module}.{code.co_qualname}")

    def _rooms(self, frame: FrameType, module: str) -> None:
        if frame in self._frames:
            return  # a resumption
        self._frames.add(frame)
        back = frame.f_back
        caller = str(back.f_globals.get("__name__", "")) if back is not None else ""
        if caller == module:
            return
        self.transitions += 1
        self.reentries += module in self.entries
        self.entries[module] = self.entries.get(module, 0) + 1

    def __enter__(self) -> Trace:
        threading.setprofile(self.hook)
        sys.setprofile(self.hook)
        return self

    def __exit__(self, *_: object) -> None:
        sys.setprofile(None)
        threading.setprofile(None)

    def figures(self, names: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "modules": len(self.modules),
            "service_calls": len(self.calls),
            "calls": self.calls,
            "store_calls": self.store_calls,
            "batched_calls": self.batched_calls,
            "transitions": self.transitions,
            "reentries": self.reentries,
            "post_rooms": {m: self.entries.get(m, 0) for m in POST_ROOMS},
        }
        if names:
            out["module_names"] = sorted(self.modules)
        return out


async def traced_moves(
    fake: FakeDiscord, bot: MexicanTrainBot, preset: str, names: bool = False
) -> dict[str, dict[str, Any]]:
    """Two typed tile plays and two clicked tile plays, each traced, in the order typed,
    clicked, typed, clicked (the first two open the players' DM channels); other turns are
    typed untraced until the next kind has had a tile to play."""
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    users: dict[int, FakeUser] = {alice.id: alice, bob.id: bob}
    game = await open_game(fake, bot, games, alice, [bob], preset=preset)
    await idle(fake)
    out: dict[str, dict[str, Any]] = {}
    order = ["typed", "clicked", "typed_later", "clicked_later"]
    for _ in range(400):
        if len(out) == len(order):
            break
        uid, view = await to_move(bot, game.id)
        user = users[uid]
        play = next((m for m in view.legal if isinstance(m, Play)), None)
        if play is None:
            await said(await type_move(user, games, str(view.legal[0])))
            continue
        kind = order[len(out)]
        text = str(play)  # the script's own call, outside the trace
        if kind.startswith("typed"):
            with Trace() as trace:
                await said(await type_move(user, games, text))
            out[kind] = trace.figures(names)
            continue
        post = last_public(games)
        with Trace() as trace:
            picker = await said(await user.click(post, label="Play"))
            await said(await user.select(picker, values=[text]))
        out[kind] = trace.figures(names)
    return out


async def main(args: argparse.Namespace) -> None:
    logging.getLogger("discord").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory() as tmp:
        config = Config(database=Path(tmp) / "trace.sqlite3", synchronous="NORMAL")
        bot = create_bot(config, rng=random.Random(args.seed))
        async with fake_discord() as fake, running_bot(fake, bot):
            moves = await traced_moves(fake, bot, args.preset, args.names)
    total = len({m for p in sys.modules if p.startswith(("bot.", "renderers")) for m in [p]})
    print(json.dumps({"script": "turn_trace", **vars(args), "bot_modules": total, **moves}))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--names", action="store_true", help="list the modules each move ran")
    asyncio.run(main(parser.parse_args()))
