"""The layered import contract: imports point down the layers, packages never import each other in a circle.

Every module under src/xeri is parsed (not imported) and every import in it
counts: module level, inside functions, under ``TYPE_CHECKING``, ``from . import x``.
The layers, lowest first, are drawn in docs/architecture.md. A module may import
its own layer and the layers below it; a new module must be given a layer here.
Inside the server (``xeri.server``, one component of the layers) no two modules
import each other in a circle either, however indirectly (issue 25): each
strongly connected group of its import graph is named, with no exceptions.
The server lives in named rooms (``SERVER_ROOMS``, one folder per concern, issue 40), with at most
``SERVER_TOP_MOST`` modules at its top, and no two rooms import each other in a circle either.
The tests share their helpers through tests/support and each folder's conftest.py: no test module imports another,
and pytest's ``pythonpath`` is ``tests`` alone; tests/server has one folder per room it tests (issue 40).
"""

from __future__ import annotations

import ast
import sys
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "xeri"

#: the stdlib-only core: these import only the standard library and each other
CORE = ["cards", "rules", "engine", "events", "scoring", "match", "record", "errors", "seeds", "notation", "saves",
        "fairness", "views", "table_rules"]

#: lowest first: (layer, the packages and modules in it). A module belongs to its longest listed prefix, and that
#: prefix is its *component* for the cycle check.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("core", ("xeri", *(f"xeri.{name}" for name in CORE))),
    # The observation tensors (bots/encoding.py) read the core only: the learned bot and the integrations share them.
    ("bots", ("xeri.bots",)),
    ("tools", ("xeri.arena", "xeri.integrations", "xeri.fast", "xeri.review", "xeri.bench", "xeri.train",
               "xeri.training", "xeri.distill",
               "xeri.offline", "xeri.ratings")),
    ("frontends", ("xeri.server", "xeri.tui", "xeri.paths")),
    ("commands", ("xeri.commands",)),
    ("cli", ("xeri.cli", "xeri.__main__")),
]


def module_name(path: Path, root: Path = SRC) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_in(source: str, module: str, is_package: bool) -> set[tuple[str, tuple[str, ...]]]:
    """Every import statement in ``source`` as (module named, names taken from it): ``("a.b", ())`` for
    ``import a.b``, ``("a.b", ("c",))`` for ``from a.b import c``; relative imports resolved against ``module``."""
    package = module if is_package else module.rpartition(".")[0]
    found: set[tuple[str, tuple[str, ...]]] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update((alias.name, ()) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.add((target, tuple(alias.name for alias in node.names)))
    return found


def source_graph(root: Path = SRC) -> dict[str, set[str]]:
    """module -> the xeri modules it imports: ``from p import m`` counts as ``p.m`` where that is a module, else
    as ``p``; a name that is no module counts as the module that holds it."""
    files = {module_name(p, root): p for p in sorted(root.rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        named = set()
        for base, taken in imports_in(path.read_text(encoding="utf-8"), module, path.name == "__init__.py"):
            as_modules = {f"{base}.{name}" for name in taken} & files.keys()
            named |= as_modules if taken and len(as_modules) == len(taken) else {base, *as_modules}
        targets = set()
        for name in named:
            while name and name not in files:
                name = name.rpartition(".")[0]
            if name and name != module:
                targets.add(name)
        graph[module] = targets
    return graph


def component_of(module: str, layers: list[tuple[str, tuple[str, ...]]] = LAYERS) -> tuple[int, str] | None:
    """(layer index, the listed prefix) the module belongs to; the root ``xeri`` matches only itself."""
    best: tuple[int, str] | None = None
    for index, (_, prefixes) in enumerate(layers):
        for prefix in prefixes:
            hit = module == prefix or (prefix != "xeri" and module.startswith(prefix + "."))
            if hit and (best is None or len(prefix) > len(best[1])):
                best = (index, prefix)
    return best


def violations(graph: Mapping[str, Iterable[str]], layers: list[tuple[str, tuple[str, ...]]] = LAYERS) -> list[str]:
    """One line per unplaced module, import against the layers, and cycle between components."""
    problems: list[str] = []
    edges: dict[str, set[str]] = {}
    for module in sorted(graph):
        here = component_of(module, layers)
        if here is None:
            problems.append(f"{module} has no layer: add it to LAYERS in tests/project/test_architecture.py")
            continue
        for target in sorted(graph[module]):
            there = component_of(target, layers)
            if there is None:
                continue  # reported as a module of its own
            if there[0] > here[0]:
                problems.append(f"{module} (layer {layers[here[0]][0]}) imports {target} "
                                f"(layer {layers[there[0]][0]}, above it)")
            if there[1] != here[1]:
                edges.setdefault(here[1], set()).add(there[1])
    problems.extend(f"cycle between packages: {' -> '.join(cycle)}" for cycle in cycles(edges))
    return problems


def cycles(edges: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """One cycle (first node repeated at the end) for each strongly connected group of two or more nodes."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:  # Tarjan's algorithm; the graph has a few dozen nodes
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return [_cycle_through(sorted(group), edges) for group in groups]


def _cycle_through(group: list[str], edges: Mapping[str, Iterable[str]]) -> list[str]:
    """A path from the group's first node back to itself, inside the group."""
    members = set(group)
    start = group[0]
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        node = frontier.pop(0)
        for nxt in sorted(edges.get(node, ())):
            if nxt == start:
                return [*paths[node], start]
            if nxt in members and nxt not in paths:
                paths[nxt] = [*paths[node], nxt]
                frontier.append(nxt)
    raise AssertionError(f"no cycle in {group}")  # Tarjan only groups nodes on a cycle


#: the package whose modules may import each other in no circle at all
SERVER = "xeri.server"

#: the server's rooms, one folder per concern (docs/architecture.md draws them): a new folder is named here
SERVER_ROOMS = {
    "accounts": "names, passwords, sessions, the account service and its routes",
    "api": "the JSON API: the guard of every route (rate, address, CSRF, refusal -> status), who may see a table "
           "or a match, and the routes of tables, matches, players, meta and verify",
    "broker": "pub/sub from a table to the connections that show it: the envelope, the brokers, RESP",
    "cluster": "several processes: ownership leases, the owner's node, remote tables and their calls",
    "http": "the HTTP edges: headers, hosts and origins, bodies, read deadlines, the page's files, the offline pack",
    "limits": "every rate limit and cap, in memory and in Redis",
    "lobby": "the tables a server holds, here or on another process",
    "matches": "finished matches: summaries, replays, reviews",
    "ops": "the operator's side: admin bars, backups, health checks, log lines",
    "pairing": "\"Play online\": the pools of seekers per format, and the service and routes that seat them",
    "rated": "rated tables and the leaderboards' routes",
    "socket": "one WebSocket per player",
    "store": "the database, and its schema's revisions (store/migrations)",
    "table": "one table: its state, service, views, seats, autoplay and the handle the routes use",
    "wire": "what clients send and what the server sends: schema models, JSON Schema, refusals, safe reading",
}
#: the most modules at the server's top (``__init__.py`` aside): the wiring, and what every room shares
SERVER_TOP_MOST = 10


def server_circles(graph: Mapping[str, Iterable[str]], package: str = SERVER) -> list[str]:
    """One line per import circle among the modules of ``package`` (a strongly connected group of two or more)."""

    def inside(module: str) -> bool:
        return module == package or module.startswith(package + ".")

    edges = {module: {t for t in targets if inside(t)} for module, targets in graph.items() if inside(module)}
    return [f"import circle in {package}: {' -> '.join(cycle)}" for cycle in cycles(edges)]


def test_imports_point_down_the_layers_without_cycles() -> None:
    problems = violations(source_graph())
    assert not problems, "\n".join(problems)


def test_core_uses_only_stdlib_and_core() -> None:
    core = {f"xeri.{name}" for name in CORE} | {"xeri"}
    graph = source_graph()
    for module in sorted(core):
        assert graph[module] <= core, f"{module} imports {sorted(graph[module] - core)}, outside the core"
        path = SRC / ("__init__.py" if module == "xeri" else f"{module.removeprefix('xeri.')}.py")
        for imported, _ in imports_in(path.read_text(encoding="utf-8"), module, module == "xeri"):
            top = imported.split(".")[0]
            assert top == "xeri" or top in sys.stdlib_module_names, f"{module} imports {imported}, not in the stdlib"


def test_no_import_circle_inside_the_server() -> None:
    problems = server_circles(source_graph())
    assert not problems, "\n".join(problems)


def room_edges(graph: Mapping[str, Iterable[str]], package: str = SERVER) -> dict[str, set[str]]:
    """room -> the rooms it imports, where a room is a folder right under ``package`` (a module at its top is a
    room of its own)."""

    def room(module: str) -> str | None:
        parts = module.split(".")
        depth = len(package.split("."))
        return parts[depth] if module.startswith(package + ".") else None

    edges: dict[str, set[str]] = {}
    for module, targets in graph.items():
        here = room(module)
        for target in targets:
            there = room(target)
            if here is not None and there is not None and there != here:
                edges.setdefault(here, set()).add(there)
    return edges


def test_the_server_lives_in_its_named_rooms() -> None:
    server = SRC / "server"
    folders = {p.name for p in server.iterdir() if (p / "__init__.py").is_file()}
    assert folders == set(SERVER_ROOMS), (f"unnamed rooms: {sorted(folders - set(SERVER_ROOMS))}, "
                                          f"gone: {sorted(set(SERVER_ROOMS) - folders)}")
    top = sorted(p.name for p in server.glob("*.py") if p.name != "__init__.py")
    assert len(top) <= SERVER_TOP_MOST, f"{len(top)} modules at server/'s top (at most {SERVER_TOP_MOST}): {top}"


def test_the_server_tests_mirror_the_rooms() -> None:
    """Each folder of tests/server is a room's (tests/server/store/migrations, the store's revisions, below its room):
    a feature's tests are found where its code is."""
    tests = SRC.parents[1] / "tests" / "server"
    folders = {p.parent.relative_to(tests).as_posix() for p in tests.rglob("test_*.py")} - {"."}
    assert {f.split("/")[0] for f in folders} <= set(SERVER_ROOMS), sorted(folders)
    assert all((SRC / "server" / f).is_dir() for f in folders), sorted(f for f in folders
                                                                       if not (SRC / "server" / f).is_dir())


def test_no_import_circle_between_the_servers_rooms() -> None:
    problems = [f"import circle between rooms: {' -> '.join(c)}" for c in cycles(room_edges(source_graph()))]
    assert not problems, "\n".join(problems)


def test_a_circle_between_rooms_is_named() -> None:
    graph = {"xeri.server.ops.admin": {"xeri.server.lobby.lobby"}, "xeri.server.lobby.lobby": {"xeri.server.metrics"},
             "xeri.server.metrics": {"xeri.server.ops.logs"}, "xeri.server.ops.logs": set()}
    assert cycles(room_edges(graph)) == [["lobby", "metrics", "ops", "lobby"]]


# --- The contract can fail: synthetic bad imports -----------------------------------


def test_an_import_against_the_layers_is_named() -> None:
    graph = {"xeri.cards": {"xeri.bots.sim"}, "xeri.bots.sim": {"xeri.cards"}}
    problems = violations(graph)
    assert "xeri.cards (layer core) imports xeri.bots.sim (layer bots, above it)" in problems


def test_a_cycle_between_packages_in_one_layer_is_named() -> None:
    graph = {"xeri.arena.play": {"xeri.fast.rollout"}, "xeri.fast.rollout": {"xeri.integrations.gym"},
             "xeri.integrations.gym": {"xeri.arena.stats"}, "xeri.arena.stats": set()}
    assert violations(graph) == [
        "cycle between packages: xeri.arena -> xeri.fast -> xeri.integrations -> xeri.arena"]


def test_a_circle_inside_the_server_is_named() -> None:
    # The two circles of issue 25: table -> autoplay -> wire -> table, and cluster <-> lobby.
    graph = {"xeri.server.table": {"xeri.server.autoplay", "xeri.server.store"},
             "xeri.server.autoplay": {"xeri.server.wire"}, "xeri.server.wire": {"xeri.server.table"},
             "xeri.server.cluster": {"xeri.server.lobby"}, "xeri.server.lobby": {"xeri.server.cluster"},
             "xeri.server.store": set(), "xeri.server.app": {"xeri.server.lobby", "xeri.cards"}}
    assert sorted(server_circles(graph)) == [
        "import circle in xeri.server: xeri.server.autoplay -> xeri.server.wire -> xeri.server.table"
        " -> xeri.server.autoplay",
        "import circle in xeri.server: xeri.server.cluster -> xeri.server.lobby -> xeri.server.cluster"]
    assert violations(graph) == []  # one component for the layers: only the server's own check sees them


def test_a_circle_through_type_checking_imports_counts(tmp_path: Path) -> None:
    root = tmp_path / "xeri"
    (root / "server").mkdir(parents=True)
    for name in ("__init__.py", "server/__init__.py"):
        (root / name).write_text("", encoding="utf-8")
    (root / "server" / "table.py").write_text("from .autoplay import Autoplay\n", encoding="utf-8")
    (root / "server" / "autoplay.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .table import Table\n", encoding="utf-8")
    assert server_circles(source_graph(root)) == [
        "import circle in xeri.server: xeri.server.autoplay -> xeri.server.table -> xeri.server.autoplay"]


def test_a_module_without_a_layer_is_named() -> None:
    assert violations({"xeri.newthing": set()}) == [
        "xeri.newthing has no layer: add it to LAYERS in tests/project/test_architecture.py"]


def test_function_level_and_relative_imports_are_seen(tmp_path: Path) -> None:
    root = tmp_path / "xeri"
    (root / "bots").mkdir(parents=True)
    for name in ("__init__.py", "cards.py", "bots/__init__.py", "bots/sim.py"):
        (root / name).write_text("", encoding="utf-8")
    (root / "cards.py").write_text("def f():\n    from .bots import sim\n", encoding="utf-8")
    (root / "bots" / "sim.py").write_text("from .. import cards\n", encoding="utf-8")
    graph = source_graph(root)
    assert graph["xeri.cards"] == {"xeri.bots.sim"}
    assert graph["xeri.bots.sim"] == {"xeri.cards"}
    assert "xeri.cards (layer core) imports xeri.bots.sim (layer bots, above it)" in violations(graph)


def imports_of_test_modules(tests: Path) -> list[str]:
    """Every import, anywhere in a file under ``tests``, of a module named ``test_*``: "FILE imports NAME"."""
    found = []
    for path in sorted(tests.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
            found += [f"{path.relative_to(tests)} imports {n}" for n in names if n.split(".")[-1].startswith("test_")]
    return found


def test_no_test_module_imports_another() -> None:
    tests = SRC.parents[1] / "tests"
    assert imports_of_test_modules(tests) == [], "shared helpers belong in tests/support or a conftest.py"
    pytest_options = tomllib.loads((SRC.parents[1] / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert pytest_options["pythonpath"] == ["tests"]


def test_a_test_module_importing_another_is_named(tmp_path: Path) -> None:
    (tmp_path / "web").mkdir()
    (tmp_path / "web" / "test_b.py").write_text("def f():\n    from test_a import helper\n", encoding="utf-8")
    (tmp_path / "test_c.py").write_text("import test_b\nfrom support.browser import new_page\n", encoding="utf-8")
    assert imports_of_test_modules(tmp_path) == ["test_c.py imports test_b", "web/test_b.py imports test_a"]
