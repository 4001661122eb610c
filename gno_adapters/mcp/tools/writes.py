"""Write tools that answer at once: ``gno_capture`` (a new note, searchable on return) and the
collection and folder tools. Registered only with ``--enable-write`` (the registry's gate)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gno_adapters.mcp.jsonrpc import JSONObject
from gno_adapters.mcp.registry import ToolDef
from gno_adapters.mcp.tools.common import ToolCall, tool_result
from gno_adapters.mcp.tools.schema import DerivedSchema, model_arguments

if TYPE_CHECKING:
    from gno_core.contracts.writes import CaptureReceipt

WRITE_REQUESTS = "gno_core.contracts.write_requests"
#: A write that adds (never destroys) and does not repeat to the same effect.
ADDS: JSONObject = {
    "readOnlyHint": False,
    "destructiveHint": False,
    "idempotentHint": False,
    "openWorldHint": False,
}
CAPTURE_INPUT = DerivedSchema(f"{WRITE_REQUESTS}:CaptureRequest")


def render_capture(receipt: CaptureReceipt) -> str:
    lines = [
        f"{receipt.collision_policy_result.replace('_', ' ').capitalize()}: {receipt.uri}",
        f"docid: {receipt.docid}",
        f"path: {receipt.rel_path}",
        f"sync: {receipt.sync.status}",
        f"embed: {receipt.embed.status}",
    ]
    if receipt.tags:
        lines.append(f"tags: {', '.join(receipt.tags)}")
    return "\n".join(lines)


def _capture(call: ToolCall) -> JSONObject:
    from gno_core.contracts.write_requests import CaptureRequest

    request = CaptureRequest.model_validate(model_arguments(CaptureRequest, call.arguments))
    receipt = call.facade.capture(request, cancelled=call.ctx.cancelled.is_set)
    return tool_result(render_capture(receipt), receipt)


CAPTURE = ToolDef(
    name="gno_capture",
    input_schema=CAPTURE_INPUT,
    output="mcp-capture-result",
    handler=_capture,
    write=True,
    requires="capture",
    annotations=dict(ADDS),
)
