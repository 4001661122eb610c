"""Facade operations of the integrity room: what depends on a document
(``gno_core.integrity.impact``) and the knowledge audit (``gno_core.integrity.audit``)."""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

from gno_core.facade.base import FacadeBase

if TYPE_CHECKING:
    from collections.abc import Callable

    from gno_core.contracts.audit import AuditReport
    from gno_core.contracts.impact import ImpactResult
    from gno_core.contracts.integrity_requests import AuditRequest, ImpactRequest
    from gno_core.integrity.impact import Impact

__all__ = ["IntegrityCalls"]


class IntegrityCalls(FacadeBase):
    @cached_property
    def impacting(self) -> Impact:
        from gno_core.integrity.impact import Impact

        return Impact(self.handle, lambda: self.graphing)

    def impact(self, request: ImpactRequest) -> ImpactResult:
        """The documents that depend on one document: inbound links and typed edges, each
        with one evidence path, under explicit caps."""
        return self.impacting.impact(request)

    def audit(
        self, request: AuditRequest, cancelled: Callable[[], bool] | None = None
    ) -> AuditReport:
        """The read-only knowledge audit of links, provenance and freshness; ``cancelled``
        stops it at the next document, with a partial report (never a clean one)."""
        from gno_core.integrity.audit.run import Audit

        return Audit(self.handle, self._tree, self._frontmatter).run(request, cancelled)
