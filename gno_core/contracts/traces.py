"""The ``retrieval-trace-*`` contracts: a trace's summary (never its query text) and detail, a
page of summaries, a judgment receipt, delete and purge receipts, exports and replay. Built by
``gno_core.traces.views`` from the store's values."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from gno_core.contracts.base import WireModel

TraceStatus = Literal["open", "completed", "partial", "failed", "cancelled"]
TRACE_ID = r"^trc_[0-9a-f]{32}$"


class TraceQueryShape(WireModel):
    chars: int = Field(ge=0)
    terms: int = Field(ge=0)


class TraceSummary(WireModel):
    """``retrieval-trace-summary@1.0``: one trace without its query or goal text."""

    trace_id: str = Field(pattern=TRACE_ID)
    tool: str
    status: TraceStatus
    redaction_mode: Literal["metadata", "replay"]
    created_at: str
    expires_at: str
    query_digest: str
    query_shape: TraceQueryShape
    records: int = Field(ge=0)
    size_bytes: int = Field(ge=0)
    truncated: bool


class TraceList(WireModel):
    """``retrieval-trace-list@1.0``: newest first; ``nextCursor`` (a trace id) pages on."""

    traces: list[TraceSummary]
    next_cursor: str | None = None


class TraceHeaderView(TraceSummary):
    """The header in a detail receipt: the summary, the filters and fingerprints, and the query
    text when the trace was recorded in ``replay`` mode."""

    filters: dict[str, Any]
    fingerprints: dict[str, str]
    query: str | None = None


class TraceRunView(WireModel):
    run_id: int
    kind: Literal["retrieval", "context", "get"]
    mode: str
    status: str
    created_at: str
    detail: dict[str, Any]


class TraceEventView(WireModel):
    event_id: int
    run_id: int
    kind: Literal["result", "opened"]
    docid: str
    uri: str
    rank: int | None = None
    score: float | None = None
    start_line: int | None = None
    end_line: int | None = None


class TraceJudgmentView(WireModel):
    judgment_id: int
    label: Literal["relevant", "irrelevant", "missing_expected"]
    idempotency_key: str
    event_id: int | None = None
    document: str | None = None
    created_at: str


class TraceExportView(WireModel):
    export_id: int
    format: Literal["agentic-receipt", "qrels"]
    trace_ids: list[str]
    digest: str
    size_bytes: int
    created_at: str


class TraceTotals(WireModel):
    runs: int
    events: int
    judgments: int
    exports: int


class TraceTruncation(WireModel):
    events: bool
    records: bool  # the store dropped records at the per-trace bound


class TraceShow(WireModel):
    """``retrieval-trace-show@1.0``: one bounded detail receipt with exact totals."""

    trace: TraceHeaderView
    runs: list[TraceRunView]
    events: list[TraceEventView]
    judgments: list[TraceJudgmentView]
    exports: list[TraceExportView]
    totals: TraceTotals
    truncated: TraceTruncation


class TraceJudgmentResult(WireModel):
    """``retrieval-trace-judgment@1.0``: the stored judgment; ``created`` false when the
    idempotency key had already recorded it."""

    trace_id: str
    judgment: TraceJudgmentView
    created: bool


class TraceDeleteResult(WireModel):
    """``retrieval-trace-delete@1.0``."""

    trace_id: str
    deleted: bool


class TracePurgeResult(WireModel):
    """``retrieval-trace-purge@1.0``: how many traces (and everything they owned) went."""

    deleted: int


class TraceQrel(WireModel):
    """One judged document of a trace: ``relevance`` 1 (relevant, or expected and missing) or
    0 (explicitly irrelevant). A trace's status never adds a judgment."""

    document: str
    relevance: Literal[0, 1]
    label: Literal["relevant", "irrelevant", "missing_expected"]


class TraceQrelsTrace(WireModel):
    trace_id: str
    status: TraceStatus
    query_digest: str
    qrels: list[TraceQrel]


class TraceQrels(WireModel):
    """``retrieval-trace-qrels@1.0``: the explicit judgments of finished traces, each trace with
    its stored terminal status, and the same judgments as TREC qrels lines
    (``<traceId> 0 <document> <relevance>``)."""

    schema_version: Literal["1.0"] = "1.0"
    format: Literal["qrels"] = "qrels"
    traces: list[TraceQrelsTrace]
    trec: list[str]


class TraceExportResult(WireModel):
    """``retrieval-trace-export@1.0``: the export receipt (``created`` false when the same
    deterministic export was made before), the exported ``content`` (canonical JSON of an
    ``agentic-receipt`` or of ``retrieval-trace-qrels@1.0``) and the egress lineage of the
    collections it derives from."""

    export: TraceExportView
    created: bool
    content: str
    lineage: dict[str, Any] | None = None


class TraceReplayItem(WireModel):
    trace_id: str
    outcome: Literal["improved", "unchanged", "regressed", "unreplayable"]
    reason: str | None = None
    ndcg_before: float | None = None
    ndcg_after: float | None = None
    recall_before: float | None = None
    recall_after: float | None = None


class TraceReplayCounts(WireModel):
    improved: int
    unchanged: int
    regressed: int
    unreplayable: int


class TraceReplay(WireModel):
    """``retrieval-trace-replay@1.0``: the judged traces run again with ``mode`` (nothing in the
    configuration changes), each improved, unchanged, regressed or unreplayable by nDCG@k
    (``epsilon`` apart), with recall@k beside it."""

    mode: Literal["bm25", "vector", "hybrid"]
    k: int
    epsilon: float
    counts: TraceReplayCounts
    mean_ndcg_before: float | None = None
    mean_ndcg_after: float | None = None
    traces: list[TraceReplayItem]
