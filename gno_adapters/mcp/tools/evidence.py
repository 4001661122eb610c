"""Evidence tools: ``gno_context`` (compile a Context Capsule) and ``gno_context_verify``."""

from __future__ import annotations

import json
from typing import Any

from gno_adapters.mcp.jsonrpc import JSONObject
from gno_adapters.mcp.registry import ToolDef
from gno_adapters.mcp.tools import common as c
from gno_adapters.mcp.tools.common import ToolCall
from gno_adapters.mcp.tools.schema import DerivedSchema, validated

EVIDENCE_REQUESTS = "gno_core.contracts.evidence_requests"
CONTEXT_INPUT = DerivedSchema(
    f"{EVIDENCE_REQUESTS}:ContextRequest", extra={"projectHints": c.PROJECT_HINTS}
)

VERIFY_INPUT: JSONObject = {
    "type": "object",
    "properties": {
        "capsule": {
            "type": "object",
            "description": "A complete context-capsule-v1 capsule exactly as gno_context returned it",
        },
        "format": {
            "type": "string",
            "enum": ["json", "md"],
            "default": "json",
            "description": "Compatibility output format (the text is the JSON receipt)",
        },
    },
    "required": ["capsule"],
    "additionalProperties": False,
}


def _context(call: ToolCall) -> JSONObject:
    from gno_core.contracts.evidence_requests import ContextRequest
    from gno_core.evidence.projection import compact

    request = validated(ContextRequest, call.arguments)
    capsule = call.facade.context(request).wire()
    # The model reads the compact projection; applications get the full capsule. A scope seen
    # by meaning only in part adds a second text block saying how much (the projection's keys
    # are fixed).
    content = [{"type": "text", "text": compact(capsule)}]
    note = _gap_note(call, capsule)
    if note:
        content.append({"type": "text", "text": note})
    out: JSONObject = {"content": content, "structuredContent": capsule}
    return c.traced(out, call.facade.trace_capsule("gno_context", request, capsule))


def _gap_note(call: ToolCall, capsule: dict[str, Any]) -> str | None:
    from gno_core.retrieval.coverage import capsule_gap, capsule_note

    if not capsule_gap(capsule):
        return None
    inner = capsule.get("verification", {}).get("capsule", capsule)
    return capsule_note(call.facade.vector_gap_message(inner["scope"]["collections"] or None))


def _verify(call: ToolCall) -> JSONObject:
    receipt = call.facade.context_verify(call.arg("capsule")).wire()
    counts = receipt["counts"]
    head = (
        f"Capsule {receipt['capsuleId'][:16]}: {receipt['status']} "
        f"({counts['unchanged']} unchanged, {counts['stale']} stale, {counts['missing']} missing; "
        f"ranking {receipt['rankingStatus']}, fingerprints {receipt['fingerprintStatus']})"
    )
    body = json.dumps(receipt, ensure_ascii=False, separators=(",", ":"))
    return {"content": [{"type": "text", "text": head + "\n" + body}], "structuredContent": receipt}


CONTEXT = ToolDef(
    name="gno_context",
    input_schema=CONTEXT_INPUT,
    output="context-capsule-v1",
    handler=_context,
    requires="context",
)
CONTEXT_VERIFY = ToolDef(
    name="gno_context_verify",
    input_schema=VERIFY_INPUT,
    output="context-capsule-verification",
    handler=_verify,
    requires="context_verify",
)


SECTION_INPUT: JSONObject = {
    "type": "object",
    "properties": {
        "action": {"type": "string", "enum": ["create", "resolve"]},
        "ref": {"type": "string", "minLength": 1, "maxLength": 2048},
        "anchor": {"type": "string", "minLength": 1, "maxLength": 512},
        "line": {"type": "integer", "minimum": 1},
        "target": {
            "type": "object",
            "description": "A SectionTargetV1 (gno://schemas/section-target@1.0) to resolve",
        },
    },
    "required": ["action", "ref"],
    "additionalProperties": False,
}

DIAGNOSE_INPUT = DerivedSchema(
    f"{EVIDENCE_REQUESTS}:DiagnoseRequest",
    hide=("pathPrefix", "filter"),
    describe={"target": "URI, #docid, or collection/path of the document to diagnose"},
    extra={"projectHints": c.PROJECT_HINTS},
)


def _section(call: ToolCall) -> JSONObject:
    from gno_core.contracts.evidence_requests import SectionRequest

    request = validated(SectionRequest, call.arguments)
    result = call.facade.section(request).wire()
    text = json.dumps(result, ensure_ascii=False, separators=(",", ":"))
    citation = result.get("citation")
    if result["action"] == "resolve" and citation is None:
        text += f"\nSection {result['status']}: not safe to navigate or cite; create a new target."
    elif citation is not None:
        count = citation["lineEnd"] - citation["lineStart"] + 1
        text += (
            f"\nRead it with gno_get ref={citation['uri']} fromLine={citation['lineStart']} "
            f"lineCount={count}"
        )
    return {"content": [{"type": "text", "text": text}], "structuredContent": result}


def render_diagnosis(result: dict[str, object]) -> str:
    target = result["target"]
    assert isinstance(target, dict)
    lines = [f"Target {target.get('uri') or target['ref']}: {target['status']}"]
    for reason in target.get("filterReasons") or []:
        lines.append(f"  filtered: {reason}")
    for stage in result["stages"]:  # type: ignore[attr-defined]
        lines.append(f"  {stage['id']}: {stage['status']} - {stage['reason']}")
    lines.append(str(result["summary"]))
    return "\n".join(lines)


def _diagnose(call: ToolCall) -> JSONObject:
    from gno_core.contracts.evidence_requests import DiagnoseRequest

    request = validated(DiagnoseRequest, call.arguments)
    result = call.facade.query_diagnose(request).wire()
    return {
        "content": [{"type": "text", "text": render_diagnosis(result)}],
        "structuredContent": result,
    }


SECTION = ToolDef(
    name="gno_section",
    input_schema=SECTION_INPUT,
    output="section",
    handler=_section,
    requires="section",
)
QUERY_DIAGNOSE = ToolDef(
    name="gno_query_diagnose",
    input_schema=DIAGNOSE_INPUT,
    output="query-diagnose",
    handler=_diagnose,
    requires="query_diagnose",
)


ASK_INPUT = DerivedSchema(
    f"{EVIDENCE_REQUESTS}:AskRequest",
    describe={"verify": "Must be true: every claim is checked against the closed capsule"},
    extra={"projectHints": c.PROJECT_HINTS},
)


def _ask(call: ToolCall) -> JSONObject:
    from gno_core.contracts.evidence_requests import AskRequest
    from gno_core.evidence.projection import render_ask

    request = validated(AskRequest, call.arguments)
    result = call.facade.ask(request, cancelled=call.ctx.cancelled.is_set).wire()
    text = render_ask(result, _gap_note(call, result))
    out: JSONObject = {"content": [{"type": "text", "text": text}], "structuredContent": result}
    return c.traced(out, call.facade.trace_capsule("gno_ask", request, result))


ASK = ToolDef(name="gno_ask", input_schema=ASK_INPUT, output="ask", handler=_ask, requires="ask")
