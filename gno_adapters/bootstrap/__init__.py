"""The composition root: the only package that wires concrete adapters into a ``Gno`` facade.

- ``open_gno(index)``: the local adapter set (files, SQLite, ONNX models) for one named index;
- ``build(in_memory(notes))``: the same facade over fakes, for tests;
- ``build(adapters)``: any other ``Adapters`` set.
"""

from gno_adapters.bootstrap.adapters import Adapters, build
from gno_adapters.bootstrap.local import open_gno
from gno_adapters.bootstrap.memory import in_memory

__all__ = ["Adapters", "build", "in_memory", "open_gno"]
