"""The modules of `tranque` import one another without a circle, and the layers only look down.

Every import written down counts: those at a module's top, those inside its functions (an
import moved into a function to dodge a circle is still a circle) and those under
`if TYPE_CHECKING:` (a name in an annotation still ties the two modules together: neither can
be read, or changed, without the other).

Packages. Importing `a.b.c` first runs the packages `a` and `a.b`, so an import of `a.b.c`
also counts as an import of the packages around it, except the packages around the importing
module itself: those are already under way when it runs, so a package's `__init__` that
re-exports from its children makes no circle with them. A child that names its own package
explicitly (`from a.b import name`, `import a.b`) reads the package's namespace, and if that
`__init__` imports the child back, the name may not exist yet when the child asks for it: a
real circle at import time, reported like any other.

The layers (docs/design.md): engine ← bots ← server ← terminal ← cli, with the `tranque`
package itself between the engine and the bots (it re-exports the engine). A module may import
only from its own layer or the ones below it.

The server's domain packages (table, lobby, cluster, …) are rooms, and so is each of its other
modules and packages (app_state.py, migrations/, …): the graph of rooms, each room the union
of its modules' imports, has no circle either, once the few edges of `ALLOWED_ROOM_EDGES` are
left out. Each of those is listed with why it is still there and how it would be cut.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[2] / "src"
ROOT = "tranque"
# Lowest first. "tranque" alone is the package's own __init__, which re-exports the engine.
LAYERS = ("tranque.engine", "tranque", "tranque.bots", "tranque.server", "tranque.terminal", "tranque.cli")
SERVER = "tranque.server"
ROOMS = (
    "table",
    "lobby",
    "cluster",
    "players",
    "accounts",
    "analysis",
    "http",
    "ws",
    "store",
    "tournaments",
    "penas",
    "seasons",
)
PART_OF = {"migrations": "store"}  # the store's schema versions, which the store runs: one room
# Imports between rooms that close a circle of rooms and are allowed for now, each with the
# reason (the module that imports, and what). Remove an edge once it is cut: the test fails
# for an edge no module makes any more. Never add one to let a new circle in.
ALLOWED_ROOM_EDGES: dict[tuple[str, str], str] = {
    ("store", "accounts"): "store/memory/, store/sql/ and migration 0002 key names by "
    "accounts/names.py's `skeleton` (a pure function); cut by moving the name rules below the store",
    ("table", "players"): "table/actor.py shows ratings: the chances before a game and, in its "
    "`game_ended`, what a game won changes (players/archive.py, ratings.py, table_rating.py), "
    "though players/recorder.py keeps them; cut by handing the actor a rating preview to call",
    ("players", "http"): "players/friends.py refuses with http/errors.py's `ApiError` (a refusal "
    "with its HTTP status); cut by a refusal of its own that http/friends.py answers",
    ("ws", "tranque.server.app_state"): "ws/endpoint.py reads the process's `ServerState` from "
    "the socket's app, while settings.py names ws/limits.py's `SocketLimits`; cut by handing "
    "the endpoint what it uses",
}

Graph = dict[str, set[str]]


def module_name(path: Path) -> str:
    parts = path.relative_to(SOURCE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(package: str = ROOT) -> dict[str, Path]:
    """Every module of `package` (its subpackages' too), by dotted name."""
    folder = SOURCE.joinpath(*package.split("."))
    return {module_name(path): path for path in sorted(folder.rglob("*.py"))}


def _import_nodes(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement anywhere in `node`: top, functions, `if TYPE_CHECKING:` alike."""
    for child in ast.walk(node):
        if isinstance(child, ast.Import | ast.ImportFrom):
            yield child


def _ancestors(name: str) -> set[str]:
    """The packages above `name`: a.b.c -> {a, a.b}."""
    parts = name.split(".")
    return {".".join(parts[:end]) for end in range(1, len(parts))}


def imported(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules of `known` that the module `name` (at `path`) imports, as the docstring counts them."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in _import_nodes(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets |= {alias.name for alias in node.names}
            continue
        base = package.split(".")
        if node.level:
            base = base[: len(base) - node.level + 1]
        source = ".".join([*base, node.module] if node.module else base) if node.level else node.module or ""
        submodules = {f"{source}.{alias.name}" for alias in node.names} & known
        targets |= submodules
        if len(submodules) < len(node.names):  # some name is read from `source`'s own namespace
            targets.add(source)
    # Running a target runs the packages around it, except those around `name`: already under way.
    found = targets | (set().union(set(), *map(_ancestors, targets)) - _ancestors(name))
    return (found & known) - {name}


def import_graph(package: str = ROOT) -> Graph:
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


def find_cycles(graph: Graph) -> list[list[str]]:
    """One circle through each knot of modules that reach one another (each strongly connected part)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    knots: list[set[str]] = []

    def connect(node: str) -> None:  # Tarjan's algorithm (the graphs here are a few hundred nodes)
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                connect(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            knot: set[str] = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                knot.add(member)
                if member == node:
                    break
            if len(knot) > 1:
                knots.append(knot)

    for start in sorted(graph):
        if start not in index:
            connect(start)
    cycles = []
    for knot in knots:
        cycle = find_cycle({node: graph[node] & knot for node in knot})
        assert cycle is not None
        cycles.append(cycle)
    return sorted(cycles)


def describe(cycles: list[list[str]]) -> str:
    return "\n".join(" -> ".join(cycle) for cycle in cycles)


def room_of(name: str) -> str:
    """The server room of a module: its domain package, else its own top module or package."""
    if name == SERVER:
        return SERVER
    top = name.removeprefix(f"{SERVER}.").split(".")[0]
    top = PART_OF.get(top, top)
    return top if top in ROOMS else f"{SERVER}.{top}"


def room_graph(graph: Graph) -> Graph:
    """The server's modules grouped by room; an edge between two rooms for any import between them."""
    rooms: Graph = {}
    for name, targets in graph.items():
        if name == SERVER or name.startswith(f"{SERVER}."):
            room = room_of(name)
            rooms.setdefault(room, set())
            rooms[room] |= {room_of(target) for target in targets if target.startswith(f"{SERVER}.")} - {room}
    return rooms


def layer_of(name: str) -> int:
    """The index in LAYERS of the layer `name` belongs to."""
    for rank, layer in sorted(enumerate(LAYERS), key=lambda item: -len(item[1])):
        if name == layer or (layer != ROOT and name.startswith(f"{layer}.")):
            return rank
    raise AssertionError(f"{name} is in no layer")


def test_the_cycle_finders_report_a_circle_and_pass_a_tree() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None
    two = {"a": {"b"}, "b": {"a", "c"}, "c": {"d"}, "d": {"e"}, "e": {"c"}, "f": {"a"}}
    assert find_cycles(two) == [["a", "b", "a"], ["c", "d", "e", "c"]]
    assert find_cycles({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []


def test_the_graph_counts_every_import_and_the_packages_around_it(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "from typing import TYPE_CHECKING\n"
        "from tranque.server.table import clock\n"
        "if TYPE_CHECKING:\n"
        "    from tranque.server.table.actor import Table\n"
        "def late():\n"
        "    from tranque.server.store.memory import MemoryStore\n"
    )
    known = {"tranque", "tranque.server", "tranque.server.table", "tranque.server.table.clock"}
    known |= {"tranque.server.table.actor", "tranque.server.store", "tranque.server.store.memory"}
    # `tranque` and `tranque.server` are already under way when tranque.server.m runs; the others are not.
    assert imported("tranque.server.m", module, known) == known - {"tranque", "tranque.server"}


def test_a_package_may_re_export_a_child_but_a_child_reading_the_package_is_a_circle(tmp_path: Path) -> None:
    package = tmp_path / "__init__.py"
    package.write_text("from tranque.server.table.actor import Table\n")
    child = tmp_path / "actor.py"
    child.write_text("from tranque.server.table.clock import Clock\n")
    reader = tmp_path / "reader.py"
    reader.write_text("from tranque.server.table import Table\n")
    known = {"tranque", "tranque.server", "tranque.server.table", "tranque.server.table.actor"}
    known |= {"tranque.server.table.clock", "tranque.server.table.reader"}
    graph = {
        "tranque.server.table": imported("tranque.server.table", package, known),
        "tranque.server.table.actor": imported("tranque.server.table.actor", child, known),
        "tranque.server.table.reader": imported("tranque.server.table.reader", reader, known),
    }
    assert graph["tranque.server.table.actor"] == {"tranque.server.table.clock"}
    assert find_cycle(graph) is None
    graph["tranque.server.table"].add("tranque.server.table.reader")  # the package imports the reader back
    circle = ["tranque.server.table", "tranque.server.table.reader", "tranque.server.table"]
    assert find_cycle(graph) == circle


def test_the_rooms_are_the_server_domain_packages() -> None:
    assert room_of("tranque.server.table.actor") == "table"
    assert room_of("tranque.server.store") == "store"
    assert room_of("tranque.server.app") == "tranque.server.app"
    assert room_of("tranque.server.migrations.env") == "store"
    graph = {"tranque.server.table.actor": {"tranque.server.store.base", "tranque.server.table.seats"}}
    assert room_graph(graph) == {"table": {"store"}}


def test_the_modules_import_one_another_without_a_circle() -> None:
    graph = import_graph()
    assert {"tranque.server.app_state", "tranque.server.ws.endpoint"} <= graph["tranque.server.app"]
    assert "tranque.engine" in graph[ROOT]
    cycles = find_cycles(graph)
    assert not cycles, "import circles:\n" + describe(cycles)


def test_the_server_rooms_import_one_another_without_a_circle() -> None:
    rooms = room_graph(import_graph())
    assert set(ROOMS) <= set(rooms)
    kept = {
        room: {target for target in targets if (room, target) not in ALLOWED_ROOM_EDGES}
        for room, targets in rooms.items()
    }
    cycles = find_cycles(kept)
    assert not cycles, "circles between the server's rooms:\n" + describe(cycles)


def test_every_allowed_edge_between_rooms_is_still_made() -> None:
    rooms = room_graph(import_graph())
    gone = [
        f"{room} -> {target}" for room, target in ALLOWED_ROOM_EDGES if target not in rooms.get(room, set())
    ]
    assert not gone, "cut, so take out of ALLOWED_ROOM_EDGES: " + ", ".join(gone)


def test_a_layer_imports_nothing_above_it() -> None:
    """engine imports none of the others; bots none of server/terminal/cli; and so on."""
    graph = import_graph()
    assert {layer_of(name) for name in graph} == set(range(len(LAYERS)))
    wrong = {
        f"{name} imports {target}"
        for name, targets in graph.items()
        for target in targets
        if layer_of(target) > layer_of(name)
    }
    assert not wrong, "\n".join(sorted(wrong))
