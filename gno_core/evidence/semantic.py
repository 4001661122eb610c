"""Ask's semantic verification step: the claims that passed the quote precondition go to the
``ClaimVerifier`` in bounded calls, and its verdicts (held to the port's rules) set their
status. Without a verifier, or when it fails, nothing is supported and the ``semantic`` record
says why."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gno_core.errors import CancelledError, GnoError

if TYPE_CHECKING:
    from gno_core.ports import Cancelled, ClaimToVerify, ClaimVerifier, EvidencePassage

#: Seconds one verification call may take (the adapter enforces it).
VERIFY_TIMEOUT_SECONDS = 60.0
UNAVAILABLE_REASON = (
    "no semantic verifier is configured, so no claim can be supported: configure an "
    "OpenAI-compatible endpoint (generation.endpoint or GNO_ASK_ENDPOINT) or pull the local "
    "NLI model (gno models pull nli)"
)


def verify_claims(
    verifier: ClaimVerifier | None,
    question: str,
    claims: list[dict[str, Any]],
    passages: dict[str, EvidencePassage],
    cancelled: Cancelled | None = None,
) -> dict[str, Any]:
    """Rule on the ``uncertain`` claims whose quote precondition held; update them in place
    (``status``, ``supportEvidenceIds``, ``conflictEvidenceIds``, ``verdict``). Returns the
    ``semantic`` record: ``state`` used | not_attempted | unavailable | failed."""
    from gno_core.ports import ClaimToVerify
    from gno_core.ports.verifier import MAX_VERIFY_EVIDENCE

    pending = [c for c in claims if c["status"] == "uncertain" and c["quoted"]]
    for claim in claims:
        if claim["status"] == "uncertain" and not claim["quoted"]:
            claim["verdict"] = {
                "verdict": "not_checked",
                "reason": "the claim does not quote the passages it cites",
            }
    if verifier is None:
        for claim in pending:
            claim["verdict"] = {"verdict": "not_checked", "reason": "no semantic verifier"}
        return {"state": "unavailable", "verifier": "none", "reason": UNAVAILABLE_REASON}
    if not pending:
        return {
            "state": "not_attempted",
            "verifier": verifier.verifier_id,
            "reason": "no cited claim met the quote precondition",
        }
    asked = []
    for c in pending:
        cited = dict.fromkeys(x["evidenceId"] for x in c["citations"] if x["valid"])
        # One call holds at most MAX_VERIFY_EVIDENCE passages: a claim citing more keeps its first.
        kept = tuple(passages[e] for e in cited)[:MAX_VERIFY_EVIDENCE]
        asked.append(ClaimToVerify(c["index"], c["text"], kept))
    try:
        verdicts = _run(verifier, question, asked, cancelled)
    except CancelledError:
        raise
    except GnoError as exc:
        for claim in pending:
            claim["verdict"] = {"verdict": "not_checked", "reason": "the verifier failed"}
        return {
            "state": "failed",
            "verifier": verifier.verifier_id,
            "reason": f"{exc.code}: {exc.message}"[:500],
        }
    by_index = {c["index"]: c for c in pending}
    for v in verdicts:
        claim = by_index[v.index]
        verdict: dict[str, Any] = {"verdict": v.verdict, "reason": v.reason}
        if v.confidence is not None:
            verdict["confidence"] = v.confidence
        claim["verdict"] = verdict
        if v.verdict == "supported":
            claim["status"] = "supported"
            claim["supportEvidenceIds"] = sorted(v.evidence_ids)
        elif v.verdict == "contradicted":
            claim["status"] = "contradicted"
            claim["conflictEvidenceIds"] = sorted(v.evidence_ids)
    return {
        "state": "used",
        "verifier": verifier.verifier_id,
        "reason": f"{len(pending)} quoted claim(s) checked by the semantic verifier",
    }


def _run(
    verifier: ClaimVerifier,
    question: str,
    asked: list[ClaimToVerify],
    cancelled: Cancelled | None,
) -> list[Any]:
    """Verdicts for ``asked``, in calls of at most ``MAX_VERIFY_CLAIMS`` claims and
    ``MAX_VERIFY_EVIDENCE`` distinct passages."""
    from gno_core.ports import VerificationRequest
    from gno_core.ports.verifier import MAX_VERIFY_CLAIMS, MAX_VERIFY_EVIDENCE, checked_verdicts

    out: list[Any] = []
    batch: list[ClaimToVerify] = []
    seen: set[str] = set()

    def flush() -> None:
        if not batch:
            return
        if cancelled is not None and cancelled():
            raise CancelledError("Ask was cancelled during claim verification")
        request = VerificationRequest(question, tuple(batch), VERIFY_TIMEOUT_SECONDS, cancelled)
        out.extend(checked_verdicts(request, verifier.verify(request)))
        batch.clear()
        seen.clear()

    for claim in asked:
        ids = {p.evidence_id for p in claim.evidence}
        if len(batch) >= MAX_VERIFY_CLAIMS or len(seen | ids) > MAX_VERIFY_EVIDENCE:
            flush()
        batch.append(claim)
        seen |= ids
    flush()
    return out
