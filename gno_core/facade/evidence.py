"""Facade operations of the evidence room: Context Capsules, their verification, sections,
query diagnosis and Ask (``gno_core.evidence``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gno_core.facade.base import FacadeBase

if TYPE_CHECKING:
    from gno_core.contracts.ask import AskResult
    from gno_core.contracts.evidence import (
        CapsuleVerification,
        ContextCapsule,
        QueryDiagnosis,
        SectionResult,
    )
    from gno_core.contracts.evidence_requests import (
        AskRequest,
        ContextRequest,
        DiagnoseRequest,
        SectionRequest,
    )

__all__ = ["EvidenceCalls"]


class EvidenceCalls(FacadeBase):
    def context(self, request: ContextRequest) -> ContextCapsule:
        """A deterministic, extractive Context Capsule for one goal under a hard budget."""
        return self.evidence.context(request)

    def context_verify(self, capsule: dict[str, Any]) -> CapsuleVerification:
        """Re-check a saved capsule's evidence, ranking and fingerprints against this index."""
        return self.evidence.verify(capsule)

    def section(self, request: SectionRequest) -> SectionResult:
        """Create or resolve a durable section target (heading span) in one document."""
        return self.evidence.section(request)

    def query_diagnose(self, request: DiagnoseRequest) -> QueryDiagnosis:
        """What each retrieval stage did with one target document, and why."""
        return self.evidence.diagnose(request)

    def ask(self, request: AskRequest) -> AskResult:
        """An answer whose every claim quotes cited capsule evidence, or an abstention."""
        return self.evidence.ask(request)
