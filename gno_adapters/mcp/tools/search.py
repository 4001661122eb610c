"""Retrieval tools: ``gno_search`` (BM25) and the shared result rendering."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gno_adapters.mcp.jsonrpc import JSONObject
from gno_adapters.mcp.registry import ToolDef
from gno_adapters.mcp.tools import common as c
from gno_adapters.mcp.tools.common import ToolCall, tool_result
from gno_adapters.mcp.tools.schema import DerivedSchema, validated

if TYPE_CHECKING:
    from gno_core.contracts import SearchResults
    from gno_core.contracts.requests import SearchRequest

#: ``SearchRequest`` as ``gno_search`` shows it. Every request field is accepted, but ``intent``,
#: ``exclude`` and ``pathPrefix`` are not advertised here (the committed golden predates them).
SEARCH_INPUT = DerivedSchema(
    "SearchRequest",
    hide=("intent", "exclude", "pathPrefix"),
    describe={
        "query": "Exact keyword, identifier, filename, error text, or phrase to match with BM25",
        "lang": "Language filter (BCP-47 code)",
    },
    extra={"projectHints": c.PROJECT_HINTS},
)


def search_request(call: ToolCall) -> SearchRequest:
    from gno_core.contracts.requests import SearchRequest

    return validated(SearchRequest, call.arguments)


def render_results(results: SearchResults) -> str:
    """``Found N results for "q"`` then one block per hit: docid, uri, score, title, line
    anchor and the snippet, indented."""
    meta = results.meta
    count = len(results.results)
    head = f'Found {count} {"result" if count == 1 else "results"} for "{meta.query}"'
    if meta.mode != "bm25":
        head += f" (mode: {meta.mode})"
    blocks = [head]
    for rank, hit in enumerate(results.results, 1):
        lines = [f"{rank}. {hit.docid} - {hit.uri} ({hit.score:.2f})"]
        if hit.title:
            lines.append(f"   Title: {hit.title}")
        if hit.line is not None:
            lines.append(f"   Line: {hit.line}")
        lines.extend(f"   {text}" for text in c.content_lines(hit.snippet.strip()))
        blocks.append("\n".join(lines))
    if meta.vector_coverage is not None:  # search by meaning missed part of the collections
        blocks.append(f"Note: {meta.vector_coverage.message}")
    return "\n\n".join(blocks)


def _search(call: ToolCall) -> JSONObject:
    request = search_request(call)
    results = call.facade.search(request)
    out = tool_result(render_results(results), results)
    return c.traced(out, call.facade.trace_results("gno_search", request, out["structuredContent"]))


SEARCH = ToolDef(
    name="gno_search", input_schema=SEARCH_INPUT, output="search-results", handler=_search
)
