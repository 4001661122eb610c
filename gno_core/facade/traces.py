"""Facade operations of retrieval traces (``gno_core.traces``): recording beside the retrieval
tools (``trace_*`` return None, and do nothing, when tracing is off) and the receipts' reads
and mutations."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gno_core.facade.egress import EgressCalls

if TYPE_CHECKING:
    from collections.abc import Sequence

    from gno_core.contracts import GetResult
    from gno_core.contracts.trace_requests import (
        TraceDeleteRequest,
        TraceExportRequest,
        TraceLabelRequest,
        TraceListRequest,
        TracePurgeRequest,
        TraceReplayRequest,
        TraceShowRequest,
    )
    from gno_core.contracts.traces import (
        TraceDeleteResult,
        TraceExportResult,
        TraceJudgmentResult,
        TraceList,
        TracePurgeResult,
        TraceReplay,
        TraceShow,
    )
    from gno_core.egress.plan import EgressPlan
    from gno_core.traces.values import NewEvent

__all__ = ["TraceCalls"]


class TraceCalls(EgressCalls):
    """(On the egress room: an export is decided by the egress policy.)"""

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
        if not traces.enabled():
            return None
        from gno_core.traces.capability import filters_of, result_events

        wire = wire if isinstance(wire, dict) else wire.wire()
        mode = str(wire.get("meta", {}).get("mode", "bm25"))
        return traces.retrieval(tool, request.query, filters_of(request), mode, result_events(wire))

    def trace_capsule(self, tool: str, request: Any, wire: dict[str, Any]) -> str | None:
        """Record the evidence of a context capsule or an Ask answer (wire form)."""
        traces = self.tracing
        if not traces.enabled():
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
        if not traces.enabled():
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

    def trace_list(self, request: TraceListRequest) -> TraceList:
        """A page of trace summaries, newest first (no query text)."""
        from gno_core.contracts.traces import TraceList
        from gno_core.traces.views import summary_view

        heads = self.tracing.list(cursor=request.cursor, limit=request.limit + 1)
        page = heads[: request.limit]
        more = len(heads) > request.limit
        return TraceList(
            traces=[summary_view(h) for h in page],
            next_cursor=page[-1].trace_id if more else None,
        )

    def trace_show(self, request: TraceShowRequest) -> TraceShow:
        """One trace with its runs, events (at most ``limit``), judgments and exports."""
        from gno_core.traces.views import detail_view

        d = self.tracing.show(request.trace_id, limit=request.limit)
        return detail_view(d.header, d.runs, d.events, d.event_total, d.judgments, d.exports)

    def trace_label(self, request: TraceLabelRequest) -> TraceJudgmentResult:
        """Append one judgment (the same idempotency key again returns the stored one)."""
        from gno_core.contracts.traces import TraceJudgmentResult
        from gno_core.traces.views import judgment_view

        judgment, created = self.tracing.label(
            request.trace_id,
            request.label,
            request.idempotency_key,
            event_id=request.event_id,
            document=request.document,
        )
        return TraceJudgmentResult(
            trace_id=request.trace_id, judgment=judgment_view(judgment), created=created
        )

    def trace_export(
        self,
        request: TraceExportRequest,
        *,
        zone: str = "local_process",
        authenticated: bool = False,
    ) -> TraceExportResult:
        """A deterministic export of finished traces, checked against the egress policy of the
        collections they derive from (an ``export`` of ``retrieval_trace`` content to ``zone``)
        before anything is written; ``NOT_FOUND`` for a missing trace, before the policy."""
        from gno_core.traces.actions import TraceActions

        def authorize(collections: Sequence[str] | None) -> EgressPlan:
            return self.egress_authorize(
                collections=collections,
                action="export",
                zone=zone,
                content_class="retrieval_trace",
                authenticated=authenticated,
                authorized=True,
                operation="trace_export",
            )

        return TraceActions(self.tracing, lambda: self.retrieval).export(request, authorize)

    def trace_replay(self, request: TraceReplayRequest) -> TraceReplay:
        """Run the judged traces again with one mode and compare; changes no configuration."""
        from gno_core.traces.actions import TraceActions

        return TraceActions(self.tracing, lambda: self.retrieval).replay(request)

    def trace_delete(self, request: TraceDeleteRequest) -> TraceDeleteResult:
        from gno_core.contracts.traces import TraceDeleteResult

        deleted = self.tracing.delete(request.trace_id)
        return TraceDeleteResult(trace_id=request.trace_id, deleted=deleted)

    def trace_purge(self, request: TracePurgeRequest) -> TracePurgeResult:
        from gno_core.contracts.traces import TracePurgeResult
        from gno_core.errors import ValidationError

        if request.confirm is not True:
            raise ValidationError(
                "Purging deletes every retrieval trace: pass confirm: true (--yes)",
                details={"field": "confirm"},
            )
        return TracePurgeResult(deleted=self.tracing.purge())
