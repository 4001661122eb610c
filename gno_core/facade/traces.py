"""Facade operations of retrieval traces (``gno_core.traces``): recording beside the retrieval
tools (``trace_*`` return None, and do nothing, when tracing is off) and the receipts' reads
and mutations."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gno_core.facade.base import FacadeBase

if TYPE_CHECKING:
    from collections.abc import Sequence

    from gno_core.traces.capability import TraceDetail
    from gno_core.traces.values import NewEvent, TraceHeader, TraceJudgment

__all__ = ["TraceCalls"]


class TraceCalls(FacadeBase):
    def trace_retrieval(
        self,
        tool: str,
        query: str,
        filters: dict[str, Any],
        mode: str,
        hits: Sequence[NewEvent],
    ) -> str | None:
        """Record a finished retrieval in a new trace; its id, or None when tracing is off."""
        return self.tracing.retrieval(tool, query, filters, mode, hits)

    def trace_opened(
        self, trace_id: str, docid: str, uri: str, start_line: int, end_line: int
    ) -> str | None:
        """Record the exact span a ``get`` returned in an open trace (None: not recorded)."""
        return self.tracing.opened(trace_id, docid, uri, start_line, end_line)

    def trace_list(self, *, cursor: str | None = None, limit: int = 50) -> list[TraceHeader]:
        return self.tracing.list(cursor=cursor, limit=limit)

    def trace_show(self, trace_id: str, *, limit: int = 1000) -> TraceDetail:
        return self.tracing.show(trace_id, limit=limit)

    def trace_label(
        self,
        trace_id: str,
        label: str,
        idempotency_key: str,
        *,
        event_id: int | None = None,
        document: str | None = None,
    ) -> tuple[TraceJudgment, bool]:
        return self.tracing.label(
            trace_id, label, idempotency_key, event_id=event_id, document=document
        )

    def trace_delete(self, trace_id: str) -> bool:
        return self.tracing.delete(trace_id)

    def trace_purge(self) -> int:
        return self.tracing.purge()
