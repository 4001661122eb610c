"""The egress contracts (issue 26): a collection's policy (``collection-egress-policy@1.0``), a
policy change (``collection-egress-policy-set@1.0``), a decision explained
(``collection-egress-check@1.0``) and the receipts' management
(``egress-audit-management@1.0``). Each is content-free: collection names, the policy
vocabulary, counts and digests, never a query, a text or a path."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from gno_core.contracts.base import WireModel
from gno_core.egress.values import Action, ContentClass, Policy, ReasonCode, Zone

COLLECTION = r"^[a-z0-9][a-z0-9_-]{0,63}$"
SHA256 = r"^[0-9a-f]{64}$"
AUDIT_CURSOR = r"^gno-egress-audit-v1\.[A-Za-z0-9_-]+$"
AUDIT_ID = r"^[0-9a-f]{32}$"


class EgressPolicyState(WireModel):
    """``collection-egress-policy@1.0``: ``configuredPolicy`` is null when nothing explicit was
    set (the default applies); ``revision`` counts the changes (0 before any) and a relaxation
    must name it; ``version`` digests collection, effective policy, source and revision."""

    wire_nulls: ClassVar[frozenset[str]] = frozenset({"configured_policy"})

    schema_version: Literal["1.0"] = "1.0"
    collection: str = Field(pattern=COLLECTION)
    configured_policy: Policy | None
    effective_policy: Policy
    source: Literal["explicit", "config_default"]
    revision: int = Field(ge=0)
    version: str = Field(pattern=r"^egress-policy-v1:[0-9a-f]{64}$")


class EgressInvalidation(WireModel):
    """What a change invalidated: the new authorization epoch; work admitted under an older
    one (queued jobs, sessions, responses in flight) must retry."""

    policy_epoch: str = Field(pattern=r"^egress-epoch-v1:[0-9]+$")
    queued_jobs_invalidated: int = Field(ge=0)
    sessions_invalidated: int = Field(ge=0)
    stale_work_must_retry: Literal[True] = True


class EgressPolicySetResult(WireModel):
    """``collection-egress-policy-set@1.0``; ``invalidation`` is null when nothing changed."""

    wire_nulls: ClassVar[frozenset[str]] = frozenset({"invalidation"})

    schema_version: Literal["1.0"] = "1.0"
    previous: EgressPolicyState
    current: EgressPolicyState
    change: Literal["tightened", "relaxed", "source_changed", "unchanged"]
    invalidation: EgressInvalidation | None


class EgressLineageSource(WireModel):
    collection: str = Field(pattern=COLLECTION)
    policy: Policy
    source: Literal["explicit", "config_default", "legacy_default"]


class EgressLineageView(WireModel):
    """The lineage a result mixing collections carries: the strictest policy of its sources,
    a SHA-256 over them (sorted by collection), and the sources."""

    effective_policy: Policy
    digest: str = Field(pattern=SHA256)
    sources: list[EgressLineageSource] = Field(min_length=1, max_length=64)


class EgressDecisionAudit(WireModel):
    """The decision's content-free account; values it could not read are ``unknown``."""

    action: Action | Literal["unknown"]
    destination_zone: Zone
    content_class: ContentClass | Literal["unknown"]
    collection_count: int = Field(ge=0)
    collections: list[str] = Field(max_length=64)
    effective_policy: Policy | Literal["unknown"]
    effective_policy_source: Literal[
        "explicit", "config_default", "legacy_default", "mixed", "unknown"
    ]
    caller_authenticated: bool | None = None
    caller_operation_authorized: bool | None = None


class EgressDecisionView(WireModel):
    allowed: bool
    code: Literal["EGRESS_ALLOWED", "EGRESS_DENIED"]
    reason: ReasonCode
    audit: EgressDecisionAudit


class EgressOmission(WireModel):
    collection: str
    reason: ReasonCode


class EgressDisclosure(WireModel):
    """Said on a partial result: how many collections were left out, and which."""

    code: Literal["EGRESS_PARTIAL_RESULT"] = "EGRESS_PARTIAL_RESULT"
    omitted_count: int = Field(ge=1)
    omitted_collections: list[str]


class EgressRemediation(WireModel):
    code: ReasonCode
    message: str


class EgressCheckResult(WireModel):
    """``collection-egress-check@1.0``: the decision on the whole scope, and under the partial
    mode asked which collections may go (``mode``) and which are omitted, with why."""

    wire_nulls: ClassVar[frozenset[str]] = frozenset({"disclosure", "lineage", "remediation"})

    schema_version: Literal["1.0"] = "1.0"
    mode: Literal["complete", "partial", "denied"]
    allowed_collections: list[str]
    omitted_collections: list[EgressOmission]
    disclosure: EgressDisclosure | None
    lineage: EgressLineageView | None
    decision: EgressDecisionView
    remediation: EgressRemediation | None


class EgressReceipt(WireModel):
    """One decision that protected content, kept locally: what was decided, for which action,
    zone, class and collections, never the content, query or path."""

    audit_id: str = Field(pattern=AUDIT_ID)
    created_at: str
    expires_at: str
    decision: Literal["allow", "deny"]
    mode: Literal["complete", "partial", "denied"]
    action: Action | Literal["unknown"]
    destination_zone: Zone
    content_class: ContentClass | Literal["unknown"]
    effective_policy: Policy | Literal["unknown"]
    reason_code: ReasonCode
    collections: list[str] = Field(max_length=64)
    omitted_collections: list[EgressOmission] = Field(default_factory=list, max_length=64)
    lineage_digest: str | None = Field(default=None, pattern=SHA256)
    operation: str | None = Field(default=None, pattern=r"^[a-z][a-z0-9_./:-]{0,63}$")


class EgressRetention(WireModel):
    max_age_days: int = Field(ge=1)
    max_receipts: int = Field(ge=1)
    max_bytes: int = Field(ge=1)


class EgressAuditStatus(WireModel):
    wire_nulls: ClassVar[frozenset[str]] = frozenset({"oldest_created_at", "newest_created_at"})

    retention: EgressRetention
    receipts: int = Field(ge=0)
    bytes: int = Field(ge=0)
    oldest_created_at: str | None
    newest_created_at: str | None


class EgressAuditManagement(WireModel):
    """``egress-audit-management@1.0``, one shape for the five operations: ``list`` (``receipts``
    newest first, ``nextCursor`` absent on the last page), ``show`` (``receipt``), ``status``,
    ``delete`` (``deleted``: 1) and ``purge`` (``deleted``: how many)."""

    schema_version: Literal["1.0"] = "1.0"
    operation: Literal["list", "show", "status", "delete", "purge"]
    receipts: list[EgressReceipt] | None = None
    next_cursor: str | None = Field(default=None, pattern=AUDIT_CURSOR)
    receipt: EgressReceipt | None = None
    status: EgressAuditStatus | None = None
    deleted: int | None = Field(default=None, ge=0)
