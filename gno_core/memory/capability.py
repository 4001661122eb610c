"""``Memory``: the memory capability of one index: recall, and remember through its writer
(built on first use, as the capability itself)."""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Unpack

from gno_core.contracts.memory import RecallResult
from gno_core.contracts.memory_requests import RecallRequest
from gno_core.facts import MemoryIdentity
from gno_core.index_handle import IndexHandle
from gno_core.memory.recall import recall
from gno_core.ports import FrontmatterParser, NoteFiles, SemanticModels
from gno_core.text.dates import iso_from_ns

if TYPE_CHECKING:
    from gno_core.contracts.egress import EgressLineageView
    from gno_core.contracts.memory import RememberResult
    from gno_core.contracts.memory_requests import RememberRequest
    from gno_core.memory.remember import MemoryWriter
    from gno_core.ports.lease import LeaseOptions

__all__ = ["Memory"]


class Memory:
    def __init__(
        self,
        handle: IndexHandle,
        models: SemanticModels,
        notes: NoteFiles,
        parser: FrontmatterParser,
    ) -> None:
        self.handle = handle
        self._models = models
        self._notes = notes
        self._parser = parser

    @cached_property
    def writer(self) -> MemoryWriter:
        from gno_core.memory.remember import MemoryWriter

        return MemoryWriter(self.handle, self._notes, self._parser, lambda: self._models.embedder)

    def remember(
        self, request: RememberRequest, identity: MemoryIdentity, **options: Unpack[LeaseOptions]
    ) -> RememberResult:
        """Store one fact (or supersede one) through the writer (``gno_core.memory.remember``)."""
        return self.writer.remember(request, identity, **options)

    def recall(self, request: RecallRequest, identity: MemoryIdentity) -> RecallResult:
        """The current facts of a memory collection that answer ``request.query``, in the
        caller's scopes and budget, with the receipt (see ``gno_core.memory.recall``)."""
        handle = self.handle
        return recall(
            handle.index,
            handle.load_config(),
            self._models.embedder,
            request,
            identity,
            now=iso_from_ns(handle.clock.now_ns()),
            uri=handle.uri,
            lineage=lambda collection: egress_lineage(handle, [collection]),
        )


def egress_lineage(handle: IndexHandle, collections: list[str]) -> EgressLineageView:
    """The egress lineage of content drawn from ``collections`` (their current policies)."""
    from gno_core.egress.lineage import lineage_of
    from gno_core.egress.wire import lineage_view
    from gno_core.egress_control.capability import EgressControl

    return lineage_view(lineage_of(EgressControl(handle).sources(collections)))
