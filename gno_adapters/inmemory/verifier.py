"""``ScriptedVerifier``: a fake ``ClaimVerifier`` whose verdicts a test writes down.

A claim gets the verdict scripted for its text (whitespace and case folded); any other claim
gets ``default`` (``unknown`` unless told). A ``supported`` or ``contradicted`` verdict cites
every passage the claim cites. ``fail`` makes the next calls raise that error instead."""

from __future__ import annotations

from collections.abc import Mapping

from gno_core.errors import CancelledError, GnoError
from gno_core.ports.verifier import ClaimVerdict, Verdict, VerificationRequest


def _fold(text: str) -> str:
    return " ".join(text.split()).casefold()


class ScriptedVerifier:
    def __init__(
        self,
        verdicts: Mapping[str, Verdict] | None = None,
        *,
        default: Verdict = "unknown",
        verifier_id: str = "gno/scripted-verifier",
    ) -> None:
        self._verdicts = {_fold(k): v for k, v in (verdicts or {}).items()}
        self._default: Verdict = default
        self._id = verifier_id
        self.fail: GnoError | None = None
        self.calls: list[VerificationRequest] = []  # every request, for tests

    @property
    def verifier_id(self) -> str:
        return self._id

    def verify(self, request: VerificationRequest) -> list[ClaimVerdict]:
        self.calls.append(request)
        if request.cancelled is not None and request.cancelled():
            raise CancelledError("claim verification was cancelled")
        if self.fail is not None:
            raise self.fail
        out = []
        for claim in request.claims:
            verdict = self._verdicts.get(_fold(claim.text), self._default)
            decides = verdict in ("supported", "contradicted") and claim.evidence
            ids = tuple(p.evidence_id for p in claim.evidence) if decides else ()
            if verdict in ("supported", "contradicted") and not claim.evidence:
                verdict = "not_supported"
            out.append(ClaimVerdict(claim.index, verdict, f"scripted: {verdict}", ids, 1.0))
        return out
