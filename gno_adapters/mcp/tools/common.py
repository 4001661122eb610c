"""What every tool handler shares: the call object, result builders, and schema fragments."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from gno_adapters.mcp.context import RequestContext
from gno_adapters.mcp.facade_holder import Facades
from gno_adapters.mcp.jsonrpc import JSONObject
from gno_core.surface import Facade

if TYPE_CHECKING:
    from gno_adapters.mcp.jobs import Jobs
    from gno_core.contracts import ResidentStatus

#: How the serving transport reports itself in ``status`` (stdio, a resident gateway ...).
TransportStatus = Callable[[], "ResidentStatus"]


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One validated ``tools/call``: its arguments, its request context, the facade, and how
    the transport that carries it reports itself."""

    ctx: RequestContext
    arguments: JSONObject
    facades: Facades
    transport_status: TransportStatus | None = None
    jobs: Jobs | None = None
    #: This server's instance id: the memory session of a stdio client.
    instance_id: str = ""

    @property
    def facade(self) -> Facade:
        return self.facades.get()

    def arg(self, name: str, default: Any = None) -> Any:
        return self.arguments.get(name, default)


class Wired(Protocol):
    """A contract answer: a model, or one built straight in its wire form (``Prebuilt``)."""

    def wire(self) -> dict[str, Any]: ...


def tool_result(text: str, structured: Wired) -> JSONObject:
    """A successful result: model-visible text plus the contract as ``structuredContent``."""
    return {"content": [{"type": "text", "text": text}], "structuredContent": structured.wire()}


def traced(result: JSONObject, trace_id: str | None) -> JSONObject:
    """``result`` with the private trace id in its top-level ``_meta`` (never in the
    model-visible content nor in ``structuredContent``); unchanged when there is none."""
    if trace_id is not None:
        result["_meta"] = {"gno": {"retrievalTrace": {"traceId": trace_id}}}
    return result


#: ``_meta`` key of a failed tool call's stable gno error code (``LOCKED``, ``INVALID_PATH`` ...),
#: so a client can branch on the code rather than parse the message.
ERROR_META = "gno/error"


def error_result(message: str, code: str | None = None) -> JSONObject:
    result: JSONObject = {
        "content": [{"type": "text", "text": f"Error: {message}"}],
        "isError": True,
    }
    if code is not None:
        result["_meta"] = {ERROR_META: {"code": code}}
    return result


def content_lines(content: str) -> list[str]:
    lines = content.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def number_lines(content: str, start: int = 1) -> str:
    """``N: text`` per line, numbering from ``start`` (the first returned mirror line)."""
    return "\n".join(f"{n}: {line}" for n, line in enumerate(content_lines(content), start))


#: MCP-only properties, no request field: accepted by the retrieval tools and ignored, and the
#: read tools' presentation switch.
PROJECT_HINTS: JSONObject = {
    "type": "array",
    "items": {"type": "string"},
    "maxItems": 16,
    "description": (
        "Opaque caller project hints (trimmed, NFC-normalized, deduplicated); the server never "
        "inspects paths from them and they leave ranking unchanged"
    ),
}
LINE_NUMBERS: JSONObject = {
    "type": "boolean",
    "description": "Include line numbers in content",
    "default": True,
}
