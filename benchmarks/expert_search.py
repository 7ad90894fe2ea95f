"""The Expert's search (:mod:`bot.engine.ai.expert`) as the benchmarks play it: with its CPU
budget on this process's CPU clock, as the bot's thinking workers run it.

``benchmarks/ai_strength.py --only search_vs_hard`` plays :func:`search_move` (worlds weighted
by the opponents' plays) and ``flat_search_vs_hard`` :func:`flat_search_move` (unweighted
worlds, the control). The search moved into the engine in issue 35's worker-process change;
for the same seed it plays the same moves as the benchmark-only copy it replaced.

    python benchmarks/ai_strength.py --only search_vs_hard --rounds 100
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine.ai import expert
from bot.engine.moves import Move
from bot.engine.view import SeatView


def search_move(view: SeatView, seed: int) -> Move:
    """The Expert's move, over worlds weighted by the opponents' plays, within its budget."""
    return expert.search(view, seed, weighted=True, clock=time.process_time)


def flat_search_move(view: SeatView, seed: int) -> Move:
    """The same search over unweighted worlds (the control the weighting is measured by)."""
    return expert.search(view, seed, weighted=False, clock=time.process_time)
