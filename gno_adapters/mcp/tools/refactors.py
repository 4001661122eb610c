"""``gno_rename_note``, ``gno_move_note`` (preview, or apply with the preview's digest and every
confirmation) and ``gno_duplicate_note``: write tools, registered only with writes enabled.
Their input schemas are the spec's, word for word (the preview/apply ``oneOf``); the answers
are ``file-refactor-preview@1.0`` or ``file-refactor-apply-result@1.0`` by action."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gno_adapters.mcp.jsonrpc import JSONObject
from gno_adapters.mcp.registry import ToolDef
from gno_adapters.mcp.tools.common import ToolCall, tool_result

if TYPE_CHECKING:
    from gno_core.contracts.refactors import RefactorApplyResult, RefactorPreview

_APPLY_FIELDS: JSONObject = {
    "schemaVersion": {"const": "1.0"},
    "planDigest": {"type": "string", "pattern": "^[a-f0-9]{64}$"},
    "confirmation": {"const": "apply"},
    "confirm": {"const": True},
}
_APPLY_REQUIRED = ["schemaVersion", "planDigest", "confirmation", "confirm"]


def _confirmed(fields: JSONObject, required: list[str]) -> JSONObject:
    """The spec's ``oneOf``: a preview with ``fields``, or an apply with them and every
    confirmation."""
    return {
        "type": "object",
        "oneOf": [
            {
                "properties": {"action": {"const": "preview"}, **fields},
                "required": ["action", *required],
                "additionalProperties": False,
            },
            {
                "properties": {"action": {"const": "apply"}, **fields, **_APPLY_FIELDS},
                "required": ["action", *required, *_APPLY_REQUIRED],
                "additionalProperties": False,
            },
        ],
    }


RENAME_INPUT = _confirmed({"ref": {"type": "string"}, "name": {"type": "string"}}, ["ref", "name"])
MOVE_INPUT = _confirmed(
    {
        "ref": {"type": "string"},
        "folderPath": {"type": "string"},
        "name": {"type": "string"},
    },
    ["ref", "folderPath"],
)
DUPLICATE_INPUT: JSONObject = {
    "type": "object",
    "properties": {
        "ref": {"type": "string"},
        "folderPath": {"type": "string"},
        "name": {"type": "string"},
    },
    "required": ["ref"],
}
#: Rewrites files (an apply), and repeating it does not repeat the effect.
REFACTORS: JSONObject = {
    "readOnlyHint": False,
    "destructiveHint": True,
    "idempotentHint": False,
    "openWorldHint": False,
}


def render_refactor(result: RefactorPreview | RefactorApplyResult) -> str:
    from gno_core.contracts.refactors import RefactorPreview

    if isinstance(result, RefactorPreview):
        safety = result.safety
        lines = [
            f"{result.operation} {result.source.uri} -> {result.target.uri}",
            f"planDigest: {result.plan_digest}",
            f"canApply: {str(result.can_apply).lower()}",
            f"references: {safety.references_examined} examined, {safety.rewrites} rewritten, "
            f"{safety.unchanged} unchanged, {safety.blocked} blocked; "
            f"{safety.files_written} files written",
        ]
        if safety.blockers:
            lines.append(f"blocked by: {', '.join(safety.blockers)}")
        for edit in result.edits:
            lines.append(
                f"  {edit.collection}/{edit.rel_path}:{edit.line}:{edit.start_column}-"
                f"{edit.end_column} -> {edit.replacement}"
            )
        return "\n".join(lines)
    text = f"{result.status}: {result.source.uri} -> {result.target.uri}"
    if result.reason_code:
        text += f" ({result.reason_code})"
    if result.message:
        text += f"\n{result.message}"
    return text


def _call(call: ToolCall, model: str, method: str) -> JSONObject:
    from gno_core.contracts import refactors

    request: Any = getattr(refactors, model).model_validate(call.arguments)
    result = getattr(call.facade, method)(request)
    return tool_result(render_refactor(result), result)


RENAME_NOTE = ToolDef(
    name="gno_rename_note",
    input_schema=RENAME_INPUT,
    output=None,
    handler=lambda call: _call(call, "RenameNoteRequest", "rename_note"),
    write=True,
    requires="rename_note",
    annotations=dict(REFACTORS),
)
MOVE_NOTE = ToolDef(
    name="gno_move_note",
    input_schema=MOVE_INPUT,
    output=None,
    handler=lambda call: _call(call, "MoveNoteRequest", "move_note"),
    write=True,
    requires="move_note",
    annotations=dict(REFACTORS),
)
DUPLICATE_NOTE = ToolDef(
    name="gno_duplicate_note",
    input_schema=DUPLICATE_INPUT,
    output=None,
    handler=lambda call: _call(call, "DuplicateNoteRequest", "duplicate_note"),
    write=True,
    requires="duplicate_note",
    annotations={**REFACTORS, "destructiveHint": False},
)
