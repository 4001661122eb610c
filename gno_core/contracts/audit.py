"""``audit-report@1.0``: the read-only knowledge audit. Each rule of rule set ``1.0`` says
``pass``, ``fail``, ``skip`` (nothing in scope to check, or a policy input it needs was not
given), ``unavailable`` (the evidence could not be read) or ``inconclusive`` (the evidence was
incomplete or the audit stopped first); the report is ``complete``, ``partial`` (a rule could
not finish: cancelled, unavailable or inconclusive evidence), ``changed_during_audit`` (the
index changed under it twice) or ``failed``. Findings are canonically ordered (rule, subject,
location, id), bounded by ``maxFindings`` with the exact totals kept in ``counts`` and
``truncation``."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from gno_core.contracts.base import WireModel

AuditCategory = Literal["links", "provenance", "freshness", "all"]
RuleStatus = Literal["pass", "fail", "skip", "unavailable", "inconclusive"]
ReportStatus = Literal["complete", "partial", "changed_during_audit", "failed"]
Severity = Literal["error", "warning", "info"]
FINDING_ID_PATTERN = r"^[0-9a-f]{64}$"

#: Most evidence items and guidance lines a finding carries (reference facts, section 3).
MAX_EVIDENCE = 8
MAX_GUIDANCE = 4


class AuditPolicy(WireModel):
    max_findings: int = Field(ge=1, le=1000)
    max_age_days: int | None = Field(default=None, ge=1)
    orphan_roots: list[str] = Field(default_factory=list)
    orphan_ignore_prefixes: list[str] = Field(default_factory=list)


class AuditScope(WireModel):
    category: AuditCategory
    collections: list[str] = Field(description="The collections audited, by name")
    path: str | None = Field(default=None, description="Relative-path prefix filter")
    tag: str | None = None
    documents: int = Field(ge=0, description="Active documents in scope")
    policy: AuditPolicy


class AuditFingerprints(WireModel):
    index_before: str = Field(description="SHA-256 of the scope's documents and hashes, at start")
    index_after: str = Field(description="The same, at the end: differs when the index changed")
    attempts: int = Field(ge=1, le=2, description="2 when the index changed and it ran again")


class AuditVersions(WireModel):
    gno: str
    rule_set: Literal["1.0"] = "1.0"
    schema_version: Literal["1.0"] = "1.0"


class AuditRule(WireModel):
    id: str
    category: Literal["links", "provenance", "freshness"]
    status: RuleStatus
    checked: int = Field(ge=0, description="Subjects (documents, links, facts) the rule looked at")
    findings: int = Field(ge=0, description="Its findings before truncation")
    reason: str | None = Field(default=None, description="Why it skipped or could not decide")
    duration_ms: float = Field(ge=0)


class AuditEvidence(WireModel):
    kind: str
    value: str = Field(max_length=512)


class AuditSubject(WireModel):
    uri: str
    collection: str
    rel_path: str
    docid: str | None = None


class AuditLocation(WireModel):
    line: int = Field(ge=1)
    column: int | None = Field(default=None, ge=1)


class AuditFinding(WireModel):
    id: str = Field(
        pattern=FINDING_ID_PATTERN,
        description="SHA-256 of rule, normalized subject and location, and evidence fingerprint",
    )
    rule: str
    severity: Severity
    subject: AuditSubject
    location: AuditLocation | None = None
    message: str
    evidence: list[AuditEvidence] = Field(max_length=MAX_EVIDENCE)
    guidance: list[str] = Field(max_length=MAX_GUIDANCE)


class AuditCounts(WireModel):
    findings: int = Field(ge=0, description="All findings, before truncation")
    returned: int = Field(ge=0)
    by_rule: dict[str, int]
    by_severity: dict[str, int]
    rules: dict[str, int] = Field(description="Rules by status")


class AuditTruncation(WireModel):
    truncated: bool
    max_findings: int = Field(ge=1)
    omitted: int = Field(ge=0)


class AuditTiming(WireModel):
    total_ms: float = Field(ge=0)
    source_reads_ms: float = Field(
        ge=0, description="Reading the sources the rules share (16 at a time), before them"
    )
    by_rule: dict[str, float]


class AuditReport(WireModel):
    schema_version: Literal["1.0"] = "1.0"
    rule_set_version: Literal["1.0"] = "1.0"
    status: ReportStatus
    scope: AuditScope
    capabilities: dict[str, Literal["available", "unavailable"]] = Field(
        description="The evidence each rule group reads, and whether it could be read"
    )
    fingerprints: AuditFingerprints
    versions: AuditVersions
    started_at: str
    completed_at: str
    duration_ms: float = Field(ge=0)
    rules: list[AuditRule]
    findings: list[AuditFinding]
    counts: AuditCounts
    truncation: AuditTruncation
    timing: AuditTiming
    warnings: list[str] = Field(default_factory=list)
