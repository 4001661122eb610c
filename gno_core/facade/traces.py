"""Facade operations of retrieval traces (``gno_core.traces``): recording beside the retrieval
tools (``trace_*`` return None, and do nothing, when tracing is off) and the receipts' reads
and mutations."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gno_core.facade.base import FacadeBase

if TYPE_CHECKING:
    from collections.abc import Sequence

    from gno_core.contracts import GetResult
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

    def trace_results(self, tool: str, request: Any, wire: Any) -> str | None:
        """Record a ``search-results`` answer (wire form) of ``request``; the trace id, or
        None (and nothing done) when tracing is off."""
        traces = self.tracing
        if traces.settings() is None:
            return None
        from gno_core.traces.capability import filters_of, result_events

        wire = wire if isinstance(wire, dict) else wire.wire()
        mode = str(wire.get("meta", {}).get("mode", "bm25"))
        return traces.retrieval(tool, request.query, filters_of(request), mode, result_events(wire))

    def trace_capsule(self, tool: str, request: Any, wire: dict[str, Any]) -> str | None:
        """Record the evidence of a context capsule or an Ask answer (wire form)."""
        traces = self.tracing
        if traces.settings() is None:
            return None
        from gno_core.traces.capability import capsule_events, filters_of

        text = getattr(request, "goal", None) or getattr(request, "query", "")
        mode = "ask" if tool.endswith("ask") else "context"
        return traces.retrieval(
            tool, str(text), filters_of(request), mode, capsule_events(wire), kind="context"
        )

    def trace_hits(self, tool: str, request: Any, mode: str, hits: Sequence[Any]) -> str | None:
        """Record plain ranked hits (``RankedHit``) of a plain request (what the CLI prints)."""
        traces = self.tracing
        if traces.settings() is None:
            return None
        from gno_core.traces.capability import filters_of, hit_events

        return traces.retrieval(tool, request.query, filters_of(request), mode, hit_events(hits))

    def trace_get(self, trace_id: str | None, ref: str, got: GetResult) -> str | None:
        """Record the exact lines a ``get`` returned: in the open trace ``trace_id`` when there
        is one, else in a trace of its own; None when tracing is off or nothing was returned."""
        if not got.content:
            return None
        lines = got.returned_lines
        start, end = (lines.start, lines.end) if lines is not None else (1, got.total_lines)
        return self.tracing.get(trace_id, ref, got.docid, got.uri, start, end)

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
