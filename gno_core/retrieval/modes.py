"""The four retrieval modes over one index: ``search`` (BM25), ``vsearch`` (vectors), ``query``
(hybrid) and ``similar`` (documents near a document). Each builds its filters from the request
and runs the search module of its mode; the vector and hybrid modules load on first use, so a
``gno search`` process never imports them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Unpack

from gno_core.retrieval.filters import build_filters, has_recency_intent
from gno_core.retrieval.lexical import LexicalSearch

if TYPE_CHECKING:
    from gno_core.contracts.requests import QueryRequest
    from gno_core.contracts.search import SearchResults
    from gno_core.contracts.search_request import SearchRequest
    from gno_core.contracts.similar import SimilarResults
    from gno_core.domain import SearchFilters, StoredDocument
    from gno_core.index_handle import IndexHandle
    from gno_core.ports import SemanticModels
    from gno_core.retrieval.coverage import VectorGap
    from gno_core.retrieval.hybrid import HybridSearch
    from gno_core.retrieval.inputs import QueryAsk, SearchAsk
    from gno_core.retrieval.ranked import RankedHit
    from gno_core.retrieval.results import HybridHits, VectorHits
    from gno_core.retrieval.vector import SimilarOptions, VectorSearch

__all__ = ["Retrieval"]


class Retrieval:
    def __init__(
        self,
        handle: IndexHandle,
        models: SemanticModels,
    ) -> None:
        self.handle = handle
        self._models = models

    def search(self, request: SearchRequest) -> SearchResults:
        """BM25 keyword search with filters applied before the limit."""
        searcher = LexicalSearch(self.handle.index, self.handle.uri)
        filters = self._filters(request)
        results = searcher.search(request, filters, recency=_recency(request))
        return self._noted(results, filters)

    def keyword_hits(self, request: SearchAsk) -> list[RankedHit]:
        """``search`` as plain hits, without the result contracts (``gno search``'s text)."""
        searcher = LexicalSearch(self.handle.index, self.handle.uri)
        return searcher.hits(request, self._filters(request), recency=_recency(request))

    def vsearch(self, request: SearchRequest) -> SearchResults:
        """Vector search (filters first); ``MODEL_UNAVAILABLE`` without an embedder, ``RUNTIME``
        when nothing is embedded."""
        filters = self._filters(request)
        return self._noted(self._vector_search().vsearch(request, filters), filters)

    def vector_hits(self, request: SearchAsk) -> VectorHits:
        """``vsearch`` as plain hits, without the result contracts (``gno vsearch``'s text),
        and what the search could not see."""
        return self._vector_search().hits(request, self._filters(request))

    def vector_gap(self, collections: list[str] | None) -> VectorGap | None:
        """What search by meaning misses in ``collections`` (``Gno.vector_gap``)."""
        from gno_core.retrieval.coverage import vector_gap

        embedder = self._models.embedder
        if embedder is None:
            return None
        return vector_gap(self.handle.index, embedder.fingerprint, tuple(collections or ()))

    def _vector_search(self) -> VectorSearch:
        from gno_core.retrieval.results import ResultBuilder
        from gno_core.retrieval.vector import VectorSearch, require_embedder

        embedder = require_embedder(self._models)
        return VectorSearch(self.handle.index, embedder, ResultBuilder(self.handle.name))

    def query(self, request: QueryRequest) -> SearchResults:
        """Hybrid search: BM25 and vectors fused, reranked when a reranker is present; degrades
        to ``bm25_only`` without vectors (see ``gno_core.retrieval.hybrid``)."""
        return self.hybrid(request)

    def query_hits(self, request: QueryAsk) -> HybridHits:
        """``query`` as plain hits, without the result contracts (``gno query``'s text)."""
        return self._hybrid_search().hits(
            request, self._filters(request), recency=_recency(request)
        )

    def hybrid(
        self, request: QueryRequest, collections: tuple[str, ...] | None = None
    ) -> SearchResults:
        """``query`` over several collections at once when ``collections`` names them (the
        evidence capability's scope); names must already be validated."""
        filters = self._filters(request)
        if collections:
            filters = filters._replace(collections=collections)
        results = self._hybrid_search().query(request, filters, recency=_recency(request))
        return self._noted(results, filters)

    def _noted(self, results: SearchResults, filters: SearchFilters) -> SearchResults:
        """A filtered search's results say their predicate and what it could not see."""
        if filters.metadata is None:
            return results
        from gno_core.retrieval.metadata_coverage import note_filter

        return note_filter(results, self.handle.index.stats, filters)

    def _hybrid_search(self) -> HybridSearch:
        from gno_core.retrieval.hybrid import HybridSearch
        from gno_core.retrieval.results import ResultBuilder

        return HybridSearch(
            self.handle.index,
            self._models.embedder,
            self._models.reranker,
            ResultBuilder(self.handle.name),
            self.handle.clock.now_ns,
        )

    def similar(
        self, owner: IndexHandle, document: StoredDocument, **options: Unpack[SimilarOptions]
    ) -> SimilarResults:
        """Documents similar to ``document`` of the index ``owner`` reads (its ref resolved by
        the caller: it may name another index) by meaning (mean of its chunk vectors), itself
        excluded, within its collection unless ``cross_collection``."""
        from gno_core.retrieval.results import ResultBuilder
        from gno_core.retrieval.vector import VectorSearch, require_embedder

        embedder = require_embedder(self._models)
        searcher = VectorSearch(owner.index, embedder, ResultBuilder(owner.name))
        return searcher.similar(document, **options)

    def _filters(self, request: SearchAsk) -> SearchFilters:
        return build_filters(self.handle.load_config, request, self.handle.clock.now_ns())


def _recency(request: SearchAsk) -> bool:
    return has_recency_intent(request.query)
