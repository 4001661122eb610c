"""The composition root: the only package that wires concrete adapters into a ``Gno`` facade.

- ``open_gno(index)``: the local adapter set (files, SQLite, ONNX models) for one named index;
- ``build(in_memory(notes))``: the same facade over fakes, for tests;
- ``build(adapters)``: any other ``Adapters`` set;
- ``lazy``: the port wrappers both sets share, each importing its adapter on first use;
- ``model_wiring``: which embedder and reranker a facade gets, from the model file cache;
- ``paths``: where an index's files live.

It wires and does nothing else: the processes that run a facade are beside it
(``gno_adapters.resident``, ``gno_adapters.embed_child``, ``gno_adapters.client_setup``).

The names are imported on first use (PEP 562), so ``gno serve --status`` or ``gno models``
load no storage adapter.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gno_adapters.bootstrap.adapters import Adapters, build
    from gno_adapters.bootstrap.in_memory_set import in_memory
    from gno_adapters.bootstrap.local import open_gno

__all__ = ["Adapters", "build", "in_memory", "open_gno"]

_HOMES = {
    "Adapters": "gno_adapters.bootstrap.adapters",
    "build": "gno_adapters.bootstrap.adapters",
    "open_gno": "gno_adapters.bootstrap.local",
    "in_memory": "gno_adapters.bootstrap.in_memory_set",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(home), name)
