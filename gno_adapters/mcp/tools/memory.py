"""``gno_recall`` (current facts of a memory collection within a budget) and ``gno_remember``
(store one fact or supersede one; a write tool).

Identity comes from the transport, never from arguments: the caller is the client's name from
``initialize`` (or the modern request's ``clientInfo``), ``mcp`` when it gave none; the session
is the HTTP session, else the per-caller label of the sessionless leg, else this server's
instance id (stdio).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gno_adapters.mcp.jsonrpc import JSONObject
from gno_adapters.mcp.registry import ToolDef
from gno_adapters.mcp.tools.common import ToolCall, tool_result
from gno_adapters.mcp.tools.schema import DerivedSchema, validated

if TYPE_CHECKING:
    from gno_core.contracts.memory import RecallResult, RememberResult
    from gno_core.facts import MemoryIdentity

#: The fields are optional in the request model (the core answers ``MEMORY_*`` codes on every
#: transport); the schema requires them, as the spec's does.
MEMORY_REQUESTS = "gno_core.contracts.memory_requests"
RECALL_INPUT = DerivedSchema(
    f"{MEMORY_REQUESTS}:RecallRequest",
    required=("query", "collection", "scopes"),
    key_order={
        "scopes": ("type", "items", "minItems", "maxItems", "description"),
        "maxFacts": ("type", "minimum", "maximum", "description"),
        "maxTokens": ("type", "minimum", "maximum", "description"),
    },
)


def memory_identity(call: ToolCall) -> MemoryIdentity:
    from gno_core.facts import MemoryIdentity

    conn = call.ctx.connection
    info = (call.ctx.envelope.client_info if call.ctx.envelope else None) or conn.client_info
    name = info.get("name") if isinstance(info, dict) else None
    caller = name.strip() if isinstance(name, str) and name.strip() else "mcp"
    session = conn.session_id or call.ctx.request_identity or f"mcp:{call.instance_id}"
    return MemoryIdentity(caller=caller[:200], session=session)


def render_recall(result: RecallResult) -> str:
    if not result.facts:
        return result.hint or "No facts found."
    lines = [
        f"{len(result.facts)} fact{'s' if len(result.facts) != 1 else ''} "
        f"({result.budget.used_tokens}/{result.budget.max_tokens} tokens, "
        f"{result.budget.omitted} omitted, {result.retrieval.mode}):"
    ]
    for fact in result.facts:
        lines.append(f"- {fact.text}")
        lines.append(f"  {fact.uri} [{', '.join(fact.scopes)}] {fact.created_at}")
    lines.append(f"receipt digest: {result.receipt.digest}")
    return "\n".join(lines)


def _recall(call: ToolCall) -> JSONObject:
    from gno_core.contracts.memory_requests import RecallRequest

    request = validated(RecallRequest, call.arguments)
    result = call.facade.recall(request, memory_identity(call))
    return tool_result(render_recall(result), result)


RECALL = ToolDef(
    name="gno_recall",
    input_schema=RECALL_INPUT,
    output="memory-recall",
    handler=_recall,
    requires="recall",
)


REMEMBER_INPUT = DerivedSchema(
    f"{MEMORY_REQUESTS}:RememberRequest",
    required=("text", "collection", "scopes"),
    key_order={
        "scopes": ("type", "items", "minItems", "maxItems", "description"),
        "decision": ("type", "enum", "description"),
        "receipt": ("type", "description", "properties", "additionalProperties"),
    },
)


def render_remember(result: RememberResult) -> str:
    if result.outcome == "candidates":
        found = result.candidates or []
        if not found:
            return 'No similar fact in these scopes; call again with decision "add" to store it.'
        lines = [
            f"{len(found)} similar fact(s); nothing written. Decide with decision add or "
            "supersede (predecessorUri + predecessorHash):"
        ]
        lines += [
            f"- [{c.match} {c.similarity:.2f}] {c.text}\n  {c.uri} hash {c.content_hash}"
            for c in found
        ]
        return "\n".join(lines)
    record = result.record
    where = f" {record.uri}" if record is not None else ""
    if result.outcome == "existing":
        return f"Already stored:{where} (nothing written)"
    return f"{result.outcome.capitalize()}:{where} (searchable now; embedding follows gno embed)"


def _remember(call: ToolCall) -> JSONObject:
    from gno_core.contracts.memory_requests import RememberRequest

    request = validated(RememberRequest, call.arguments)
    result = call.facade.remember(
        request, memory_identity(call), cancelled=call.ctx.cancelled.is_set
    )
    return tool_result(render_remember(result), result)


REMEMBER = ToolDef(
    name="gno_remember",
    input_schema=REMEMBER_INPUT,
    output="memory-remember",
    handler=_remember,
    write=True,
    requires="remember",
    annotations={
        "readOnlyHint": False,
        "destructiveHint": False,
        "idempotentHint": False,
        "openWorldHint": False,
    },
)
