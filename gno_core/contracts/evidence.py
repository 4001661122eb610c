"""Evidence contracts: ``context-capsule-v1@1.1`` (the Context Capsule) and
``context-capsule-verification@1.0`` (its verification receipt).

The capsule's canonical JSON is built by ``gno_core.evidence.capsule`` and hashed there; these
models describe it (and validate a capsule handed back for verification). No field is ever
``null``: an absent value is an absent key, so the model's JSON is the canonical JSON.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from gno_core.contracts.base import WireModel

Hex64 = Field(pattern=r"^[0-9a-f]{64}$")
Outcome = Literal["not_requested", "not_attempted", "used", "unavailable"]
OmissionReason = Literal[
    "duplicate",
    "overlap",
    "document_share_cap",
    "redundant_coverage",
    "global_budget",
    "filtered_by_scope",
    "invalid_coordinates",
]
GapCode = Literal[
    "facet_not_found", "global_budget_exhausted", "capability_unavailable", "filtered_by_scope"
]
FallbackCode = Literal[
    "embedding_unavailable",
    "reranking_unavailable",
    "graph_unavailable",
    "tokenizer_unavailable",
    "egress_policy_unavailable",
]
Egress = Literal["local_only", "lan", "remote", "unclassified", "unavailable"]


class CapsuleScope(WireModel):
    index_name: str
    collections: list[str]
    uri_prefix: str | None = None
    tags_all: list[str]
    tags_any: list[str]
    categories: list[str]
    since: str | None = None
    until: str | None = None
    #: the normalised typed metadata predicate (contract 1.2)
    filter: dict[str, Any] | None = None


class CapsuleBudget(WireModel):
    authority: Literal["canonical_json"]
    requested_tokens: int = Field(ge=1)
    requested_bytes: int = Field(ge=1)
    used_tokens: int = Field(ge=0)
    used_bytes: int = Field(ge=0)
    safety_margin_tokens: int = Field(ge=0)
    safety_margin_bytes: int = Field(ge=0)
    estimator: Literal["active_tokenizer", "unicode_conservative"]
    tokenizer_fingerprint: str | None = None


class CapabilityState(WireModel):
    requested: bool
    attempted: bool
    outcome: Outcome


class QueryModeEcho(WireModel):
    mode: Literal["term", "intent", "hyde"]
    text: str


class RetrievalEcho(WireModel):
    query: str
    limit: int
    candidate_limit: int
    depth_policy: Literal["fast", "balanced", "thorough"]
    graph: bool
    no_rerank: bool
    query_modes: list[QueryModeEcho]
    exclude: list[str]
    lang: str | None = None
    intent: str | None = None
    author: str | None = None
    min_score: str | None = None


class IndexSnapshot(WireModel):
    before: str
    after: str
    stable: bool


class CapsuleRetrieval(WireModel):
    depth_policy: Literal["fast", "balanced", "thorough"]
    facets: list[str]
    query_variants: list[str]
    expansion_policy: Literal["deterministic_only"]
    mode: Literal["hybrid", "bm25_only"]
    request: RetrievalEcho
    capability_states: dict[str, CapabilityState]
    index_snapshot: IndexSnapshot


class CapsuleFingerprints(WireModel):
    index: str
    config: str
    retrieval: str
    embedding_model: str | None = None
    rerank_model: str | None = None
    tokenizer: str | None = None


class CapsuleCapabilities(WireModel):
    lexical_search: Literal[True]
    semantic_search: bool
    reranking: bool
    graph_expansion: bool
    exact_token_count: bool
    configured_context: bool
    egress_policy: bool


class Fallback(WireModel):
    code: FallbackCode
    capability: str


class ConfiguredContext(WireModel):
    context_id: str
    scope_type: Literal["global", "collection", "prefix"]
    scope_key: str
    text: str


class Guidance(WireModel):
    extractive_only: Literal[True]
    evidence_trust: Literal["untrusted_data"]
    instruction_boundary: Literal["hard_delimited"]
    configured_contexts: list[ConfiguredContext]
    text: str


class EvidenceItem(WireModel):
    """One exact passage: whole lines ``startLine``-``endLine`` of the canonical mirror."""

    evidence_id: str = Hex64
    uri: str
    docid: str
    collection: str
    title: str | None = None
    heading: str | None = None
    start_line: int = Field(ge=1)
    end_line: int = Field(ge=1)
    text: str
    source_hash: str
    mirror_hash: str
    passage_hash: str = Hex64
    modified_at: str | None = None
    document_date: str | None = None
    context_ids: list[str]
    retrieval_rank: int = Field(ge=1)
    selection_rank: int = Field(ge=1)
    retrieval_sources: list[str]
    graph_expanded: bool
    facets: list[str]
    trust: Literal["untrusted_data"]
    egress: Egress


class Gap(WireModel):
    facet: str
    code: GapCode


class Coverage(WireModel):
    complete: bool
    requested_facets: list[str]
    covered_facets: list[str]
    unresolved_facets: list[str]
    gaps: list[Gap]


class Omission(WireModel):
    reason: OmissionReason
    uri: str
    retrieval_rank: int = Field(ge=0)
    start_line: int | None = None
    end_line: int | None = None
    passage_hash: str | None = None


class Omissions(WireModel):
    total: int = Field(ge=0)
    items: list[Omission]
    reason_counts: dict[str, int]
    truncated: bool


class ContextCapsule(WireModel):
    """A deterministic, extractive, closed bundle of the passages one goal needs, fitting its
    token and byte budget as a whole; ``capsuleId`` is the hash of everything else."""

    schema_version: Literal["1.0", "1.1", "1.2"]
    kind: Literal["context-capsule-v1"]
    coordinate_space: Literal["canonical_mirror"]
    capsule_id: str = Hex64
    goal: str
    query: str
    scope: CapsuleScope
    budget: CapsuleBudget
    retrieval: CapsuleRetrieval
    fingerprints: CapsuleFingerprints
    capabilities: CapsuleCapabilities
    fallbacks: list[Fallback]
    guidance: Guidance
    evidence: list[EvidenceItem]
    coverage: Coverage
    omissions: Omissions
    truncated: bool
    warnings: list[
        Literal[
            "incomplete_coverage",
            "omissions_truncated",
            "token_estimate_used",
            "embedding_coverage_incomplete",
            "metadata_coverage_incomplete",
        ]
    ]


class EvidenceCheck(WireModel):
    """What verification found for one evidence item now."""

    evidence_id: str
    uri: str
    start_line: int
    end_line: int
    content_status: Literal["unchanged", "stale", "missing"]
    reason: str
    current_source_hash: str | None = None
    current_mirror_hash: str | None = None
    current_passage_hash: str | None = None
    current_start_line: int | None = None
    current_end_line: int | None = None


class FingerprintDrift(WireModel):
    name: str
    saved: str | None = None
    current: str | None = None


class CapsuleVerification(WireModel):
    """``context-capsule-verification@1.0``: a saved capsule against the index as it is now."""

    schema_version: Literal["1.0"]
    capsule_id: str = Hex64
    index_name: str
    status: Literal["fresh", "stale"]
    content_status: Literal["unchanged", "stale", "missing"]
    counts: dict[str, int]
    evidence: list[EvidenceCheck]
    ranking_status: Literal["unchanged", "reranked", "unavailable"]
    ranking_reason: str
    fingerprint_status: Literal["unchanged", "drifted"]
    drift: list[FingerprintDrift]


class SectionCitation(WireModel):
    uri: str
    anchor: str
    title: str
    line_start: int = Field(ge=1)
    line_end: int = Field(ge=1)
    source_fingerprint: str = Hex64


class SectionTargetOut(WireModel):
    """``section-target@1.0`` (``SectionTargetV1``) as ``gno_section`` returns it."""

    schema_version: Literal["1"]
    document: dict[str, str]
    anchor: str
    heading_path: list[str]
    occurrence: int = Field(ge=1)
    quote: dict[str, str]
    source_fingerprint: str = Hex64
    hints: dict[str, int]


class SectionResult(WireModel):
    """``section@1.0``: a created target, or a resolution with a citation only when it is safe
    to navigate (``exact`` or ``recovered``)."""

    schema_version: Literal["1.0"]
    action: Literal["create", "resolve"]
    uri: str
    status: Literal["exact", "recovered", "ambiguous", "stale", "missing"] | None = None
    target: SectionTargetOut
    citation: SectionCitation | None = None


class DiagnoseStage(WireModel):
    id: Literal["bm25", "vector", "fusion", "graph", "rerank"]
    status: Literal["active", "skipped"]
    source_count: int = Field(ge=0)
    present: bool
    rank: int | None = Field(default=None, ge=1)
    score: float | None = None
    survived: bool
    drop_reason: Literal["not_in_candidate_set", "below_cutoff", "skipped"] | None = None
    reason: str


class DiagnoseTarget(WireModel):
    ref: str
    status: Literal["not_found", "inactive", "no_indexed_content", "filtered_out", "diagnosed"]
    docid: str | None = None
    uri: str | None = None
    title: str | None = None
    content_type: str | None = None
    categories: list[str] | None = None
    mirror_hash: str | None = None
    chunk_count: int | None = None
    filter_reasons: list[str]


class DiagnoseChunk(WireModel):
    #: The chunk's place among the document's chunks (0-based), when the lines fall in one.
    seq: int | None = Field(default=None, ge=0)
    start_line: int = Field(ge=1)
    end_line: int = Field(ge=1)


class DiagnoseMeta(WireModel):
    limit: int
    min_score: float | None = None


class QueryDiagnosis(WireModel):
    """``query-diagnose@1.0``: what each retrieval stage did with one target document."""

    schema_version: Literal["1.0"]
    query: str
    target: DiagnoseTarget
    stages: list[DiagnoseStage]
    chunk: DiagnoseChunk | None = None
    summary: str
    meta: DiagnoseMeta
