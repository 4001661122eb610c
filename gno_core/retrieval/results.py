"""Result assembly shared by the retrieval modes: a ranked document becomes a ``SearchResult``
(the contracts load on first use: the plain paths of ``gno search``, ``vsearch`` and ``query``
only take the passages, URIs and plain hybrid values from here)."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from gno_core import contracts
from gno_core.identity import make_uri
from gno_core.retrieval.snippets import Passage, best_passage
from gno_core.text.dates import iso_from_ns

if TYPE_CHECKING:
    from gno_core.contracts import (
        ConversionInfo,
        SearchMeta,
        SearchResult,
        SearchResults,
        SourceInfo,
    )
    from gno_core.contracts.search import CoordinateSpace
    from gno_core.domain import Chunk, SearchFilters, StoredDocument
    from gno_core.retrieval.coverage import VectorGap
    from gno_core.retrieval.fusion import Fused, Leg
    from gno_core.retrieval.inputs import QueryAsk, SearchAsk
    from gno_core.retrieval.ranked import GraphVia, RankedHit


class Note(NamedTuple):
    """One line of a hybrid query's explanation as plain values (the fields of the
    ``ExplainLine`` contract): a stage summary, or the score receipt of the result at ``rank``."""

    stage: str
    message: str
    rank: int | None = None
    uri: str | None = None
    scores: dict[str, float] | None = None


class HybridRun:
    """What one query gathers on its way: documents, leg ranks, explain lines, timings."""

    def __init__(self) -> None:
        self.docs: dict[str, StoredDocument] = {}
        self.vector_seq: dict[str, int] = {}
        self.lexical: set[str] = set()
        self.legs: list[Leg] = []
        self.explain: list[Note] = []
        self.timings: dict[str, float] = {}
        self.gap: VectorGap | None = None

    def note(self, stage: str, message: str) -> None:
        self.explain.append(Note(stage, message))


class VectorHits(NamedTuple):
    """What a search by meaning found, as plain values, and what it could not see."""

    hits: list[RankedHit]
    gap: VectorGap | None = None


class HybridHits(NamedTuple):
    """What a hybrid query found, as plain values: the ranked hits (scores as the results
    carry them), what ran, and the stage lines and receipts when the request asked to explain."""

    hits: list[RankedHit]
    vectors_used: bool
    expanded: bool
    reranked: bool
    candidate_limit: int
    explain: list[Note] | None
    gap: VectorGap | None = None  # what the vector leg could not see (None: nothing)

    @property
    def mode(self) -> str:
        return "hybrid" if self.vectors_used else "bm25_only"


def source_info(doc: StoredDocument) -> SourceInfo:
    return contracts.SourceInfo(
        abs_path=doc.abs_path,
        rel_path=doc.rel_path,
        mime=doc.source_mime,
        ext=doc.source_ext,
        modified_at=iso_from_ns(doc.source_mtime_ns),
        size_bytes=doc.source_size,
        source_hash=doc.source_hash,
    )


def coordinate_space(doc: StoredDocument) -> CoordinateSpace:
    """``source`` when the document's line numbers are its file's (Markdown and text, whose
    mirror keeps every line), ``canonical_mirror`` for a converted document."""
    return "source" if doc.converter_id.startswith("native/") else "canonical_mirror"


def conversion_info(doc: StoredDocument) -> ConversionInfo | None:
    """Which converter made the mirror of a converted document (PDF, DOCX, ...); None for
    Markdown and text, whose mirror is the file itself."""
    if doc.converter_id.startswith("native/"):
        return None
    return contracts.ConversionInfo(
        converter_id=doc.converter_id,
        converter_version=doc.converter_version,
        mirror_hash=doc.mirror_hash,
        warnings=list(doc.converter_warnings),
    )


def doc_key(doc: StoredDocument) -> str:
    """The identity ranked lists are fused on (and ties broken by)."""
    return f"{doc.collection}/{doc.rel_path}"


def clamp01(value: float) -> float:
    return min(1.0, max(0.0, value))


def chunk_passage(
    chunks: tuple[Chunk, ...],
    seq: int | None,
    words: tuple[str, ...],
    intent_words: tuple[str, ...] = (),
) -> Passage | None:
    """The snippet of a hit: inside chunk ``seq`` when one was matched by meaning (the lines
    there that match the words best), else the best lines of the whole document."""
    if seq is not None:
        chosen = tuple(c for c in chunks if c.seq == seq)
        if chosen:
            return best_passage(chosen, words, intent_words)
    return best_passage(chunks, words, intent_words)


class ResultBuilder(NamedTuple):
    """Names the documents of index ``index_name`` in results (their ``gno://`` URI)."""

    index_name: str

    def uri(self, doc: StoredDocument) -> str:
        return make_uri(doc.collection, doc.rel_path, self.index_name)


def search_result(
    doc: StoredDocument, score: float, uri: str, passage: Passage | None
) -> SearchResult:
    """The ``SearchResult`` of ``doc`` at ``score`` (already in [0, 1]) with its best passage."""
    return contracts.SearchResult(
        docid=doc.docid,
        score=score,
        uri=uri,
        line=passage.best_line if passage else None,
        title=doc.meta.title,
        content_type=doc.meta.content_type,
        categories=list(doc.meta.categories),
        snippet_language=(passage.chunk.language if passage else None) or doc.meta.language,
        snippet=passage.text if passage else "",
        snippet_range=contracts.SnippetRange(
            start_line=passage.start_line, end_line=passage.end_line
        )
        if passage
        else None,
        source=source_info(doc),
        conversion=conversion_info(doc),
    )


def base_meta(request: SearchAsk, filters: SearchFilters, **extra: object) -> SearchMeta:
    """The ``meta`` every retrieval mode echoes: the query and the filters it ran with."""
    return contracts.SearchMeta.model_validate(
        {
            "query": request.query,
            "total_results": 0,
            "collection": filters.collections[0] if filters.collections else None,
            "intent": request.intent,
            "lang": request.lang,
            "since": request.since,
            "until": request.until,
            "categories": request.categories or None,
            "author": request.author,
            "exclude": request.exclude or None,
            "tags_all": list(filters.tags_all) or None,
            "tags_any": list(filters.tags_any) or None,
            **extra,
        }
    )


def receipt(
    rank: int,
    uri: str,
    entry: Fused,
    parts: dict[str, float],
    final: float,
    via: tuple[GraphVia, str] | None = None,
) -> Note:
    """The score receipt of a hybrid result: each leg's rank and share, the bonus, rerank parts,
    and, for a graph candidate, the seed (``via``: why and its URI) it was reached from."""
    scores = {f"{leg}Rank": float(r) for leg, r in entry.ranks.items()}
    scores.update({leg: round(c, 6) for leg, c in entry.contributions.items()})
    scores.update({k: round(v, 6) for k, v in parts.items()})
    scores["bonus"] = entry.bonus
    scores["final"] = round(final, 6)
    legs = ", ".join(f"{leg} #{r}" for leg, r in entry.ranks.items())
    message = f"fused {entry.score:.4f} ({legs}; bonus {entry.bonus:.2f})"
    if via is not None:
        link, seed_uri = via
        scores["graphScore"] = link.score
        scores["graphSeedRank"] = float(link.seed_rank)
        way = "linked from" if link.direction == "out" else "links to"
        message += f", graph: {way} seed #{link.seed_rank} {seed_uri} ({link.confidence})"
    if "rerank" in parts:
        message += f", rerank {parts['rerank']:.4f}"
    return Note("result", message + f" -> {final:.4f}", rank, uri, scores)


def hybrid_results(request: QueryAsk, filters: SearchFilters, found: HybridHits) -> SearchResults:
    """The ``search-results@1.0`` contract of a hybrid query's plain ``found``."""
    results = [search_result(h.document, h.score, h.uri, h.passage) for h in found.hits]
    explain = found.explain
    meta = base_meta(
        request,
        filters,
        mode=found.mode,
        expanded=found.expanded,
        reranked=found.reranked,
        vectors_used=found.vectors_used,
        candidate_limit=found.candidate_limit,
        query_modes=[{"mode": m.mode, "text": m.text} for m in request.query_modes] or None,
        explain=None
        if explain is None
        else [contracts.ExplainLine(**n._asdict()) for n in explain],
        vector_coverage=None if found.gap is None else found.gap.wire(),
    )
    meta.total_results = len(results)
    return contracts.SearchResults(results=results, meta=meta)
