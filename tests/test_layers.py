"""The engine's import graph: no cycle, and each layer imports only the layers below it.

Every import counts, at the top of a module or inside a function (a lazy import hides a
cycle, it does not remove it); only imports under ``if TYPE_CHECKING:`` are left out, since
they never run. Rendering (``calijack.render``) is not part of the engine: the lazy
``_repr_html_`` hooks that reach it are the one deliberate way up.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "calijack"
OUTSIDE = ("calijack.render", "calijack.widgets", "calijack.serve")


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


ALL = {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def engine_modules() -> dict[str, Path]:
    """Every engine module by dotted name (the package minus rendering, widgets and the server)."""
    return {name: path for name, path in ALL.items() if not name.startswith(OUTSIDE)}


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST):
    """Import nodes that run, skipping ``if TYPE_CHECKING:`` blocks."""
    stack = [tree]
    while stack:
        node = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking_only(child):
                stack.extend(child.orelse)
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                yield child
            stack.append(child)


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Module → the engine modules it imports (resolving relative imports)."""
    graph = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        targets = set()
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                candidates = [alias.name for alias in node.names]
            else:
                base = package.split(".")
                if node.level:
                    base = base[:len(base) - (node.level - 1)]
                    base = ".".join(base + ([node.module] if node.module else []))
                else:
                    base = node.module or ""
                # "from . import core" names a module; "from .state import State" names its module.
                candidates = [f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in ALL]
                candidates = candidates or [base]
            targets |= {c for c in candidates if c in modules and c != name}
        graph[name] = targets
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a list of nodes (first node repeated at the end), or ``None``."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str):
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


GRAPH = import_graph(engine_modules())


def test_the_cycle_finder_finds_a_cycle_and_only_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_lazy_and_relative_imports_are_read():
    # Sanity: the parser sees what we know is there, so an empty graph cannot pass.
    assert "calijack.core" in GRAPH["calijack.state"] and "calijack.reasons" in GRAPH["calijack.state"]
    assert "calijack.players" in GRAPH["calijack.play"]
    assert "calijack.players.heuristic" in GRAPH["calijack.players.drive"]
    assert "calijack.simulate" in GRAPH["calijack.__main__"]   # imported inside a function


def test_no_import_cycle_inside_the_engine():
    cycle = find_cycle(GRAPH)
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


# Each module with the engine modules it may import (directly): the layers of DESIGN.md.
BELOW = {
    "calijack.quoting": set(),
    "calijack.cards": {"calijack.quoting"},
    "calijack.rules": {"calijack.quoting"},
    "calijack.core": {"calijack.cards", "calijack.rules"},
    "calijack.reasons": {"calijack.cards", "calijack.core"},
    "calijack.text": {"calijack.cards", "calijack.core", "calijack.quoting"},
    "calijack.text_hints": {"calijack.cards"},
    "calijack.text_coach": {"calijack.cards", "calijack.text", "calijack.text_hints"},
    "calijack.text_friend": {"calijack.text"},
    "calijack.view": {"calijack.cards", "calijack.rules", "calijack.text"},
    "calijack.scoring": {"calijack.cards", "calijack.core", "calijack.text"},
    "calijack.fast": {"calijack.core", "calijack.rules"},
}


@pytest.mark.parametrize("module", sorted(BELOW))
def test_low_layers_import_only_what_is_below_them(module):
    assert GRAPH[module] <= BELOW[module], f"{module} imports {sorted(GRAPH[module] - BELOW[module])}"


def test_nothing_in_the_engine_imports_the_sandbox_or_the_command_line():
    top = {"calijack.play", "calijack.__main__", "calijack.simulate"}
    for module, targets in GRAPH.items():
        if module not in top | {"calijack"}:
            assert not targets & {"calijack.play", "calijack.__main__"}, module
