"""Document read tools: ``gno_get`` (one document or a line range) and ``gno_multi_get``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gno_adapters.mcp.jsonrpc import JSONObject
from gno_adapters.mcp.registry import ToolDef
from gno_adapters.mcp.tools import common as c
from gno_adapters.mcp.tools.common import ToolCall, tool_result
from gno_adapters.mcp.tools.schema import DerivedSchema, validated

if TYPE_CHECKING:
    from gno_core.contracts import MultiGetResult

GET_INPUT = DerivedSchema("GetRequest", extra={"lineNumbers": c.LINE_NUMBERS})
#: The golden lists ``refs`` with its description before its items.
MULTI_GET_INPUT = DerivedSchema(
    "MultiGetRequest",
    key_order={"refs": ("type", "description", "items")},
    extra={"lineNumbers": c.LINE_NUMBERS},
)

SKIP_REASONS = {
    "not_found": "not found",
    "exceeds_maxBytes": "exceeds maxBytes",
    "permission_denied": "permission denied",
    "conversion_error": "conversion error",
    "invalid_ref": "invalid reference",
}


def _get(call: ToolCall) -> JSONObject:
    from gno_core.contracts.requests import GetRequest

    req = validated(GetRequest, call.arguments)
    got = call.facade.get(req.ref, from_line=req.from_line, line_count=req.line_count)
    start = got.returned_lines.start if got.returned_lines else 1
    text = c.number_lines(got.content, start) if call.arg("lineNumbers", True) else got.content
    if got.conversion is not None and text:
        text = (
            f"(Markdown mirror of a converted file, made by {got.conversion.converter_id}: line "
            "numbers count lines of this mirror, not of the file)\n" + text
        )
    out = tool_result(text or f"(empty document: {got.uri})", got)
    return c.traced(out, call.facade.trace_get(req.trace_id, req.ref, got))


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
    from gno_core.contracts.requests import MultiGetRequest

    req = validated(MultiGetRequest, call.arguments)
    result = call.facade.multi_get(req.refs, req.pattern, max_bytes=req.max_bytes)
    return tool_result(render_multi_get(result, call.arg("lineNumbers", True)), result)


GET = ToolDef(name="gno_get", input_schema=GET_INPUT, output="get", handler=_get)
MULTI_GET = ToolDef(
    name="gno_multi_get", input_schema=MULTI_GET_INPUT, output="multi-get", handler=_multi_get
)
