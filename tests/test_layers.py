"""The engine's import graph: no cycle, and each layer imports only the layers below it.

Every import counts, at the top of a module or inside a function (a lazy import hides a
cycle, it does not remove it); only imports under ``if TYPE_CHECKING:`` are left out, since
they never run. Rendering (``calijack.render``) is not part of the engine: the lazy
``_repr_html_`` hooks that reach it are the one deliberate way up.
"""

from __future__ import annotations

import ast
import re
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


# Each module with the engine modules it may import (directly): narrower than DESIGN.md's layers.
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


# ------------------------------------------------------------------------------------------
# The layers of DESIGN.md, for every module of the package (render, widgets and serve too).
# DESIGN.md's list between <!-- layers: … --> and <!-- /layers --> is the one map: each item
# "- **N. name**: `module`, `module`, … description".

DESIGN = PACKAGE.parent / "DESIGN.md"
LAYER_ITEM = re.compile(r"^- \*\*(\d+)\. ([^*]+)\*\*:(.*?)(?=^- \*\*|\Z)", re.S | re.M)
MODULE_NAME = re.compile(r"`(calijack(?:\.[\w]+)*)`")
# The one way up: a card, a state and a deal's result show themselves in a notebook through a
# lazy _repr_html_ that imports calijack.render when called.
REPR_HOOKS = {"calijack.cards", "calijack.state", "calijack.scoring"}


def design_layers(text: str) -> list[tuple[str, list[str]]]:
    """DESIGN.md's layers, bottom first: (name, the modules it names), in the order written."""
    block = re.search(r"<!-- layers:.*?-->\n(.*?)<!-- /layers -->", text, re.S)
    assert block, "DESIGN.md has no <!-- layers: … --> … <!-- /layers --> list"
    layers = []
    for number, name, body in LAYER_ITEM.findall(block.group(1)):
        assert int(number) == len(layers), f"DESIGN.md: layer {number} ({name}) out of order"
        layers.append((name, MODULE_NAME.findall(body)))
    return layers


LAYERS = design_layers(DESIGN.read_text(encoding="utf-8"))
LAYER_OF = {module: i for i, (_, modules) in enumerate(LAYERS) for module in modules}
FULL_GRAPH = import_graph(ALL)


def test_design_lists_layers_and_the_parser_reads_them():
    assert len(LAYERS) >= 8 and all(modules for _, modules in LAYERS)
    sample = ("<!-- layers: x -->\n- **0. a**: `calijack.quoting`, words.\n"
              "- **1. b**: `calijack.cards`\n  `calijack.rules`. More words.\n<!-- /layers -->")
    assert design_layers(sample) == [("a", ["calijack.quoting"]), ("b", ["calijack.cards", "calijack.rules"])]
    with pytest.raises(AssertionError, match="out of order"):
        design_layers(sample.replace("**1. b**", "**2. b**"))


def test_every_module_named_in_design_exists():
    named = [module for _, modules in LAYERS for module in modules]
    missing = sorted(set(named) - set(ALL))
    assert not missing, f"DESIGN.md names modules that do not exist: {missing}"
    twice = sorted({m for m in named if named.count(m) > 1})
    assert not twice, f"DESIGN.md puts these modules in two layers: {twice}"


def test_every_module_of_the_package_is_in_a_layer():
    unplaced = sorted(set(ALL) - set(LAYER_OF))
    assert not unplaced, f"modules in no layer of DESIGN.md (add each to its layer): {unplaced}"


def test_no_module_imports_a_layer_above_its_own():
    wrong = []
    for module, targets in FULL_GRAPH.items():
        for target in targets:
            if module not in LAYER_OF or target not in LAYER_OF:
                continue  # named by test_every_module_of_the_package_is_in_a_layer
            if LAYER_OF[target] > LAYER_OF[module] and not (module in REPR_HOOKS and target == "calijack.render"):
                wrong.append(f"{module} (layer {LAYER_OF[module]}) imports {target} (layer {LAYER_OF[target]})")
    assert not wrong, "\n".join(wrong)


def _function_of_each_import(tree: ast.AST, name: str):
    """The name of the function around each import of ``name`` (None at module level)."""
    found = []

    def walk(node, function):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                walk(child, child.name)
            elif isinstance(child, ast.ImportFrom) and any(a.name == name for a in child.names):
                found.append(function)
            else:
                walk(child, function)

    walk(tree, None)
    return found


@pytest.mark.parametrize("module", sorted(REPR_HOOKS))
def test_the_way_up_is_only_the_lazy_repr_html(module):
    tree = ast.parse(ALL[module].read_text(encoding="utf-8"))
    functions = _function_of_each_import(tree, "render")
    assert functions and set(functions) == {"_repr_html_"}, f"{module} imports render in {functions}"


def test_the_layer_check_can_fail():
    # A module of the engine that imported the widgets would be caught.
    assert LAYER_OF["calijack.core"] < LAYER_OF["calijack.widgets.sandbox"]
    assert LAYER_OF["calijack.widgets"] < LAYER_OF["calijack.serve"]
