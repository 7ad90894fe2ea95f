"""The tree reads as its layers: imports point one way, no circles, no private names across
modules, no file too long to find your way in (see ``docs/layout.md``).

Every module in ``bot/`` and ``renderers/`` is parsed with ``ast`` (nothing is imported), and
every import counts: at the top, inside a function, and under ``if TYPE_CHECKING:`` — a type
the code names is a dependency a reader follows, so the layering must hold for it too. The
checker functions take sources as strings, so the second half of this file proves each check
fails on a small made-up tree with one deliberate violation.
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "renderers")
MAX_LINES = 500

#: Module prefix -> (layer name, rank). The longest prefix wins. A module may import modules
#: of a strictly lower rank, or of its own layer; never a higher rank nor a different layer of
#: the same rank. Ranks: the pure core, the words, the pictures and the database beside each
#: other, the use cases (and the operational pieces beside them), then the Discord layer's
#: shared machinery, the cogs, start-up and the process entry.
LAYERS: dict[str, tuple[str, int]] = {
    "bot": ("package", 0),
    # Numbers read from outside text, strictly: below everything, so every layer reads alike.
    "bot.digits": ("digits", -1),
    "bot.engine": ("engine", 0),
    "bot.config": ("config", 0),
    "bot.configvalues": ("config", 0),
    "bot.i18n": ("words", 1),
    "bot.texts": ("words", 1),
    "renderers": ("renderers", 2),
    "bot.store": ("store", 2),
    "bot.service": ("service", 3),
    "bot.ops": ("ops", 3),
    # The worker processes: the render pool (engine views in, renderers' PNG bytes out) and
    # the computer players' thinking pool (views in, moves out), on the same machinery
    # (bot.workers, which knows neither pictures nor moves).
    "bot.workers": ("workers", 3),
    "bot.drawing": ("workers", 3),
    "bot.thinking": ("workers", 3),
    "bot.ui": ("ui", 4),
    "bot.cogs": ("cogs", 5),
    # The terminal game is a front end beside the cogs: it speaks through the same ui, and
    # opens its own temporary database (the store), as start-up does for the bot.
    "bot.tryit": ("tryit", 5),
    "bot.app": ("app", 6),
    "bot.run": ("entry", 7),
    "bot.__main__": ("entry", 7),
}
#: Lower-ranked layers a layer still must not import: the use cases draw no pictures, and the
#: Discord layer talks to the service only (the values it reads are passed on by bot.service).
NEVER: set[tuple[str, str]] = {
    ("service", "renderers"),
    ("store", "renderers"),
    ("cogs", "store"),
    ("ui", "store"),
}

#: Files allowed over MAX_LINES for now, and why. Each must still be over the limit (a stale
#: entry fails), so the list only shrinks.
LONG_FILES: dict[str, str] = {}


@dataclasses.dataclass(frozen=True, order=True)
class Import:
    """``module`` imports ``target`` at ``line`` (``names``: what a ``from`` import takes)."""

    module: str
    target: str
    line: int
    names: tuple[str, ...] = ()


# ---------------------------------------------------------------------- reading the tree


def module_sources(root: Path = ROOT, packages: Iterable[str] = PACKAGES) -> dict[str, str]:
    """Module name -> source, for every ``.py`` file under the packages."""
    out: dict[str, str] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path.read_text(encoding="utf-8")
    return out


def _is_package(name: str, sources: Mapping[str, str]) -> bool:
    return any(other.startswith(name + ".") for other in sources)


def imports_of(sources: Mapping[str, str]) -> list[Import]:
    """Every import of a module in ``sources`` (anywhere in the file) of another one there.

    ``from pkg import name`` points at ``pkg.name`` when that is a module, else at ``pkg``.
    """
    known = set(sources)
    found: list[Import] = []
    for module, text in sources.items():
        for node in ast.walk(ast.parse(text, module)):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if _inside(alias.name, known):
                        found.append(Import(module, _owner(alias.name, known), node.lineno))
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    here = module if _is_package(module, sources) else module.rpartition(".")[0]
                    for _ in range(node.level - 1):
                        here = here.rpartition(".")[0]
                    base = f"{here}.{base}" if base else here
                if not _inside(base, known):
                    continue
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    target = full if full in known else _owner(base, known)
                    found.append(Import(module, target, node.lineno, (alias.name,)))
    return found


def _inside(name: str, known: set[str]) -> bool:
    return any(name == k or name.startswith(k + ".") or k.startswith(name + ".") for k in known)


def _owner(name: str, known: set[str]) -> str:
    """The known module a dotted name lives in (its longest known prefix)."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name


# ---------------------------------------------------------------------- the four checks


def layer_of(module: str, layers: Mapping[str, tuple[str, int]] = LAYERS) -> tuple[str, int]:
    best = max(
        (p for p in layers if module == p or module.startswith(p + ".")), key=len, default=""
    )
    if not best:
        raise LookupError(f"{module} is in no layer: add it to LAYERS in tests/test_layers.py")
    return layers[best]


def upward_imports(
    found: Iterable[Import],
    layers: Mapping[str, tuple[str, int]] = LAYERS,
    never: set[tuple[str, str]] = NEVER,
) -> list[str]:
    """Imports that point up (or sideways into another layer of the same rank)."""
    bad = []
    for imp in found:
        (mine, rank), (theirs, their_rank) = (
            layer_of(imp.module, layers),
            layer_of(imp.target, layers),
        )
        if mine == theirs:
            continue
        if their_rank >= rank or (mine, theirs) in never:
            bad.append(f"{imp.module} ({mine}) imports {imp.target} ({theirs}) at line {imp.line}")
    return bad


def import_cycles(found: Iterable[Import]) -> list[list[str]]:
    """Groups of modules that import each other, directly or round a circle (Tarjan)."""
    graph: dict[str, set[str]] = {}
    for imp in found:
        graph.setdefault(imp.module, set()).add(imp.target)
        graph.setdefault(imp.target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1 or v in graph[v]:
                cycles.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return cycles


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _defined_here(tree: ast.AST) -> set[str]:
    """Names a module defines: functions, classes, variables and attributes it assigns."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def private_uses(sources: Mapping[str, str]) -> list[str]:
    """Private names crossing a module's edge: ``from x import _name``, and ``thing._name``
    where ``thing`` is not ``self``/``cls`` and this module does not define ``_name`` (an
    imported module's private, or another module's object's: ``ast`` sees no types, so a
    private attribute counts as foreign unless the module itself defines that name)."""
    bad = []
    for imp in imports_of(sources):
        bad += [
            f"{imp.module} imports {name} from {imp.target} at line {imp.line}"
            for name in imp.names
            if _private(name)
        ]
    for module, text in sources.items():
        tree = ast.parse(text, module)
        mine = _defined_here(tree)
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Attribute) and _private(node.attr)):
                continue
            own = isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")
            if not own and node.attr not in mine:
                bad.append(
                    f"{module} uses {ast.unparse(node)} of another module at line {node.lineno}"
                )
    return sorted(bad, key=lambda b: (b.split()[0], int(b.rsplit(" ", 1)[1])))


def long_files(
    lengths: Mapping[str, int], limit: int = MAX_LINES, allowed: Mapping[str, str] = LONG_FILES
) -> list[str]:
    """Files over ``limit`` lines (unless allowed), and allowances no longer needed."""
    bad = [f"{p}: {n} lines (limit {limit})" for p, n in lengths.items() if n > limit]
    bad = [b for b in bad if b.partition(":")[0] not in allowed]
    for path in allowed:
        if lengths.get(path, 0) <= limit:
            bad.append(f"{path} is no longer over {limit} lines: drop it from LONG_FILES")
    return bad


def file_lengths(root: Path = ROOT, packages: Iterable[str] = PACKAGES) -> dict[str, int]:
    return {
        path.relative_to(root).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for package in packages
        for path in sorted((root / package).rglob("*.py"))
    }


# ---------------------------------------------------------------------- the tree holds


@pytest.fixture(scope="module")
def sources() -> dict[str, str]:
    found = module_sources()
    assert len(found) > 80 and "bot.ui.announcer" in found and "bot.service.commit" in found
    return found


def test_every_module_has_a_layer(sources: dict[str, str]) -> None:
    for module in sources:
        layer_of(module)


def test_no_import_points_up(sources: dict[str, str]) -> None:
    found = imports_of(sources)
    assert len(found) > 200  # the walk sees the imports (else the checks below prove nothing)
    bad = upward_imports(found)
    assert not bad, "imports against the layers:\n" + "\n".join(bad)


def test_no_import_cycle(sources: dict[str, str]) -> None:
    cycles = import_cycles(imports_of(sources))
    assert not cycles, "modules that import each other:\n" + "\n".join(
        " <-> ".join(c) for c in cycles
    )


def test_no_private_name_crosses_a_module(sources: dict[str, str]) -> None:
    bad = private_uses(sources)
    assert not bad, "private names used across modules:\n" + "\n".join(bad)


def test_no_file_is_too_long() -> None:
    bad = long_files(file_lengths())
    assert not bad, "files too long:\n" + "\n".join(bad)


# ---------------------------------------------------------------------- each check can fail

TOY = {
    "bot": "",
    "bot.engine": "",
    "bot.engine.tiles": "X = 1\n",
    "bot.service": "",
    "bot.service.games": "from bot.engine import tiles\n_SECRET = 2\n",
    "bot.ui": "",
    "bot.ui.announcer": "from bot.service.games import _SECRET\n",
    "bot.cogs": "",
    "bot.cogs.play": "import bot.service.games as g\n\ndef f():\n    return g._SECRET\n",
}


def test_checks_pass_a_clean_toy_tree() -> None:
    clean = {**TOY, "bot.ui.announcer": "from bot.service.games import X\n"}
    clean["bot.cogs.play"] = "from bot.ui import announcer\n"
    found = imports_of(clean)
    assert Import("bot.cogs.play", "bot.ui.announcer", 1, ("announcer",)) in found
    assert upward_imports(found) == []
    assert import_cycles(found) == []
    assert private_uses(clean) == []


def test_an_upward_import_is_named_with_its_line() -> None:
    tree = {**TOY, "bot.service.games": "def later():\n    from bot.ui import announcer\n"}
    assert upward_imports(imports_of(tree)) == [
        "bot.service.games (service) imports bot.ui.announcer (ui) at line 2"
    ]


def test_a_type_checking_import_counts() -> None:
    tree = {
        **TOY,
        "bot.engine.tiles": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
        "    from bot.cogs.play import f\n",
    }
    assert upward_imports(imports_of(tree)) == [
        "bot.engine.tiles (engine) imports bot.cogs.play (cogs) at line 3"
    ]


def test_a_sideways_import_and_a_never_pair_are_named() -> None:
    tree = {**TOY, "renderers": "", "bot.store": "", "bot.store.rows": "import renderers\n"}
    tree["bot.ops"] = ""
    tree["bot.ops.logs"] = "from bot.service import games\n"
    assert upward_imports(imports_of(tree)) == [
        "bot.store.rows (store) imports renderers (renderers) at line 1",
        "bot.ops.logs (ops) imports bot.service.games (service) at line 1",
    ]
    assert upward_imports(imports_of({"bot": "", "bot.service": "import renderers\n",
                                      "renderers": ""})) == [
        "bot.service (service) imports renderers (renderers) at line 1"
    ]  # fmt: skip


def test_a_module_outside_the_table_is_refused() -> None:
    with pytest.raises(LookupError, match=r"bot\.newthing is in no layer"):
        layer_of("bot.newthing", {"bot.engine": ("engine", 0)})


def test_a_cycle_is_named_even_inside_one_layer() -> None:
    tree = {
        **TOY,
        "bot.ui.components": "from bot.ui import announcer\n",
        "bot.ui.announcer": "from bot.ui.components import X\n",
    }
    found = imports_of(tree)
    assert upward_imports(found) == []  # same layer: only the cycle check sees it
    assert import_cycles(found) == [["bot.ui.announcer", "bot.ui.components"]]


def test_private_names_across_modules_are_named() -> None:
    tree = {
        **TOY,
        "bot.service.lobby": "class Lobbies:\n    def go(self, ledger):\n"
        "        self._mine = 1\n        return ledger._get(self._mine)\n",
    }
    assert private_uses(tree) == [
        "bot.cogs.play uses g._SECRET of another module at line 4",
        "bot.service.lobby uses ledger._get of another module at line 4",
        "bot.ui.announcer imports _SECRET from bot.service.games at line 1",
    ]


def test_long_files_and_stale_allowances_are_named() -> None:
    lengths = {"bot/a.py": 601, "bot/b.py": 600, "bot/c.py": 900, "bot/d.py": 10}
    allowed = {"bot/c.py": "being split", "bot/d.py": "was long"}
    assert long_files(lengths, 600, allowed) == [
        "bot/a.py: 601 lines (limit 600)",
        "bot/d.py is no longer over 600 lines: drop it from LONG_FILES",
    ]
