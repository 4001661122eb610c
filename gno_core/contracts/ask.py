"""The Ask contract ``ask@1.0``: an answer whose every claim quotes cited capsule evidence, or an
abstention, with the verification of each claim (``gno_core.evidence.ask``)."""

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


class Claim(WireModel):
    index: int = Field(ge=1)
    text: str
    status: Literal["supported", "contradicted", "insufficient", "uncertain"]
    citations: list[ClaimCitation]
    support_evidence_ids: list[str]


class ClaimCoverage(WireModel):
    supported: int = Field(ge=0)
    substantive: int = Field(ge=0)
    complete: bool


class ClaimVerification(WireModel):
    schema_version: Literal["1.0"]
    claims: list[Claim]
    coverage: ClaimCoverage


class SemanticVerifier(WireModel):
    state: Literal["used", "unavailable", "failed"]
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


class Abstention(WireModel):
    reason: Literal["no_evidence", "no_claims", "unsupported_claims"]
    message: str


class AskMeta(WireModel):
    answer_generated: bool
    verification_requested: Literal[True]
    abstained: bool
    total_results: int = Field(ge=0)
    generator: str
    max_answer_tokens: int


class AskResult(WireModel):
    """``ask@1.0``: an answer whose every claim quotes cited capsule evidence, or an
    abstention with the draft withheld."""

    query: str
    mode: Literal["hybrid", "bm25_only"]
    answer_status: Literal["answered", "abstained"]
    answer: str | None = None
    abstention: Abstention | None = None
    citations: list[AskCitation]
    results: list[AskSource]
    verification: AskVerification
    meta: AskMeta
