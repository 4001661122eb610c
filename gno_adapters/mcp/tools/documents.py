"""Document read tools: ``gno_get`` (one document or a line range) and ``gno_multi_get``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gno_adapters.mcp.jsonrpc import JSONObject
from gno_adapters.mcp.registry import ToolDef
from gno_adapters.mcp.tools import common as c
from gno_adapters.mcp.tools.common import ToolCall, tool_result

if TYPE_CHECKING:
    from gno_core.model import MultiGetResult

GET_INPUT: JSONObject = {
    "type": "object",
    "properties": {
        "ref": c.DOC_REF,
        "fromLine": {
            "type": "integer",
            "description": "Start at line number (1-indexed); use search/query result line anchors",
            "minimum": 1,
        },
        "lineCount": {
            "type": "integer",
            "description": "Number of lines to return; prefer a small range before fetching full docs",
            "minimum": 1,
        },
        "lineNumbers": c.LINE_NUMBERS,
    },
    "required": ["ref"],
}

MULTI_GET_INPUT: JSONObject = {
    "type": "object",
    "properties": {
        "refs": {
            "type": "array",
            "description": (
                "Array of document references from search/query results (gno:// URIs or docids)"
            ),
            "items": {"type": "string"},
        },
        "pattern": {
            "type": "string",
            "description": "Glob pattern to match documents (alternative to refs)",
        },
        "maxBytes": {
            "type": "integer",
            "description": (
                "Maximum bytes per document before truncation; lower when batching many refs"
            ),
            "default": 10240,
        },
        "lineNumbers": c.LINE_NUMBERS,
    },
}

SKIP_REASONS = {
    "not_found": "not found",
    "exceeds_maxBytes": "exceeds maxBytes",
    "permission_denied": "permission denied",
    "conversion_error": "conversion error",
    "invalid_ref": "invalid reference",
}


def _get(call: ToolCall) -> JSONObject:
    got = call.facade.get(
        call.arg("ref"), from_line=call.arg("fromLine"), line_count=call.arg("lineCount")
    )
    start = got.returned_lines.start if got.returned_lines else 1
    text = c.number_lines(got.content, start) if call.arg("lineNumbers", True) else got.content
    return tool_result(text or f"(empty document: {got.uri})", got)


def render_multi_get(result: MultiGetResult, line_numbers: bool) -> str:
    returned = len(result.documents)
    head = f"Retrieved {returned} {'document' if returned == 1 else 'documents'}"
    if result.skipped:
        by_size = all(s.reason == "exceeds_maxBytes" for s in result.skipped)
        head += f" ({len(result.skipped)} skipped{' due to size limit' if by_size else ''})"
    blocks = [head]
    for doc in result.documents:
        body = c.number_lines(doc.content) if line_numbers else doc.content.rstrip("\n")
        note = (
            f"\n[truncated at maxBytes; {doc.total_lines} lines in total]" if doc.truncated else ""
        )
        blocks.append(f"=== {doc.uri} ({doc.docid}) ===\n{body}{note}")
    if result.skipped:
        skipped = [
            f"- {s.ref}: {SKIP_REASONS.get(s.reason, s.reason)}"
            + (f" ({s.message})" if s.message else "")
            for s in result.skipped
        ]
        blocks.append("Skipped:\n" + "\n".join(skipped))
    return "\n\n".join(blocks)


def _multi_get(call: ToolCall) -> JSONObject:
    result = call.facade.multi_get(
        call.arg("refs"), call.arg("pattern"), max_bytes=call.arg("maxBytes", 10240)
    )
    return tool_result(render_multi_get(result, call.arg("lineNumbers", True)), result)


GET = ToolDef(name="gno_get", input_schema=GET_INPUT, output="get", handler=_get)
MULTI_GET = ToolDef(
    name="gno_multi_get", input_schema=MULTI_GET_INPUT, output="multi-get", handler=_multi_get
)
