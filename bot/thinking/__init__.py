"""The computer players' thinking, off the event loop: a pool of worker processes.

A computer move is chosen from plain values — the seat's view, the level, the seed — so it
can be chosen in another process and be exactly the move :func:`bot.engine.ai.choose_move`
gives here for the same inputs (the Expert's CPU budget aside). :class:`Thinker` (in
:mod:`bot.thinking.pool`, which starts processes) sends Hard's and the Expert's decisions to
its own workers, not the render pool's, so a 0.8 s search never holds up a picture, and
decides the cheap levels here, where a round trip would cost more than the decision. A worker
that dies or overruns never stalls a game: Hard's move, chosen here, else the first legal one.

This package's ``__init__`` and :mod:`bot.thinking.jobs` import only the engine: a worker
(:mod:`bot.thinking.worker`) loads no Pillow and no event loop.
"""
