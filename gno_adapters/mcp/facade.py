"""The slice of the ``Gno`` facade the MCP server calls, and the lazy holder that builds it.

The facade is built on the first tool or resource call, never before the first message is
answered, and on the worker that runs the calls (so one thread owns the index connection).
A build that fails is retried on the next call rather than remembered.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from gno_core.model import GetResult, MultiGetResult, Peek, SearchResults, Status, TagsList
    from gno_core.model.requests import SearchRequest


class Facade(Protocol):
    """What the MCP tools and resources need; ``gno_core.facade.Gno`` provides it."""

    def search(self, request: SearchRequest) -> SearchResults: ...

    def get(
        self, ref: str, *, from_line: int | None = None, line_count: int | None = None
    ) -> GetResult: ...

    def multi_get(
        self, refs: list[str] | None = None, pattern: str | None = None, max_bytes: int = 10240
    ) -> MultiGetResult: ...

    def status(self) -> Status: ...

    def peek(self) -> Peek: ...

    def tags(self, collection: str | None = None, prefix: str | None = None) -> TagsList: ...


FacadeFactory = Callable[[], Facade]


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
