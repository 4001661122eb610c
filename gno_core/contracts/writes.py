"""Write contracts: ``capture-receipt@1.0`` (and the MCP ``mcp-capture-result@1.0`` it is
compatible with), collection and folder results, and the job contracts."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from gno_core.contracts.base import WireModel
from gno_core.contracts.collections import SyncResult

StepStatus = Literal[
    "not_requested", "pending", "running", "completed", "skipped", "failed", "unknown"
]
CollisionResult = Literal[
    "created", "opened_existing", "created_with_suffix", "overwritten", "conflict"
]
JobType = Literal["add", "sync", "embed", "index", "clear_embeddings"]
JobState = Literal["running", "completed", "failed", "cancelled"]


class CaptureSource(WireModel):
    """The provenance written under ``source:`` in the note."""

    kind: Literal["direct", "web", "email", "meeting", "chat", "file", "api", "unknown"]
    title: str | None = None
    url: str | None = None
    uri: str | None = None
    docid: str | None = None
    mime: str | None = None
    ext: str | None = None
    author: str | None = None
    observed_at: str | None = None
    captured_at: str
    external_id: str | None = None


class StepState(WireModel):
    """Where one follow-up step of a write stands (the lexical sync, the embedding)."""

    status: StepStatus
    job_id: str | None = None
    reason: str | None = None
    error: str | None = None


class CaptureReceipt(WireModel):
    """What a capture did. ``sync.status`` is ``completed`` on every receipt: a capture whose
    sync failed is the error ``CAPTURE_SYNC_FAILED``, never a receipt."""

    schema_version: Literal["1.0"] = "1.0"
    uri: str
    docid: str | None = None
    collection: str
    rel_path: str
    abs_path: str | None = None
    #: The MCP server that wrote it (as its job statuses name it); absent elsewhere.
    server_instance_id: str | None = None
    created: bool
    opened_existing: bool
    created_with_suffix: bool
    overwritten: bool | None = None
    content_hash: str
    source: CaptureSource
    tags: list[str]
    sync: StepState
    embed: StepState
    collision_policy_result: CollisionResult


class AddCollectionResult(WireModel):
    """``mcp-add-collection-result@1.0``: the collection registered, and the job indexing it."""

    collection: str
    path: str
    pattern: str
    include: list[str]
    exclude: list[str]
    job_id: str | None = None
    status: Literal["started", "added"]


class RemoveResult(WireModel):
    """``mcp-remove-result@1.0``: the collection left the configuration; its indexed documents
    are kept (inactive) until it is added again."""

    collection: str
    path: str
    removed: bool
    documents_retained: bool


class FolderResult(WireModel):
    collection: str
    rel_path: str
    abs_path: str
    created: bool


class ClearEmbeddingsResult(WireModel):
    collection: str
    mode: Literal["stale", "all"]
    deleted: int = Field(ge=0)


class SyncToolResult(WireModel):
    """``mcp-sync-result@1.0``."""

    status: Literal["completed"]
    collections: list[str]
    result: SyncResult


class JobStarted(WireModel):
    """``mcp-embed-result@1.0`` / ``mcp-index-result@1.0``: a job was accepted."""

    job_id: str
    status: Literal["started"]
    model: str | None = None
    collections: list[str] | None = None
    phases: list[str] | None = None
    options: dict[str, bool] | None = None


class JobProgress(WireModel):
    phase: str | None = None
    done: int = Field(ge=0)
    total: int = Field(ge=0)
    detail: str | None = None


class JobStatus(WireModel):
    """``mcp-job-status@1.0``."""

    job_id: str
    type: JobType
    status: JobState
    started_at: str
    completed_at: str | None = None
    phases: list[str] | None = None
    progress: JobProgress | None = None
    result: dict[str, Any] | None = None
    typed_result: dict[str, Any] | None = None
    error: str | None = None
    error_code: str | None = None
    server_instance_id: str | None = None


class JobList(WireModel):
    """``mcp-job-list@1.0``: the running job (if any) then recent ones, newest first."""

    active: JobStatus | None = None
    recent: list[JobStatus]
