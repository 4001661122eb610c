"""Retrieval by meaning: ``gno_vsearch`` (vectors), ``gno_query`` (hybrid) and ``gno_similar``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gno_adapters.mcp.jsonrpc import JSONObject
from gno_adapters.mcp.registry import ToolDef
from gno_adapters.mcp.tools import common as c
from gno_adapters.mcp.tools.common import ToolCall, tool_result
from gno_adapters.mcp.tools.schema import DerivedSchema, validated
from gno_adapters.mcp.tools.search import render_results, search_request

if TYPE_CHECKING:
    from gno_core.contracts import SimilarResults


VSEARCH_INPUT = DerivedSchema(
    "SearchRequest", hide=("pathPrefix",), extra={"projectHints": c.PROJECT_HINTS}
)

#: ``QueryRequest`` as ``gno_query`` shows it: the golden interleaves the hybrid controls with
#: the filters, and lists ``queryModes`` with its description before its items.
QUERY_INPUT = DerivedSchema(
    "QueryRequest",
    hide=("pathPrefix",),
    order=(
        "query",
        "collection",
        "limit",
        "minScore",
        "lang",
        "intent",
        "candidateLimit",
        "exclude",
        "since",
        "until",
        "categories",
        "author",
        "queryModes",
        "expand",
        "rerank",
        "explain",
        "noGraph",
        "graph",
        "fast",
        "thorough",
        "tagsAll",
        "tagsAny",
        "filter",
    ),
    describe={
        "query": "Primary user query; combine with intent or queryModes for ambiguous requests",
        "intent": (
            "Disambiguating context; steers expansion, rerank, and snippet choice without "
            "being searched directly"
        ),
    },
    key_order={"queryModes": ("type", "description", "items")},
    extra={"projectHints": c.PROJECT_HINTS},
)

SIMILAR_INPUT = DerivedSchema("SimilarRequest")


def _vsearch(call: ToolCall) -> JSONObject:
    request = search_request(call)
    results = call.facade.vsearch(request)
    out = tool_result(render_results(results), results)
    return c.traced(
        out, call.facade.trace_results("gno_vsearch", request, out["structuredContent"])
    )


def _query(call: ToolCall) -> JSONObject:
    from gno_core.contracts.requests import QueryRequest

    request = validated(QueryRequest, call.arguments)
    results = call.facade.query(request)
    text = render_results(results)
    meta = results.meta
    text += (
        f"\n\n(vectorsUsed: {str(bool(meta.vectors_used)).lower()}, "
        f"reranked: {str(bool(meta.reranked)).lower()}, "
        f"expanded: {str(bool(meta.expanded)).lower()})"
    )
    out = tool_result(text, results)
    return c.traced(out, call.facade.trace_results("gno_query", request, out["structuredContent"]))


def render_similar(res: SimilarResults) -> str:
    meta = res.meta
    count = len(res.similar)
    head = f"Found {count} similar {'document' if count == 1 else 'documents'} for {meta.uri}"
    lines = [f" [{s.docid}] {s.uri} ({s.score:.2f})" for s in res.similar]
    return head + (":\n\n" + "\n".join(lines) if lines else "")


def _similar(call: ToolCall) -> JSONObject:
    from gno_core.contracts.requests import SimilarRequest

    req = validated(SimilarRequest, call.arguments)
    res = call.facade.similar(
        req.ref, limit=req.limit, threshold=req.threshold, cross_collection=req.cross_collection
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
