"""The storage adapters' modules import each other in one direction only: no module of
``gno_adapters.inmemory`` or ``gno_adapters.sqlite`` reaches back to a module that imports it
(issue 24: ``inmemory/links.py`` <-> ``inmemory/state.py`` was such a circle)."""

from __future__ import annotations

import grimp
import pytest


@pytest.mark.parametrize("package", ["gno_adapters.inmemory", "gno_adapters.sqlite"])
def test_no_import_circle_inside_the_package(package: str) -> None:
    graph = grimp.build_graph("gno_adapters", cache_dir=None)
    modules = sorted(m for m in graph.modules if m.startswith(package + "."))
    circles = [
        (importer, imported)
        for importer in modules
        for imported in sorted(graph.find_modules_directly_imported_by(importer))
        if imported in modules and graph.chain_exists(importer=imported, imported=importer)
    ]
    assert circles == []
