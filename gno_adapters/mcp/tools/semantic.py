"""Retrieval by meaning: ``gno_vsearch`` (vectors), ``gno_query`` (hybrid) and ``gno_similar``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, cast

from gno_adapters.mcp.jsonrpc import JSONObject
from gno_adapters.mcp.registry import ToolDef
from gno_adapters.mcp.tools import common as c
from gno_adapters.mcp.tools.common import ToolCall, tool_result
from gno_adapters.mcp.tools.search import REQUEST_FIELDS, render_results, search_request

if TYPE_CHECKING:
    from gno_core.model import SearchResults, SimilarResults
    from gno_core.model.requests import QueryRequest, SearchRequest


class SemanticFacade(Protocol):
    """The facade methods these tools call (``gno_core.service.Gno`` has them)."""

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


def _facade(call: ToolCall) -> SemanticFacade:
    return cast("SemanticFacade", call.facade)


LANG_HINT: JSONObject = {"type": "string", "description": "Language hint for query (BCP-47 code)"}

VSEARCH_INPUT: JSONObject = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "description": "Search query text"},
        "collection": c.COLLECTION,
        "limit": c.LIMIT,
        "minScore": c.MIN_SCORE,
        "lang": LANG_HINT,
        "intent": {
            "type": "string",
            "description": "Optional disambiguating context for ambiguous queries",
        },
        "exclude": c.EXCLUDE,
        "since": c.SINCE,
        "until": c.UNTIL,
        "categories": c.CATEGORIES,
        "author": c.AUTHOR,
        "tagsAll": c.TAGS_ALL,
        "tagsAny": c.TAGS_ANY,
        "projectHints": c.PROJECT_HINTS,
    },
    "required": ["query"],
}


def _flag(description: str, default: bool) -> JSONObject:
    return {"type": "boolean", "description": description, "default": default}


QUERY_INPUT: JSONObject = {
    "type": "object",
    "properties": {
        "query": {
            "type": "string",
            "description": (
                "Primary user query; combine with intent or queryModes for ambiguous requests"
            ),
        },
        "collection": c.COLLECTION,
        "limit": c.LIMIT,
        "minScore": c.MIN_SCORE,
        "lang": LANG_HINT,
        "intent": {
            "type": "string",
            "description": (
                "Disambiguating context; steers expansion, rerank, and snippet choice without "
                "being searched directly"
            ),
        },
        "candidateLimit": {
            "type": "integer",
            "description": (
                "Maximum candidates sent to reranking (1-100); raise for recall, lower for latency"
            ),
            "minimum": 1,
            "maximum": 100,
        },
        "exclude": c.EXCLUDE,
        "since": c.SINCE,
        "until": c.UNTIL,
        "categories": c.CATEGORIES,
        "author": c.AUTHOR,
        "queryModes": {
            "type": "array",
            "description": (
                "Typed retrieval entries: term anchors, intent disambiguation, and at most one "
                "hyde hypothetical document"
            ),
            "items": {
                "type": "object",
                "properties": {
                    "mode": {"type": "string", "enum": ["term", "intent", "hyde"]},
                    "text": {"type": "string", "minLength": 1},
                },
                "required": ["mode", "text"],
            },
        },
        "expand": _flag("Enable query expansion (slower, better recall)", False),
        "rerank": _flag("Enable cross-encoder reranking", True),
        "explain": _flag("Include deterministic stage and per-result scoring metadata", False),
        "noGraph": _flag("Disable graph neighbor expansion", False),
        "graph": _flag("Enable bounded one-hop graph neighbor expansion", True),
        "fast": _flag("Fast mode: skip expansion and reranking (~0.7s)", False),
        "thorough": _flag(
            "Thorough mode: enable expansion for broad research or missed recall (~5-8s)", False
        ),
        "tagsAll": c.TAGS_ALL,
        "tagsAny": c.TAGS_ANY,
        "projectHints": c.PROJECT_HINTS,
    },
    "required": ["query"],
}

SIMILAR_INPUT: JSONObject = {
    "type": "object",
    "properties": {
        "ref": c.DOC_REF,
        "limit": {
            "type": "integer",
            "description": "Maximum number of similar documents (1-50)",
            "default": 5,
            "minimum": 1,
            "maximum": 50,
        },
        "threshold": {
            "type": "number",
            "description": "Minimum similarity score (0-1)",
            "minimum": 0,
            "maximum": 1,
        },
        "crossCollection": _flag("Include documents from other collections", False),
    },
    "required": ["ref"],
}

QUERY_FIELDS = (
    *REQUEST_FIELDS,
    "candidateLimit",
    "queryModes",
    "expand",
    "rerank",
    "explain",
    "fast",
    "thorough",
    "graph",
    "noGraph",
)


def _vsearch(call: ToolCall) -> JSONObject:
    results = _facade(call).vsearch(search_request(call))
    return tool_result(render_results(results), results)


def _query(call: ToolCall) -> JSONObject:
    from gno_core.model.requests import QueryRequest

    fields = {k: call.arguments[k] for k in QUERY_FIELDS if k in call.arguments}
    results = _facade(call).query(QueryRequest.model_validate(fields))
    text = render_results(results)
    meta = results.meta
    text += (
        f"\n\n(vectorsUsed: {str(bool(meta.vectors_used)).lower()}, "
        f"reranked: {str(bool(meta.reranked)).lower()}, "
        f"expanded: {str(bool(meta.expanded)).lower()})"
    )
    return tool_result(text, results)


def render_similar(res: SimilarResults) -> str:
    meta = res.meta
    count = len(res.similar)
    head = f"Found {count} similar {'document' if count == 1 else 'documents'} for {meta.uri}"
    lines = [f" [{s.docid}] {s.uri} ({s.score:.2f})" for s in res.similar]
    return head + (":\n\n" + "\n".join(lines) if lines else "")


def _similar(call: ToolCall) -> JSONObject:
    res = _facade(call).similar(
        str(call.arg("ref")),
        limit=int(call.arg("limit", 5)),
        threshold=call.arg("threshold"),
        cross_collection=bool(call.arg("crossCollection", False)),
    )
    return tool_result(render_similar(res), res)


VSEARCH = ToolDef(
    name="gno_vsearch",
    input_schema=VSEARCH_INPUT,
    output="search-results",
    handler=_vsearch,
    requires="vsearch",
)
QUERY = ToolDef(
    name="gno_query",
    input_schema=QUERY_INPUT,
    output="search-results",
    handler=_query,
    requires="query",
)
SIMILAR = ToolDef(
    name="gno_similar",
    input_schema=SIMILAR_INPUT,
    output="similar",
    handler=_similar,
    requires="similar",
)
