"""The server's modules import one another without a circle, and the layers only look down.

Every import that runs counts: those at a module's top and those inside its functions (an
import moved into a function to dodge a circle is still a circle). Imports under
`if TYPE_CHECKING:` do not run, so they are left out: annotations may name a module that
imports this one. Importing `a.b.c` also runs the packages `a` and `a.b`, so those count too
(except the packages around the importing module itself, which are already under way).

The layers (docs/design.md): engine ← bots ← server ← terminal; a module may import only
from its own layer or the ones below it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parents[2] / "src"
LAYERS = ("tranque.engine", "tranque.bots", "tranque.server", "tranque.terminal")

Graph = dict[str, set[str]]


def module_name(path: Path) -> str:
    parts = path.relative_to(SOURCE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(package: str) -> dict[str, Path]:
    """Every module of `package` (its subpackages' too), by dotted name."""
    folder = SOURCE.joinpath(*package.split("."))
    return {module_name(path): path for path in sorted(folder.rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements that can run, anywhere in `node`; `if TYPE_CHECKING:` bodies skipped."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _is_type_checking(child.test):
            for statement in child.orelse:
                if isinstance(statement, ast.Import | ast.ImportFrom):
                    yield statement
                yield from _import_nodes(statement)
            continue
        if isinstance(child, ast.Import | ast.ImportFrom):
            yield child
        yield from _import_nodes(child)


def _ancestors(name: str) -> set[str]:
    """The packages above `name`: a.b.c -> {a, a.b}."""
    parts = name.split(".")
    return {".".join(parts[:end]) for end in range(1, len(parts))}


def imported(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules of `known` that importing `name` (the module at `path`) runs."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in _import_nodes(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets |= {alias.name for alias in node.names}
            continue
        base = package.split(".")
        if node.level:
            base = base[: len(base) - node.level + 1]
        target = ".".join([*base, node.module] if node.module else base) if node.level else node.module or ""
        targets.add(target)
        targets |= {f"{target}.{alias.name}" for alias in node.names}  # `from pkg import submodule`
    # The packages around a module are already being imported when it runs: no edge to those.
    found = targets | (set().union(*map(_ancestors, targets)) - _ancestors(name))
    return (found & known) - {name}


def import_graph(package: str) -> Graph:
    found = modules(package)
    return {name: imported(name, path, set(found)) for name, path in found.items()}


def find_cycle(graph: Graph) -> list[str] | None:
    """One circle of imports, as the modules around it (the first repeated at the end)."""
    done: set[str] = set()
    path: list[str] = []
    on_path: set[str] = set()

    def visit(node: str) -> list[str] | None:
        path.append(node)
        on_path.add(node)
        for target in sorted(graph.get(node, ())):
            if target in on_path:
                return [*path[path.index(target) :], target]
            if target not in done:
                cycle = visit(target)
                if cycle is not None:
                    return cycle
        path.pop()
        on_path.discard(node)
        done.add(node)
        return None

    for start in sorted(graph):
        if start not in done:
            cycle = visit(start)
            if cycle is not None:
                return cycle
    return None


def test_the_cycle_finder_reports_a_circle_and_passes_a_tree() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_the_graph_sees_function_local_imports_but_not_type_checking_ones(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "from typing import TYPE_CHECKING\n"
        "from tranque.server import clock\n"
        "if TYPE_CHECKING:\n"
        "    from tranque.server.table.actor import Table\n"
        "def late():\n"
        "    from tranque.server.store.memory import MemoryStore\n"
    )
    known = {"tranque", "tranque.server", "tranque.server.table.clock", "tranque.server.table.actor"}
    known |= {"tranque.server.store", "tranque.server.store.memory"}
    # `tranque` is already under way when tranque.server.m runs; the store package is not.
    assert imported("tranque.server.m", module, known) == known - {"tranque", "tranque.server.table.actor"}


def test_the_server_modules_import_one_another_without_a_circle() -> None:
    graph = import_graph("tranque.server")
    assert {"tranque.server.app_state", "tranque.server.ws.endpoint"} <= graph["tranque.server.app"]
    cycle = find_cycle(graph)
    assert cycle is None, "import circle: " + " -> ".join(cycle or [])


@pytest.mark.parametrize("lower", range(len(LAYERS) - 1), ids=LAYERS[:-1])
def test_a_layer_imports_nothing_above_it(lower: int) -> None:
    """engine imports none of bots/server/terminal; bots none of server/terminal; and so on."""
    above = LAYERS[lower + 1 :]
    known = set().union(*(modules(layer) for layer in LAYERS))
    wrong = {
        f"{name} imports {target}"
        for name, path in modules(LAYERS[lower]).items()
        for target in imported(name, path, known)
        if target.startswith(tuple(f"{layer}." for layer in above)) or target in above
    }
    assert not wrong, "\n".join(sorted(wrong))
