"""The import graph of ``tablectl`` (``src/tablectl``, ``drivers``, ``simulators``): no circle, and
no module importing from a layer above its own.

Every import that runs counts, a lazy one inside a function too: a circle through a lazy import
is still two modules that cannot be understood, tested or moved one without the other. An import
under ``if TYPE_CHECKING:`` names a type for the reader and never runs: a module may name the type
of what calls it (``table.screen`` takes a ``TableCore``) without depending on it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = {"tablectl": ROOT / "src" / "tablectl", "tablectl.drivers": ROOT / "drivers", "tablectl.simulators": ROOT / "simulators"}

#: Lowest first: a module imports only from its own layer or below (by its first name under ``tablectl``).
LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"cards", "text", "files", "progress", "checks", "lookalike", "connection"}),
    frozenset({"supervisor", "rounds", "drivers", "simulators", "rules", "eventlog", "hil"}),
    frozenset({"games", "gamemath", "config"}),
    frozenset({"detection"}),
    frozenset({"table"}),
    frozenset({"review", "display"}),
    frozenset({"analytics", "live"}),
    frozenset({"pit"}),
    frozenset({"commands", "cli", "pytest_plugin", "__main__"}),
)


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package, folder in SOURCES.items():
        for path in folder.rglob("*.py"):
            parts = path.relative_to(folder).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join((package, *parts))] = path
    return found


MODULES = _modules()


def _imports(name: str, path: Path) -> set[str]:
    """The tablectl modules ``name`` imports (a package's ``__init__`` counts as the package)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    tree = ast.parse(path.read_text(), str(path))
    typing_only = {id(n) for block in ast.walk(tree) if isinstance(block, ast.If) and _is_type_checking(block.test)
                   for statement in block.body for n in ast.walk(statement)}
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join([*package.split(".")[: len(package.split(".")) - node.level + 1], *filter(None, [base])])
            for alias in node.names:
                full = f"{base}.{alias.name}"
                targets.add(full if full in MODULES else base)
    return {t for t in targets if t in MODULES and t != name}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _layer(module: str) -> int:
    head = module.split(".")[1] if module != "tablectl" else ""
    for i, names in enumerate(LAYERS):
        if head in names:
            return i
    raise AssertionError(f"{module}: its package {head!r} is in no layer of {__name__}.LAYERS")


def _cycles() -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in GRAPH[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    return found


def test_no_module_imports_itself_through_others() -> None:
    assert _cycles() == []


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m != "tablectl"))
def test_no_module_imports_from_a_layer_above_its_own(module: str) -> None:
    above = sorted(t for t in GRAPH[module] if t != "tablectl" and _layer(t) > _layer(module))
    assert above == [], f"{module} (layer {_layer(module)}) imports from above: {above}"
