"""Health tools: ``gno_peek`` (cheap, model-free snapshot) and ``gno_status`` (full report)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gno_adapters.mcp.jsonrpc import JSONObject
from gno_adapters.mcp.registry import ToolDef
from gno_adapters.mcp.tools.common import ToolCall, tool_result

if TYPE_CHECKING:
    from gno_core.contracts import Peek, Status

NO_INPUT: JSONObject = {"type": "object", "properties": {}}


def render_peek(peek: Peek) -> str:
    lines = [
        f"schema: {peek.schema_version}",
        f"initialized: {'yes' if peek.initialized else 'no'}",
    ]
    if peek.counts is not None:
        lines.append(f"documents: {peek.counts.documents}")
        lines.append(f"collections: {peek.counts.collections}")
    if peek.index_name is not None:
        lines.append(f"index: {peek.index_name}")
    if peek.backlog is not None:
        lines.append(f"backlog: {peek.backlog.pending} pending, {peek.backlog.failed} failed")
    if peek.last_indexed_at is not None:
        lines.append(f"last indexed: {peek.last_indexed_at}")
    lines.append(
        f"serve: {peek.serve.url if peek.serve.running and peek.serve.url else 'not running'}"
    )
    if peek.recent:
        lines.append("recent:")
        lines.extend(
            f"  {r.docid} {r.uri}" + (f" ({r.modified_at})" if r.modified_at else "")
            for r in peek.recent
        )
    return "\n".join(lines)


def render_status(status: Status) -> str:
    from gno_core.health import capabilities_line

    lines = [
        f"Index: {status.index_name}",
        f"Collections: {len(status.collections)}",
        f"Documents: {status.total_documents}",
        f"Chunks: {status.total_chunks}",
        f"Embedding backlog: {status.embedding_backlog}",
        f"Healthy: {'yes' if status.healthy else 'no'}",
        capabilities_line(status.capabilities),
    ]
    for coll in status.collections:
        lines.append(
            f"  {coll.name}: {coll.document_count} documents, {coll.chunk_count} chunks, "
            f"{coll.embedded_count} embedded"
            + (f", root overlaps {', '.join(coll.overlaps)}" if coll.overlaps else "")
        )
    if status.recent_errors:
        lines.append(f"Recent errors: {len(status.recent_errors)}")
        lines.extend(
            f"  {e.collection}/{e.rel_path}: {e.code} {e.message}" for e in status.recent_errors
        )
    return "\n".join(lines)


def _peek(call: ToolCall) -> JSONObject:
    peek = call.facade.peek()
    return tool_result(render_peek(peek), peek)


def _status(call: ToolCall) -> JSONObject:
    status = call.facade.status()
    if call.transport_status is not None:
        status = status.model_copy(update={"resident": call.transport_status()})
    return tool_result(render_status(status), status)


PEEK = ToolDef(name="gno_peek", input_schema=NO_INPUT, output="peek", handler=_peek)
STATUS = ToolDef(name="gno_status", input_schema=NO_INPUT, output="status", handler=_status)
