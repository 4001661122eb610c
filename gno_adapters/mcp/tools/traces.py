"""Retrieval-trace receipts: ``gno_trace_list`` and ``gno_trace_show`` (reads, full profile) and
the mutations ``gno_trace_label``, ``gno_trace_delete`` and ``gno_trace_purge`` (registered only
with ``--enable-write``, in the HTTP write set refused before dispatch)."""

from __future__ import annotations

from gno_adapters.mcp.jsonrpc import JSONObject
from gno_adapters.mcp.registry import ToolDef
from gno_adapters.mcp.tools.common import ToolCall, tool_result
from gno_adapters.mcp.tools.schema import DerivedSchema, validated

REQUESTS = "gno_core.contracts.trace_requests"
#: Mutations of the person's own receipts: nothing outside gno changes.
MUTATES: JSONObject = {
    "readOnlyHint": False,
    "destructiveHint": False,
    "idempotentHint": True,
    "openWorldHint": False,
}
DELETES: JSONObject = {**MUTATES, "destructiveHint": True}


def _list(call: ToolCall) -> JSONObject:
    from gno_core.contracts.trace_requests import TraceListRequest
    from gno_core.traces.views import render_list

    res = call.facade.trace_list(validated(TraceListRequest, call.arguments))
    return tool_result(render_list(res.wire()), res)


def _show(call: ToolCall) -> JSONObject:
    from gno_core.contracts.trace_requests import TraceShowRequest
    from gno_core.traces.views import render_show

    res = call.facade.trace_show(validated(TraceShowRequest, call.arguments))
    return tool_result(render_show(res), res)


def _label(call: ToolCall) -> JSONObject:
    from gno_core.contracts.trace_requests import TraceLabelRequest

    res = call.facade.trace_label(validated(TraceLabelRequest, call.arguments))
    j = res.judgment
    said = "recorded" if res.created else "already recorded"
    return tool_result(f"{said}: {j.label} ({j.document}) on {res.trace_id}", res)


def _export(call: ToolCall) -> JSONObject:
    from gno_core.contracts.trace_requests import TraceExportRequest

    # Over stdio the caller is this machine's process; a transport that cannot name the peer's
    # zone (HTTP MCP hands none to tools yet) fails closed as ``unknown``.
    zone = "local_process" if call.ctx.connection.transport == "stdio" else "unknown"
    request = validated(TraceExportRequest, call.arguments)
    res = call.facade.trace_export(request, zone=zone)
    said = "exported" if res.created else "exported again (same receipt)"
    x = res.export
    head = f"{said}: {x.format} of {len(x.trace_ids)} traces, sha256 {x.digest}"
    return tool_result(head + "\n\n" + res.content, res)


def _delete(call: ToolCall) -> JSONObject:
    from gno_core.contracts.trace_requests import TraceDeleteRequest

    res = call.facade.trace_delete(validated(TraceDeleteRequest, call.arguments))
    return tool_result(f"{res.trace_id}: {'deleted' if res.deleted else 'not found'}", res)


def _purge(call: ToolCall) -> JSONObject:
    from gno_core.contracts.trace_requests import TracePurgeRequest

    res = call.facade.trace_purge(validated(TracePurgeRequest, call.arguments))
    return tool_result(f"deleted {res.deleted} traces", res)


TRACE_LIST = ToolDef(
    name="gno_trace_list",
    input_schema=DerivedSchema(f"{REQUESTS}:TraceListRequest"),
    output="retrieval-trace-list",
    handler=_list,
    requires="trace_list",
)
TRACE_SHOW = ToolDef(
    name="gno_trace_show",
    input_schema=DerivedSchema(f"{REQUESTS}:TraceShowRequest"),
    output="retrieval-trace-show",
    handler=_show,
    requires="trace_show",
)
TRACE_LABEL = ToolDef(
    name="gno_trace_label",
    input_schema=DerivedSchema(f"{REQUESTS}:TraceLabelRequest"),
    output="retrieval-trace-judgment",
    handler=_label,
    write=True,
    requires="trace_label",
    annotations=dict(MUTATES),
)
TRACE_EXPORT = ToolDef(
    name="gno_trace_export",
    input_schema=DerivedSchema(f"{REQUESTS}:TraceExportRequest"),
    output="retrieval-trace-export",
    handler=_export,
    write=True,
    requires="trace_export",
    annotations=dict(MUTATES),
)
TRACE_DELETE = ToolDef(
    name="gno_trace_delete",
    input_schema=DerivedSchema(f"{REQUESTS}:TraceDeleteRequest"),
    output="retrieval-trace-delete",
    handler=_delete,
    write=True,
    requires="trace_delete",
    annotations=dict(DELETES),
)
TRACE_PURGE = ToolDef(
    name="gno_trace_purge",
    input_schema=DerivedSchema(f"{REQUESTS}:TracePurgeRequest"),
    output="retrieval-trace-purge",
    handler=_purge,
    write=True,
    requires="trace_purge",
    annotations=dict(DELETES),
)
