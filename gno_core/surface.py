"""``Facade``: what the transports (MCP, HTTP, REST) call on an index, and the names of those
operations. ``gno_core.facade.Gno`` provides all of it; a transport gets a ``FacadeFactory``
from its caller and never knows which adapters stand behind it.

Importing this module is cheap: the contract models are only named for type checkers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from gno_core.contracts import GetResult, MultiGetResult, Peek, SearchResults, Status, TagsList
    from gno_core.contracts.evidence import CapsuleVerification, ContextCapsule
    from gno_core.contracts.requests import ContextRequest, QueryRequest, SearchRequest
    from gno_core.contracts.similar import SimilarResults
    from gno_core.contracts.write_requests import CaptureRequest, CreateFolderRequest
    from gno_core.contracts.writes import CaptureReceipt, FolderResult

__all__ = ["OPERATIONS", "Facade", "FacadeFactory"]


class Facade(Protocol):
    """The read surface of one index, as every transport sees it."""

    def search(self, request: SearchRequest) -> SearchResults: ...

    def vsearch(self, request: SearchRequest) -> SearchResults: ...

    def query(self, request: QueryRequest) -> SearchResults: ...

    def similar(
        self,
        ref: str,
        *,
        limit: int = 5,
        threshold: float | None = None,
        cross_collection: bool = False,
    ) -> SimilarResults: ...

    def get(
        self, ref: str, *, from_line: int | None = None, line_count: int | None = None
    ) -> GetResult: ...

    def multi_get(
        self, refs: list[str] | None = None, pattern: str | None = None, max_bytes: int = 10240
    ) -> MultiGetResult: ...

    def status(self) -> Status: ...

    def peek(self) -> Peek: ...

    def tags(self, collection: str | None = None, prefix: str | None = None) -> TagsList: ...

    def capture(
        self,
        request: CaptureRequest,
        *,
        lease_wait: float = ...,
        cancelled: Callable[[], bool] | None = None,
    ) -> CaptureReceipt: ...

    def create_folder(self, request: CreateFolderRequest) -> FolderResult: ...
    def context(self, request: ContextRequest) -> ContextCapsule: ...

    def context_verify(self, capsule: dict[str, Any]) -> CapsuleVerification: ...


FacadeFactory = Callable[[], Facade]

#: Every operation of ``Facade``: the capabilities a transport offers unless its caller gives
#: a narrower set (a tool or route whose operation is missing is not registered).
OPERATIONS: frozenset[str] = frozenset(
    {
        "search",
        "vsearch",
        "query",
        "similar",
        "get",
        "multi_get",
        "status",
        "peek",
        "tags",
        "capture",
        "create_folder",
        "context",
        "context_verify",
    }
)
