"""Request models: what a caller asks of the facade (shared by CLI, MCP, REST and Python)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from gno_core.contracts.fields import Cli, unwrap_optional
from gno_core.contracts.search_request import (
    MAX_FILTER_ITEMS,
    MAX_QUERY_MODES,
    MAX_REQUEST_TEXT_CHARS,
    DocRef,
    Request,
    SearchRequest,
)
from gno_core.text.validity import has_lone_surrogate

__all__ = [
    "MAX_FILTER_ITEMS",
    "MAX_QUERY_MODES",
    "MAX_REQUEST_TEXT_CHARS",
    "BacklinksRequest",
    "Cli",
    "DocRef",
    "GetRequest",
    "GraphDirection",
    "GraphNeighborsRequest",
    "GraphPathRequest",
    "GraphQueryRequest",
    "GraphRequest",
    "LinksRequest",
    "MultiGetRequest",
    "QueryMode",
    "QueryRequest",
    "Request",
    "SearchRequest",
    "SimilarRequest",
    "TagsRequest",
    "unwrap_optional",
]


class QueryMode(BaseModel):
    """A caller-supplied retrieval entry: ``term`` (an extra keyword query), ``intent`` (extra
    disambiguating context) or ``hyde`` (a hypothetical answer passage, searched by meaning)."""

    model_config = ConfigDict(extra="forbid")

    mode: Literal["term", "intent", "hyde"]
    # The validator strips and refuses blank text; the wire schema states the plain floor.
    text: str = Field(max_length=MAX_REQUEST_TEXT_CHARS, json_schema_extra={"minLength": 1})

    @field_validator("text")
    @classmethod
    def _text(cls, value: str) -> str:
        value = value.strip()
        if not value:
            raise ValueError("queryModes text must not be empty")
        if has_lone_surrogate(value):
            raise ValueError("queryModes text must be valid Unicode")
        return value


class QueryRequest(SearchRequest):
    """A hybrid query: a ``SearchRequest`` plus the depth, rerank and explain controls."""

    fast: Annotated[bool, Cli(group="depth", help="no expansion, no rerank")] = Field(
        default=False, description="Fast mode: skip expansion and reranking (~0.7s)"
    )
    thorough: Annotated[
        bool, Cli(group="depth", help="expansion and a wider rerank (40 candidates)")
    ] = Field(
        default=False,
        description="Thorough mode: enable expansion for broad research or missed recall (~5-8s)",
    )
    # None: the depth decides (on only with ``thorough``), which is off at the default depth.
    expand: Annotated[bool | None, Cli(help="expand the query", off_help="never expand")] = Field(
        default=None,
        description="Enable query expansion (slower, better recall)",
        json_schema_extra={"default": False},
    )
    rerank: Annotated[bool, Cli(help="skip the cross-encoder")] = Field(
        default=True, description="Enable cross-encoder reranking"
    )
    candidate_limit: Annotated[
        int | None,
        Cli(
            flags=("-C", "--candidate-limit"), help="candidates sent to rerank (1-100, default 20)"
        ),
    ] = Field(
        default=None,
        ge=1,
        le=100,
        description=(
            "Maximum candidates sent to reranking (1-100); raise for recall, lower for latency"
        ),
    )
    query_modes: Annotated[
        list[QueryMode],
        Cli(
            flags=("--query-mode",),
            repeat=True,
            metavar="MODE:TEXT",
            help="extra retrieval entry: term:TEXT, intent:TEXT or hyde:TEXT (repeatable)",
        ),
    ] = Field(
        default_factory=list,
        max_length=MAX_QUERY_MODES,
        description=(
            "Typed retrieval entries: term anchors, intent disambiguation, and at most one "
            "hyde hypothetical document"
        ),
    )
    explain: Annotated[bool, Cli(help="stage lines and score receipts")] = Field(
        default=False, description="Include deterministic stage and per-result scoring metadata"
    )
    # Off unless asked for: measured on SciFact (no change) and a dendron-site known-item set
    # (no gain), docs/reference/benchmarks.md "Graph expansion in query".
    graph: Annotated[
        bool | None,
        Cli(help="follow links one hop from the top results", off_help="no graph expansion"),
    ] = Field(
        default=None,
        description="Enable bounded one-hop graph neighbor expansion",
        json_schema_extra={"default": False},
    )
    # The MCP spelling of ``graph=false``; the command line has ``--no-graph`` for that already.
    no_graph: Annotated[bool, Cli(skip=True)] = Field(
        default=False, description="Disable graph neighbor expansion"
    )

    @model_validator(mode="after")
    def _consistent(self) -> QueryRequest:
        if sum(1 for m in self.query_modes if m.mode == "hyde") > 1:
            raise ValueError("queryModes allows at most one hyde entry")
        if self.fast and self.thorough:
            raise ValueError("fast and thorough cannot both be set")
        return self


class GetRequest(Request):
    """One document, whole or a line range (``Gno.get``)."""

    ref: Annotated[
        DocRef, Cli(help="gno://collection/path, collection/path or #docid, optionally :line")
    ]
    from_line: Annotated[int | None, Cli(flags=("--from",), help="first line (1-based)")] = Field(
        default=None,
        ge=1,
        description="Start at line number (1-indexed); use search/query result line anchors",
    )
    line_count: Annotated[int | None, Cli(flags=("-l", "--lines"), help="number of lines")] = Field(
        default=None,
        ge=1,
        description="Number of lines to return; prefer a small range before fetching full docs",
    )
    trace_id: Annotated[
        str | None, Cli(flags=("--trace-id",), help="add the returned lines to this trace")
    ] = Field(
        default=None,
        max_length=64,
        description="Continue an open retrieval trace (from _meta.gno.retrievalTrace.traceId)",
    )


class MultiGetRequest(Request):
    """Several documents, by refs or by one glob (``Gno.multi_get``)."""

    # The command line takes both as one positional list (refs, comma lists, or one glob).
    refs: Annotated[list[str] | None, Cli(skip=True)] = Field(
        default=None,
        description=(
            "Array of document references from search/query results (gno:// URIs or docids)"
        ),
    )
    pattern: Annotated[str | None, Cli(skip=True)] = Field(
        default=None, description="Glob pattern to match documents (alternative to refs)"
    )
    max_bytes: Annotated[int, Cli(help="per-document cap in bytes (default 10240)")] = Field(
        default=10240,
        description="Maximum bytes per document before truncation; lower when batching many refs",
    )


class SimilarRequest(Request):
    """Documents near one document by meaning (``Gno.similar``)."""

    ref: Annotated[DocRef, Cli(help="gno:// URI, collection/path or #docid")]
    limit: Annotated[int, Cli(flags=("-n", "--limit"), help="how many (1-50, default 5)")] = Field(
        default=5, ge=1, le=50, description="Maximum number of similar documents (1-50)"
    )
    threshold: Annotated[float | None, Cli(help="minimum similarity (0-1)")] = Field(
        default=None, ge=0, le=1, description="Minimum similarity score (0-1)"
    )
    cross_collection: Annotated[bool, Cli(help="include other collections")] = Field(
        default=False, description="Include documents from other collections"
    )


class LinksRequest(Request):
    """Outgoing links of one document (``Gno.links``)."""

    ref: Annotated[DocRef, Cli(help="gno:// URI, collection/path or #docid")]
    link_type: Annotated[
        Literal["wiki", "markdown"] | None, Cli(flags=("--type",), help="only wiki or markdown")
    ] = Field(default=None, alias="type", description="Filter by link type")


class BacklinksRequest(Request):
    """Links of other documents to one document (``Gno.backlinks``)."""

    ref: Annotated[DocRef, Cli(help="gno:// URI, collection/path or #docid")]
    collection: Annotated[
        str | None, Cli(flags=("-c", "--collection"), help="only links from this collection")
    ] = Field(default=None, description="Filter source documents by collection")


class GraphRequest(Request):
    """The link graph with its health report (``Gno.graph``); its fields also bound the
    projection ``graph neighbors`` and ``graph path`` search."""

    collection: Annotated[
        str | None, Cli(flags=("-c", "--collection"), help="only this collection")
    ] = Field(default=None, description="Filter to single collection")
    limit: int = Field(default=2000, ge=1, le=5000, description="Maximum nodes (1-5000)")
    edge_limit: int = Field(default=10_000, ge=1, le=50_000, description="Maximum edges (1-50000)")
    include_similar: Annotated[bool, Cli(help="add similar edges from the vector index")] = Field(
        default=False, description="Include semantic similarity edges"
    )
    threshold: Annotated[float, Cli(help="minimum score of a similar edge (0-1, default 0.7)")] = (
        Field(default=0.7, ge=0, le=1, description="Similarity threshold (0-1)")
    )
    linked_only: Annotated[
        bool, Cli(flags=("--include-isolated",), help="keep notes without links")
    ] = Field(default=True, description="Exclude isolated nodes (no connections)")
    similar_top_k: Annotated[int, Cli(help="similar edges per note (1-20, default 5)")] = Field(
        default=5, ge=1, le=20, description="Similar documents per node (1-20)"
    )


GraphDirection = Literal["both", "out", "in"]


class GraphNeighborsRequest(GraphRequest):
    """Incoming and outgoing neighbours of one document in the graph projection
    (``Gno.graph_neighbors``)."""

    ref: Annotated[
        DocRef, Cli(help="gno:// URI, collection/path, #docid, or a relPath or exact title")
    ]
    direction: GraphDirection = Field(default="both", description="both, out or in")


class GraphPathRequest(GraphRequest):
    """The shortest link path between two documents in the graph projection
    (``Gno.graph_path``)."""

    source: Annotated[
        DocRef, Cli(help="where the path starts (as neighbors' ref: also a relPath or title)")
    ] = Field(alias="from")
    target: Annotated[DocRef, Cli(help="where the path ends")] = Field(alias="to")
    max_depth: int = Field(default=6, ge=1, le=12, description="Maximum hops to search (1-12)")


class GraphQueryRequest(Request):
    """Bounded typed-edge traversal from one document (``Gno.graph_query``)."""

    ref: Annotated[DocRef, Cli(help="gno:// URI, collection/path or #docid")]
    direction: GraphDirection = Field(default="both", description="out, in or both")
    edge_type: str | None = Field(
        default=None, pattern=r"^[^\W_](?:\w*[^\W_])?$", description="Semantic edge type filter"
    )
    relation: Annotated[str | None, Cli(help="alias of --edge-type")] = Field(
        default=None, pattern=r"^[^\W_](?:\w*[^\W_])?$", description="Alias for edgeType"
    )
    max_depth: int = Field(default=2, ge=1, le=6, description="Maximum depth (1-6)")
    max_nodes: int = Field(default=100, ge=1, le=1000, description="Maximum nodes (1-1000)")
    frontier_limit: int = Field(
        default=100, ge=1, le=1000, description="Maximum nodes expanded per depth (1-1000)"
    )
    visited_limit: int = Field(
        default=500, ge=1, le=5000, description="Maximum nodes visited (1-5000)"
    )

    @model_validator(mode="after")
    def _one_edge_type(self) -> GraphQueryRequest:
        if self.edge_type and self.relation and self.edge_type != self.relation:
            raise ValueError("edgeType and relation name different edge types")
        return self

    @property
    def wanted_edge_type(self) -> str | None:
        return self.edge_type or self.relation


class TagsRequest(Request):
    """Tags with their document counts (``Gno.tags``)."""

    collection: str | None = Field(default=None, description="Filter by collection name")
    prefix: str | None = Field(
        default=None, description="Filter by tag prefix (e.g., 'work/' matches 'work/project')"
    )
