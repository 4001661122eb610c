"""Facade operations of the memory room: recall and remember (``gno_core.memory``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Unpack

from gno_core.facade.base import FacadeBase

if TYPE_CHECKING:
    from gno_core.contracts.memory import RecallResult, RememberResult
    from gno_core.contracts.memory_requests import RecallRequest, RememberRequest
    from gno_core.facts import MemoryIdentity
    from gno_core.ports.lease import LeaseOptions

__all__ = ["MemoryCalls"]


class MemoryCalls(FacadeBase):
    def recall(self, request: RecallRequest, identity: MemoryIdentity) -> RecallResult:
        """Current facts of a memory collection within a budget, with a fencing receipt."""
        return self.memory.recall(request, identity)

    def remember(
        self, request: RememberRequest, identity: MemoryIdentity, **options: Unpack[LeaseOptions]
    ) -> RememberResult:
        """Store one fact (or supersede one); candidates without a decision, nothing deleted
        (options: ``MemoryWriter.remember``)."""
        return self.memory.remember(request, identity, **options)
