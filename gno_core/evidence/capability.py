"""``Evidence``: the evidence capability of one index, as the facade sees it."""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING, Any

from gno_core.evidence.capsule import CapsuleCompiler

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
    from gno_core.documents import Documents
    from gno_core.egress_control.capability import EgressControl
    from gno_core.index_handle import IndexHandle
    from gno_core.ports import Cancelled, ClaimVerifier, Generator, SemanticModels, TokenCounter
    from gno_core.retrieval.modes import Retrieval


class Evidence:
    def __init__(
        self,
        handle: IndexHandle,
        retrieval: Callable[[], Retrieval],
        documents: Callable[[], Documents],
        models: SemanticModels,
        counter: TokenCounter | None,
        generator: Generator | None = None,
        verifier: Callable[[], ClaimVerifier | None] = lambda: None,
    ) -> None:
        self.handle = handle
        self._retrieval = retrieval
        self._documents = documents
        self._models = models
        self._counter = counter
        self._generator = generator
        self._verifier = verifier

    @cached_property
    def compiler(self) -> CapsuleCompiler:
        return CapsuleCompiler(self.handle, self._retrieval(), self._models, self._counter)

    def context(self, request: ContextRequest) -> ContextCapsule:
        from gno_core.contracts.evidence import ContextCapsule

        return ContextCapsule.model_validate(self.compiler.compile(request))

    def verify(self, capsule: dict[str, Any]) -> CapsuleVerification:
        from gno_core.evidence.verify import verify

        return verify(self.compiler, capsule)

    def section(self, request: SectionRequest) -> SectionResult:
        from gno_core.evidence.sections import section

        return section(self._documents(), request)

    def diagnose(self, request: DiagnoseRequest) -> QueryDiagnosis:
        from gno_core.evidence.diagnose import diagnose

        return diagnose(self.handle, self._documents(), self._retrieval(), self._models, request)

    def ask(self, request: AskRequest, cancelled: Cancelled | None = None) -> AskResult:
        from gno_core.errors import ModelUnavailableError
        from gno_core.evidence.ask import ask
        from gno_core.evidence.inference_egress import destination_zone, inference_guard

        if self._generator is None:
            raise ModelUnavailableError("No answer generator is configured for this index")
        verifier = self._verifier()
        guard = inference_guard(destination_zone((self._generator, verifier)), self._egress)
        return ask(self.compiler, self._generator, request, verifier, cancelled, guard)

    def _egress(self) -> EgressControl:
        from gno_core.egress_control.capability import EgressControl

        return EgressControl(self.handle)
