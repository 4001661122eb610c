"""Refactor contracts: ``file-refactor-preview@1.0`` (a content-free plan) and
``file-refactor-apply-result@1.0`` (a content-free receipt), and the requests of
``gno_rename_note`` / ``gno_move_note`` / ``gno_duplicate_note`` (shared by MCP, the CLI, REST
and Python)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from gno_core.contracts.base import WireModel
from gno_core.contracts.requests import Request

Operation = Literal["rename", "move", "duplicate"]
Classification = Literal[
    "rewriteable", "unchanged", "ambiguous", "unsupported", "malformed", "invalid"
]
ReasonCode = Literal[
    "ambiguous_resolution",
    "unsupported_syntax",
    "malformed_syntax",
    "stale_plan",
    "capability_denied",
    "occupied_target",
    "sync_pending",
    "cross_collection_unsupported",
    "unsafe_target",
    "external_destination",
    "code_fence_context",
    "inline_code_context",
    "html_context",
    "duplicate_basename_ambiguity",
    "unicode_normalization_mismatch",
    "destination_unchanged",
    "read_only_document",
    "relative_path_recalculated",
    "reference_definition_site",
    "filesystem_commit_failed",
    "rollback_recovery_required",
]
ApplyStatus = Literal[
    "applied",
    "applied_with_sync_pending",
    "conflict",
    "stale_plan",
    "unsupported",
    "failed_rolled_back",
]
DIGEST_PATTERN = r"^[a-f0-9]{64}$"


class RefactorDocument(WireModel):
    collection: str
    rel_path: str
    uri: str


class AffectedDocument(WireModel):
    """A file the operation writes (``source`` removed, ``target`` created, ``referrer``
    rewritten) or only reads (``referrer`` with no edits)."""

    collection: str
    rel_path: str
    role: Literal["source", "target", "referrer"]
    edits: int


class EditSpan(WireModel):
    """Replace columns ``startColumn``..``endColumn`` (1-based code points, inclusive) of line
    ``line`` of ``relPath`` as it is before the operation, at its destination path."""

    collection: str
    rel_path: str
    line: int
    start_column: int
    end_column: int
    replacement: str


class ExaminedReference(WireModel):
    collection: str
    source_rel_path: str
    destination_rel_path: str
    line: int
    column: int
    end_column: int
    link_type: Literal["wiki", "markdown"]
    form: Literal["wiki", "embed", "markdown", "image", "frontmatter"]
    classification: Classification
    reason_code: ReasonCode | None = None
    edit: EditSpan | None = None


class Precondition(WireModel):
    """The state a file must still be in when the plan is applied."""

    collection: str
    rel_path: str
    state: Literal["present", "absent"]
    sha256: str | None = None


class RefactorSafety(WireModel):
    references_examined: int
    rewrites: int
    unchanged: int
    blocked: int
    files_written: int
    blockers: list[ReasonCode]
    warnings: list[str]


class MutationBoundary(WireModel):
    filesystem: Literal["atomic_all_or_rollback"] = "atomic_all_or_rollback"
    index: Literal["converges_after_commit"] = "converges_after_commit"


class RefactorPreview(WireModel):
    """``file-refactor-preview@1.0``: the plan, without any note's text. ``planDigest`` is the
    SHA-256 of the plan's canonical form: the same inputs give the same digest anywhere."""

    schema_version: Literal["1.0"] = "1.0"
    operation: Operation
    conflict_policy: Literal["fail"] = "fail"
    source: RefactorDocument
    target: RefactorDocument
    affected_documents: list[AffectedDocument]
    examined_references: list[ExaminedReference]
    edits: list[EditSpan]
    preconditions: list[Precondition]
    plan_digest: str
    safety: RefactorSafety
    can_apply: bool
    mutation_boundary: MutationBoundary = Field(default_factory=MutationBoundary)


class FilesystemOutcome(WireModel):
    state: Literal["committed", "rolled_back", "unchanged", "recovery_required"]
    recovery_journal_id: str | None = None


class IndexConvergence(WireModel):
    state: Literal["converged", "pending", "not_attempted", "skipped"]
    recovery_instruction: str | None = None


class RefactorApplyResult(WireModel):
    """``file-refactor-apply-result@1.0``."""

    schema_version: Literal["1.0"] = "1.0"
    status: ApplyStatus
    plan_digest: str
    operation: Operation
    source: RefactorDocument
    target: RefactorDocument
    reason_code: ReasonCode | None = None
    message: str | None = None
    filesystem: FilesystemOutcome
    index_convergence: IndexConvergence


# -- requests -------------------------------------------------------------------------------


class _Confirmed(Request):
    """Preview, or apply with the exact digest and every confirmation; an apply missing one is
    refused before anything is read."""

    action: Literal["preview", "apply"] = "preview"
    ref: str = Field(max_length=4096)
    schema_version: Literal["1.0"] | None = None
    plan_digest: str | None = Field(default=None, pattern=DIGEST_PATTERN)
    confirmation: Literal["apply"] | None = None
    confirm: bool | None = None

    @model_validator(mode="after")
    def _apply_fields(self) -> _Confirmed:
        given = [
            self.schema_version is not None,
            self.plan_digest is not None,
            self.confirmation is not None,
            self.confirm is not None,
        ]
        if self.action == "apply":
            if not all(given) or self.confirm is not True:
                raise ValueError(
                    'apply needs schemaVersion "1.0", the preview\'s planDigest, '
                    'confirmation "apply" and confirm: true'
                )
        elif any(given):
            raise ValueError("schemaVersion, planDigest, confirmation and confirm are for apply")
        return self


class RenameNoteRequest(_Confirmed):
    """``gno_rename_note``: a new file name in the same folder."""

    name: str = Field(max_length=1024)


class MoveNoteRequest(_Confirmed):
    """``gno_move_note``: another folder of the same collection, optionally a new name."""

    folder_path: str = Field(max_length=4096)
    name: str | None = Field(default=None, max_length=1024)


class DuplicateNoteRequest(Request):
    """``gno_duplicate_note``: a copy in the same or another folder (default name
    ``<name>-copy``)."""

    ref: str = Field(max_length=4096)
    folder_path: str | None = Field(default=None, max_length=4096)
    name: str | None = Field(default=None, max_length=1024)
