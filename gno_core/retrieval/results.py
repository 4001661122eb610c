"""Result assembly shared by the retrieval modes: a ranked document becomes a ``SearchResult``."""

from __future__ import annotations

from dataclasses import dataclass

from gno_core.contracts import ConversionInfo, SearchMeta, SearchResult, SnippetRange, SourceInfo
from gno_core.contracts.requests import SearchRequest
from gno_core.domain import Chunk, SearchFilters, StoredDocument
from gno_core.identity import make_uri
from gno_core.retrieval.dates import iso_from_ns
from gno_core.retrieval.snippets import Passage, best_passage


def source_info(doc: StoredDocument) -> SourceInfo:
    return SourceInfo(
        abs_path=doc.abs_path,
        rel_path=doc.rel_path,
        mime=doc.source_mime,
        ext=doc.source_ext,
        modified_at=iso_from_ns(doc.source_mtime_ns),
        size_bytes=doc.source_size,
        source_hash=doc.source_hash,
    )


def conversion_info(doc: StoredDocument) -> ConversionInfo | None:
    """Which converter made the mirror of a converted document (PDF, DOCX, ...); None for
    Markdown and text, whose mirror is the file itself."""
    if doc.converter_id.startswith("native/"):
        return None
    return ConversionInfo(
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


@dataclass(frozen=True, slots=True)
class ResultBuilder:
    """Builds the ``SearchResult`` of a document of index ``index_name``."""

    index_name: str

    def uri(self, doc: StoredDocument) -> str:
        return make_uri(doc.collection, doc.rel_path, self.index_name)

    def build(self, doc: StoredDocument, score: float, passage: Passage | None) -> SearchResult:
        return SearchResult(
            docid=doc.docid,
            score=round(clamp01(score), 6),
            uri=self.uri(doc),
            line=passage.best_line if passage else None,
            title=doc.meta.title,
            content_type=doc.meta.content_type,
            categories=list(doc.meta.categories) or None,
            snippet_language=(passage.chunk.language if passage else None) or doc.meta.language,
            snippet=passage.text if passage else "",
            snippet_range=SnippetRange(start_line=passage.start_line, end_line=passage.end_line)
            if passage
            else None,
            source=source_info(doc),
            conversion=conversion_info(doc),
        )


def base_meta(request: SearchRequest, filters: SearchFilters, **extra: object) -> SearchMeta:
    """The ``meta`` every retrieval mode echoes: the query and the filters it ran with."""
    return SearchMeta.model_validate(
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
