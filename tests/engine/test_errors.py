"""Every refusal the engine raises derives from one base, :class:`bot.engine.EngineError`, and
names its reason with a code (issue 51, "types at the edges")."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path

import pytest

import bot.engine
from bot.engine import (
    EngineError,
    IllegalMove,
    MoveError,
    Rules,
    RulesError,
    TileError,
    parse_move,
)
from bot.engine.match import EngineVersionError, EventError, Match, check_engine_version
from bot.engine.position import PositionError, loads
from bot.engine.tiles import parse_tiles
from tests.engine.helpers import table

ENGINE = Path(bot.engine.__file__).parent


def _engine_modules() -> list[str]:
    return [
        m.name
        for m in pkgutil.walk_packages([str(ENGINE)], prefix="bot.engine.")
        if not m.name.endswith("__main__")
    ]


def test_every_exception_class_the_engine_defines_derives_from_the_base() -> None:
    """A new refusal class without the base would be caught by nobody who asks for "anything
    the engine refused"; the search's private budget signal is the one exception that is no
    refusal (it never leaves the search)."""
    found = []
    for name in _engine_modules():
        module = importlib.import_module(name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != name or not issubclass(cls, BaseException):
                continue
            found.append(cls.__name__)
            if cls.__name__ == "OutOfBudget":
                continue
            assert issubclass(cls, EngineError), f"{name}.{cls.__name__}"
    assert {
        "TileError",
        "MoveError",
        "IllegalMove",
        "RulesError",
        "PositionError",
        "EventError",
        "EngineVersionError",
    } <= set(found)


def test_the_engine_raises_no_bare_value_error() -> None:
    """A bare ``raise ValueError`` in the engine would be a refusal without a code."""
    for path in ENGINE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                func = node.exc.func
                assert not (isinstance(func, ast.Name) and func.id == "ValueError"), (
                    f"{path.name}:{node.lineno}"
                )


@pytest.mark.parametrize(
    ("refuse", "kind", "code"),
    [
        (lambda: parse_tiles("13-2", 12), TileError, "not-in-set"),
        (lambda: parse_move("12-5 nowhere"), MoveError, None),
        (lambda: Rules(max_pip=7).check(), RulesError, "bad-rules"),
        (lambda: loads("{}"), PositionError, "bad-position"),
        (lambda: check_engine_version(99), EngineVersionError, "engine-version"),
        (lambda: Match.replay_dicts(Rules(), ["A", "B"], [{"kind": "?"}]), EventError, "bad-event"),
    ],
)
def test_each_refusal_is_an_engine_error_with_a_code(
    refuse: object, kind: type[EngineError], code: str | None
) -> None:
    with pytest.raises(EngineError) as caught:
        refuse()  # type: ignore[operator]
    assert isinstance(caught.value, kind) and isinstance(caught.value, ValueError)
    assert caught.value.code and (code is None or caught.value.code == code), caught.value.code
    assert str(caught.value)


def test_an_illegal_move_keeps_its_rule_s_code() -> None:
    rnd = table(Rules(), ["12-3", "9-1"])
    with pytest.raises(EngineError) as caught:
        rnd.apply(parse_move("9-1 @2"))
    assert isinstance(caught.value, IllegalMove) and caught.value.code == "not-in-hand"
