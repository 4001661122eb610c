"""Where MCP calls get their facade (``gno_core.surface.Facade``): the lazy holder that builds it.

The facade is built on the first tool or resource call, never before the first message is
answered, and on the worker that runs the calls (so one thread owns the index connection).
A build that fails is retried on the next call rather than remembered.
"""

from __future__ import annotations

import threading
from typing import Protocol

from gno_core.surface import Facade, FacadeFactory

__all__ = ["FacadeHolder", "Facades"]


class Facades(Protocol):
    """Where a call gets its facade: one shared (stdio) or one per worker thread (HTTP)."""

    def get(self) -> Facade: ...

    def close(self) -> None: ...


class FacadeHolder:
    """Builds the facade once, on first use, from the factory the transport was given."""

    def __init__(self, factory: FacadeFactory) -> None:
        self._factory = factory
        self._facade: Facade | None = None
        self._lock = threading.Lock()

    def get(self) -> Facade:
        with self._lock:
            if self._facade is None:
                self._facade = self._factory()
            return self._facade

    def close(self) -> None:
        with self._lock:
            facade, self._facade = self._facade, None
        close = getattr(facade, "close", None)
        if callable(close):
            close()
