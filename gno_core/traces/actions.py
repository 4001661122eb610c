"""Exports and replay of finished retrieval traces.

``export``: missing traces are ``NOT_FOUND`` and open ones refused before anything else; the
egress policy of the collections the traces derive from is then decided for an ``export`` of
``retrieval_trace`` content to the caller's zone, and only an allowed export builds its bytes
and keeps its receipt. ``replay``: each judged trace whose query was kept (``replay`` mode) runs
again with one retrieval mode and is compared with what it found then, by nDCG@k and recall@k
against its judgments; the configuration is never changed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from statistics import fmean
from typing import TYPE_CHECKING, Any

from gno_core.errors import EgressDeniedError, GnoError, ValidationError
from gno_core.identity import uri_collections
from gno_core.traces.exports import (
    canonical,
    judged_relevance,
    ndcg,
    outcome,
    qrels_content,
    recall,
    receipt_content,
)
from gno_core.traces.values import NewExport

if TYPE_CHECKING:
    from gno_core.contracts.search import SearchResults
    from gno_core.contracts.trace_requests import TraceExportRequest, TraceReplayRequest
    from gno_core.contracts.traces import TraceExportResult, TraceReplay, TraceReplayItem
    from gno_core.egress.plan import EgressPlan
    from gno_core.retrieval.modes import Retrieval
    from gno_core.traces.capability import Traces
    from gno_core.traces.values import TraceHeader

__all__ = ["Authorize", "TraceActions"]

#: ``Gno.egress_authorize`` bound to the export's action and content class: takes the
#: collections (None: every configured one) and returns the plan.
Authorize = Callable[[Sequence[str] | None], "EgressPlan"]


class TraceActions:
    def __init__(self, traces: Traces, retrieval: Callable[[], Retrieval]) -> None:
        self._traces = traces
        self._retrieval = retrieval

    # -- export ---------------------------------------------------------------------------------

    def export(self, request: TraceExportRequest, authorize: Authorize) -> TraceExportResult:
        from gno_core.contracts.traces import TraceExportResult
        from gno_core.egress.wire import lineage_view
        from gno_core.traces.views import detail_view

        traces = self._traces
        traces.settle()
        store = traces.store
        ids = sorted(set(request.trace_ids))
        # missing, then open: both before the policy is asked
        headers = [traces.require(trace_id) for trace_id in ids]
        still_open = [h.trace_id for h in headers if h.status == "open"]
        if still_open:
            raise ValidationError(
                "Open traces cannot be exported: a trace closes 5 minutes after its last "
                "record (or delete it)",
                details={"open": still_open[:20]},
            )
        events = {h.trace_id: store.events(h.trace_id) for h in headers}  # read once
        uris = [e.uri for h in headers for e in events[h.trace_id]]
        scope = uri_collections(uris) or None
        plan = authorize(scope)
        if plan.mode != "complete":
            raise EgressDeniedError(
                "The egress policy refuses this export of retrieval traces "
                f"({plan.decision.reason})",
                details={
                    "reason": plan.decision.reason,
                    "omitted": [o.collection for o in plan.omitted][:64],
                },
            )
        payload: dict[str, Any]
        if request.format == "qrels":
            pairs = [(h, store.judgments(h.trace_id)) for h in headers]
            payload = qrels_content(pairs).wire()
        else:
            shows = []
            for h in headers:
                got = events[h.trace_id]
                runs = store.runs(h.trace_id)
                judgments = store.judgments(h.trace_id)
                shows.append(detail_view(h, runs, got, len(got), judgments, []))
            payload = receipt_content(shows)
        text, digest = canonical(payload)
        receipt = NewExport(request.format, tuple(ids), digest, len(text.encode()), traces.now_ns())
        stored, created = store.add_export(receipt)
        from gno_core.traces.views import export_view

        return TraceExportResult(
            export=export_view(stored),
            created=created,
            content=text,
            lineage=None if plan.lineage is None else lineage_view(plan.lineage).wire(),
        )

    # -- replay ---------------------------------------------------------------------------------

    def replay(self, request: TraceReplayRequest) -> TraceReplay:
        from gno_core.contracts.traces import TraceReplay, TraceReplayCounts

        traces = self._traces
        traces.settle()
        store = traces.store
        if request.trace_ids:
            headers = [traces.require(t) for t in dict.fromkeys(request.trace_ids)]
        else:
            headers = [h for h in self._all(store) if store.judgments(h.trace_id)]
        items = [self._replay_one(h, request) for h in headers]
        counts = {o: 0 for o in ("improved", "unchanged", "regressed", "unreplayable")}
        for item in items:
            counts[item.outcome] += 1
        done = [i for i in items if i.ndcg_before is not None and i.ndcg_after is not None]
        return TraceReplay(
            mode=request.mode,
            k=request.k,
            epsilon=request.epsilon,
            counts=TraceReplayCounts(**counts),
            mean_ndcg_before=fmean(i.ndcg_before or 0.0 for i in done) if done else None,
            mean_ndcg_after=fmean(i.ndcg_after or 0.0 for i in done) if done else None,
            traces=items,
        )

    @staticmethod
    def _all(store: Any) -> list[TraceHeader]:
        out: list[TraceHeader] = []
        before: str | None = None
        while True:
            page = store.headers(before=before, limit=500)
            out.extend(page)
            if len(page) < 500:
                return out[::-1]  # oldest first
            before = page[-1].trace_id

    def _replay_one(self, header: TraceHeader, request: TraceReplayRequest) -> TraceReplayItem:
        from gno_core.contracts.traces import TraceReplayItem

        def unreplayable(reason: str) -> TraceReplayItem:
            return TraceReplayItem(trace_id=header.trace_id, outcome="unreplayable", reason=reason)

        store = self._traces.store
        graded = {
            d: rel for d, (rel, _) in judged_relevance(store.judgments(header.trace_id)).items()
        }
        if not graded:
            return unreplayable("no judgments")
        if not any(graded.values()):
            return unreplayable("no relevant or missing_expected judgment")
        if header.query_text is None:
            return unreplayable("recorded in metadata mode: the query text was not kept")
        runs = [r for r in store.runs(header.trace_id) if r.kind in ("retrieval", "context")]
        if not runs:
            return unreplayable("no recorded retrieval")
        first = runs[0].run_id
        before = [
            (e.docid, e.uri)
            for e in sorted(
                (e for e in store.events(header.trace_id) if e.run_id == first),
                key=lambda e: e.rank or 0,
            )
        ]
        try:
            after = [(r.docid, r.uri) for r in self._run(header, request).results]
        except GnoError as exc:
            return unreplayable(f"{exc.code}: {exc.message}"[:300])
        k = request.k
        n_before, n_after = ndcg(before, graded, k), ndcg(after, graded, k)
        return TraceReplayItem(
            trace_id=header.trace_id,
            outcome=outcome(n_before, n_after, request.epsilon),
            ndcg_before=round(n_before, 6),
            ndcg_after=round(n_after, 6),
            recall_before=round(recall(before, graded, k), 6),
            recall_after=round(recall(after, graded, k), 6),
        )

    def _run(self, header: TraceHeader, request: TraceReplayRequest) -> SearchResults:
        from gno_core.contracts.requests import QueryRequest, SearchRequest

        model = QueryRequest if request.mode == "hybrid" else SearchRequest
        fields = set(model.model_fields)
        values = {k: v for k, v in header.filters.items() if k in fields and k != "limit"}
        values.update(query=header.query_text, limit=max(request.k, 10))
        if request.mode == "hybrid" and request.expand:
            values["expand"] = True
        retrieval = self._retrieval()
        if request.mode == "hybrid":
            return retrieval.query(QueryRequest.model_validate(values))
        searched = SearchRequest.model_validate(values)
        return retrieval.search(searched) if request.mode == "bm25" else retrieval.vsearch(searched)
