"""The Expert's search (:mod:`bot.engine.ai.expert`) as the benchmarks play it: with its CPU
budget on this process's CPU clock, as the bot's thinking workers run it.

``benchmarks/ai_strength.py --only search_vs_hard`` plays :func:`search_move` (worlds weighted
by the opponents' plays) and ``flat_search_vs_hard`` :func:`flat_search_move` (unweighted
worlds, the control). The search moved into the engine in issue 35's worker-process change;
for the same seed it plays the same moves as the benchmark-only copy it replaced.

    python benchmarks/ai_strength.py --only search_vs_hard --rounds 100

Issue 49's variants are chosen by :func:`configure` (``ai_strength.py``'s ``--search-*`` flags,
in every worker process through the pool's initializer): one :class:`~bot.engine.ai.expert.
Settings` for both players, ``search`` on weighted worlds and ``flat_search`` on unweighted.
"""

from __future__ import annotations

import dataclasses
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine.ai import expert
from bot.engine.moves import Move
from bot.engine.view import SeatView

#: The variant this process plays (the Expert as offered unless :func:`configure` says).
SETTINGS = expert.OFFERED


def configure(settings: expert.Settings) -> None:
    """Play ``settings`` in this process (``weighted`` is each player's own)."""
    global SETTINGS
    SETTINGS = settings


def search_move(view: SeatView, seed: int) -> Move:
    """The Expert's move, over worlds weighted by the opponents' plays, within its budget."""
    settings = dataclasses.replace(SETTINGS, weighted=True)
    return expert.search(view, seed, clock=time.process_time, settings=settings)


def flat_search_move(view: SeatView, seed: int) -> Move:
    """The same search over unweighted worlds (the control the weighting is measured by)."""
    settings = dataclasses.replace(SETTINGS, weighted=False)
    return expert.search(view, seed, clock=time.process_time, settings=settings)
