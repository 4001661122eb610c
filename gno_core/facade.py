"""The ``Gno`` facade: the one object transports and Python callers use. It holds no logic of
its own: each operation delegates to the capability that owns it (``documents``, ``health``,
``collections`` and ``runs`` of indexing, ``retrieval``), all sharing one ``IndexHandle``;
methods are grouped by capability in that order."""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING, Any, Unpack

from gno_core.config import CollectionConfig, GnoConfig
from gno_core.contracts.requests import SearchRequest
from gno_core.contracts.search import SearchResults
from gno_core.defaults import (
    CAPTURE_WRITE_WAIT_SECONDS,
    MEMORY_WRITE_WAIT_SECONDS,
    WRITE_WAIT_SECONDS,
)
from gno_core.errors import ValidationError
from gno_core.index_handle import IndexHandle, IndexOpener
from gno_core.ports import (
    Clock,
    ConfigRepository,
    Embedder,
    FrontmatterParser,
    Generator,
    IndexProvider,
    NoteFiles,
    ResidentProbe,
    SemanticModels,
    SourceTree,
    TokenCounter,
    WriteLease,
)
from gno_core.ports.lease import Cancelled

if TYPE_CHECKING:
    # The capabilities and the contracts they answer with are imported on first use: a new
    # ``gno search`` process builds the search contracts only, not the sync, embedding, status
    # or document ones (see docs/reference/benchmarks.md, cold start).
    from gno_core.contracts import (
        CollectionInfo,
        CollectionList,
        DocumentList,
        GetResult,
        MultiGetResult,
        Peek,
        Status,
        SyncResult,
        TagsList,
    )
    from gno_core.contracts.embedding import EmbedResult, IndexResult
    from gno_core.contracts.evidence import (
        AskResult,
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
    from gno_core.contracts.requests import (
        GraphNeighborsRequest,
        GraphPathRequest,
        GraphQueryRequest,
        GraphRequest,
        QueryRequest,
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
    from gno_core.documents import Documents
    from gno_core.evidence.capability import Evidence
    from gno_core.facts import MemoryIdentity
    from gno_core.health import Health
    from gno_core.indexing.collections import Collections
    from gno_core.indexing.live import LiveEvent
    from gno_core.indexing.runs import EmbedOptions, IndexOptions, IndexRuns
    from gno_core.indexing.sync import SyncProgress
    from gno_core.links.graph import Graph, GraphLimits
    from gno_core.links.reads import Links
    from gno_core.memory.capability import Memory
    from gno_core.ports.changes import ChangeFeed
    from gno_core.ports.converters import DocumentConverter
    from gno_core.retrieval.modes import Retrieval
    from gno_core.writes.service import Writes

__all__ = ["Gno"]


class Gno:
    """One index of gno and everything that can be done with it.

    Built by the composition root (``gno_adapters.bootstrap``); the index opens lazily on first
    use, so cheap calls (``peek``, listing collections) never create or migrate a database.
    """

    def __init__(
        self,
        *,
        index_name: str,
        config: ConfigRepository,
        provider: IndexProvider,
        tree: SourceTree,
        frontmatter: FrontmatterParser,
        clock: Clock,
        resident: ResidentProbe,
        models: SemanticModels,
        lease: WriteLease,
        notes: NoteFiles,
        open_index: IndexOpener | None = None,
        token_counter: TokenCounter | None = None,
        generator: Generator | None = None,
        converter: DocumentConverter | None = None,
        changes: ChangeFeed | None = None,
    ) -> None:
        self.index_name = index_name
        self.handle = IndexHandle(
            name=index_name, config=config, provider=provider, clock=clock, lease=lease
        )
        # Optional models, looked up on first use: without an embedder retrieval is
        # keyword-only (``bm25_only``); without a reranker hybrid results are not reranked.
        self._models = models
        self._open_index = open_index
        self._tree = tree
        self._frontmatter = frontmatter
        self._resident = resident
        self._notes = notes
        # Evidence budgets count with ``token_counter`` (None: the conservative byte count);
        # Ask drafts with ``generator`` (None: the built-in extractive one).
        self._token_counter = token_counter
        self._generator = generator
        self._converter = converter
        self._changes = changes

    @cached_property
    def documents(self) -> Documents:
        from gno_core.documents import Documents

        return Documents(self.handle, self._open_index)

    @cached_property
    def retrieval(self) -> Retrieval:
        from gno_core.retrieval.modes import Retrieval

        return Retrieval(self.handle, self._models, lambda: self.documents)

    @cached_property
    def evidence(self) -> Evidence:
        from gno_core.evidence.capability import Evidence

        return Evidence(
            self.handle,
            lambda: self.retrieval,
            lambda: self.documents,
            self._models,
            self._token_counter,
            self._generator,
        )

    @cached_property
    def collections(self) -> Collections:
        from gno_core.indexing.collections import Collections

        return Collections(self.handle)

    @cached_property
    def runs(self) -> IndexRuns:
        from gno_core.indexing.runs import IndexRuns

        return IndexRuns(
            self.handle,
            self.collections,
            self._tree,
            self._frontmatter,
            self._models,
            self._converter,
        )

    @cached_property
    def writes(self) -> Writes:
        from gno_core.writes.service import Writes

        return Writes(
            self.handle,
            self._notes,
            self._frontmatter,
            self.collections,
            lambda: self.fingerprint,
        )

    @cached_property
    def linking(self) -> Links:
        from gno_core.links.reads import Links

        return Links(self.handle, lambda: self.documents)

    @cached_property
    def graphing(self) -> Graph:
        from gno_core.links.graph import Graph

        return Graph(self.handle, lambda: self.documents)

    @cached_property
    def memory(self) -> Memory:
        from gno_core.memory.capability import Memory

        return Memory(self.handle, self._models, self._notes, self._frontmatter)

    @cached_property
    def health(self) -> Health:
        from gno_core.health import Health

        return Health(self.handle, self._resident, lambda: self.fingerprint)

    def close(self) -> None:
        self.handle.close()
        if self._converter is not None:
            self._converter.close()

    def __enter__(self) -> Gno:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def config(self) -> GnoConfig:
        return self.handle.load_config()

    def init(self) -> GnoConfig:
        """Create the configuration (if missing) and the index database. Idempotent."""
        return self.collections.init()

    @property
    def embedder(self) -> Embedder | None:
        """The embedding model vectors are made and searched with (None: none available)."""
        return self._models.embedder

    @property
    def fingerprint(self) -> str | None:
        """The embedder's fingerprint: which vectors count as embedded."""
        embedder = self._models.embedder
        return embedder.fingerprint if embedder is not None else None

    def add_collection(self, collection: CollectionConfig) -> CollectionInfo:
        return self.collections.add(collection)

    def remove_collection(self, name: str) -> CollectionInfo:
        return self.collections.remove(name)

    def rename_collection(self, old: str, new: str) -> CollectionInfo:
        return self.collections.rename(old, new)

    def list_collections(self) -> CollectionList:
        return self.collections.listing()

    def sync(
        self,
        collections: list[str] | None = None,
        progress: Callable[[SyncProgress], None] | None = None,
        *,
        lease_wait: float = WRITE_WAIT_SECONDS,
        cancelled: Cancelled | None = None,
    ) -> SyncResult:
        return self.runs.sync(collections, progress, lease_wait=lease_wait, cancelled=cancelled)

    def watch(
        self,
        collections: list[str] | None = None,
        *,
        stop: Cancelled,
        embed: bool = True,
        on_event: Callable[[LiveEvent], None] | None = None,
    ) -> None:
        """Keep ``collections`` (all when None) indexed as their files change, until
        ``stop()``: one sync per batch of changes, embeddings behind (``gno watch``)."""
        from gno_core.indexing.live import LiveIndexer

        if self._changes is None:
            raise ValidationError("This gno has no file-change feed to watch with")
        LiveIndexer(self.runs, self.collections, self._models, self._changes).run(
            collections, stop, embed=embed, on_event=on_event
        )

    def embed(
        self, collections: list[str] | None = None, **options: Unpack[EmbedOptions]
    ) -> EmbedResult:
        """Embed what has no vector yet (options: ``IndexRuns.embed``)."""
        return self.runs.embed(collections, **options)

    def index(
        self, collections: list[str] | None = None, **options: Unpack[IndexOptions]
    ) -> IndexResult:
        """Sync, then embed (options: ``IndexRuns.index``)."""
        return self.runs.index(collections, **options)

    def capture(
        self,
        request: CaptureRequest,
        *,
        lease_wait: float = CAPTURE_WRITE_WAIT_SECONDS,
        cancelled: Cancelled | None = None,
    ) -> CaptureReceipt:
        """A new note in a collection, searchable when this returns (``gno_core.writes``)."""
        return self.writes.capture(request, lease_wait=lease_wait, cancelled=cancelled)

    def create_folder(self, request: CreateFolderRequest) -> FolderResult:
        return self.writes.create_folder(request)

    def add_collection_at(self, request: AddCollectionRequest) -> CollectionInfo:
        """``gno_add_collection``: a folder by path, checked against the dangerous roots."""
        return self.writes.add_collection(request)

    def remove_collection_kept(self, name: str) -> RemoveResult:
        """``gno_remove_collection``: out of the configuration, documents kept inactive."""
        return self.writes.remove_collection(name)

    def clear_embeddings(self, request: ClearEmbeddingsRequest) -> ClearEmbeddingsResult:
        return self.writes.clear_embeddings(request)

    def search(self, request: SearchRequest) -> SearchResults:
        """BM25 keyword search with filters applied before the limit."""
        return self.retrieval.search(request)

    def vsearch(self, request: SearchRequest) -> SearchResults:
        """Vector search: the documents nearest the query by meaning (filters first)."""
        return self.retrieval.vsearch(request)

    def query(self, request: QueryRequest) -> SearchResults:
        """Hybrid search: BM25 and vectors fused, reranked when a reranker is present."""
        return self.retrieval.query(request)

    def similar(
        self,
        ref: str,
        *,
        limit: int = 5,
        threshold: float | None = None,
        cross_collection: bool = False,
    ) -> SimilarResults:
        """Documents similar to ``ref`` by meaning, itself excluded."""
        return self.retrieval.similar(
            ref, limit=limit, threshold=threshold, cross_collection=cross_collection
        )

    def get(
        self, ref: str, *, from_line: int | None = None, line_count: int | None = None
    ) -> GetResult:
        """One document's canonical Markdown, whole or a 1-based line range."""
        return self.documents.get(ref, from_line=from_line, line_count=line_count)

    def multi_get(
        self, refs: list[str] | None = None, pattern: str | None = None, max_bytes: int = 10240
    ) -> MultiGetResult:
        """Several documents by refs or a glob over ``collection/path``, bounded (see
        ``gno_core.documents``)."""
        return self.documents.multi_get(refs, pattern, max_bytes)

    def ls(
        self, collection: str | None = None, prefix: str | None = None, limit: int | None = None
    ) -> DocumentList:
        return self.documents.ls(collection, prefix, limit)

    def tags(self, collection: str | None = None, prefix: str | None = None) -> TagsList:
        return self.documents.tags(collection, prefix)

    def links(self, ref: str, *, link_type: str | None = None) -> LinksResult:
        """Outgoing links of one document (``wiki`` or ``markdown`` only when given)."""
        return self.linking.links(ref, link_type)

    def backlinks(self, ref: str, *, collection: str | None = None) -> BacklinksResult:
        """Links of other documents to one document (from ``collection`` only when given)."""
        return self.linking.backlinks(ref, collection)

    def graph(self, request: GraphRequest) -> GraphResult:
        """The link graph (nodes, merged links, communities) and its health report."""
        return self.graphing.graph(_graph_limits(request))

    def graph_neighbors(self, request: GraphNeighborsRequest) -> GraphNeighborsResult:
        """Neighbours of one document in the projection ``graph`` returns."""
        return self.graphing.neighbors(request.ref, request.direction, _graph_limits(request))

    def graph_path(self, request: GraphPathRequest) -> GraphPathResult:
        """A shortest link path between two documents in the projection ``graph`` returns."""
        return self.graphing.path(
            request.source, request.target, request.max_depth, _graph_limits(request)
        )

    def graph_query(self, request: GraphQueryRequest) -> GraphQueryResult:
        """Bounded typed-edge traversal from one document."""
        from gno_core.links.graph import TraversalLimits

        return self.graphing.query(
            request.ref,
            TraversalLimits(
                direction=request.direction,
                edge_type=request.wanted_edge_type,
                max_depth=request.max_depth,
                max_nodes=request.max_nodes,
                frontier_limit=request.frontier_limit,
                visited_limit=request.visited_limit,
            ),
        )

    def recall(self, request: RecallRequest, identity: MemoryIdentity) -> RecallResult:
        """Current facts of a memory collection within a budget, with a fencing receipt."""
        return self.memory.recall(request, identity)

    def remember(
        self,
        request: RememberRequest,
        identity: MemoryIdentity,
        *,
        lease_wait: float = MEMORY_WRITE_WAIT_SECONDS,
        cancelled: Cancelled | None = None,
    ) -> RememberResult:
        """Store one fact (or supersede one); candidates without a decision, nothing deleted."""
        return self.memory.writer.remember(
            request, identity, lease_wait=lease_wait, cancelled=cancelled
        )

    def status(self) -> Status:
        return self.health.status()

    def peek(self) -> Peek:
        """Cheap, model-free snapshot; an uninitialized index is a successful payload."""
        return self.health.peek()

    def context(self, request: ContextRequest) -> ContextCapsule:
        """A deterministic, extractive Context Capsule for one goal under a hard budget."""
        return self.evidence.context(request)

    def context_verify(self, capsule: dict[str, Any]) -> CapsuleVerification:
        """Re-check a saved capsule's evidence, ranking and fingerprints against this index."""
        return self.evidence.verify(capsule)

    def section(self, request: SectionRequest) -> SectionResult:
        """Create or resolve a durable section target (heading span) in one document."""
        return self.evidence.section(request)

    def query_diagnose(self, request: DiagnoseRequest) -> QueryDiagnosis:
        """What each retrieval stage did with one target document, and why."""
        return self.evidence.diagnose(request)

    def ask(self, request: AskRequest) -> AskResult:
        """An answer whose every claim quotes cited capsule evidence, or an abstention."""
        return self.evidence.ask(request)


def _graph_limits(request: GraphRequest) -> GraphLimits:
    from gno_core.links.graph import GraphLimits

    return GraphLimits(
        collection=request.collection,
        limit=request.limit,
        edge_limit=request.edge_limit,
        linked_only=request.linked_only,
        include_similar=request.include_similar,
        threshold=request.threshold,
        similar_top_k=request.similar_top_k,
    )
