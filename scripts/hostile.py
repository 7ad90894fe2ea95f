"""The hostile-input catalogue (tests/e2e/hostile.py) against the real bot through the fake
Discord: ONE JSON line with how each input was answered.

    python scripts/hostile.py            # the whole catalogue
    python scripts/hostile.py --verbose  # also one line per problem, on stderr

Fields: ``total``, ``answered`` (a first answer within Discord's 3 s), ``refused_clearly`` (a
short private refusal that changed nothing), ``accepted``, ``unanswered``, ``tracebacks``
(entries during which anything logged at ERROR or with a traceback), ``undelivered`` (a
refusal the player never saw), ``wrong`` (a refusal that changed something, or an answer
other than the one expected), ``by_category``, ``seconds`` and ``load_average``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere

from bot.app import MexicanTrainBot, create_bot
from bot.config import Config
from tests.clock import FakeClock
from tests.e2e.hostile import catalogue, run_catalogue
from tests.fakediscord import fake_discord, running_bot


async def main(verbose: bool) -> dict[str, object]:
    logging.getLogger().addHandler(logging.NullHandler())  # the catalogue captures its own
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        config = Config(database=Path(tmp) / "games.sqlite3", render_workers=0)
        bot = create_bot(config, clock=FakeClock(), rng=random.Random(7))
        assert isinstance(bot, MexicanTrainBot)
        async with fake_discord() as fake, running_bot(fake, bot):
            report = await run_catalogue(fake, bot, catalogue())
    out: dict[str, object] = dict(report.counts())
    categories: dict[str, int] = {}
    for result in report.results:
        categories[result.entry.category] = categories.get(result.entry.category, 0) + 1
    out["by_category"] = categories
    out["seconds"] = round(time.perf_counter() - started, 1)
    out["load_average"] = round(os.getloadavg()[0], 2)
    if verbose:
        for line in report.problems():
            print(line, file=sys.stderr)
    return out


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--verbose", action="store_true", help="one line per problem on stderr")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(main(args.verbose))))
