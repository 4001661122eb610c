"""Health contracts: ``status@1.0`` (heavy, per collection) and ``peek@1.0`` (cheap, model-free)."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from gno_core.contracts.base import WireModel
from gno_core.contracts.links import LinkTotals


class CollectionStatus(WireModel):
    name: str
    path: str
    document_count: int = Field(ge=0)
    chunk_count: int = Field(ge=0)
    embedded_count: int = Field(ge=0)
    inactive_count: int = Field(default=0, ge=0)
    failed_count: int = Field(default=0, ge=0)
    #: Other collections whose root contains this one's or lies inside it (a configuration
    #: written before overlapping roots were refused); the index is then not healthy.
    overlaps: list[str] | None = None


class IngestErrorInfo(WireModel):
    collection: str
    rel_path: str
    code: str
    message: str
    occurred_at: str


class StatusCapabilities(WireModel):
    bm25: bool
    vector: bool
    hybrid: bool
    answer: bool


class ContentTypeBoostRule(WireModel):
    """One normalized content-type ranking rule: its id and search factor (no path prefixes)."""

    id: str
    search_boost: float


class ContentTypeBoost(WireModel):
    """The redacted ranking-status projection of the content-type rules. gno has no
    content-type rules, so it reports the neutral projection: no rules, empty fingerprint."""

    rules_fingerprint: str = ""
    rules: list[ContentTypeBoostRule] = Field(default_factory=list)


class ChunkingPolicy(WireModel):
    max_tokens: int
    overlap_percent: float


ChunkingState = Literal["empty", "legacy-default", "current", "pending", "mixed"]


class ChunkingStatus(WireModel):
    """The configured chunking policy and how far the cached layouts follow it: ``applied`` is
    the one policy every active document was chunked with (null when empty or mixed);
    ``pendingDocuments`` / ``pendingMirrors`` count active content chunked with another."""

    wire_nulls: ClassVar[frozenset[str]] = frozenset({"applied"})

    configured: ChunkingPolicy
    applied: ChunkingPolicy | None
    state: ChunkingState
    pending_documents: int = Field(ge=0)
    pending_mirrors: int = Field(ge=0)


ResidentMode = Literal["serve", "daemon", "stdio", "direct-cli"]


AdmissionState = Literal["accepting", "draining", "closed"]


class ResidentAdmission(WireModel):
    """Whether the resident gateway takes new requests, and how many it holds right now."""

    state: AdmissionState
    active_requests: int = Field(ge=0)
    queued_requests: int = Field(ge=0)


class ResidentTransport(WireModel):
    """The gateway's limits and open sessions (redacted: no token, no paths, no peers)."""

    sessions: int = Field(ge=0)
    max_sessions: int = Field(ge=0)
    max_active_requests: int = Field(ge=0)
    max_queued_requests: int = Field(ge=0)
    rate_limit_per_minute: int = Field(ge=0)
    max_body_bytes: int = Field(ge=0)
    tool_profile: Literal["core", "full"]
    write_enabled: bool
    authenticated: bool


class ResidentStatus(WireModel):
    """``resident-status@1.0``; in-process callers only fill ``mode`` and ``resident``."""

    mode: ResidentMode
    resident: bool
    uptime_seconds: float | None = None
    listener_port: int | None = None
    admission: ResidentAdmission | None = None
    transport: ResidentTransport | None = None


# The docstrings below are wire (schema descriptions in the pinned tool list). Besides the
# invalid files, the diagnostics name valid facts with an ignored ``supersedes`` entry
# (``MEMORY_SUPERSEDES_IGNORED``: docs/reference/memory.md).
class FactDiagnosticInfo(WireModel):
    """A file under a memory collection's ``facts/`` that is not a valid fact (never recalled,
    still searchable), with its diagnostic code."""

    collection: str
    rel_path: str
    code: str
    message: str


class MemoryStatus(WireModel):
    """Facts of the memory collections: current, superseded, invalid, and the first invalid."""

    collections: list[str]
    current_facts: int = Field(ge=0)
    superseded_facts: int = Field(ge=0)
    invalid_facts: int = Field(ge=0)
    diagnostics: list[FactDiagnosticInfo]


class Status(WireModel):
    """``status@1.0``: the index, its collections, counts, backlog, recent errors and health."""

    index_name: str
    config_path: str | None = None
    db_path: str | None = None
    collections: list[CollectionStatus]
    total_documents: int = Field(ge=0)
    total_chunks: int = Field(ge=0)
    embedding_backlog: int = Field(ge=0)
    recent_errors: list[IngestErrorInfo]
    last_updated: str | None = None
    healthy: bool
    capabilities: StatusCapabilities
    content_type_boost: ContentTypeBoost
    chunking: ChunkingStatus
    fts_tokenizer: str
    resident: ResidentStatus
    links: LinkTotals | None = None
    #: Present when a memory collection exists.
    memory: MemoryStatus | None = None


class PeekCounts(WireModel):
    documents: int = Field(ge=0)
    collections: int = Field(ge=0)


class PeekBacklog(WireModel):
    pending: int = Field(ge=0)
    failed: int = Field(ge=0)


class PeekRecent(WireModel):
    wire_nulls: ClassVar[frozenset[str]] = frozenset({"title"})

    docid: str
    uri: str
    title: str | None
    collection: str
    abs_path: str
    modified_at: str | None = None


class PeekServe(WireModel):
    wire_nulls: ClassVar[frozenset[str]] = frozenset({"url"})

    running: bool
    url: str | None


class Peek(WireModel):
    """``peek@1.0``: uninitialized is a successful payload with pinned nulls and no recent docs."""

    wire_nulls: ClassVar[frozenset[str]] = frozenset(
        {"counts", "backlog", "last_indexed_at", "index_name"}
    )

    schema_version: Literal["peek@1.0"] = "peek@1.0"
    gno_version: str
    generated_at: str
    initialized: bool
    index_name: str | None
    counts: PeekCounts | None
    backlog: PeekBacklog | None
    last_indexed_at: str | None
    recent: list[PeekRecent] = Field(max_length=10)
    serve: PeekServe
