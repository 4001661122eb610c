"""``gno_changes`` (the change journal after a time or cursor, metadata only) and ``gno_diff``
(one document's structural diff for a change)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gno_adapters.mcp.jsonrpc import JSONObject
from gno_adapters.mcp.registry import ToolDef
from gno_adapters.mcp.tools.common import ToolCall, tool_result
from gno_adapters.mcp.tools.schema import DerivedSchema, validated

if TYPE_CHECKING:
    from gno_core.contracts.delta import DocumentDiff

DELTA_REQUESTS = "gno_core.contracts.delta_requests"


def _where(entry: dict[str, Any]) -> str:
    side = entry["current"] or entry["previous"]
    if entry["kind"] == "rename" and entry["previous"] is not None:
        return f"{entry['previous']['uri']} -> {side['uri']}"
    return str(side["uri"])


def render_changes(res: dict[str, Any]) -> str:
    """The text of a ``changes@1.0`` answer in its wire form."""
    changes = res["changes"]
    count = len(changes)
    head = f"{count} {'change' if count == 1 else 'changes'}"
    lines = [f" {e['observedAt']} {e['kind']} {_where(e)}" for e in changes]
    tail = [f"next cursor: {res['page']['nextCursor']}"]
    if res["page"]["truncated"]:
        tail.append("more changes follow: call again with since = the next cursor")
    tail.extend(res["warnings"])
    return head + (":\n\n" + "\n".join(lines) if lines else "") + "\n\n" + "\n".join(tail)


def render_diff(res: DocumentDiff) -> str:
    head = f"{res.document.uri}: {res.status}"
    change = res.change
    if change is None:
        return "\n".join([head, *res.warnings])
    lines = [head, f"{change.kind} at {change.observed_at} ({change.id})"]
    delta = change.structure_delta
    for name in ("headings", "links", "edges", "dates"):
        part = getattr(delta, name)
        lines.extend(f" + {name[:-1]}: {v}" for v in part.added)
        lines.extend(f" - {name[:-1]}: {v}" for v in part.removed)
    if delta.truncated:
        lines.append(" (delta truncated)")
    lines.append("content: not retained (the journal keeps metadata only)")
    return "\n".join(lines)


def _changes(call: ToolCall) -> JSONObject:
    from gno_core.contracts.delta_requests import ChangesRequest

    res = call.facade.changes_wire(validated(ChangesRequest, call.arguments))
    return tool_result(render_changes(res.wire()), res)


def _diff(call: ToolCall) -> JSONObject:
    from gno_core.contracts.delta_requests import DiffRequest

    res = call.facade.diff(validated(DiffRequest, call.arguments))
    return tool_result(render_diff(res), res)


CHANGES = ToolDef(
    name="gno_changes",
    input_schema=DerivedSchema(f"{DELTA_REQUESTS}:ChangesRequest"),
    output="changes",
    handler=_changes,
    requires="changes",
)
DIFF = ToolDef(
    name="gno_diff",
    input_schema=DerivedSchema(f"{DELTA_REQUESTS}:DiffRequest"),
    output="document-diff",
    handler=_diff,
    requires="diff",
)
