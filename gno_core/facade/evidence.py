"""Facade operations of the evidence room: Context Capsules, their verification, sections,
query diagnosis and Ask (``gno_core.evidence``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gno_core.facade.base import FacadeBase

if TYPE_CHECKING:
    from gno_core import contracts as wire
    from gno_core.contracts import evidence_requests
    from gno_core.ports import Cancelled

__all__ = ["EvidenceCalls"]


class EvidenceCalls(FacadeBase):
    def context(self, request: evidence_requests.ContextRequest) -> wire.ContextCapsule:
        """A deterministic, extractive Context Capsule for one goal under a hard budget."""
        return self.evidence.context(request)

    def context_verify(self, capsule: dict[str, Any]) -> wire.CapsuleVerification:
        """Re-check a saved capsule's evidence, ranking and fingerprints against this index."""
        return self.evidence.verify(capsule)

    def section(self, request: evidence_requests.SectionRequest) -> wire.SectionResult:
        """Create or resolve a durable section target (heading span) in one document."""
        return self.evidence.section(request)

    def query_diagnose(self, request: evidence_requests.DiagnoseRequest) -> wire.QueryDiagnosis:
        """What each retrieval stage did with one target document, and why."""
        return self.evidence.diagnose(request)

    def ask(
        self, request: evidence_requests.AskRequest, cancelled: Cancelled | None = None
    ) -> wire.AskResult:
        """An answer whose every claim a semantic verifier supported from cited capsule
        evidence, or an abstention. ``cancelled`` stops claim verification (``CANCELLED``)."""
        return self.evidence.ask(request, cancelled)
