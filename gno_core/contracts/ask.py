"""The Ask contract ``ask@1.0``: an answer whose every claim a semantic verifier found supported
by the capsule evidence it cites, or an abstention, with the verification of each claim
(``gno_core.evidence.ask``)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from gno_core.contracts.base import WireModel
from gno_core.contracts.evidence import CapsuleVerification, ContextCapsule, Hex64


class ClaimCitation(WireModel):
    evidence_id: str
    valid: bool
    reason: (
        Literal[
            "malformed_citation",
            "out_of_capsule",
            "freshness_unavailable",
            "freshness_receipt_invalid",
            "freshness_receipt_mismatch",
            "evidence_stale",
            "evidence_missing",
            "orphan_citation",
        ]
        | None
    ) = None
    uri: str | None = None
    start_line: int | None = None
    end_line: int | None = None


class ClaimVerdict(WireModel):
    """What the semantic verifier said about one claim (``not_checked``: it was not asked:
    no verifier, a failed one, or the claim did not quote its passages)."""

    verdict: Literal["supported", "contradicted", "not_supported", "unknown", "not_checked"]
    reason: str
    confidence: float | None = Field(default=None, ge=0, le=1)


class Claim(WireModel):
    index: int = Field(ge=1)
    text: str
    status: Literal["supported", "contradicted", "insufficient", "uncertain"]
    citations: list[ClaimCitation]
    #: Set only from a semantic verifier's ``supported`` verdict.
    support_evidence_ids: list[str]
    conflict_evidence_ids: list[str] = Field(default_factory=list)
    #: The precondition for verification: the claim's text is quoted from these passages.
    quoted: bool = False
    quoted_evidence_ids: list[str] = Field(default_factory=list)
    verdict: ClaimVerdict | None = None


class ClaimCoverage(WireModel):
    supported: int = Field(ge=0)
    substantive: int = Field(ge=0)
    complete: bool


class ClaimVerification(WireModel):
    schema_version: Literal["1.0"]
    claims: list[Claim]
    coverage: ClaimCoverage


class SemanticVerifier(WireModel):
    """The semantic verifier's part: ``used`` (it ruled on the quoted claims),
    ``not_attempted`` (no claim met the precondition), ``unavailable`` (none configured:
    nothing can be supported) or ``failed`` (it raised: nothing is supported)."""

    state: Literal["used", "not_attempted", "unavailable", "failed"]
    verifier: str
    reason: str


class AskVerification(WireModel):
    schema_version: Literal["1.0"]
    mode: Literal["closed_capsule"]
    capsule: ContextCapsule
    freshness: CapsuleVerification | None = None
    claims: ClaimVerification
    semantic: SemanticVerifier


class AskCitation(WireModel):
    evidence_id: str = Hex64
    docid: str
    uri: str
    start_line: int = Field(ge=1)
    end_line: int = Field(ge=1)


class AskSource(WireModel):
    evidence_id: str = Hex64
    uri: str
    docid: str
    title: str | None = None
    start_line: int = Field(ge=1)
    end_line: int = Field(ge=1)


class EvidenceSpan(WireModel):
    evidence_id: str = Hex64
    uri: str
    start_line: int = Field(ge=1)
    end_line: int = Field(ge=1)


class Abstention(WireModel):
    reason: Literal[
        "no_evidence",
        "no_claims",
        "semantic_verifier_unavailable",
        "semantic_verification_failed",
        "unsupported_claims",
    ]
    message: str
    #: The best evidence spans to read instead: the quoted ones, then the capsule's first.
    evidence: list[EvidenceSpan] = Field(default_factory=list)


class AskMeta(WireModel):
    answer_generated: bool
    verification_requested: Literal[True]
    abstained: bool
    total_results: int = Field(ge=0)
    generator: str
    max_answer_tokens: int


class AskResult(WireModel):
    """``ask@1.0``: an answer whose every claim a semantic verifier supported from cited
    capsule evidence, or an abstention with the draft withheld."""

    query: str
    mode: Literal["hybrid", "bm25_only"]
    answer_status: Literal["answered", "abstained"]
    answer: str | None = None
    abstention: Abstention | None = None
    citations: list[AskCitation]
    results: list[AskSource]
    verification: AskVerification
    meta: AskMeta
