"""A plan as the wire sees it: ``file-refactor-preview@1.0`` and its ``planDigest``.

The digest is the SHA-256 of the plan's canonical JSON (sorted keys, no spaces, UTF-8):
operation, collection paths of source and target, every examined reference with its
classification, reason and edit, every precondition fingerprint and the blockers. Nothing
machine-specific enters it (no absolute path, time or index name), so the same files give the
same digest anywhere; any change to a file the plan reads changes it.

The references and preconditions are written once, as their wire dicts (camelCase, no
``None``): the digest is taken of those dicts and the preview is validated from them in one
pass, so what the digest covers is what the wire shows (a model per reference, dumped one by
one, cost a hub of 2,000 links more than the rest of the preview)."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from typing import Any

from gno_core.contracts.refactors import RefactorPreview
from gno_core.identity import make_uri
from gno_core.refactors.model import Plan, Reference

__all__ = ["plan_digest", "to_preview"]

Wire = dict[str, Any]


def _reference(ref: Reference) -> Wire:
    out: Wire = {
        "collection": ref.collection,
        "sourceRelPath": ref.source_path,
        "destinationRelPath": ref.destination_path,
        "line": ref.line,
        "column": ref.column,
        "endColumn": ref.end_column,
        "linkType": "wiki" if ref.link_type == "wiki" else "markdown",
        "form": ref.form,
        "classification": ref.classification,
    }
    if ref.reason_code is not None:
        out["reasonCode"] = ref.reason_code
    edit = ref.edit
    if edit is not None:
        out["edit"] = {
            "collection": ref.collection,
            "relPath": edit.rel_path,
            "line": edit.line,
            "startColumn": edit.start_col,
            "endColumn": edit.end_col,
            "replacement": edit.replacement,
        }
    return out


def _preconditions(plan: Plan) -> list[Wire]:
    found: list[Wire] = [
        {"collection": c, "relPath": p, "state": "present", "sha256": note.sha256}
        for (c, p), note in sorted(plan.notes.items())
    ]
    found.append({"collection": plan.collection.name, "relPath": plan.target, "state": "absent"})
    return found


def plan_digest(plan: Plan, references: list[Wire], preconditions: list[Wire]) -> str:
    """The digest of ``plan`` with its wire ``references`` and ``preconditions``."""
    payload: Wire = {
        "schemaVersion": "1.0",
        "operation": plan.operation,
        "collection": plan.collection.name,
        "source": plan.source,
        "target": plan.target,
        "references": references,
        "preconditions": preconditions,
        "blockers": sorted(plan.blockers),
    }
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def to_preview(plan: Plan, index_name: str) -> RefactorPreview:
    collection = plan.collection.name
    references = [_reference(r) for r in plan.references]
    edits: dict[tuple[str, str, int, int], Wire] = {}
    for ref in references:
        e = ref.get("edit")
        if e is not None:
            edits[(e["collection"], e["relPath"], e["line"], e["startColumn"])] = e
    per_file = Counter((e["collection"], e["relPath"]) for e in edits.values())
    affected: list[Wire] = [
        {"collection": collection, "relPath": plan.source, "role": "source", "edits": 0},
        {
            "collection": collection,
            "relPath": plan.target,
            "role": "target",
            "edits": per_file[(collection, plan.target)],
        },
    ]
    for c, p in sorted(plan.notes):
        if (c, p) != (collection, plan.source):
            affected.append(
                {"collection": c, "relPath": p, "role": "referrer", "edits": per_file[(c, p)]}
            )
    kinds = Counter(r["classification"] for r in references)
    preconditions = _preconditions(plan)
    return RefactorPreview.model_validate(
        {
            "operation": plan.operation,
            "source": _doc(collection, plan.source, index_name),
            "target": _doc(collection, plan.target, index_name),
            "affectedDocuments": affected,
            "examinedReferences": references,
            "edits": [edits[k] for k in sorted(edits)],
            "preconditions": preconditions,
            "planDigest": plan_digest(plan, references, preconditions),
            "safety": {
                "referencesExamined": len(references),
                "rewrites": kinds["rewriteable"],
                "unchanged": kinds["unchanged"],
                "blocked": len(references) - kinds["rewriteable"] - kinds["unchanged"],
                "filesWritten": len(plan.changes),
                "blockers": sorted(plan.blockers),
                "warnings": plan.warnings,
            },
            "canApply": not plan.blockers,
        }
    )


def _doc(collection: str, rel_path: str, index_name: str) -> Wire:
    return {
        "collection": collection,
        "relPath": rel_path,
        "uri": make_uri(collection, rel_path, index_name),
    }
