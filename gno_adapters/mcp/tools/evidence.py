"""Evidence tools: ``gno_context`` (compile a Context Capsule) and ``gno_context_verify``."""

from __future__ import annotations

import json

from gno_adapters.mcp.jsonrpc import JSONObject
from gno_adapters.mcp.registry import ToolDef
from gno_adapters.mcp.tools import common as c
from gno_adapters.mcp.tools.common import ToolCall
from gno_adapters.mcp.tools.schema import DerivedSchema, model_arguments

CONTEXT_INPUT = DerivedSchema("ContextRequest", extra={"projectHints": c.PROJECT_HINTS})

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
    from gno_core.contracts.requests import ContextRequest
    from gno_core.evidence.projection import compact

    request = ContextRequest.model_validate(model_arguments(ContextRequest, call.arguments))
    capsule = call.facade.context(request).wire()
    # The model reads the compact projection; applications get the full capsule.
    return {"content": [{"type": "text", "text": compact(capsule)}], "structuredContent": capsule}


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
