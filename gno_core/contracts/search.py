"""Search contracts: ``search-result@1.0`` and ``search-results@1.0`` (BM25, vector and hybrid)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from gno_core.contracts.base import WireModel

SearchMode = Literal["bm25", "vector", "hybrid", "bm25_only"]


class SourceInfo(WireModel):
    """Where a document comes from on disk."""

    abs_path: str | None = None
    rel_path: str
    mime: str
    ext: str
    modified_at: str | None = None
    size_bytes: int | None = None
    source_hash: str | None = None


CoordinateSpace = Literal["source", "canonical_mirror"]


class ConversionInfo(WireModel):
    """A converted document (PDF, DOCX, ...): its line numbers are ``canonical_mirror``
    coordinates, lines of the Markdown the converter made, not of the file."""

    converter_id: str
    converter_version: str
    mirror_hash: str
    warnings: list[str] = Field(default_factory=list)
    coordinate_space: Literal["canonical_mirror"] = "canonical_mirror"


class SnippetRange(WireModel):
    start_line: int = Field(ge=1)
    end_line: int = Field(ge=1)


class SearchResult(WireModel):
    """One ranked document with its best passage and a 1-based line anchor: a line of the file
    for Markdown and text, of the converted mirror when ``conversion`` is set."""

    docid: str = Field(pattern=r"^#[0-9a-f]{6,8}$")
    score: float = Field(ge=0, le=1)
    uri: str
    line: int | None = Field(default=None, ge=1)
    title: str | None = None
    content_type: str | None = None
    categories: list[str] = Field(default_factory=list)  # always present (the spec)
    snippet_language: str | None = None
    context: str | None = None
    snippet: str
    snippet_range: SnippetRange | None = None
    source: SourceInfo
    conversion: ConversionInfo | None = None


class ExplainLine(WireModel):
    """One line of ``meta.explain``: a stage summary, or (stage ``result``) the score receipt
    of the result at ``rank`` with its ``uri`` and score components."""

    stage: str
    message: str
    rank: int | None = Field(default=None, ge=1)
    uri: str | None = None
    scores: dict[str, float] | None = None


class VectorCoverage(WireModel):
    """How much of the searched collections search by meaning could see, present only when some
    of their chunks have no vector yet: ``embeddedChunks`` of ``totalChunks`` (``percent``,
    rounded down) and the command that embeds the rest (``fix``)."""

    embedded_chunks: int = Field(ge=0)
    total_chunks: int = Field(ge=1)
    percent: int = Field(ge=0, le=99)
    fix: str
    message: str


class MetadataCoverage(WireModel):
    """Present on a filtered search when some documents in scope cannot match any typed filter
    yet: ``pendingDocuments`` not yet extracted (``gno update`` extracts them, no re-embedding)
    and ``invalidDocuments`` whose ``gno.metadata`` breaks the rules. An empty filtered result
    with this warning is no proof of absence."""

    complete: Literal[False] = False
    pending_documents: int = Field(ge=0)
    invalid_documents: int = Field(ge=0)
    fix: str
    message: str


class SearchMeta(WireModel):
    query: str
    mode: SearchMode
    expanded: bool | None = None
    reranked: bool | None = None
    vectors_used: bool | None = None
    total_results: int = Field(ge=0)
    collection: str | None = None
    intent: str | None = None
    lang: str | None = None
    since: str | None = None
    until: str | None = None
    categories: list[str] | None = None
    author: str | None = None
    candidate_limit: int | None = None
    exclude: list[str] | None = None
    query_language: str | None = None
    query_modes: list[dict[str, str]] | None = None
    tags_all: list[str] | None = None
    tags_any: list[str] | None = None
    explain: list[ExplainLine] | None = None
    vector_coverage: VectorCoverage | None = None
    filter: dict[str, Any] | None = None
    metadata_coverage: MetadataCoverage | None = None


class SearchResults(WireModel):
    results: list[SearchResult]
    meta: SearchMeta
