"""gno_core: the pure domain of gno (contracts, errors, ports and use cases), free of I/O.

Build a ready ``Gno`` facade with ``gno_adapters.bootstrap.open_gno()``; everything a transport
or a Python caller needs goes through that facade.
"""

from __future__ import annotations

from gno_core.errors import (
    GnoError,
    NotFoundError,
    NotInitializedError,
    RuntimeFailure,
    ValidationError,
)

__version__ = "0.1.0"

__all__ = [
    "GnoError",
    "NotFoundError",
    "NotInitializedError",
    "RuntimeFailure",
    "ValidationError",
    "__version__",
]
