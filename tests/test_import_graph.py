"""The import graph of ``hub/``, ``workers/``, ``devkit/``, ``chaos/`` and ``bench/`` runs downward.

Every module's AST is read, with the imports inside functions and ``if`` blocks too (a lazy import
is still a dependency). The rules, from the guide:

- ``hub/`` never imports ``workers/`` (workers are built on the hub, not the other way round);
- a worker's package never imports another worker's package (``workers/ingest`` vs
  ``workers/deliver`` vs ``workers/dlq_observer``); only the shared runtime (:data:`SHARED`)
  is common to them, and only the composition root (:data:`ROOTS`, the ``hub`` console script)
  may import them all;
- no two modules reach each other, directly or through others, and no two packages either
  (``hub/retention`` importing ``hub/dashboard`` while ``hub/dashboard`` imports ``hub/retention``
  is a cycle even when no single module closes it);
- the layers run hub → workers → devkit (the dev kit tests, chaos and benches share) → chaos, bench:
  a layer imports only the layers below it, and nothing outside ``tests/`` imports ``tests``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("hub", "workers", "devkit", "chaos", "bench")
# Each top-level package's layer: a module may import its own layer and the ones below (chaos and bench
# are side by side: neither imports the other).
LAYERS = {"hub": 0, "workers": 1, "devkit": 2, "chaos": 3, "bench": 3}
# Shared by every worker: the process runtime, its liveness and the Kafka batch loop.
SHARED = {"workers.runtime", "workers.kafka_loop", "workers.kafka_state", "workers.liveness", "workers.read_ahead", "workers"}
# Above every worker: the command line that composes hub's commands and the worker commands.
ROOTS = {"workers.cli"}
# A cycle being removed on another branch (hub/amqp/client.py and amqp_channel.py); delete the entry
# when that branch is merged. Any other cycle fails.
PENDING_CYCLES: list[list[str]] = []


def module_files() -> dict[str, Path]:
    """Every module under the packages, by dotted name (a package by its ``__init__``)."""
    modules: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def _absolute(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The dotted name an ``ImportFrom`` names, relative imports resolved against MODULE."""
    if not node.level:
        return node.module or ""
    base = module.split(".")
    base = base if is_package else base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(module: str, path: Path, known: set[str]) -> set[str]:
    """The project modules that MODULE imports, anywhere in its body."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    targets: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            origin = _absolute(module, path.name == "__init__.py", node)
            # ``from a import b`` imports the module a.b when there is one, else a name of a.
            names = [f"{origin}.{alias.name}" if f"{origin}.{alias.name}" in known else origin
                     for alias in node.names]
        else:
            continue
        targets.update(name for name in names if name in known and name != module)
    return targets


def import_graph() -> dict[str, set[str]]:
    files = module_files()
    known = set(files)
    return {module: imports_of(module, path, known) for module, path in files.items()}


def worker_of(module: str) -> str | None:
    """The worker a ``workers.`` module belongs to (its package or module under workers/), or None."""
    if not module.startswith("workers.") or module in SHARED or module in ROOTS:
        return None
    return module.split(".")[1]


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def package_of(module: str) -> str:
    """The package a module belongs to at the top of the tree: ``hub.dashboard`` for hub.dashboard.router."""
    return ".".join(module.split(".")[:2])


def package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The module graph folded onto packages (imports inside one package dropped)."""
    folded: dict[str, set[str]] = {}
    for module, targets in graph.items():
        own = package_of(module)
        folded.setdefault(own, set()).update(package_of(t) for t in targets if package_of(t) != own)
    for targets in list(folded.values()):
        for target in targets:
            folded.setdefault(target, set())
    return folded


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return import_graph()


def test_the_graph_sees_lazy_and_relative_imports(graph) -> None:
    """The walker itself: a function-level import is an edge (the checks below rely on it)."""
    tree = ast.parse("def f():\n    from hub.config import get_settings\n")
    assert any(isinstance(node, ast.ImportFrom) for node in ast.walk(tree))
    assert "hub.config" in graph["hub.kafka"]
    assert len(graph) > 100


def test_layers_import_only_downward(graph) -> None:
    upward = sorted(f"{module} -> {target}" for module, targets in graph.items() for target in targets
                    if _top(target) != _top(module) and LAYERS[_top(target)] >= LAYERS[_top(module)])
    assert upward == []


def _top(module: str) -> str:
    return module.split(".")[0]


def test_nothing_outside_tests_imports_tests() -> None:
    """chaos, bench and the dev kit stand on their own: ``tests`` may import them, never the reverse."""
    found = []
    for module, path in module_files().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else []
            found += [f"{module} -> {name}" for name in names if name == "tests" or name.startswith("tests.")]
    assert found == []


def test_hub_never_imports_workers(graph) -> None:
    back_arrows = sorted(f"{module} -> {target}" for module, targets in graph.items()
                         if module.startswith("hub.") or module == "hub"
                         for target in targets if target == "workers" or target.startswith("workers."))
    assert back_arrows == []


def test_a_worker_never_imports_another_workers_package(graph) -> None:
    crossings = []
    for module, targets in graph.items():
        if module in ROOTS or not module.startswith("workers"):
            continue
        own = worker_of(module)
        for target in targets:
            other = worker_of(target)
            if other is not None and other != own:
                crossings.append(f"{module} -> {target}")
    assert sorted(crossings) == []


def test_the_shared_runtime_imports_no_worker(graph) -> None:
    upward = sorted(f"{module} -> {target}" for module in SHARED for target in graph.get(module, ())
                    if worker_of(target) is not None or target in ROOTS)
    assert upward == []


def test_no_import_cycles(graph) -> None:
    assert [cycle for cycle in cycles(graph) if cycle not in PENDING_CYCLES] == []


def test_no_package_cycles(graph) -> None:
    assert cycles(package_graph(graph)) == []


def test_cycle_finder_finds_a_cycle() -> None:
    """A graph with a loop through three modules is reported, an acyclic one is not."""
    looped = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(looped) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []
    folded = package_graph({"hub.x.a": {"hub.y.b"}, "hub.y.c": {"hub.x.d"}, "hub.y.b": set(), "hub.x.d": set()})
    assert cycles(folded) == [["hub.x", "hub.y"]]
