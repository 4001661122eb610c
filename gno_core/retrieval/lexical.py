"""BM25 mode (``gno search``, ``gno_search``): keyword hits with the best passage of each, the
filters applied before the limit, and recency-first ordering when the query asks for it.

``hits`` ranks plain values (what ``gno search`` prints); ``search`` turns them into the
``search-results@1.0`` contract, whose pydantic classes only load when something asks for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gno_core.retrieval.query import parse_query
from gno_core.retrieval.ranked import RankedHit
from gno_core.retrieval.snippets import best_passage
from gno_core.text.dates import parse_document_date
from gno_core.text.words import words_of

if TYPE_CHECKING:
    from collections.abc import Callable

    from gno_core.contracts import SearchResults
    from gno_core.domain import SearchFilters, StoredDocument
    from gno_core.ports import Index
    from gno_core.retrieval.inputs import SearchAsk

__all__ = ["LexicalSearch"]


class LexicalSearch:
    def __init__(self, index: Index, uri: Callable[[StoredDocument], str]) -> None:
        self.index = index
        self._uri = uri

    def hits(self, request: SearchAsk, filters: SearchFilters, *, recency: bool) -> list[RankedHit]:
        """Scores are BM25 relative to the best hit (0-1]; ``VALIDATION`` for a bad query."""
        query = parse_query(request.query)
        fetch = request.limit * 3 if recency else request.limit
        hits = self.index.lexical.search(query, filters, fetch)
        if recency:
            hits.sort(key=lambda h: -_doc_time_ns(h.document))
            hits = hits[: request.limit]
        top = max((h.bm25 for h in hits), default=0.0)
        words = query.positive_words()
        intent_words = tuple(words_of(request.intent)) if request.intent else ()
        # One read for every hit's chunks rather than one per hit.
        chunks = self.index.documents.chunks_for([h.document.mirror_hash for h in hits])
        ranked: list[RankedHit] = []
        for hit in hits:
            score = round(hit.bm25 / top, 6) if top > 0 else 1.0
            if request.min_score is not None and score < request.min_score:
                continue
            doc = hit.document
            passage = best_passage(chunks.get(doc.mirror_hash, ()), words, intent_words)
            ranked.append(RankedHit(doc, min(1.0, max(0.0, score)), self._uri(doc), passage))
        return ranked

    def search(self, request: SearchAsk, filters: SearchFilters, *, recency: bool) -> SearchResults:
        """``hits`` as the ``search-results@1.0`` contract."""
        from gno_core.contracts import SearchMeta, SearchResults
        from gno_core.retrieval.results import search_result

        results = [
            search_result(hit.document, hit.score, hit.uri, hit.passage)
            for hit in self.hits(request, filters, recency=recency)
        ]
        return SearchResults(
            results=results,
            meta=SearchMeta(
                query=request.query,
                mode="bm25",
                total_results=len(results),
                collection=filters.collections[0] if filters.collections else None,
                intent=request.intent,
                lang=request.lang,
                since=request.since,
                until=request.until,
                categories=request.categories or None,
                author=request.author,
                exclude=request.exclude or None,
                tags_all=list(filters.tags_all) or None,
                tags_any=list(filters.tags_any) or None,
            ),
        )


def _doc_time_ns(doc: StoredDocument) -> int:
    return parse_document_date(doc.meta.date) or doc.source_mtime_ns
