"""gno_core: the pure domain of gno (contracts, errors, ports and use cases), free of I/O.

The way in for Python callers is ``gno_core.open()``: it finds the installed adapter set through
the ``gno.adapters`` entry point and returns a ``Gno`` facade; everything a transport or a Python
caller needs goes through that facade. Importing ``gno_core`` does no work: the adapters are
looked up and imported by ``open``.
"""

from __future__ import annotations

from gno_core.entry import open
from gno_core.errors import (
    GnoError,
    NotFoundError,
    NotInitializedError,
    RuntimeFailure,
    ValidationError,
)
from gno_core.version import __version__

__all__ = [
    "GnoError",
    "NotFoundError",
    "NotInitializedError",
    "RuntimeFailure",
    "ValidationError",
    "__version__",
    "open",
]
