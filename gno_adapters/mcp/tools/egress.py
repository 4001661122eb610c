"""The collection egress policy and audit tools (issue 26): ``gno_egress_policy_get``,
``gno_egress_check`` and ``gno_egress_audit_list|show|status`` (read), ``gno_egress_policy_set``,
``gno_egress_audit_delete`` and ``gno_egress_audit_purge`` (write: registered only with
``--enable-write``, and in the HTTP gateway's pre-dispatch write set). Inputs are closed: an
unknown field is refused before any handler, mutation or receipt runs. Answers are the four
egress contracts; none carries a query, a text or a path."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gno_adapters.mcp.jsonrpc import JSONObject
from gno_adapters.mcp.registry import READ_ONLY, Handler, ToolDef
from gno_adapters.mcp.tools.common import ToolCall, tool_result
from gno_adapters.mcp.tools.health import NO_INPUT
from gno_adapters.mcp.tools.schema import DerivedSchema, validated

if TYPE_CHECKING:
    from gno_core.contracts.egress import (
        EgressAuditManagement,
        EgressCheckResult,
        EgressPolicySetResult,
        EgressPolicyState,
        EgressReceipt,
    )

EGRESS_REQUESTS = "gno_core.contracts.egress_requests"
#: A write that changes state and is not repeated harmlessly (a relaxation consumes its
#: confirmation; a delete or purge removes receipts).
MUTATES: JSONObject = {
    "readOnlyHint": False,
    "destructiveHint": True,
    "idempotentHint": False,
    "openWorldHint": False,
}


def render_policy(state: EgressPolicyState) -> str:
    configured = state.configured_policy or "none (the default applies)"
    return (
        f"{state.collection}: {state.effective_policy} ({state.source}; configured: "
        f"{configured}; revision {state.revision})\nversion: {state.version}"
    )


def render_policy_set(res: EgressPolicySetResult) -> str:
    lines = [
        f"{res.current.collection}: {res.change} "
        f"({res.previous.effective_policy} -> {res.current.effective_policy}, "
        f"revision {res.previous.revision} -> {res.current.revision})"
    ]
    if res.invalidation is not None:
        lines.append(
            f"authorization epoch {res.invalidation.policy_epoch}: work admitted before must retry"
        )
    return "\n".join(lines)


def render_check(res: EgressCheckResult) -> str:
    d = res.decision
    lines = [f"{res.mode}: {d.code} ({d.reason})"]
    if res.allowed_collections:
        lines.append("may go: " + ", ".join(res.allowed_collections))
    lines.extend(f"omitted: {o.collection} ({o.reason})" for o in res.omitted_collections)
    if res.lineage is not None:
        lines.append(f"effective policy: {res.lineage.effective_policy}")
    if res.remediation is not None:
        lines.append(f"remediation: {res.remediation.message}")
    return "\n".join(lines)


def receipt_line(r: EgressReceipt) -> str:
    omitted = f", omitted {len(r.omitted_collections)}" if r.omitted_collections else ""
    return (
        f"{r.audit_id} {r.created_at} {r.decision} {r.action} -> {r.destination_zone} "
        f"{r.content_class} ({r.reason_code}; {', '.join(r.collections) or '-'}{omitted})"
    )


def render_audit(res: EgressAuditManagement) -> str:
    if res.operation == "list":
        receipts = res.receipts or []
        lines = [f"{len(receipts)} egress receipt{'s' if len(receipts) != 1 else ''}"]
        lines.extend(receipt_line(r) for r in receipts)
        if res.next_cursor is not None:
            lines.append(f"next cursor: {res.next_cursor}")
        return "\n".join(lines)
    if res.operation == "show" and res.receipt is not None:
        r = res.receipt
        lines = [receipt_line(r), f"mode: {r.mode}; effective policy: {r.effective_policy}"]
        lines.append(f"expires: {r.expires_at}")
        if r.operation is not None:
            lines.append(f"operation: {r.operation}")
        return "\n".join(lines)
    if res.operation == "status" and res.status is not None:
        s = res.status
        return (
            f"{s.receipts} receipts, {s.bytes} bytes (oldest {s.oldest_created_at or '-'}, "
            f"newest {s.newest_created_at or '-'}); retention {s.retention.max_age_days} days, "
            f"{s.retention.max_receipts} receipts, {s.retention.max_bytes} bytes"
        )
    return f"deleted {res.deleted or 0} egress receipt{'s' if res.deleted != 1 else ''}"


def _policy_get(call: ToolCall) -> JSONObject:
    from gno_core.contracts.egress_requests import EgressPolicyGetRequest

    req = validated(EgressPolicyGetRequest, call.arguments)
    res = call.facade.egress_policy_get(req.collection)
    return tool_result(render_policy(res), res)


def _policy_set(call: ToolCall) -> JSONObject:
    from gno_core.contracts.egress_requests import EgressPolicySetRequest

    req = validated(EgressPolicySetRequest, call.arguments)
    res = call.facade.egress_policy_set(req.collection, req.policy, req.confirmation)
    return tool_result(render_policy_set(res), res)


def _check(call: ToolCall) -> JSONObject:
    from gno_core.contracts.egress_requests import EgressCheckRequest

    req = validated(EgressCheckRequest, call.arguments)
    res = call.facade.egress_check(
        collections=req.collections,
        action=req.action,
        zone=req.destination_zone,
        content_class=req.content_class,
        authenticated=req.caller.authenticated,
        authorized=req.caller.operation_authorized,
        partial=req.partial_results,
    )
    return tool_result(render_check(res), res)


def _audit(res: EgressAuditManagement) -> JSONObject:
    return tool_result(render_audit(res), res)


def _audit_list(call: ToolCall) -> JSONObject:
    from gno_core.contracts.egress_requests import EgressAuditListRequest

    req = validated(EgressAuditListRequest, call.arguments)
    return _audit(call.facade.egress_audit_list(req.limit, req.cursor))


def _audit_show(call: ToolCall) -> JSONObject:
    from gno_core.contracts.egress_requests import EgressAuditShowRequest

    req = validated(EgressAuditShowRequest, call.arguments)
    return _audit(call.facade.egress_audit_show(req.audit_id))


def _audit_status(call: ToolCall) -> JSONObject:
    return _audit(call.facade.egress_audit_status())


def _audit_delete(call: ToolCall) -> JSONObject:
    from gno_core.contracts.egress_requests import EgressAuditDeleteRequest

    req = validated(EgressAuditDeleteRequest, call.arguments)
    return _audit(call.facade.egress_audit_delete(req.audit_id))


def _audit_purge(call: ToolCall) -> JSONObject:
    from gno_core.contracts.egress_requests import EgressAuditPurgeRequest

    req = validated(EgressAuditPurgeRequest, call.arguments)
    return _audit(call.facade.egress_audit_purge(req.confirm))


def _tool(
    name: str, request: str | None, output: str, handler: Handler, *, write: bool = False
) -> ToolDef:
    """The egress tool ``name``: its input the closed ``request`` model (none: no input), its
    facade operation the name without ``gno_``; a write tool ``MUTATES``."""
    return ToolDef(
        name=name,
        input_schema=NO_INPUT if request is None else DerivedSchema(f"{EGRESS_REQUESTS}:{request}"),
        output=output,
        handler=handler,
        write=write,
        requires=name.removeprefix("gno_"),
        annotations=dict(MUTATES) if write else dict(READ_ONLY),
    )


_AUDIT = "egress-audit-management"
POLICY_GET = _tool(
    "gno_egress_policy_get", "EgressPolicyGetRequest", "collection-egress-policy", _policy_get
)
CHECK = _tool("gno_egress_check", "EgressCheckRequest", "collection-egress-check", _check)
AUDIT_LIST = _tool("gno_egress_audit_list", "EgressAuditListRequest", _AUDIT, _audit_list)
AUDIT_SHOW = _tool("gno_egress_audit_show", "EgressAuditShowRequest", _AUDIT, _audit_show)
AUDIT_STATUS = _tool("gno_egress_audit_status", None, _AUDIT, _audit_status)
POLICY_SET = _tool(
    "gno_egress_policy_set",
    "EgressPolicySetRequest",
    "collection-egress-policy-set",
    _policy_set,
    write=True,
)
AUDIT_DELETE = _tool(
    "gno_egress_audit_delete", "EgressAuditDeleteRequest", _AUDIT, _audit_delete, write=True
)
AUDIT_PURGE = _tool(
    "gno_egress_audit_purge", "EgressAuditPurgeRequest", _AUDIT, _audit_purge, write=True
)
