"""Facade operations that read one index: retrieval (BM25, vectors, hybrid, similar), documents,
links and health (``gno_core.retrieval``, ``documents``, ``links.reads``, ``health``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Unpack

from gno_core.facade.base import FacadeBase

if TYPE_CHECKING:
    from gno_core.contracts import (
        DocumentList,
        GetResult,
        MultiGetResult,
        Peek,
        Status,
        TagsList,
    )
    from gno_core.contracts.base import Prebuilt
    from gno_core.contracts.links import BacklinksResult, LinksResult
    from gno_core.contracts.requests import QueryRequest
    from gno_core.contracts.search import SearchResults
    from gno_core.contracts.search_request import SearchRequest
    from gno_core.contracts.similar import SimilarResults
    from gno_core.retrieval.inputs import QueryAsk, SearchAsk
    from gno_core.retrieval.ranked import RankedHit
    from gno_core.retrieval.results import HybridHits, VectorHits
    from gno_core.retrieval.vector import SimilarOptions

__all__ = ["ReadCalls"]


class ReadCalls(FacadeBase):
    def search(self, request: SearchRequest) -> SearchResults:
        """BM25 keyword search with filters applied before the limit."""
        return self.retrieval.search(request)

    def keyword_hits(self, request: SearchAsk) -> list[RankedHit]:
        """``search`` as plain ranked hits (what ``gno search`` prints), no contracts built."""
        return self.retrieval.keyword_hits(request)

    def vector_hits(self, request: SearchAsk) -> VectorHits:
        """``vsearch`` as plain ranked hits (what ``gno vsearch`` prints), no contracts built,
        and the share of the searched collections without vectors (``gap``)."""
        return self.retrieval.vector_hits(request)

    def load_embedder(self) -> None:
        """Load the embedding model now, when one is configured and can load ahead of its
        first use (``MODEL_UNAVAILABLE`` when it cannot). ``gno vsearch`` and ``gno query`` run
        this early (on a thread, or handing the model to the process forked to load it), so
        that the model loads while the command reads its request and opens the index; the
        search then waits for the load."""
        load = getattr(self._models.embedder, "load", None)
        if callable(load):
            load()

    def vector_gap_message(self, collections: list[str] | None = None) -> str | None:
        """What search by meaning cannot see in ``collections`` (all when None), in words: the
        share of their chunks with a vector for the current model and the fix; None when every
        chunk has one, or when no embedding model is available."""
        gap = self.retrieval.vector_gap(collections)
        return None if gap is None else gap.message

    def vsearch(self, request: SearchRequest) -> SearchResults:
        """Vector search: the documents nearest the query by meaning (filters first)."""
        return self.retrieval.vsearch(request)

    def query(self, request: QueryRequest) -> SearchResults:
        """Hybrid search: BM25 and vectors fused, reranked when a reranker is present."""
        return self.retrieval.query(request)

    def query_hits(self, request: QueryAsk) -> HybridHits:
        """``query`` as plain ranked hits (what ``gno query`` prints), no contracts built."""
        return self.retrieval.query_hits(request)

    def similar(self, ref: str, **options: Unpack[SimilarOptions]) -> SimilarResults:
        """Documents similar to ``ref`` by meaning, itself excluded (options:
        ``VectorSearch.similar``); ``ref`` may name another index."""
        with self.documents.resolved(ref) as resolved:
            return self.retrieval.similar(resolved.handle, resolved.document, **options)

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

    def backlinks_wire(
        self, ref: str, *, collection: str | None = None
    ) -> Prebuilt[BacklinksResult]:
        """``backlinks`` in its wire form, no model per backlink (what the transports send)."""
        return self.linking.backlinks_wire(ref, collection)

    def status(self) -> Status:
        return self.health.status()

    def peek(self) -> Peek:
        """Cheap, model-free snapshot; an uninitialized index is a successful payload."""
        return self.health.peek()
