"""The store's values as ``retrieval-trace-*`` contracts (``gno_core.contracts.traces``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gno_core.contracts.traces import (
    TraceEventView,
    TraceExportView,
    TraceHeaderView,
    TraceJudgmentView,
    TraceQueryShape,
    TraceRunView,
    TraceShow,
    TraceSummary,
    TraceTotals,
    TraceTruncation,
)
from gno_core.text.dates import iso_from_ns

if TYPE_CHECKING:
    from gno_core.traces.values import (
        TraceEvent,
        TraceExport,
        TraceHeader,
        TraceJudgment,
        TraceRun,
    )

__all__ = [
    "detail_view",
    "export_view",
    "judgment_view",
    "render_list",
    "render_show",
    "summary_view",
]


def summary_view(h: TraceHeader) -> TraceSummary:
    return TraceSummary(
        trace_id=h.trace_id,
        tool=h.tool,
        status=h.status,
        redaction_mode=h.redaction_mode,
        created_at=iso_from_ns(h.created_ns),
        expires_at=iso_from_ns(h.expires_ns),
        query_digest=h.query_digest,
        query_shape=TraceQueryShape(**h.query_shape),
        records=h.records,
        size_bytes=h.size_bytes,
        truncated=h.truncated,
    )


def judgment_view(j: TraceJudgment) -> TraceJudgmentView:
    return TraceJudgmentView(
        judgment_id=j.judgment_id,
        label=j.label,
        idempotency_key=j.idempotency_key,
        event_id=j.event_id,
        document=j.document,
        created_at=iso_from_ns(j.created_ns),
    )


def _run(r: TraceRun) -> TraceRunView:
    return TraceRunView(
        run_id=r.run_id,
        kind=r.kind,
        mode=r.mode,
        status=r.status,
        created_at=iso_from_ns(r.created_ns),
        detail=r.detail,
    )


def _event(e: TraceEvent) -> TraceEventView:
    return TraceEventView(
        event_id=e.event_id,
        run_id=e.run_id,
        kind=e.kind,
        docid=e.docid,
        uri=e.uri,
        rank=e.rank,
        score=e.score,
        start_line=e.start_line,
        end_line=e.end_line,
    )


def export_view(x: TraceExport) -> TraceExportView:
    return TraceExportView(
        export_id=x.export_id,
        format=x.format,
        trace_ids=list(x.trace_ids),
        digest=x.digest,
        size_bytes=x.size_bytes,
        created_at=iso_from_ns(x.created_ns),
    )


def detail_view(
    header: TraceHeader,
    runs: list[TraceRun],
    events: list[TraceEvent],
    event_total: int,
    judgments: list[TraceJudgment],
    exports: list[TraceExport],
) -> TraceShow:
    summary = summary_view(header).model_dump()
    return TraceShow(
        trace=TraceHeaderView(
            **summary,
            filters=header.filters,
            fingerprints=header.fingerprints,
            query=header.query_text,
        ),
        runs=[_run(r) for r in runs],
        events=[_event(e) for e in events],
        judgments=[judgment_view(j) for j in judgments],
        exports=[export_view(x) for x in exports],
        totals=TraceTotals(
            runs=len(runs), events=event_total, judgments=len(judgments), exports=len(exports)
        ),
        truncated=TraceTruncation(events=len(events) < event_total, records=header.truncated),
    )


def render_list(res: dict[str, Any]) -> str:
    traces = res["traces"]
    lines = [f"{len(traces)} {'trace' if len(traces) == 1 else 'traces'}"]
    lines += [
        f" {t['traceId']} {t['status']} {t['tool']} {t['createdAt']} "
        f"({t['queryShape']['terms']} terms, {t['records']} records)"
        for t in traces
    ]
    if res.get("nextCursor"):
        lines.append(f"next cursor: {res['nextCursor']}")
    return "\n".join(lines)


def render_show(res: TraceShow) -> str:
    t = res.trace
    lines = [f"{t.trace_id}: {t.status}, {t.tool}, {t.redaction_mode} mode, {t.created_at}"]
    if t.query is not None:
        lines.append(f"query: {t.query}")
    for e in res.events:
        span = f":{e.start_line}-{e.end_line}" if e.start_line is not None else ""
        rank = f"#{e.rank} " if e.rank is not None else ""
        lines.append(f" event {e.event_id} {e.kind} {rank}{e.docid} {e.uri}{span}")
    for j in res.judgments:
        target = f"event {j.event_id}" if j.event_id is not None else str(j.document)
        lines.append(f" judged {j.label}: {target}")
    totals = res.totals
    lines.append(
        f"totals: {totals.runs} runs, {totals.events} events, {totals.judgments} judgments, "
        f"{totals.exports} exports" + (" (events truncated)" if res.truncated.events else "")
    )
    return "\n".join(lines)


def render_replay(res: Any) -> str:
    """A ``retrieval-trace-replay@1.0`` answer as lines: one per trace, then the counts."""
    lines = []
    for t in res.traces:
        if t.outcome == "unreplayable":
            lines.append(f"{t.trace_id}  unreplayable  ({t.reason})")
        else:
            lines.append(
                f"{t.trace_id}  {t.outcome:<10} nDCG@{res.k} {t.ndcg_before:.3f} -> "
                f"{t.ndcg_after:.3f}  recall@{res.k} {t.recall_before:.3f} -> {t.recall_after:.3f}"
            )
    c = res.counts
    lines.append(
        f"mode {res.mode}: {c.improved} improved, {c.unchanged} unchanged, {c.regressed} "
        f"regressed, {c.unreplayable} unreplayable"
    )
    if res.mean_ndcg_before is not None:
        lines.append(f"mean nDCG@{res.k} {res.mean_ndcg_before:.4f} -> {res.mean_ndcg_after:.4f}")
    return "\n".join(lines)
