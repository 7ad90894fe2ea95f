"""The engine's docstring examples run as tests, so what the documentation shows is true.

Every module of ``bot.engine`` is searched (the examples read like python-chess's: a tile
parsed, a move printed, a deal's legal moves), and the public API's main entries must keep an
example: a docstring whose example was deleted would otherwise pass in silence.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import bot.engine

MODULES = [
    "bot.engine",
    *sorted(name for _, name, _ in pkgutil.walk_packages(bot.engine.__path__, "bot.engine.")),
]

#: Public entries that must show an example (qualified names as doctest names them).
EXAMPLES = {
    "bot.engine": "a deal's legal moves, a refused move and its reason, a move applied",
    "bot.engine.tiles.Tile": "a tile read and printed",
    "bot.engine.tiles.Tile.parse": "a tile outside the set refused",
    "bot.engine.moves.Play": "str(move) and reading it back",
    "bot.engine.moves.parse_move": "notation read, and refused with a reason",
    "bot.engine.moves.parse_train": "train notation",
    "bot.engine.rules.Rules": "the standard rules' derived facts",
}


def _run(name: str) -> tuple[doctest.TestResults, str, set[str]]:
    module = importlib.import_module(name)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    out: list[str] = []
    examined: set[str] = set()
    for test in doctest.DocTestFinder().find(module, name):
        if test.examples:
            examined.add(test.name)
            runner.run(test, out=out.append)
    return runner.summarize(verbose=False), "".join(out), examined


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_in_docstrings_hold(name: str) -> None:
    results, report, _ = _run(name)
    assert results.failed == 0, report


def test_the_public_api_keeps_its_examples() -> None:
    examined = set().union(*(_run(name)[2] for name in MODULES))
    missing = {name: what for name, what in EXAMPLES.items() if name not in examined}
    assert not missing, f"docstring examples gone: {missing}"
