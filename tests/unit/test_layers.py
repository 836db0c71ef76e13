"""The packages stack in one order, and no module imports itself back through others.

From the bottom: ``core`` (the shared types), ``checkpoints`` (PostgreSQL and Milvus services),
``tools`` (I/O), ``nodes`` (decisions), ``graph`` (builders and the run driver), ``server``
(the clients), ``evals``. A package imports only its own modules and those below it. Every
import counts, also one inside a function or under ``TYPE_CHECKING``: a type named across a
layer is a dependency across it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ["core", "corpora", "checkpoints", "tools", "nodes", "graph", "server", "evals"]


def _modules() -> dict[str, Path]:
    found = {}
    for package in LAYERS:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def _imports(path: Path, modules: dict[str, Path]) -> Iterator[tuple[int, str]]:
    """(line, module) for each import of a Kea module in the file: ``from a import b`` names
    ``a.b`` when that is a module, else ``a``."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in LAYERS:
                    yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] not in LAYERS:
                continue
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                yield node.lineno, full if full in modules else node.module


def test_no_package_imports_one_above_it() -> None:
    modules = _modules()
    rank = {package: n for n, package in enumerate(LAYERS)}
    upward = [
        f"{path.relative_to(ROOT)}:{line} imports {target}"
        for name, path in modules.items()
        for line, target in _imports(path, modules)
        if rank[target.split(".")[0]] > rank[name.split(".")[0]]
    ]
    assert not upward, "\n".join(upward)


def test_core_imports_nothing_of_kea_but_itself() -> None:
    modules = _modules()
    outside = [
        f"{path.relative_to(ROOT)}:{line} imports {target}"
        for name, path in modules.items() if name.split(".")[0] == "core"
        for line, target in _imports(path, modules) if target.split(".")[0] != "core"
    ]
    assert not outside, "\n".join(outside)


def test_no_import_circle() -> None:
    modules = _modules()
    edges = {name: {t for _, t in _imports(path, modules) if t in modules and t != name} for name, path in modules.items()}
    circles = [c for c in _strongly_connected(edges) if len(c) > 1]
    assert not circles, "import circles: " + "; ".join(" <-> ".join(sorted(c)) for c in circles)


def _strongly_connected(edges: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's components, iteratively (the graph has hundreds of modules)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in edges:
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
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
                found.append(component)
    return found
