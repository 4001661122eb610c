"""Facade operations of the Knowledge Delta room: the change journal and a document's
structural diff (``gno_core.delta``)."""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

from gno_core.facade.base import FacadeBase

if TYPE_CHECKING:
    from gno_core.contracts.base import Prebuilt
    from gno_core.contracts.delta import ChangesResult, DocumentDiff
    from gno_core.contracts.delta_requests import ChangesRequest, DiffRequest
    from gno_core.delta.capability import Delta

__all__ = ["DeltaCalls"]


class DeltaCalls(FacadeBase):
    @cached_property
    def delta(self) -> Delta:
        from gno_core.delta.capability import Delta

        return Delta(self.handle, lambda: self.documents)

    def changes(self, request: ChangesRequest) -> ChangesResult:
        """The change journal after a time or cursor, oldest first (metadata only)."""
        return self.delta.changes(request)

    def changes_wire(self, request: ChangesRequest) -> Prebuilt[ChangesResult]:
        """``changes`` in its wire form, built without a model per entry (the transports')."""
        return self.delta.changes_wire(request)

    def diff(self, request: DiffRequest) -> DocumentDiff:
        """One document's structural diff for a change (default: its latest)."""
        return self.delta.diff(request)
