"""Port: a semantic claim verifier for Ask. It reads each claim with the passages it cites
(and the question it answers) and says whether those passages support it.

Ask never counts a claim as supported without a verdict from this port: a quote that matches
its passage word for word is only the precondition for asking (``gno_core.evidence.ask``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from gno_core.ports.evidence import EvidencePassage
from gno_core.ports.lease import Cancelled

#: ``supported``: the cited passages state the claim and it answers the question;
#: ``contradicted``: they state its opposite; ``not_supported``: they do not state it (or it
#: does not answer the question); ``unknown``: the verifier could not decide.
Verdict = Literal["supported", "contradicted", "not_supported", "unknown"]
VERDICTS: tuple[Verdict, ...] = ("supported", "contradicted", "not_supported", "unknown")

#: Bounds of one verification call (the spec's verifier protocol).
MAX_VERIFY_CLAIMS = 32
MAX_VERIFY_EVIDENCE = 64
#: A verdict's reason is cut to this many characters.
MAX_REASON_CHARS = 500


@dataclass(frozen=True, slots=True)
class ClaimToVerify:
    """One claim (``index`` as in the Ask result) and the passages it validly cites."""

    index: int
    text: str
    evidence: tuple[EvidencePassage, ...]


@dataclass(frozen=True, slots=True)
class VerificationRequest:
    """The question, the claims (at most ``MAX_VERIFY_CLAIMS``) and how long the verifier may
    take; ``cancelled`` is polled between steps (``CANCELLED`` when it turns true)."""

    question: str
    claims: tuple[ClaimToVerify, ...]
    timeout_seconds: float = 60.0
    cancelled: Cancelled | None = None


@dataclass(frozen=True, slots=True)
class ClaimVerdict:
    """The verdict on claim ``index``: ``evidence_ids`` are the cited passages that decide it
    (never empty for ``supported`` or ``contradicted``, always a subset of the claim's own
    passages), ``reason`` says why in a sentence, ``confidence`` is in [0, 1] when known."""

    index: int
    verdict: Verdict
    reason: str
    evidence_ids: tuple[str, ...] = ()
    confidence: float | None = None


class ClaimVerifier(Protocol):
    """Verifies claims against the passages they cite.

    ``verifier_id`` is known without loading or contacting anything. ``verify`` returns one
    verdict per claim, in order, with the claim's ``index``; empty input, empty output.
    Failures are typed: ``MODEL_UNAVAILABLE`` (nothing reachable, model not pulled), ``RUNTIME``
    (``details.reason``: ``timeout``, ``http_status``, ``malformed``, ``too_large``,
    ``inference``), ``CANCELLED``; a verdict never comes from a failure."""

    @property
    def verifier_id(self) -> str: ...

    def verify(self, request: VerificationRequest) -> list[ClaimVerdict]: ...


def checked_verdicts(
    request: VerificationRequest, verdicts: list[ClaimVerdict]
) -> list[ClaimVerdict]:
    """``verdicts`` held to the port's rules, for the caller that must not trust an adapter:
    one per claim in order, evidence ids only from the claim's own passages, and a
    ``supported``/``contradicted`` verdict without such an id turned into ``unknown``.
    A verdict that is missing or out of order is ``unknown``."""
    by_index = {v.index: v for v in verdicts}
    out: list[ClaimVerdict] = []
    for claim in request.claims:
        given = by_index.get(claim.index)
        if given is None or given.verdict not in VERDICTS:
            out.append(ClaimVerdict(claim.index, "unknown", "the verifier gave no verdict"))
            continue
        own = {p.evidence_id for p in claim.evidence}
        ids = tuple(dict.fromkeys(e for e in given.evidence_ids if e in own))
        verdict: Verdict = given.verdict
        reason = given.reason[:MAX_REASON_CHARS]
        if verdict in ("supported", "contradicted") and not ids:
            verdict, reason = "unknown", f"{verdict} without a cited passage: {reason}"
        confidence = given.confidence
        if confidence is not None and not 0.0 <= confidence <= 1.0:
            confidence = None
        out.append(ClaimVerdict(claim.index, verdict, reason[:MAX_REASON_CHARS], ids, confidence))
    return out
