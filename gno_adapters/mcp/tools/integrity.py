"""``gno_impact`` (what depends on a document) and ``gno_audit`` (the read-only knowledge
audit, ``audit-report@1.0``)."""

from __future__ import annotations

from gno_adapters.mcp.jsonrpc import JSONObject
from gno_adapters.mcp.registry import ToolDef
from gno_adapters.mcp.tools.common import ToolCall, tool_result
from gno_adapters.mcp.tools.schema import DerivedSchema, validated

INTEGRITY_REQUESTS = "gno_core.contracts.integrity_requests"


def _impact(call: ToolCall) -> JSONObject:
    from gno_core.contracts.integrity_requests import ImpactRequest
    from gno_core.integrity.text import impact_lines

    req = validated(ImpactRequest, call.arguments)
    res = call.facade.impact(req)
    return tool_result("\n".join(impact_lines(res)), res)


IMPACT = ToolDef(
    name="gno_impact",
    input_schema=DerivedSchema(f"{INTEGRITY_REQUESTS}:ImpactRequest"),
    output="impact",
    handler=_impact,
    requires="impact",
)


def _audit(call: ToolCall) -> JSONObject:
    from gno_core.contracts.integrity_requests import AuditRequest
    from gno_core.integrity.text import audit_lines

    req = validated(AuditRequest, call.arguments)
    # A cancelled request stops at the next document and answers its report: partial (the
    # rules not finished inconclusive, reason cancelled), never clean.
    res = call.facade.audit(req, cancelled=call.ctx.cancelled.is_set)
    return tool_result("\n".join(audit_lines(res)), res)


AUDIT = ToolDef(
    name="gno_audit",
    input_schema=DerivedSchema(f"{INTEGRITY_REQUESTS}:AuditRequest"),
    output="audit-report",
    handler=_audit,
    requires="audit",
    answers_cancelled=True,
)
