"""``Facade``: what the transports (MCP, HTTP, REST) call on an index, and the names of those
operations. ``gno_core.facade.Gno`` provides all of it; a transport gets a ``FacadeFactory``
from its caller and never knows which adapters stand behind it.

Importing this module is cheap: the contract models are only named for type checkers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from gno_core.contracts import (
        CollectionInfo,
        CollectionList,
        GetResult,
        MultiGetResult,
        Peek,
        SearchResults,
        Status,
        SyncResult,
        TagsList,
    )
    from gno_core.contracts.ask import AskResult
    from gno_core.contracts.base import Prebuilt
    from gno_core.contracts.embedding import EmbedResult, IndexResult
    from gno_core.contracts.evidence import (
        CapsuleVerification,
        ContextCapsule,
        QueryDiagnosis,
        SectionResult,
    )
    from gno_core.contracts.evidence_requests import (
        AskRequest,
        ContextRequest,
        DiagnoseRequest,
        SectionRequest,
    )
    from gno_core.contracts.graph import (
        GraphNeighborsResult,
        GraphPathResult,
        GraphQueryResult,
        GraphResult,
    )
    from gno_core.contracts.links import BacklinksResult, LinksResult
    from gno_core.contracts.memory import RecallResult, RememberResult
    from gno_core.contracts.memory_requests import RecallRequest, RememberRequest
    from gno_core.contracts.refactors import (
        DuplicateNoteRequest,
        MoveNoteRequest,
        RefactorApplyResult,
        RefactorPreview,
        RenameNoteRequest,
    )
    from gno_core.contracts.requests import (
        GraphNeighborsRequest,
        GraphPathRequest,
        GraphQueryRequest,
        GraphRequest,
        QueryRequest,
        SearchRequest,
    )
    from gno_core.contracts.similar import SimilarResults
    from gno_core.contracts.write_requests import (
        AddCollectionRequest,
        CaptureRequest,
        ClearEmbeddingsRequest,
        CreateFolderRequest,
    )
    from gno_core.contracts.writes import (
        CaptureReceipt,
        ClearEmbeddingsResult,
        FolderResult,
        RemoveResult,
    )
    from gno_core.facts import MemoryIdentity

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
    def links(self, ref: str, *, link_type: str | None = None) -> LinksResult: ...

    def backlinks(self, ref: str, *, collection: str | None = None) -> BacklinksResult: ...

    def backlinks_wire(
        self, ref: str, *, collection: str | None = None
    ) -> Prebuilt[BacklinksResult]: ...

    def graph(self, request: GraphRequest) -> GraphResult: ...

    def graph_wire(self, request: GraphRequest) -> Prebuilt[GraphResult]: ...

    def graph_neighbors(self, request: GraphNeighborsRequest) -> GraphNeighborsResult: ...

    def graph_path(self, request: GraphPathRequest) -> GraphPathResult: ...

    def graph_query(self, request: GraphQueryRequest) -> GraphQueryResult: ...

    def list_collections(self) -> CollectionList: ...

    def add_collection_at(self, request: AddCollectionRequest) -> CollectionInfo: ...

    def remove_collection_kept(self, name: str) -> RemoveResult: ...

    def clear_embeddings(self, request: ClearEmbeddingsRequest) -> ClearEmbeddingsResult: ...

    # Long runs: ``cancelled`` is checked before each file and batch; ``progress`` callbacks
    # receive ``gno_core.indexing`` progress records.
    def sync(
        self,
        collections: list[str] | None = None,
        progress: Callable[[Any], None] | None = None,
        *,
        lease_wait: float = ...,
        cancelled: Callable[[], bool] | None = None,
    ) -> SyncResult: ...

    def embed(
        self,
        collections: list[str] | None = None,
        *,
        batch_size: int = ...,
        force: bool = False,
        dry_run: bool = False,
        progress: Callable[[Any], None] | None = None,
        lease_wait: float = ...,
        cancelled: Callable[[], bool] | None = None,
    ) -> EmbedResult: ...

    def index(
        self,
        collections: list[str] | None = None,
        *,
        embed: bool = True,
        batch_size: int = ...,
        sync_progress: Callable[[Any], None] | None = None,
        embed_progress: Callable[[Any], None] | None = None,
        lease_wait: float = ...,
        cancelled: Callable[[], bool] | None = None,
    ) -> IndexResult: ...

    @property
    def fingerprint(self) -> str | None: ...

    def section(self, request: SectionRequest) -> SectionResult: ...

    def query_diagnose(self, request: DiagnoseRequest) -> QueryDiagnosis: ...

    def ask(self, request: AskRequest) -> AskResult: ...

    def recall(self, request: RecallRequest, identity: MemoryIdentity) -> RecallResult: ...

    def remember(
        self,
        request: RememberRequest,
        identity: MemoryIdentity,
        *,
        lease_wait: float = ...,
        cancelled: Callable[[], bool] | None = None,
    ) -> RememberResult: ...

    def rename_note(self, request: RenameNoteRequest) -> RefactorPreview | RefactorApplyResult: ...

    def move_note(self, request: MoveNoteRequest) -> RefactorPreview | RefactorApplyResult: ...

    def duplicate_note(self, request: DuplicateNoteRequest) -> RefactorApplyResult: ...


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
        "list_collections",
        "add_collection_at",
        "remove_collection_kept",
        "clear_embeddings",
        "sync",
        "embed",
        "index",
        "links",
        "backlinks",
        "graph",
        "graph_neighbors",
        "graph_path",
        "graph_query",
        "section",
        "query_diagnose",
        "ask",
        "recall",
        "remember",
        "rename_note",
        "move_note",
        "duplicate_note",
    }
)
