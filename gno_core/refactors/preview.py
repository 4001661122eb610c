"""A plan as the wire sees it: ``file-refactor-preview@1.0`` and its ``planDigest``.

The digest is the SHA-256 of the plan's canonical JSON (sorted keys, no spaces, UTF-8):
operation, collection paths of source and target, every examined reference with its
classification, reason and edit, every precondition fingerprint and the blockers. Nothing
machine-specific enters it (no absolute path, time or index name), so the same files give the
same digest anywhere; any change to a file the plan reads changes it."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from typing import Any

from gno_core.contracts.refactors import (
    AffectedDocument,
    EditSpan,
    ExaminedReference,
    Precondition,
    RefactorDocument,
    RefactorPreview,
    RefactorSafety,
)
from gno_core.identity import make_uri
from gno_core.refactors.model import Plan, Reference

__all__ = ["plan_digest", "to_preview"]


def _span(collection: str, ref: Reference) -> EditSpan | None:
    edit = ref.edit
    if edit is None:
        return None
    return EditSpan(
        collection=collection,
        rel_path=edit.rel_path,
        line=edit.line,
        start_column=edit.start_col,
        end_column=edit.end_col,
        replacement=edit.replacement,
    )


def _preconditions(plan: Plan) -> list[Precondition]:
    found = [
        Precondition(collection=c, rel_path=p, state="present", sha256=note.sha256)
        for (c, p), note in sorted(plan.notes.items())
    ]
    found.append(
        Precondition(collection=plan.collection.name, rel_path=plan.target, state="absent")
    )
    return found


def plan_digest(
    plan: Plan, references: list[ExaminedReference], preconditions: list[Precondition]
) -> str:
    """The digest of ``plan`` with its wire ``references`` and ``preconditions``."""
    payload: dict[str, Any] = {
        "schemaVersion": "1.0",
        "operation": plan.operation,
        "collection": plan.collection.name,
        "source": plan.source,
        "target": plan.target,
        "references": [r.wire() for r in references],
        "preconditions": [p.wire() for p in preconditions],
        "blockers": sorted(plan.blockers),
    }
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _reference(ref: Reference) -> ExaminedReference:
    return ExaminedReference(
        collection=ref.collection,
        source_rel_path=ref.source_path,
        destination_rel_path=ref.destination_path,
        line=ref.line,
        column=ref.column,
        end_column=ref.end_column,
        link_type="wiki" if ref.link_type == "wiki" else "markdown",
        form=ref.form,
        classification=ref.classification,
        reason_code=ref.reason_code,
        edit=_span(ref.collection, ref),
    )


def to_preview(plan: Plan, index_name: str) -> RefactorPreview:
    collection = plan.collection.name
    references = [_reference(r) for r in plan.references]
    edits: dict[tuple[str, str, int, int], EditSpan] = {}
    for ref in references:
        if ref.edit is not None:
            e = ref.edit
            edits[(e.collection, e.rel_path, e.line, e.start_column)] = e
    per_file = Counter((e.collection, e.rel_path) for e in edits.values())
    affected = [
        AffectedDocument(collection=collection, rel_path=plan.source, role="source", edits=0),
        AffectedDocument(
            collection=collection,
            rel_path=plan.target,
            role="target",
            edits=per_file[(collection, plan.target)],
        ),
    ]
    for c, p in sorted(plan.notes):
        if (c, p) != (collection, plan.source):
            affected.append(
                AffectedDocument(collection=c, rel_path=p, role="referrer", edits=per_file[(c, p)])
            )
    kinds = Counter(r.classification for r in references)
    preconditions = _preconditions(plan)
    return RefactorPreview(
        operation=plan.operation,
        source=_doc(collection, plan.source, index_name),
        target=_doc(collection, plan.target, index_name),
        affected_documents=affected,
        examined_references=references,
        edits=[edits[k] for k in sorted(edits)],
        preconditions=preconditions,
        plan_digest=plan_digest(plan, references, preconditions),
        safety=RefactorSafety(
            references_examined=len(references),
            rewrites=kinds["rewriteable"],
            unchanged=kinds["unchanged"],
            blocked=len(references) - kinds["rewriteable"] - kinds["unchanged"],
            files_written=len(plan.changes),
            blockers=sorted(plan.blockers),
            warnings=plan.warnings,
        ),
        can_apply=not plan.blockers,
    )


def _doc(collection: str, rel_path: str, index_name: str) -> RefactorDocument:
    return RefactorDocument(
        collection=collection, rel_path=rel_path, uri=make_uri(collection, rel_path, index_name)
    )
