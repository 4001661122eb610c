"""Retrieval by meaning alone: ``vsearch`` (documents nearest a query) and ``similar``
(documents nearest another document, through the mean of its chunk vectors)."""

from __future__ import annotations

import math
from array import array
from typing import TYPE_CHECKING, TypedDict

from gno_core import contracts
from gno_core.errors import ModelUnavailableError, RuntimeFailure, ValidationError
from gno_core.identity import make_uri
from gno_core.read_values import SearchFilters
from gno_core.retrieval.coverage import vector_gap
from gno_core.retrieval.query import STOPWORDS
from gno_core.retrieval.ranked import RankedHit
from gno_core.retrieval.results import (
    ResultBuilder,
    VectorHits,
    base_meta,
    chunk_passage,
    clamp01,
    search_result,
)
from gno_core.text.words import words_of

if TYPE_CHECKING:
    # The contracts load when a result is built: ``gno vsearch``'s text output prints the
    # ranked hits themselves (``hits``).
    from gno_core.contracts import SearchResults
    from gno_core.contracts.similar import SimilarResults
    from gno_core.ports.embedder import Embedder, Vector
    from gno_core.ports.index import Index
    from gno_core.ports.semantic import SemanticModels
    from gno_core.read_values import StoredDocument
    from gno_core.retrieval.inputs import SearchAsk


class SimilarOptions(TypedDict, total=False):
    """How ``similar`` chooses, for the calls that pass the choice on to
    ``VectorSearch.similar`` (which says the defaults): how many documents (``limit``), the
    lowest score kept (``threshold``) and whether other collections count
    (``cross_collection``)."""

    limit: int
    threshold: float | None
    cross_collection: bool


def distance_score(distance: float) -> float:
    """The 0-1 score of a cosine distance (1 identical, 0.5 unrelated, 0 opposite)."""
    return clamp01(1.0 - distance / 2.0)


def content_words(text: str) -> tuple[str, ...]:
    """The words of ``text`` that can pick snippet lines (stopwords left out when others
    remain)."""
    words = list(dict.fromkeys(words_of(text)))
    content = [w for w in words if w not in STOPWORDS]
    return tuple(content or words)


def require_embedder(models: SemanticModels) -> Embedder:
    """The embedder of ``models``, or ``MODEL_UNAVAILABLE`` saying why there is none (the
    adapter's reason: the model chosen is not pulled, vectors are turned off, ...)."""
    embedder = models.embedder
    if embedder is not None:
        return embedder
    from gno_core.ports.semantic import unavailable_reason

    why = unavailable_reason(models, "embed")
    if why is None:
        raise ModelUnavailableError(
            "No embedding model is available, so search by meaning is off; `gno models list` "
            "shows the models and `gno models pull NAME` fetches one",
            details={"role": "embed"},
        )
    raise ModelUnavailableError(
        f"No embedding model is available, so search by meaning is off: {why.message}",
        details={"role": "embed", **why.details},
    )


def require_vectors(index: Index, embedder: Embedder) -> None:
    if not index.vectors.has_vectors(embedder.fingerprint):
        raise RuntimeFailure(
            f"No vectors for {embedder.model_id} in this index yet: run `gno embed` "
            "(or `gno index`) first",
            details={"model": embedder.model_id, "reason": "no_vectors"},
        )


class VectorSearch:
    """``vsearch`` and ``similar`` over one index and embedder."""

    __slots__ = ("embedder", "index", "results")

    def __init__(self, index: Index, embedder: Embedder, results: ResultBuilder) -> None:
        self.index, self.embedder, self.results = index, embedder, results

    def hits(self, request: SearchAsk, filters: SearchFilters) -> VectorHits:
        """The ``limit`` eligible documents nearest the query; score = 1 - distance / 2; with
        the share of the searched collections that has no vector yet (``gap``)."""
        require_vectors(self.index, self.embedder)
        gap = vector_gap(self.index, self.embedder.fingerprint, filters.collections)
        (query,) = self.embedder.embed_batch([self.embedder.profile.query(request.query)])
        hits = self.index.vectors.nearest(query, self.embedder.fingerprint, filters, request.limit)
        words = content_words(request.query)
        intent_words = content_words(request.intent) if request.intent else ()
        out = []
        chunks = self.index.documents.chunks_for([h.document.mirror_hash for h in hits])
        for hit in hits:
            score = distance_score(hit.distance)
            if request.min_score is not None and score < request.min_score:
                continue
            passage = chunk_passage(
                chunks.get(hit.document.mirror_hash, ()), hit.seq, words, intent_words
            )
            doc = hit.document
            out.append(RankedHit(doc, round(clamp01(score), 6), self.results.uri(doc), passage))
        return VectorHits(out, gap)

    def vsearch(self, request: SearchAsk, filters: SearchFilters) -> SearchResults:
        """``hits`` as the ``search-results@1.0`` contract."""
        from gno_core.contracts import SearchResults

        found = self.hits(request, filters)
        out = [search_result(h.document, h.score, h.uri, h.passage) for h in found.hits]
        meta = base_meta(
            request,
            filters,
            mode="vector",
            vectors_used=True,
            vector_coverage=None if found.gap is None else found.gap.wire(),
        )
        meta.total_results = len(out)
        return SearchResults(results=out, meta=meta)

    def similar(
        self,
        doc: StoredDocument,
        *,
        limit: int = 5,
        threshold: float | None = None,
        cross_collection: bool = False,
    ) -> SimilarResults:
        """Documents nearest the mean of ``doc``'s chunk vectors, itself left out, within its
        collection unless ``cross_collection``."""
        if not 1 <= limit <= 50:
            raise ValidationError("limit must be between 1 and 50")
        if threshold is not None and not 0 <= threshold <= 1:
            raise ValidationError("threshold must be between 0 and 1")
        uri = self.results.uri(doc)
        if not self.index.documents.chunks(doc.mirror_hash):
            raise ValidationError(f"Document has no content: {uri}")
        fingerprint = self.embedder.fingerprint
        vectors = [v for _, v in self.index.vectors.chunk_vectors(doc.mirror_hash, fingerprint)]
        if not vectors:
            raise RuntimeFailure(
                f"Document has no embeddings for {self.embedder.model_id}: {uri}; run "
                "`gno embed` first",
                details={"uri": uri, "reason": "no_vectors"},
            )
        scope = SearchFilters(collections=None if cross_collection else (doc.collection,))
        hits = self.index.vectors.nearest(mean_vector(vectors), fingerprint, scope, limit + 1)
        similar = []
        for hit in hits:
            other = hit.document
            if (other.collection, other.rel_path) == (doc.collection, doc.rel_path):
                continue
            score = distance_score(hit.distance)
            if threshold is not None and score < threshold:
                continue
            similar.append(
                contracts.SimilarDocument(
                    docid=other.docid,
                    uri=make_uri(other.collection, other.rel_path, self.results.index_name),
                    title=other.meta.title,
                    score=round(score, 6),
                    abs_path=other.abs_path,
                )
            )
        similar = similar[:limit]
        return contracts.SimilarResults(
            similar=similar,
            meta=contracts.SimilarMeta(
                docid=doc.docid,
                uri=uri,
                title=doc.meta.title,
                total_similar=len(similar),
                threshold=threshold,
                cross_collection=cross_collection,
            ),
        )


def mean_vector(vectors: list[Vector]) -> Vector:
    """The unit-length mean of ``vectors`` (the first one when they cancel out)."""
    dims = len(vectors[0])
    sums = [math.fsum(v[i] for v in vectors) for i in range(dims)]
    norm = math.sqrt(math.fsum(x * x for x in sums))
    if norm == 0.0:
        return array("f", vectors[0])
    return array("f", (x / norm for x in sums))
