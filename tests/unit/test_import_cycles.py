"""No import circle among gno's modules.

The graph is read from the source (every ``import``, at module level, inside functions and
under ``TYPE_CHECKING`` alike, as import-linter reads it) over ``gno_core``, ``gno_adapters``
and ``gno_cli``; a circle is a strongly connected component of more than one module. The last
known circles went with issue 24 (each was a helper or value type in the wrong one of two
files), so any circle fails ``test_no_import_circle``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("gno_core", "gno_adapters", "gno_cli")


def modules_under(root: Path, packages: Iterable[str]) -> dict[str, Path]:
    """Every module of ``packages`` (a package is its ``__init__``), by dotted name."""
    found: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imports_of(name: str, path: Path, modules: Mapping[str, Path]) -> set[str]:
    """The modules of ``modules`` that ``name`` imports: ``from a import b`` is ``a.b`` when that
    is a module, else ``a``; relative imports are resolved against ``name``'s package."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    imported: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                imported.add(full if full in modules else base)
    return {m for m in imported if m in modules and m != name}


def import_graph(root: Path, packages: Iterable[str]) -> dict[str, set[str]]:
    modules = modules_under(root, packages)
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def circles(graph: Mapping[str, Iterable[str]]) -> set[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[frozenset[str]] = set()
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.add(frozenset(component))
    return found


def _shown(found: Iterable[frozenset[str]]) -> str:
    return "; ".join(" <-> ".join(sorted(c)) for c in sorted(found, key=sorted))


def test_no_import_circle() -> None:
    found = circles(import_graph(ROOT, PACKAGES))
    assert not found, f"import circles: {_shown(found)}"


def test_bootstrap_is_in_no_circle() -> None:
    """``bootstrap`` wires adapter sets and nothing it imports imports it back."""
    found = circles(import_graph(ROOT, PACKAGES))
    assert not [c for c in found if any(m.startswith("gno_adapters.bootstrap") for m in c)]


def test_the_walk_sees_every_kind_of_import(tmp_path: Path) -> None:
    """A circle closed by a lazy, a ``TYPE_CHECKING`` or a relative import is still one."""
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    sources = {
        "__init__.py": "",
        "a.py": "from pkg.sub import b\n",
        "sub/__init__.py": "",
        "sub/b.py": "def f():\n    from .. import c\n",
        "c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import x\n",
        "d.py": "import pkg.a\n",
        "e.py": "from . import f\n",
        "f.py": "from .e import *\n",
    }
    for rel, text in sources.items():
        (pkg / rel).write_text(text, encoding="utf-8")
    graph = import_graph(tmp_path, ["pkg"])
    assert graph["pkg.d"] == {"pkg.a"}
    assert circles(graph) == {
        frozenset({"pkg.a", "pkg.sub.b", "pkg.c"}),
        frozenset({"pkg.e", "pkg.f"}),
    }
