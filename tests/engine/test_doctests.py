"""The engine's docstring examples run with the suite: an example that no longer holds is a
failing test, not a misleading page."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import bot.engine

MODULES = sorted(m.name for m in pkgutil.walk_packages(bot.engine.__path__, prefix="bot.engine."))


def test_the_engine_has_examples() -> None:
    """Some modules hold examples (so this file tests something)."""
    found = sum(
        len(t.examples)
        for name in MODULES
        for t in doctest.DocTestFinder().find(importlib.import_module(name))
    )
    assert found >= 5, found


@pytest.mark.parametrize("name", MODULES)
def test_examples_hold(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
